package rules

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/internal/testenv"
)

// perTestTimeout is an autouse per-test timeout as public conftests write
// it, with its handler at module level.
const perTestTimeout = `import os
import signal

import pytest

LIMIT = float(os.environ.get("SUITE_TEST_LIMIT", "4"))


def _on_timeout(signum, frame):
    raise TimeoutError("per-test timeout hit")


@pytest.fixture(autouse=True)
def _per_test_timeout():
    previous = signal.signal(signal.SIGALRM, _on_timeout)
    signal.setitimer(signal.ITIMER_REAL, LIMIT)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
`

// globalHandler is an autouse alarm whose handler the conftest installs at
// import, for every alarm of the process.
const globalHandler = `import signal

import pytest


def _timeout_handler(signum, frame):
    raise TimeoutError("Test exceeded 10 seconds")


if hasattr(signal, "SIGALRM"):
    signal.signal(signal.SIGALRM, _timeout_handler)


@pytest.fixture(autouse=True)
def test_timeout():
    signal.alarm(10)
    yield
    signal.alarm(0)
`

// reArming is a test module that gives its own tests more time, relying on
// the conftest's handler.
const reArming = "import signal\n\nimport pytest\n\n\n@pytest.fixture(autouse=True)\ndef longer():\n    signal.alarm(120)\n    yield\n    signal.alarm(0)\n\n\ndef test_a():\n    pass\n"

// generatedDeadline stands for the region generate writes.
const generatedDeadline = "import pytest\n\n# fixturegen:begin\n@pytest.fixture\ndef deadline(preload):\n    yield\n# fixturegen:end\n"

// A fixture that arms a timer itself is one hand-written-deadline finding,
// in place of what other rules would say about its lines.
func TestHandwrittenDeadline(t *testing.T) {
	tests := []struct {
		name     string
		deadline string // the spec's deadline fixture
		files    map[string]string
		want     []string // rule path:line:col
		adopt    bool
	}{{
		name:     "an autouse timeout beside a spec that names another deadline",
		deadline: "deadline",
		files:    map[string]string{"tests/conftest.py": perTestTimeout, "tests/test_a.py": "def test_a():\n    pass\n"},
		want:     []string{"hand-written-deadline tests/conftest.py:14:5"},
	}, {
		name:     "an autouse timeout that init has read into the spec",
		deadline: "_per_test_timeout",
		files:    map[string]string{"tests/conftest.py": perTestTimeout, "tests/test_a.py": "def test_a():\n    pass\n"},
		want:     []string{"hand-written-deadline tests/conftest.py:14:5"},
		adopt:    true,
	}, {
		name:     "a timer in a fixture under the deadline is not a deadline of its own",
		deadline: "deadline",
		files: map[string]string{
			"tests/conftest.py": generatedDeadline,
			"tests/test_a.py":   "import signal\n\nimport pytest\n\n\n@pytest.fixture\ndef rearm(deadline):\n    signal.alarm(2)\n    yield\n\n\ndef test_a(rearm):\n    pass\n",
		},
	}, {
		name:     "a module-level handler arms nothing; a module re-arming the timer is named as that",
		deadline: "test_timeout",
		files:    map[string]string{"tests/conftest.py": globalHandler, "tests/test_zone.py": reArming},
		want:     []string{"hand-written-deadline tests/conftest.py:15:5", "hand-written-deadline tests/test_zone.py:7:5"},
		adopt:    true,
	}, {
		name:     "after adoption, a module re-arming the timer is answered by the generated deadline",
		deadline: "deadline",
		files: map[string]string{
			"tests/conftest.py":  strings.Replace(generatedDeadline, "@pytest.fixture\n", "@pytest.fixture(autouse=True)\n", 1),
			"tests/test_zone.py": reArming,
		},
	}, {
		name:     "a test module's own autouse timeout without a suite deadline",
		deadline: "deadline",
		files:    map[string]string{"tests/conftest.py": generatedDeadline, "tests/test_zone.py": reArming},
		want:     []string{"hand-written-deadline tests/test_zone.py:7:5"},
	}, {
		name:     "a test that arms a timer is still own-timer",
		deadline: "deadline",
		files: map[string]string{
			"tests/conftest.py": generatedDeadline,
			"tests/test_a.py":   "import signal\n\n\ndef test_a():\n    signal.alarm(2)\n",
		},
		want: []string{"own-timer tests/test_a.py:5:5"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := testenv.WriteTree(t, tt.files)
			t.Chdir(root)
			spec := treeSpec(root, tt.deadline, "preload", "")
			res, err := Check(Options{Options: suite.Options{Spec: spec, Roots: []string{"tests"}, Planned: map[string]bool{},
				Conftest: filepath.Join(root, "tests", "conftest.py")}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range res.Findings {
				got = append(got, fmt.Sprintf("%s %s:%d:%d", f.Rule, f.Path, f.Line, f.Col))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if res.Adopt != tt.adopt {
				t.Errorf("Adopt = %v, want %v", res.Adopt, tt.adopt)
			}
		})
	}
}
