package pyscan

import (
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// ScanBorrowed finds what Scan finds, and its Module keeps nothing of the
// bytes it read: once they are overwritten, the Module is still equal to
// Scan's of the same source. The sources reach every string the facts
// keep (names, parameters, decorators, bases, callees, targets, keyword
// and literal arguments, assigned lists of strings, every form of import,
// problems and suppressions), on 20,000 random sources, large modules of
// CPython's Lib/test where they are on the machine, and with one Scanner
// reading them all in turn, as check's readers do.
func TestScanBorrowedKeepsNothingOfItsSource(t *testing.T) {
	sources := []string{
		"import signal, os.path as osp\nfrom . import sibling\nfrom ..pkg.mod import (Case as C, other)\nfrom signal import *\n\n" +
			"collect_ignore = ['setup.py', \"build\"]\npytestmark = [pytest.mark.usefixtures('d'), pytest.mark.xdist_group(name='g')]\n\n" +
			"@pytest.fixture(autouse=True, name='renamed')\ndef fx(request, tmp_path):\n    signal.setitimer(signal.ITIMER_REAL, 0.5)  # fixturegen: ignore[own-timer]\n    yield\n\n" +
			"class TestT(C, unittest.TestCase, metaclass=M):\n    attr = f'{signal.alarm(1)}'\n    def test_a(self, deadline, *args, kw='x' 'y', **kws):\n        sig = signal\n        (signal.alarm)(5)\n        sig.alarm(seconds=3)\n",
		"def f(:\n    x = 'unterminated\n    y = (1,\n",
		"\ufeffnäme = 1\ndef fünf(ä, ö='ü'):\n    return g(ä, 'ß')\n",
	}
	pieces := []string{"def ", "class ", "test_a", "x", "(", ")", ",", "=", ":", "'", "\"", "f'{", "}'", "@", "import ", "from ", ".", "\n", "    ", "g(", "#", "signal.alarm(", "pytest.mark.usefixtures('", "# fixturegen: ignore", "[", "]", " as ", "*", "ä"}
	rng := rand.New(rand.NewSource(5))
	for range 20000 {
		sources = append(sources, randomSource(rng, pieces, 1+rng.Intn(40)))
	}
	for _, name := range scanBenchFiles {
		if src, err := os.ReadFile(filepath.Join(scanBenchDir, name)); err == nil {
			sources = append(sources, string(src))
		}
	}
	keep := &CallFilter{Last: map[string]bool{"alarm": true, "setitimer": true, "usefixtures": true, "xdist_group": true}, Targets: map[string]bool{"pytestmark": true}}
	borrowing := Scanner{Keep: keep}
	buf := make([]byte, 0, 1<<20)
	for _, src := range sources {
		buf = append(buf[:0], src...)
		got := borrowing.ScanBorrowed(buf)
		for i := range buf {
			buf[i] = '#'
		}
		own := Scanner{Keep: keep}
		if want := own.Scan([]byte(src)); !reflect.DeepEqual(got, want) {
			t.Fatalf("%.60q: ScanBorrowed's facts, once its bytes were overwritten, differ from Scan's", src)
		}
	}
}
