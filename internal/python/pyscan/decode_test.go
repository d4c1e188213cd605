package pyscan

import (
	"math/rand"
	"reflect"
	"testing"
)

// DecodeASCII, told truly whether a source is all ASCII, answers as Decode
// does: on random sources of ASCII, UTF-8, broken UTF-8, byte order marks
// and coding declarations.
func TestDecodeASCIIAgreesWithDecode(t *testing.T) {
	pieces := []string{"x = 1\n", "# -*- coding: latin-1 -*-\n", "# coding: utf-8\n", "é", "\xff", "\xc3", "\xef\xbb\xbf",
		"\xff\xfe", "# coding: koi8_r\n", "'a'\n", "\r\n", "#\n"}
	rng := rand.New(rand.NewSource(9))
	for n := range 20000 {
		var src []byte
		for range rng.Intn(8) {
			src = append(src, pieces[rng.Intn(len(pieces))]...)
		}
		ascii := true
		for _, b := range src {
			ascii = ascii && b < 0x80
		}
		text, prob := Decode(src)
		gotText, gotProb := DecodeASCII(src, ascii)
		if !reflect.DeepEqual(text, gotText) || !reflect.DeepEqual(prob, gotProb) {
			t.Fatalf("case %d: DecodeASCII(%q, %v) = %q, %v; Decode = %q, %v", n, src, ascii, gotText, gotProb, text, prob)
		}
	}
}
