package pyscan

import (
	"strings"
	"testing"
)

// The code of a formatted string's replacement field is code, as Scan
// reads it, and the rest of the string is string: a prefilter that drops
// a word found only in strings must keep a call in a field.
func TestPlacesFieldsAreCode(t *testing.T) {
	tests := []struct {
		src, word string
		want      Place
	}{
		{`print(f"{signal.alarm(3)}")`, "signal.alarm", InCode},
		{`print(f"signal.alarm {x}")`, "signal.alarm", InString},
		{"x = f'''\n{\n    signal.setitimer(signal.ITIMER_REAL, 2)\n}'''\n", "signal.setitimer", InCode},
		{`x = f"{x!r:>{signal.alarm(1)}}"`, "signal.alarm", InCode},
		{`x = f"{x:signal.alarm}"`, "signal.alarm", InString},
		{`x = rf"{f'{signal.alarm(1)}'}"`, "signal.alarm", InCode},
		{`x = "{signal.alarm(1)}"`, "signal.alarm", InString},
		{`x = f"{{signal.alarm(1)}}"`, "signal.alarm", InString},
		{`x = f"{y}" # {signal.alarm(1)}`, "signal.alarm", InComment},
	}
	for _, tt := range tests {
		off := strings.Index(tt.src, tt.word)
		got := Places([]byte(tt.src), []int{off})[0]
		if got != tt.want {
			t.Errorf("Places(%q) at %q = %v, want %v", tt.src, tt.word, got, tt.want)
		}
		if ref := placesByToken([]byte(tt.src), []int{off})[0]; ref != got {
			t.Errorf("placesByToken(%q) = %v, Places %v", tt.src, ref, got)
		}
	}
}
