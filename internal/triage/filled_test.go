package triage

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/testenv"
)

// TestMatchFilledMessage reads failures of a deadline.message that places
// the seconds itself: the failure is the message filled in, as it is, or
// followed by what the runtime adds (a token, a note).
func TestMatchFilledMessage(t *testing.T) {
	for _, c := range []struct {
		message, line string
		seconds       float64
	}{
		{"Test exceeded {seconds:g} seconds", "E   AssertionError: Test exceeded 10 seconds", 10},
		{"Test exceeded {seconds:g} seconds", "FAILED tests/a.py::test_b - AssertionError: Test exceeded 13 seconds", 13},
		{"Test timed out after {seconds}s", "E   TimeoutError: Test timed out after 5s", 5},
		{"Test timed out after {seconds}s", "E   TimeoutError: Test timed out after 0.25s [fixturegen:import-interrupted module=a.b]", 0.25},
		{"Test timed out after {seconds}s", "Test timed out after 2.5s; it passed outside the test function, in the setup", 2.5},
		{"{seconds:>6.1f} s {{budget}} spent", "E   AssertionError:    5.0 s {budget} spent", 5},
		{"took {seconds:*^9,.2%} of a second", "Failed: took *500.00%* of a second", 5},
		{"took {seconds:_e} s", "E   AssertionError: took 1.000000e+04 s", 10000},
	} {
		m := NewMatcher(c.message)
		clues := m.Match([]byte(c.line), nil)
		var got *Clue
		for i := range clues {
			if clues[i].Kind == DeadlineFailure {
				got = &clues[i]
			}
		}
		if got == nil || got.Seconds != c.seconds {
			t.Errorf("%q under %q: got %+v, want a deadline failure of %v s", c.line, c.message, clues, c.seconds)
		}
	}
	m := NewMatcher("Test exceeded {seconds:g} seconds")
	for _, line := range []string{
		"E   AssertionError: Test exceeded the budget",
		"E   AssertionError: Test exceeded seconds",
		"E   AssertionError: assert 3 == 4",
	} {
		if clues := m.Match([]byte(line), nil); len(clues) != 0 {
			t.Errorf("%q: want no clue, got %+v", line, clues)
		}
	}
	// Without the field, the message is the failure's start, its literal
	// braces undone, and the runtime's suffix gives the seconds.
	m = NewMatcher("loop {{exceeded}} its deadline")
	clues := m.Match([]byte("E   AssertionError: loop {exceeded} its deadline (3 s, real time)"), nil)
	if len(clues) != 1 || clues[0].Kind != DeadlineFailure || clues[0].Seconds != 3 {
		t.Errorf("a message without the field: got %+v", clues)
	}
}

// TestMatchFilledMessageAgreesWithPython has Python fill messages, every
// number format the loader accepts in a sample, with whole and fractional
// seconds, and reads each failure back with the seconds Python put in.
func TestMatchFilledMessageAgreesWithPython(t *testing.T) {
	python := testenv.Python(t)
	specs := []string{"", "g", "G", ".1f", ".3e", "E", "n", "%", ".0%", ">8", "*<8g", "0=+9.2f", "+", " ", "#g", "#.0f",
		",", "_", ",.2f", "_g", "^12", "010", "-", "<", "=8"}
	seconds := []any{1, 5, 13, 86400, 0.25, 2.5, 0.001, 1234.5}
	type sample struct {
		Message string  `json:"message"`
		Seconds any     `json:"seconds"`
		Value   float64 `json:"-"`
	}
	var samples []sample
	for _, spec := range specs {
		field := "{seconds}"
		if spec != "" {
			field = "{seconds:" + spec + "}"
		}
		for _, s := range seconds {
			v, _ := s.(float64)
			if i, ok := s.(int); ok {
				v = float64(i)
			}
			samples = append(samples, sample{"Test exceeded " + field + " seconds", s, v})
		}
	}
	in, err := json.Marshal(samples)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, "-c", `
import json, sys
json.dump([s["message"].format(seconds=s["seconds"]) for s in json.load(sys.stdin)], sys.stdout)
`)
	cmd.Stdin = strings.NewReader(string(in))
	raw, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v", err)
	}
	var filled []string
	if err := json.Unmarshal(raw, &filled); err != nil || len(filled) != len(samples) {
		t.Fatalf("python's answer %q: %v", raw, err)
	}
	for i, s := range samples {
		line := fmt.Sprintf("E   AssertionError: %s", filled[i])
		clues := NewMatcher(s.Message).Match([]byte(line), nil)
		if len(clues) != 1 || clues[0].Kind != DeadlineFailure {
			t.Errorf("%q (from %q): got %+v, want one deadline failure", line, s.Message, clues)
			continue
		}
		// The format may round, to whole seconds at worst (".0f"): the
		// seconds read back are those the text says.
		if got := clues[0].Seconds; got < s.Value*0.99-0.5 || got > s.Value*1.01+0.5 {
			t.Errorf("%q (from %q): read %v s, Python filled in %v", line, s.Message, got, s.Value)
		}
	}
}
