package pyscan

import (
	"fmt"
	"math/rand"
	"testing"
)

// A Scan without calls finds the same defs, classes, bases, imports and
// bindings as a whole Scan.
func TestNoCallsKeepsTheRest(t *testing.T) {
	sources := []string{
		"import unittest\nfrom .base import Case as C\n\n@deco(x=f(1))\nclass T(C, unittest.TestCase, metaclass=M):\n    x = g(2)\n    def test_a(self, p=h(3)):\n        signal.alarm(1)\n",
		"def f(a, b=lambda: g(1)):\n    y = f'{h(2)}'\n    class In(Base):\n        pass\nsig = importlib.import_module('signal')\n",
	}
	pieces := []string{"def ", "class ", "test_a", "x", "(", ")", ",", "=", ":", "'", "f'{", "}'", "@", "import ", "from ", ".", "\n", "    ", "g(", "#"}
	rng := rand.New(rand.NewSource(2))
	for range 20000 {
		sources = append(sources, randomSource(rng, pieces, 1+rng.Intn(30)))
	}
	for _, src := range sources {
		full := Scan([]byte(src))
		sc := Scanner{NoCalls: true}
		lean := sc.Scan([]byte(src))
		if len(lean.Calls) != 0 {
			t.Fatalf("%q: NoCalls kept %d calls", src, len(lean.Calls))
		}
		for i := range full.Defs {
			full.Defs[i].HasCalls = false // read with the calls alone
			for j := range full.Defs[i].Decorators {
				full.Defs[i].Decorators[j].Call = -1
			}
		}
		for _, pair := range [][2]any{{full.Defs, lean.Defs}, {full.Imports, lean.Imports}, {full.StarImports, lean.StarImports},
			{full.Assigns, lean.Assigns}, {full.Problems, lean.Problems}} {
			if got, want := fmt.Sprintf("%+v", pair[1]), fmt.Sprintf("%+v", pair[0]); got != want {
				t.Fatalf("%q: NoCalls found\n%s\nwant\n%s", src, got, want)
			}
		}
		for _, d := range full.Defs {
			for _, base := range d.Bases {
				if got, want := lean.ResolveAt(base, d.Parent, d.Pos), full.ResolveAt(base, d.Parent, d.Pos); got != want {
					t.Fatalf("%q: NoCalls resolves %s to %q, want %q", src, base, got, want)
				}
			}
		}
	}
}
