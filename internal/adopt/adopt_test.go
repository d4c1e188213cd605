package adopt

import (
	"fmt"
	"strings"
	"testing"
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
def recovery_deadline(toy_sdk):
    def on_alarm(signum, frame):
        raise AssertionError("recovery loop exceeded its deadline")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, 1)
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
		{"broken markers leave everything to the plan",
			head + "\n# fixturegen:begin\n\n" + preload,
			head + "\n# fixturegen:begin\n\n" + preload,
			""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, defs := Remove([]byte(tt.src), names, []byte(placeholder))
			if string(got) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			var ds []string
			for _, d := range defs {
				ds = append(ds, fmt.Sprintf("%s %d-%d", d.Name, d.First, d.Last))
			}
			if strings.Join(ds, ", ") != tt.defs {
				t.Errorf("removed %q, want %q", strings.Join(ds, ", "), tt.defs)
			}
		})
	}
}
