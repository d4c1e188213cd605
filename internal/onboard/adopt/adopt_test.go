package adopt

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/testenv"
)

const placeholder = "# fixturegen:begin\n# fixturegen:end\n"

var names = []string{"toy_sdk", "recovery_deadline"}

const head = `"""Fixtures for the inbox channel tests."""

import signal

import pytest


@pytest.fixture
def channel():
    return 1
`

const preload = `@pytest.fixture
def toy_sdk():
    import toyredis  # noqa: F401

    yield
`

const deadline = `@pytest.fixture
@pytest.mark.filterwarnings("ignore")
` + testenv.HandwrittenDeadline

// moduleHandler is a module-level alarm handler, and autouse the per-test
// deadline that installs it.
const moduleHandler = `def _on_timeout(signum, frame):
    raise TimeoutError("test exceeded its deadline")
`

const autouse = `@pytest.fixture(autouse=True)
def recovery_deadline():
    previous = signal.signal(signal.SIGALRM, _on_timeout)
    signal.setitimer(signal.ITIMER_REAL, 4)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
`

const tail = `@pytest.fixture
def other():
    return 2
`

func TestRemove(t *testing.T) {
	tests := []struct {
		name, src, want string
		defs            string
	}{
		{"at the end, as the reference has them",
			head + "\n\n" + preload + "\n\n" + deadline,
			head + "\n\n" + placeholder,
			"toy_sdk 13-17, recovery_deadline 20-32"},
		{"followed by user code",
			head + "\n\n" + preload + "\n\n" + deadline + "\n\n" + tail,
			head + "\n\n" + placeholder + "\n\n" + tail,
			"toy_sdk 13-17, recovery_deadline 20-32"},
		{"apart, with user code between them",
			head + "\n\n" + preload + "\n\n" + tail + "\n\n" + deadline,
			head + "\n\n" + placeholder + "\n\n" + tail,
			"toy_sdk 13-17, recovery_deadline 25-37"},
		{"first in the file",
			preload + "\n\n" + tail,
			placeholder + "\n\n" + tail,
			"toy_sdk 1-5"},
		{"a comment after the body stays",
			head + "\n\n" + preload + "# about what follows\n\n\n" + tail,
			head + "\n\n" + placeholder + "\n\n# about what follows\n\n\n" + tail,
			"toy_sdk 13-17"},
		{"one-line body and no final newline",
			head + "\n\n@pytest.fixture\ndef toy_sdk(): yield\n\n\n" + tail + "\n\n@pytest.fixture\ndef recovery_deadline(toy_sdk): yield",
			head + "\n\n" + placeholder + "\n\n" + tail,
			"toy_sdk 13-14, recovery_deadline 22-23"},
		{"an existing region stays where it is",
			head + "\n\n" + placeholder + "\n\n" + preload + "\n\n" + deadline,
			head + "\n\n" + placeholder,
			"toy_sdk 17-21, recovery_deadline 24-36"},
		{"fixtures inside the region are fixturegen's",
			head + "\n\n# fixturegen:begin\n" + preload + "# fixturegen:end\n",
			head + "\n\n# fixturegen:begin\n" + preload + "# fixturegen:end\n",
			""},
		{"not a fixture, or not at module level, or only in a string",
			head + "\n\ndef toy_sdk():\n    pass\n\n\nclass C:\n    @pytest.fixture\n    def recovery_deadline(self):\n        pass\n\n\nX = '''\n@pytest.fixture\ndef toy_sdk():\n    pass\n'''\n",
			head + "\n\ndef toy_sdk():\n    pass\n\n\nclass C:\n    @pytest.fixture\n    def recovery_deadline(self):\n        pass\n\n\nX = '''\n@pytest.fixture\ndef toy_sdk():\n    pass\n'''\n",
			""},
		{"async fixture",
			head + "\n\n@pytest.fixture\nasync def toy_sdk():\n    yield\n",
			head + "\n\n" + placeholder,
			"toy_sdk 13-15"},
		{"the module-level alarm handler only the deadline uses goes with it",
			head + "\n\n" + moduleHandler + "\n\n" + autouse + "\n\n" + tail,
			head + "\n\n" + placeholder + "\n\n" + tail,
			"_on_timeout 13-14 (recovery_deadline installs _on_timeout), recovery_deadline 17-25"},
		{"a handler both fixtures install goes once",
			head + "\n\n" + moduleHandler + "\n\n@pytest.fixture\ndef toy_sdk():\n    signal.signal(signal.SIGALRM, _on_timeout)\n\n\n" + autouse,
			head + "\n\n" + placeholder,
			"_on_timeout 13-14 (toy_sdk installs _on_timeout), toy_sdk 17-19, recovery_deadline 22-30"},
		{"a handler that other code names stays",
			head + "\n\n" + moduleHandler + "\n\n" + autouse + "\n\n" + tail + "\n\nALSO = _on_timeout\n",
			head + "\n\n" + moduleHandler + "\n\n" + placeholder + "\n\n" + tail + "\n\nALSO = _on_timeout\n",
			"recovery_deadline 17-25"},
		{"a fixture is found by the name its decorator gives it",
			head + "\n\n@pytest.fixture(name=\"toy_sdk\")\ndef _load():\n    yield\n\n\n@pytest.fixture\ndef _deadline():\n    yield\n",
			head + "\n\n" + placeholder + "\n\n@pytest.fixture\ndef _deadline():\n    yield\n",
			"_load 13-15"},
		{"a function named like a fixture it does not define stays",
			head + "\n\n@pytest.fixture(name=\"other\")\ndef toy_sdk():\n    yield\n",
			head + "\n\n@pytest.fixture(name=\"other\")\ndef toy_sdk():\n    yield\n",
			""},
		{"no placeholder: a conftest below that redefines the deadline loses it, and gets no region",
			head + "\n\n" + moduleHandler + "\n\n" + autouse + "\n\n" + tail,
			head + "\n\n" + tail,
			"_on_timeout 13-14 (recovery_deadline installs _on_timeout), recovery_deadline 17-25"},
		{"no placeholder, the fixture last",
			head + "\n\n" + autouse,
			head,
			"recovery_deadline 13-21"},
		{"broken markers leave everything to the plan",
			head + "\n# fixturegen:begin\n\n" + preload,
			head + "\n# fixturegen:begin\n\n" + preload,
			""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			placeholder := []byte(placeholder)
			if strings.HasPrefix(tt.name, "no placeholder") {
				placeholder = nil
			}
			got, defs := Remove([]byte(tt.src), names, placeholder)
			if string(got) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			var ds []string
			for _, d := range defs {
				d := fmt.Sprintf("%s %d-%d", d.Name, d.First, d.Last) + map[bool]string{true: " (" + d.HandlerOf + " installs " + d.Name + ")"}[d.HandlerOf != ""]
				ds = append(ds, d)
			}
			if strings.Join(ds, ", ") != tt.defs {
				t.Errorf("removed %q, want %q", strings.Join(ds, ", "), tt.defs)
			}
		})
	}
}

func TestLeftoversNameHelpers(t *testing.T) {
	old := []byte(`import os

import pytest


def _get_timeout_seconds():
    return int(os.getenv("A", "5"))


def _other():
    return 1


X = _other()


@pytest.fixture(autouse=True)
def per_test_timeout():
    yield _get_timeout_seconds()
`)
	adopted := []byte(`import os

import pytest


def _get_timeout_seconds():
    return int(os.getenv("A", "5"))


def _other():
    return 1


X = _other()


@pytest.fixture
def unused_fixture():
    yield
`)
	var got []string
	for _, l := range Leftovers(old, adopted) {
		got = append(got, fmt.Sprintf("%s:%d", l.Name, l.Line))
	}
	if strings.Join(got, " ") != "_get_timeout_seconds:6" {
		t.Errorf("Leftovers = %v, want the helper only the replaced fixture called", got)
	}
}
