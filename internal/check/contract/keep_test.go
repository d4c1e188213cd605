package contract

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/fixturegen/fixturegen/internal/check/pytestcfg"
	"github.com/fixturegen/fixturegen/schema"
)

// The scan keeps only the calls the rules read (readCalls): a check that
// keeps every call finds the same, members, users and tests included, on
// modules that reach those calls in every way the rules follow.
func TestKeptCallsAreTheOnesRead(t *testing.T) {
	files := map[string]string{
		"tests/conftest.py": regionConftest + `
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
	root := t.TempDir()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	inbox, err := filepath.Abs("../../../examples/inbox")
	if err != nil {
		t.Fatal(err)
	}
	inboxSpec, err := schema.Load(filepath.Join(inbox, "fixturegen.toml"))
	if err != nil {
		t.Fatal(err)
	}
	spec := &schema.Spec{
		Deadline: schema.Deadline{Fixture: "recovery_deadline"},
		Preload:  schema.Preload{Fixture: "toy_sdk", Modules: []string{"toysdk"}},
		Group:    schema.Group{Name: "g"},
		Paths:    schema.Paths{Conftest: "tests/conftest.py"},
		File:     "fixturegen.toml",
		Dir:      root,
	}
	for _, tree := range []struct {
		dir  string
		spec *schema.Spec
	}{{root, spec}, {inbox, inboxSpec}} {
		t.Chdir(tree.dir)
		cfg, err := pytestcfg.Find(tree.dir)
		if err != nil {
			t.Fatal(err)
		}
		check := func() string {
			res, err := Check(Options{Spec: tree.spec, Roots: []string{"tests"}, Planned: map[string]bool{},
				Conftest: filepath.Join(tree.dir, "tests", "conftest.py"), Config: cfg, ListGroup: true, ListUsers: true, ListTests: true})
			if err != nil {
				t.Fatal(err)
			}
			return fmt.Sprintf("%+v", *res)
		}
		kept := check()
		saved := readCalls
		readCalls = nil
		all := check()
		readCalls = saved
		if kept != all {
			t.Errorf("%s: keeping the calls read finds\n%s\nkeeping every call\n%s", tree.dir, kept, all)
		}
	}
}
