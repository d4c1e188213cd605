package discover

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/fixturegen/fixturegen/schema"
)

// The spec's message, written so that the generated failure says exactly
// what the hand-written one said: where the hand-written message states
// the seconds armed, the spec's holds a Python format field, {seconds},
// with the format spec that gives the same text, and the failure is
// message.format(seconds=S), S the seconds armed as an int when they are
// whole, else a float.

// Sample is one message the handler gave when the timer was armed for
// Seconds.
type Sample struct {
	Seconds float64
	Text    string
}

// formatSpecs are the format specs tried for a field, simplest first.
var formatSpecs = []string{"", ":g", ":.1f", ":.2f", ":.3f", ":.0f"}

// SecondsMessage returns the spec's message for the samples, which a
// handler gave for one or more seconds: the first sample's text, its
// braces doubled, with a {seconds} field where it states the seconds, as
// long as the field gives every sample's text exactly. A single sample (or
// samples for one number of seconds) proves nothing about a number that
// equals the seconds, so there a field only stands for a number followed
// by a unit of seconds or ending the text ("exceeded 10 seconds", "after
// 5.0s"). changes reports whether the texts differ between the samples
// in a way no field explains: the message then states the seconds in some
// other way, and no spec message says it.
func SecondsMessage(samples []Sample) (msg string, changes bool) {
	if len(samples) == 0 {
		return "", false
	}
	first := samples[0]
	varied := false
	for _, s := range samples[1:] {
		varied = varied || s.Seconds != first.Seconds
	}
	for _, spec := range formatSpecs {
		shown := formatSeconds(first.Seconds, spec)
		if shown == "" {
			continue
		}
		at := numberAt(first.Text, shown, !varied)
		// Every occurrence at once, then each alone.
		tries := [][]int{at}
		if len(at) > 1 {
			for _, i := range at {
				tries = append(tries, []int{i})
			}
		}
		for _, places := range tries {
			if len(places) == 0 {
				continue
			}
			template := placeField(first.Text, shown, places, spec)
			if gives(template, samples) {
				return template, false
			}
		}
	}
	fixed := escapeBraces(first.Text)
	for _, s := range samples[1:] {
		if s.Text != first.Text {
			return fixed, true
		}
	}
	return fixed, false
}

// gives reports whether the template formats to each sample's text.
func gives(template string, samples []Sample) bool {
	for _, s := range samples {
		if got, ok := FormatMessage(template, s.Seconds); !ok || got != s.Text {
			return false
		}
	}
	return true
}

// numberAt returns where shown stands in text as a number of its own:
// not part of a longer number or word. With unit, only where a unit of
// seconds follows it, or nothing but punctuation does.
func numberAt(text, shown string, unit bool) []int {
	var out []int
	for from := 0; ; {
		i := strings.Index(text[from:], shown)
		if i < 0 {
			return out
		}
		i += from
		end := i + len(shown)
		from = i + 1
		if i > 0 && (isWordByte(text[i-1]) || text[i-1] == '.') {
			continue
		}
		if end < len(text) && (isDigit(text[end]) || text[end] == '.' && end+1 < len(text) && isDigit(text[end+1])) {
			continue
		}
		if unit && !secondsUnit.MatchString(text[end:]) {
			continue
		}
		out = append(out, i)
	}
}

// secondsUnit matches what follows a number that states seconds.
var secondsUnit = regexp.MustCompile(`^(\s*(s|sec|secs|second|seconds)\b|[\s.,;:!)\]]*$)`)

func isDigit(b byte) bool { return b >= '0' && b <= '9' }
func isWordByte(b byte) bool {
	return isDigit(b) || b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// placeField returns text with a {seconds<spec>} field at each of places
// (where shown starts) and every other brace doubled.
func placeField(text, shown string, places []int, spec string) string {
	var b strings.Builder
	prev := 0
	for _, i := range places {
		b.WriteString(escapeBraces(text[prev:i]))
		b.WriteString("{seconds" + spec + "}")
		prev = i + len(shown)
	}
	b.WriteString(escapeBraces(text[prev:]))
	return b.String()
}

func escapeBraces(s string) string {
	return strings.NewReplacer("{", "{{", "}", "}}").Replace(s)
}

// FormatMessage returns what Python's message.format(seconds=S) gives,
// S as the generated deadline passes it (an int when whole, else a float),
// for a message whose fields use one of formatSpecs; it reports false for
// any other.
func FormatMessage(message string, seconds float64) (string, bool) {
	parts, problem := schema.ParseMessage(message)
	if problem != nil {
		return "", false
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Field {
			spec := ""
			if p.Spec != "" {
				spec = ":" + p.Spec
			}
			shown := formatSeconds(seconds, spec)
			if shown == "" {
				return "", false
			}
			b.WriteString(shown)
		}
		b.WriteString(p.Literal)
	}
	return b.String(), true
}

// formatSeconds formats seconds as Python's format(S, spec[1:]) does, S
// an int when seconds are whole, else a float; "" for a spec it does not
// know.
func formatSeconds(seconds float64, spec string) string {
	whole := seconds == math.Trunc(seconds) && math.Abs(seconds) < 1e18
	switch {
	case spec == "" && whole:
		return strconv.FormatInt(int64(seconds), 10)
	case spec == "":
		return pythonRepr(seconds)
	case spec == ":g":
		s := strconv.FormatFloat(seconds, 'g', 6, 64)
		return pythonExponent(s)
	case strings.HasPrefix(spec, ":.") && strings.HasSuffix(spec, "f"):
		n, err := strconv.Atoi(spec[2 : len(spec)-1])
		if err != nil || n < 0 || n > 20 {
			return ""
		}
		return strconv.FormatFloat(seconds, 'f', n, 64)
	}
	return ""
}

// pythonRepr is Python's repr of a float: the shortest text that reads
// back as it, in fixed notation from 1e-4 up to 1e16.
func pythonRepr(f float64) string {
	if a := math.Abs(f); a != 0 && (a < 1e-4 || a >= 1e16) {
		return pythonExponent(strconv.FormatFloat(f, 'e', -1, 64))
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsAny(s, ".") {
		s += ".0"
	}
	return s
}

// pythonExponent writes an exponent as Python does: at least two digits.
func pythonExponent(s string) string {
	i := strings.IndexAny(s, "e")
	if i < 0 || i+2 >= len(s) {
		return s
	}
	if exp := s[i+2:]; len(exp) == 1 {
		return s[:i+2] + "0" + exp
	}
	return s
}
