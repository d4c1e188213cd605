package drift

import "testing"

func TestFirstDifference(t *testing.T) {
	tests := []struct {
		old, new string
		want     int
	}{
		{"a\nb\nc\n", "a\nB\nc\n", 2},
		{"a\nb\n", "a\nb\nc\n", 2}, // only an addition at the end: the last line
		{"a\nb\nc\n", "a\nb\n", 3},
		{"x\n", "y\n", 1},
		{"", "a\n", 1},
	}
	for _, tt := range tests {
		if got := firstDifference([]byte(tt.old), []byte(tt.new)); got != tt.want {
			t.Errorf("firstDifference(%q, %q) = %d, want %d", tt.old, tt.new, got, tt.want)
		}
	}
}
