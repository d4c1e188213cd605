package pyscan

import (
	"math/rand"
	"strings"
	"testing"
)

func TestSurelyNotCode(t *testing.T) {
	tests := []struct {
		src  string
		want bool
	}{
		{"x = 1\n# call signal.alarm( here\n", true},
		{"NOTE = \"signal.alarm(5) is the fixture's\"\n", true},
		{"    signal.alarm(1)\n", false},               // code, or a docstring: Places must say
		{"x = '' + signal.alarm(1)\n", false},          // two quotes
		{"x = \"\"\"signal.alarm(1)\n", false},         // a doubled quote
		{"x = f\"{y}\" + signal.alarm(1)\n", false},    // braces
		{"s = 'a\\\nb = \"signal.alarm(1)\"\n", false}, // the line before ends with a backslash
		{"# it's signal.alarm(1)\n", false},            // a quote after the #
		{"x = 1  # signal.alarm(1)\n", false},          // a comment after code: Places must say
		{"\"\"\"\ndoc\n\"\"\"\nNOTE = 'signal.alarm(1)'\n", true},
	}
	for _, tt := range tests {
		off := strings.Index(tt.src, "signal")
		if got := SurelyNotCode([]byte(tt.src), []int{off})[0]; got != tt.want {
			t.Errorf("SurelyNotCode(%q) = %v, want %v", tt.src, got, tt.want)
		}
	}
}

// Wherever SurelyNotCode is sure, Places agrees that the byte is not in
// code, on random sources of the pieces that change a place.
func TestSurelyNotCodeAgreesWithPlaces(t *testing.T) {
	pieces := []string{"x", "f", "rb", "f'", "f\"", "!", ":", "\\\n", "''", "\"\"", "'", "\"", "'''", "\"\"\"", "#", "{", "}", "{{", ":", "!r", "\\", "\n", "\r\n", "\r",
		" ", "\t", "(", ")", "signal", "= ", "\ufeff"}
	rng := rand.New(rand.NewSource(8))
	sure := 0
	for n := range 40000 {
		src := []byte(randomSource(rng, pieces, 1+rng.Intn(40)))
		offs := everyOffset(len(src))
		places := placesByByte(src, offs)
		some := offs[:0:0]
		for _, o := range offs {
			if rng.Intn(3) == 0 {
				some = append(some, o)
			}
		}
		all, part := SurelyNotCode(src, offs), SurelyNotCode(src, some)
		for i := range src {
			if all[i] != surelyNotCodeAt(src, i) {
				t.Fatalf("case %d: SurelyNotCode(%q) at %d = %v, but the line alone says %v", n, src, i, all[i], !all[i])
			}
			if all[i] {
				sure++
				if places[i] == InCode {
					t.Fatalf("case %d: SurelyNotCode(%q) is sure at %d, but Places says code", n, src, i)
				}
			}
		}
		for j, o := range some {
			if part[j] != all[o] {
				t.Fatalf("case %d: SurelyNotCode(%q, %v) at %d = %v, alone %v", n, src, some, o, part[j], all[o])
			}
		}
	}
	if sure < 10000 {
		t.Errorf("SurelyNotCode was sure of %d bytes only; the test says little", sure)
	}
}

// surelyNotCodeAt is SurelyNotCode for one offset, reading its line from
// the start: the rules as written, for the incremental reading to agree
// with.
func surelyNotCodeAt(src []byte, off int) bool {
	if off >= len(src) || src[off] == '\n' || src[off] == '\r' {
		return false
	}
	ls := off
	for ls > 0 && src[ls-1] != '\n' && src[ls-1] != '\r' {
		ls--
	}
	line := src[ls:off]
	h := 0
	for h < len(line) && (line[h] == ' ' || line[h] == '\t' || line[h] == '\f') {
		h++
	}
	if h < len(line) && line[h] == '#' {
		return !strings.ContainsAny(string(line[h+1:]), "'\"")
	}
	quote := -1
	for i, c := range line {
		switch c {
		case '"', '\'':
			if quote >= 0 {
				return false
			}
			quote = i
		case '#', '{', '}', ':', '\\':
			return false
		}
	}
	if quote < 0 || ls+quote+1 < len(src) && src[ls+quote+1] == line[quote] {
		return false
	}
	k := ls - 1
	for k >= 0 && k >= ls-2 && (src[k] == '\n' || src[k] == '\r') {
		k--
	}
	return k < 0 || src[k] != '\\'
}
