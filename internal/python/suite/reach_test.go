package suite_test

import (
	"os"
	"testing"

	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/internal/testenv"
)

// A module that names the deadline fixture nowhere, under conftests that
// do not either, has no def that reaches it (mayReach): a check that
// follows every def's requests finds the same, members and users
// included, on trees that reach the fixture in every way the rules follow
// (parameters, usefixtures, autouse fixtures, fixtures renamed with name=,
// overriding fixtures, conftests at several levels), on the example, and
// on CPython's Lib/test and sympy where they are on the machine.
func TestReachShortcutAgrees(t *testing.T) {
	// The cases lie outside tests/ too, whose conftest (the region)
	// names the deadline fixture for every module below it.
	files := map[string]string{
		"tests/conftest.py": testenv.RegionConftest + `
@pytest.fixture(name="watch")
def _watch(recovery_deadline):
    yield
`,
		"tests/test_via.py": `import signal


def test_via(watch):
    signal.alarm(2)


def test_none():
    signal.alarm(3)
`,
		"other/sub/conftest.py": `import pytest


@pytest.fixture(name="watch2")
def _watch2(recovery_deadline):
    yield


@pytest.fixture(autouse=True)
def guard(watch2):
    yield
`,
		"other/sub/test_auto.py": `import signal


def test_auto():
    signal.alarm(1)
`,
		"other/test_param.py": `import signal


def test_param(recovery_deadline):
    signal.alarm(1)


def test_none():
    signal.alarm(3)
`,
		"other/test_marked.py": `import signal
import pytest


@pytest.mark.usefixtures("recovery_" "deadline")
def test_marked():
    signal.setitimer(signal.ITIMER_REAL, 1)
`,
		"other/renamed/conftest.py": `import pytest


@pytest.fixture(autouse=True, name="recovery_deadline")
def _own():
    yield
`,
		"other/renamed/test_renamed.py": `import signal


def test_renamed():
    signal.alarm(1)
`,
		"other/auto/conftest.py": `import pytest


@pytest.fixture(autouse=True)
def recovery_deadline():
    yield
`,
		"other/auto/test_auto.py": `import signal


def test_auto():
    signal.alarm(1)
`,
		"other/test_override.py": `import signal
import pytest


@pytest.fixture
def watch2():
    yield


class TestCls:
    @pytest.fixture(autouse=True, name="w2")
    def _w2(self, recovery_deadline):
        yield

    def test_in_class(self):
        signal.alarm(1)
`,
		"other/test_far.py": `import signal


def test_far():
    signal.alarm(1)
`,
	}
	root := testenv.WriteTree(t, files)
	spec := testSpec(root)
	trees := []agreeTree{{root, spec, []string{"tests", "other"}}, inboxTree(t)}
	for _, dir := range []string{"/root/.pyenv/versions/3.11.7/lib/python3.11/test", "/tmp/sympy"} {
		if _, err := os.Stat(dir); err == nil {
			for _, name := range []string{"recovery_deadline", "timeout"} {
				s := *spec
				s.Deadline.Fixture = name
				trees = append(trees, agreeTree{root, &s, []string{dir}})
			}
		}
	}
	checkAgrees(t, trees, false, "with mayReach the check finds", "following every def", suite.FollowEveryDef)
}
