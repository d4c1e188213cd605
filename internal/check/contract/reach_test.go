package contract

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/fixturegen/fixturegen/internal/check/pytestcfg"
	"github.com/fixturegen/fixturegen/schema"
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
		"tests/conftest.py": regionConftest + `
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
	spec := &schema.Spec{
		Deadline: schema.Deadline{Fixture: "recovery_deadline"},
		Preload:  schema.Preload{Fixture: "toy_sdk", Modules: []string{"toysdk"}},
		Group:    schema.Group{Name: "g"},
		Paths:    schema.Paths{Conftest: "tests/conftest.py"},
		File:     "fixturegen.toml",
		Dir:      root,
	}
	inbox, err := filepath.Abs("../../../examples/inbox")
	if err != nil {
		t.Fatal(err)
	}
	inboxSpec, err := schema.Load(filepath.Join(inbox, "fixturegen.toml"))
	if err != nil {
		t.Fatal(err)
	}
	type tree struct {
		dir   string
		spec  *schema.Spec
		roots []string
	}
	trees := []tree{{root, spec, []string{"tests", "other"}}, {inbox, inboxSpec, []string{"tests"}}}
	for _, dir := range []string{"/root/.pyenv/versions/3.11.7/lib/python3.11/test", "/tmp/sympy"} {
		if _, err := os.Stat(dir); err == nil {
			for _, name := range []string{"recovery_deadline", "timeout"} {
				s := *spec
				s.Deadline.Fixture = name
				trees = append(trees, tree{root, &s, []string{dir}})
			}
		}
	}
	found := 0
	for _, tr := range trees {
		t.Chdir(tr.dir)
		cfg, err := pytestcfg.Find(tr.dir)
		if err != nil {
			t.Fatal(err)
		}
		check := func() (string, int) {
			res, err := Check(Options{Spec: tr.spec, Roots: tr.roots, Planned: map[string]bool{},
				Conftest: filepath.Join(tr.dir, "tests", "conftest.py"), Config: cfg, ListGroup: true, ListUsers: true})
			if err != nil {
				t.Fatal(err)
			}
			return fmt.Sprintf("%+v", *res), len(res.Findings) + len(res.Users)
		}
		fast, n := check()
		reachShortcut = false
		plain, _ := check()
		reachShortcut = true
		found += n
		if fast != plain {
			t.Errorf("%s %v: with mayReach the check finds\n%s\nfollowing every def\n%s", tr.dir, tr.roots, fast, plain)
		}
	}
	if found == 0 {
		t.Error("the trees gave no finding and no user to compare")
	}
}
