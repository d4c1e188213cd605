package pyscan

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// scanBenchFiles are large modules of CPython's Lib/test, read where
// pyenv installs CPython 3.11.7: real code of the size check tokenizes
// whole when a module arms timers.
var scanBenchFiles = []string{"test_socket.py", "test_signal.py", "test_subprocess.py", "test_os.py"}

const scanBenchDir = "/root/.pyenv/versions/3.11.7/lib/python3.11/test"

// BenchmarkScan scans the modules of scanBenchFiles one after another
// with one Scanner, as each of check's workers does, keeping the calls
// check keeps.
func BenchmarkScan(b *testing.B) {
	var srcs [][]byte
	size := 0
	for _, name := range scanBenchFiles {
		src, err := os.ReadFile(filepath.Join(scanBenchDir, name))
		if err != nil {
			b.Skipf("the benchmark reads CPython's Lib/test: %v", err)
		}
		srcs = append(srcs, src)
		size += len(src)
	}
	keep := &CallFilter{
		Last:    map[string]bool{"xdist_group": true, "usefixtures": true, "setitimer": true, "alarm": true, "signal": true, "setattr": true, "delattr": true, "patch": true},
		Targets: map[string]bool{"pytestmark": true},
	}
	sc := Scanner{Keep: keep}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, src := range srcs {
			sc.Scan(src)
		}
	}
}

// TestNameRun8 checks nameRun8 against nameBytes for every byte value at
// every place in a word, behind name bytes and before any bytes at all.
func TestNameRun8(t *testing.T) {
	for c := range 256 {
		for at := range 8 {
			for _, after := range []byte{'a', 0, 0xff, ' ', '_'} {
				var word [8]byte
				for i := range word {
					switch {
					case i < at:
						word[i] = "aZ_09q\x80\xc3"[i]
					case i == at:
						word[i] = byte(c)
					default:
						word[i] = after
					}
				}
				want := at
				if nameBytes[c] {
					want = at + 1
					for want < 8 && nameBytes[word[want]] {
						want++
					}
				}
				if got := nameRun8(binary.LittleEndian.Uint64(word[:])); got != want {
					t.Fatalf("nameRun8(%q) = %d, want %d", word, got, want)
				}
			}
		}
	}
}

// TestScanStringAgreesWithScan checks that a Scanner reading a string
// finds what it finds in the same bytes, module after module.
func TestScanStringAgreesWithScan(t *testing.T) {
	srcs := []string{
		"",
		"import signal\n\n@pytest.mark.xdist_group('g')\ndef test_a(x):\n    signal.alarm(5)  # fixturegen: ignore\n",
		"class C(unittest.TestCase):\n    def f(self):\n        return f'{signal.setitimer(1, 2)!r}'\n",
		"\ufeffx = (1,\n  2\n",
	}
	for _, name := range scanBenchFiles {
		if src, err := os.ReadFile(filepath.Join(scanBenchDir, name)); err == nil {
			srcs = append(srcs, string(src))
		}
	}
	var bytesScanner, stringScanner Scanner
	for _, src := range srcs {
		want := bytesScanner.Scan([]byte(src))
		if got := stringScanner.ScanString(src); !reflect.DeepEqual(got, want) {
			t.Errorf("ScanString(%.40q) differs from Scan", src)
		}
	}
}
