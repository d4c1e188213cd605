package pyscan

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// The stop bits of the assembly, where it runs, are those of the loop in
// Go, and those are the bytes they stand for, on random bytes of every
// length around a chunk's.
func TestStopBitsAgree(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	alphabet := []byte("#\"'\n\r\\{}ax \x00\xff\x80")
	for range 5000 {
		n := rng.Intn(6)
		src := make([]byte, 64*n)
		for i := range src {
			if rng.Intn(4) == 0 {
				src[i] = byte(rng.Intn(256))
			} else {
				src[i] = alphabet[rng.Intn(len(alphabet))]
			}
		}
		wantQ, wantE := make([]uint64, n), make([]uint64, n)
		stopBitsGo(src, wantQ, wantE)
		gotQ, gotE := make([]uint64, n), make([]uint64, n)
		stopBits(src, gotQ, gotE)
		if !slices.Equal(gotQ, wantQ) || !slices.Equal(gotE, wantE) {
			t.Fatalf("stopBits(%q) = %x %x, want %x %x", src, gotQ, gotE, wantQ, wantE)
		}
		for c := range n {
			for i := range 64 {
				b := src[c*64+i]
				if (wantQ[c]>>i&1 == 1) != strings.ContainsRune("#\"'", rune(b)) ||
					(wantE[c]>>i&1 == 1) != strings.ContainsRune("\n\r\\{", rune(b)) {
					t.Fatalf("stopBitsGo(%q): chunk %d, byte %d (%q) marked wrong", src, c, i, b)
				}
			}
		}
	}
}

// Jumping from stop to stop places every byte as walking the bytes one by
// one does, on sources long and short, made of the pieces that change a
// place, with the jumps' bits from the assembly and from Go.
func TestPlacesByStopsAgreesWithByByte(t *testing.T) {
	pieces := []string{"x", "rb", "f", "F", "1", "u", "Rb", "br", "ab", "_", "\xe9", "é", "#", "'", "\"", "\"\"\"", "'''",
		"\\", "\n", "\r\n", "\r", "{", "}", "{{", " ", "(", ")", "[", "]", "=", ":", "!r", "!=", "f'{x}'", "f\"{a.b(c)[d]} e\"", "f'''{\n}'''", "\ufeff", "signal.alarm(1)",
		strings.Repeat("a", 70), strings.Repeat(" ", 130)}
	rng := rand.New(rand.NewSource(4))
	for n := range 20000 {
		bom := ""
		if n%50 == 0 {
			bom = "\xef\xbb\xbf"
		}
		count := 1 + rng.Intn(24)
		if n%10 == 0 {
			count = 100 + rng.Intn(300) // past one slab of stop bits
		}
		src := []byte(bom + randomSource(rng, pieces, count))
		offs := everyOffset(len(src))
		want := fmt.Sprint(placesByByte(src, offs))
		if got := fmt.Sprint(placesByStops(src, offs)); got != want {
			t.Fatalf("placesByStops(%q) = %s, want %s", src, got, want)
		}
		if n%4 == 0 {
			// Only some offsets, as the prefilter asks.
			some := offs[:0:0]
			for _, o := range offs {
				if rng.Intn(30) == 0 {
					some = append(some, o)
				}
			}
			if got, want := fmt.Sprint(placesByStops(src, some)), fmt.Sprint(placesByByte(src, some)); got != want {
				t.Fatalf("placesByStops(%q, %v) = %s, want %s", src, some, got, want)
			}
		}
	}
}

// The same with the stop bits worked out in Go, as where there is no
// assembly.
func TestPlacesByStopsInGo(t *testing.T) {
	saved := haveStopBits
	haveStopBits = false
	defer func() { haveStopBits = saved }()
	TestPlacesByStopsAgreesWithByByte(t)
}

// Formatted strings with fields of every shape, read by stopScan.skipString or
// handed to the Lexer, end where placesByByte ends them.
func TestPlacesByStopsFormatted(t *testing.T) {
	field := []string{"{", "}", "(", ")", "[", "]", "#", ":", "!", "=", "x", "'", "\"", "\n", "\r", "\\", "{{", "}}", " ", "f'", "'''"}
	rng := rand.New(rand.NewSource(7))
	for range 30000 {
		var b strings.Builder
		b.WriteString([]string{"f'", "f\"", "f'''", "rf\"", "F\"\"\""}[rng.Intn(5)])
		for range rng.Intn(12) {
			b.WriteString(field[rng.Intn(len(field))])
		}
		b.WriteString([]string{"'", "\"", "'''", "\"\"\"", ""}[rng.Intn(5)])
		b.WriteString(" + 'x' # y\nz")
		src := []byte(b.String())
		offs := everyOffset(len(src))
		if got, want := fmt.Sprint(placesByStops(src, offs)), fmt.Sprint(placesByByte(src, offs)); got != want {
			t.Fatalf("placesByStops(%q) = %s, want %s", src, got, want)
		}
	}
}
