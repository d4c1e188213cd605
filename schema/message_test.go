package schema

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/testenv"
)

func TestParseMessageParts(t *testing.T) {
	for _, c := range []struct {
		msg     string
		want    MessageFormat
		seconds bool
		text    string
	}{
		{"recovery loop exceeded its deadline", MessageFormat{{Literal: "recovery loop exceeded its deadline"}}, false, "recovery loop exceeded its deadline"},
		{"Test exceeded {seconds:g} seconds", MessageFormat{{Literal: "Test exceeded "}, {Field: true, Spec: "g"}, {Literal: " seconds"}}, true, "Test exceeded  seconds"},
		{"{seconds}s {{of}} {seconds:.1f}", MessageFormat{{Field: true}, {Literal: "s {of} "}, {Field: true, Spec: ".1f"}}, true, "s {of} "},
		{"a {{literal}} brace", MessageFormat{{Literal: "a {literal} brace"}}, false, "a {literal} brace"},
	} {
		got, p := ParseMessage(c.msg)
		if p != nil {
			t.Errorf("ParseMessage(%q): %v", c.msg, p)
			continue
		}
		if len(got) != len(c.want) {
			t.Errorf("ParseMessage(%q) = %+v, want %+v", c.msg, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("ParseMessage(%q)[%d] = %+v, want %+v", c.msg, i, got[i], c.want[i])
			}
		}
		if got.HasSeconds() != c.seconds || got.Text() != c.text {
			t.Errorf("ParseMessage(%q): HasSeconds %v, Text %q; want %v, %q", c.msg, got.HasSeconds(), got.Text(), c.seconds, c.text)
		}
	}
}

// messageCorpus is every message the oracle test asks Python about: the
// format-spec mini-language's parts in many combinations, and the brace
// forms of a format string.
func messageCorpus() []string {
	msgs := []string{
		"plain", "a {{b}} c", "{{", "}}", "{", "}", "a } b", "a { b", "{{seconds}}", "{{{seconds}}}",
		"x {seconds} y", "x {seconds:} y", "x {} y", "x {0} y", "x {1:g} y", "x {seconds!r} y", "x {seconds!s:g} y",
		"x {seconds!} y", "x {seconds.real} y", "x {seconds[0]} y", "x { seconds } y", "x {Seconds} y",
		"x {seconds:{w}} y", "x {seconds:{}} y", "x {seconds:g}} y", "x {{seconds:g} y", "x {seconds:g y",
		"x {seconds:.} y", "x {seconds:.f} y", "x {seconds:,_g} y", "x {seconds:_,g} y", "x {seconds:gg} y",
		"x {seconds:é>6} y", "x {seconds::>6} y", "x {seconds:::>6} y", "x {seconds:>>6} y", "x {seconds:0=+6.1f} y",
		"x {seconds:=} y", "x {seconds:#} y", "x {seconds:#.0f} y", "x {seconds:-} y", "x {seconds: } y",
		"{seconds:g}s and {seconds}s", "x {seconds:100} y", "x {seconds:.100f} y",
	}
	aligns := []string{"", "<", ">", "^", "=", "*<", "0=", "x^"}
	signs := []string{"", "+", "-", " "}
	alts := []string{"", "#"}
	zeros := []string{"", "0"}
	widths := []string{"", "1", "8"}
	groups := []string{"", ",", "_"}
	precs := []string{"", ".0", ".2"}
	types := []string{"", "b", "c", "d", "e", "E", "f", "F", "g", "G", "n", "o", "s", "x", "X", "%", "z", "a", "r"}
	// Every combination is 8*4*2*2*3*3*3*19 = 65,664 formats; every third
	// keeps the parts' pairings varied at a third of Python's time.
	i := 0
	for _, a := range aligns {
		for _, s := range signs {
			for _, h := range alts {
				for _, z := range zeros {
					for _, w := range widths {
						for _, g := range groups {
							for _, p := range precs {
								for _, ty := range types {
									i++
									if i%3 == 0 {
										msgs = append(msgs, "took {seconds:"+a+s+h+z+w+g+p+ty+"} s")
									}
								}
							}
						}
					}
				}
			}
		}
	}
	for _, z := range []string{"z", "+z", " z.1f", "zg", "0z5"} {
		msgs = append(msgs, "took {seconds:"+z+"} s")
	}
	return msgs
}

// TestParseMessageAgreesWithPython holds the loader to Python itself: a
// message the loader accepts formats without error for an int and a float
// of seconds, and one it refuses fails for one of them, except where the
// loader is stricter than Python on purpose: a conversion or a field other
// than {seconds} (its attributes, say), which the spec's format allows no
// more than the seconds need; z, which Python before 3.11 lacks; a width
// or precision past maxFormatDigits; a message of nothing but the seconds.
func TestParseMessageAgreesWithPython(t *testing.T) {
	python := testenv.Python(t)
	msgs := messageCorpus()
	in, err := json.Marshal(msgs)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, "-c", `
import json, sys
out = []
for msg in json.load(sys.stdin):
    ok = True
    for seconds in (5, 2.5):
        try:
            msg.format(seconds=seconds)
        except (ValueError, KeyError, IndexError, AttributeError, TypeError):
            ok = False
    out.append(ok)
json.dump(out, sys.stdout)
`)
	cmd.Stdin = strings.NewReader(string(in))
	raw, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v", err)
	}
	var formats []bool
	if err := json.Unmarshal(raw, &formats); err != nil || len(formats) != len(msgs) {
		t.Fatalf("python's answer %q: %v", raw, err)
	}
	accepted := 0
	for i, msg := range msgs {
		f, p := ParseMessage(msg)
		switch {
		case p == nil && !formats[i]:
			t.Errorf("ParseMessage accepts %q, which Python cannot format for an int or a float", msg)
		case p != nil && formats[i] && !stricterThanPython(msg, f, p):
			t.Errorf("ParseMessage refuses %q (%v), which Python formats for an int and a float", msg, p)
		case p == nil:
			accepted++
		}
	}
	if accepted < 1000 {
		t.Errorf("only %d of %d messages accepted: the corpus tests too little that formats", accepted, len(msgs))
	}
}

func stricterThanPython(msg string, _ MessageFormat, p *MessageProblem) bool {
	return strings.Contains(p.Msg, "converts the field") || strings.Contains(p.Msg, "has the field") ||
		strings.Contains(p.Msg, "negative zero") || strings.Contains(p.Msg, "may take") ||
		strings.Contains(p.Msg, "nothing but the seconds")
}
