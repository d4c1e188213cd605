package region

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzSplice feeds arbitrary conftest contents to Splice and checks the
// promises generate relies on: a broken file is an *Error at a line the
// file has; otherwise the result holds exactly one region, that region is
// the block (with the line ending the file uses there), every byte outside
// the old region is kept in place, and a second splice changes nothing.
//
//	go test ./internal/python/region -run '^$' -fuzz FuzzSplice -fuzztime 10m
func FuzzSplice(f *testing.F) {
	for _, s := range []string{
		"",
		"import pytest\n",
		"a = 1",
		"a\n# fixturegen:begin old\nold\n# fixturegen:end\nb\n",
		"a\r\n# fixturegen:begin\r\nold\r\n# fixturegen:end  \r\nb\r\n",
		"# fixturegen:begin\n# fixturegen:end\n# fixturegen:begin\n# fixturegen:end\n",
		"# fixturegen:begin\n# fixturegen:begin\n# fixturegen:end\n",
		"x\n# fixturegen:begin\n",
		"# fixturegen:end\n",
		"\"\"\"\n# fixturegen:begin\n\"\"\"\n",
		"# fixturegen:begin\n# fixturegen:end",
		"    # fixturegen:end\n",
		"\xff\xfe# fixturegen:begin\n\x00# fixturegen:end\n",
	} {
		f.Add([]byte(s))
	}
	block := Block("fixturegen.toml", []byte("import pytest\n\n\n@pytest.fixture\ndef x():\n    yield\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		before, findErr := Find(src)
		out, err := Conftest.Splice(src, block)
		var re *Error
		if err != nil {
			if !errors.As(err, &re) {
				t.Fatalf("Splice failed with %T, not *Error: %v", err, err)
			}
			if lines := bytes.Count(src, []byte("\n")) + 1; re.Line < 1 || re.Line > lines {
				t.Fatalf("error at line %d of a %d-line file: %v", re.Line, lines, err)
			}
			if findErr == nil {
				t.Fatalf("Splice failed (%v) where Find did not", err)
			}
			return
		}
		if findErr != nil {
			t.Fatalf("Find failed (%v) where Splice did not", findErr)
		}
		after, err := Find(out)
		if err != nil || !after.Found {
			t.Fatalf("the result has no single region (%v):\n%q", err, out)
		}
		// The block keeps the line ending of the region it replaces, or,
		// appended, of the file's first line.
		eol := LineEnding(src)
		if before.Found {
			eol = LineEnding(src[before.Start:before.InnerStart])
		}
		if got := out[after.Start:after.End]; !bytes.Equal(got, WithLineEnding(block, eol)) {
			t.Fatalf("the region is %q, want the block with %q line endings", got, eol)
		}
		if before.Found {
			if !bytes.Equal(out[:after.Start], src[:before.Start]) || !bytes.Equal(out[after.End:], src[before.End:]) {
				t.Fatalf("bytes outside the region changed:\nsrc %q\nout %q", src, out)
			}
		} else if !bytes.HasPrefix(out, src) || after.End != len(out) {
			t.Fatalf("without a region, the block must be appended after the file:\nsrc %q\nout %q", src, out)
		}
		again, err := Conftest.Splice(out, block)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("a second splice changed the file (%v):\n%q\n%q", err, out, again)
		}
	})
}
