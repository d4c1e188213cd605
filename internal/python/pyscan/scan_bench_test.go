package pyscan

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
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
	benchScan(b)
}

// benchScan times scan over the modules of scanBenchFiles.
func benchScan(b *testing.B) {
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
	sc := Scanner{Keep: checkCalls}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, src := range srcs {
			sc.Scan(src)
		}
	}
}

// libTestModules are the modules check tokenizes on CPython's Lib/test
// (scanBenchDir), each as check scans it: those that pass its prefilter
// with the calls the rules read, and the modules of the base classes it
// follows with no calls, each with a Scanner of its own.
var libTestModules = []struct {
	path    string
	noCalls bool
}{
	{"test_socket.py", false}, {"_test_multiprocessing.py", false}, {"test_io.py", false},
	{"test_asyncio/test_events.py", false}, {"test_signal.py", false},
	{"test_selectors.py", false}, {"_test_eintr.py", false},
	{"../_pyio.py", true}, {"test_asyncio/utils.py", true},
}

// checkCalls is the CallFilter of check's readers: contract's readCalls,
// which this package's tests cannot import.
var checkCalls = &CallFilter{
	Last:    map[string]bool{"xdist_group": true, "usefixtures": true, "setitimer": true, "alarm": true, "signal": true, "setattr": true, "delattr": true, "patch": true},
	Targets: map[string]bool{"pytestmark": true},
}

// BenchmarkScanLibTest scans the modules of libTestModules as one check
// run on Lib/test does, one reader's Scanner for those with calls.
func BenchmarkScanLibTest(b *testing.B) {
	var srcs [][]byte
	size := 0
	for _, m := range libTestModules {
		src, err := os.ReadFile(filepath.Join(scanBenchDir, m.path))
		if err != nil {
			b.Skipf("the benchmark reads CPython's Lib/test: %v", err)
		}
		srcs = append(srcs, src)
		size += len(src)
	}
	sc := Scanner{Keep: checkCalls}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for i, src := range srcs {
			if libTestModules[i].noCalls {
				own := Scanner{NoCalls: true}
				own.Scan(src)
				continue
			}
			sc.Scan(src)
		}
	}
}

// TestScannerSharesNothing scans small and large modules one after
// another with one Scanner, keeping every Module, and checks each against
// a Scan by a Scanner of its own once all are scanned: the facts of a
// module must share nothing with what the Scanner reads next.
func TestScannerSharesNothing(t *testing.T) {
	var large strings.Builder
	large.WriteString("import pytest, signal\nfrom unittest import mock\n\n")
	for i := range 1500 {
		fmt.Fprintf(&large, "@pytest.mark.usefixtures('f%d')\ndef test_%d(a, b, c=signal.alarm(%d)):\n    x = mock.patch('m.%d', new=len([1]))\n    signal.setitimer(signal.ITIMER_REAL, %d)\n\n", i, i, i, i, i)
	}
	small := "import signal\n\n@pytest.mark.xdist_group('g')\ndef test_a(x):\n    signal.alarm(5)  # fixturegen: ignore\n"
	srcs := []string{small, large.String(), small, large.String()[:large.Len()/2], small, "class C(Base):\n    def f(self): return f'{g(1)}'\n"}
	for _, name := range scanBenchFiles {
		if src, err := os.ReadFile(filepath.Join(scanBenchDir, name)); err == nil {
			srcs = append(srcs, string(src), small)
		}
	}
	keep := &CallFilter{Last: map[string]bool{"alarm": true, "setitimer": true, "patch": true, "usefixtures": true, "xdist_group": true}, Targets: map[string]bool{"pytestmark": true}}
	shared := Scanner{Keep: keep}
	var got []*Module
	for _, src := range srcs {
		buf := []byte(src)
		got = append(got, shared.Scan(buf))
		clear(buf) // the Module keeps nothing of its source's bytes
	}
	for i, src := range srcs {
		own := Scanner{Keep: keep}
		if want := own.Scan([]byte(src)); !reflect.DeepEqual(got[i], want) {
			t.Errorf("module %d (%.40q): the facts differ from those of a Scanner of its own", i, src)
		}
	}
}
