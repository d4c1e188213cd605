package adopt

import (
	"fmt"
	"strings"
	"testing"
)

// What only the removed deadline used is named, so the user can drop it;
// what other code still uses is not.
func TestLeftovers(t *testing.T) {
	old := `import faulthandler
import os
import signal

import pytest

LIMIT = float(os.environ.get("SUITE_TEST_LIMIT", "4"))
ROOT = os.path.dirname(__file__)


def _on_timeout(signum, frame):
    faulthandler.dump_traceback()
    raise TimeoutError("per-test timeout hit")


@pytest.fixture(autouse=True)
def _per_test_timeout():
    signal.signal(signal.SIGALRM, _on_timeout)
    signal.setitimer(signal.ITIMER_REAL, LIMIT)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
`
	new, defs := Remove([]byte(old), []string{"_per_test_timeout"}, []byte("# fixturegen:begin\nimport signal\nsignal.SIGALRM\n# fixturegen:end\n"))
	if len(defs) != 2 {
		t.Fatalf("removed %v", defs)
	}
	var got []string
	for _, l := range Leftovers([]byte(old), new) {
		got = append(got, fmt.Sprintf("%s %d", l.Name, l.Line))
	}
	if want := "faulthandler 1, signal 3, pytest 5, LIMIT 7"; strings.Join(got, ", ") != want {
		t.Errorf("leftovers %q, want %q\n%s", strings.Join(got, ", "), want, new)
	}
}
