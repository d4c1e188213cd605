package suite_test

import (
	"testing"

	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/internal/testenv"
)

// The scan keeps only the calls the rules read (readCalls): a check that
// keeps every call finds the same, members, users and tests included, on
// modules that reach those calls in every way the rules follow.
func TestKeptCallsAreTheOnesRead(t *testing.T) {
	files := map[string]string{
		"tests/conftest.py": testenv.RegionConftest + `
@pytest.fixture(autouse=True, name="watch")
def _watch(recovery_deadline):
    yield
`,
		"tests/test_marks.py": `import pytest
from pytest import mark as m
from signal import alarm as arm, setitimer
import signal as sig
from unittest.mock import patch as p

pytestmark = [m.xdist_group("g"), pytest.mark.usefixtures("recovery_deadline")]
group = pytest.mark.xdist_group(name="g")


@pytest.mark.parametrize("x", [pytest.param(1, marks=m.xdist_group("other"))])
@m.usefixtures(*["recovery_deadline"])
def test_param(x):
    arm(1)
    sig.setitimer(sig.ITIMER_REAL, f"{sig.alarm(2)}")


class TestPatch:
    pytestmark = m.usefixtures("recovery_deadline")

    def test_patch(self, monkeypatch):
        monkeypatch.setattr("toysdk.client.Client", None)
        with p("toysdk.x"):
            setitimer(0, 1)
`,
		"tests/test_grouped.py": `import pytest

GROUP = pytest.mark.xdist_group("g")


def test_y():
    pass
`,
		"tests/test_star.py": `from signal import *
import pytest


@pytest.fixture
def own():
    alarm(5)
    yield


def test_own(own):
    signal(SIGALRM, handler)
    print(len(str(f"{alarm(1)}")))
`,
	}
	root := testenv.WriteTree(t, files)
	trees := []agreeTree{{root, testSpec(root), []string{"tests"}}, inboxTree(t)}
	checkAgrees(t, trees, true, "keeping the calls read", "keeping every call", suite.KeepEveryCall)
}
