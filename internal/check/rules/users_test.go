package rules

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/python/pytestcfg"
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/internal/testenv"
)

// Users names each module whose tests run under the deadline, and how each
// test gets there: the reference's table of "modules that use the alarm".
func TestUsers(t *testing.T) {
	files := map[string]string{
		"tests/conftest.py": `import pytest


@pytest.fixture
def recovery_deadline(toy_sdk):
    yield


@pytest.fixture
def channel(recovery_deadline):
    yield
`,
		"tests/test_marked.py": `import pytest

pytestmark = [pytest.mark.xdist_group("g"), pytest.mark.usefixtures("toy_sdk", "recovery_deadline")]


def test_a():
    pass


class TestB:
    def test_b(self):
        pass
`,
		"tests/test_pump.py": `import pytest


@pytest.fixture(autouse=True)
def watchdog(recovery_deadline):
    yield


def test_drain():
    pass
`,
		"tests/test_mixed.py": `import pytest


def test_param(recovery_deadline):
    pass


def test_through_channel(channel):
    pass


@pytest.mark.usefixtures("recovery_deadline")
def test_decorated():
    pass


def test_plain():
    pass
`,
		"tests/test_none.py": "def test_nothing():\n    pass\n",
	}
	root := testenv.WriteTree(t, files)
	t.Chdir(root)
	spec := treeSpec(root, "recovery_deadline", "toy_sdk", "g")
	res, err := Check(Options{Options: suite.Options{Spec: spec, Roots: []string{"tests"}, Planned: map[string]bool{}, ListUsers: true}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range res.Users {
		var uses []string
		for _, use := range u.Uses {
			uses = append(uses, fmt.Sprintf("%s %s %s %d:%d", use.Test, use.How, use.Via, use.Line, use.Col))
		}
		got = append(got, fmt.Sprintf("%s (%d tests): %s", u.Path, u.Tests, strings.Join(uses, "; ")))
	}
	want := []string{
		"tests/test_marked.py (2 tests): test_a pytestmark  3:80; TestB.test_b pytestmark  3:80",
		"tests/test_mixed.py (4 tests): test_param parameter recovery_deadline 4:16; test_through_channel parameter channel 8:26; test_decorated usefixtures  12:26",
		"tests/test_pump.py (1 tests): test_drain autouse watchdog 9:5",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("users:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A spec without [group] keeps no tests together, so the group rules stay
// silent, while the same tree under a spec with a group is reported. The
// conftest is shaped like the generated region: pytest is imported inside
// the loader under a private name, which check still reads as pytest.
func TestNoGroup(t *testing.T) {
	root := testenv.WriteTree(t, map[string]string{
		"tests/conftest.py": `# fixturegen:begin -- generated from "fixturegen.toml" by fixturegen generate
def _fixturegen_load():
    import pytest as _fixturegen_pytest

    return None, _fixturegen_pytest


_fixturegen, _fixturegen_pytest = _fixturegen_load()


@_fixturegen_pytest.fixture
def preload():
    yield


@_fixturegen_pytest.fixture(autouse=True)
def per_test_timeout(preload):
    yield from _fixturegen.deadline()


# fixturegen:end
`,
		"tests/test_plain.py": "def test_plain(per_test_timeout):\n    pass\n",
		"pytest.ini":          "[pytest]\naddopts = -n 2\n",
	})
	t.Chdir(root)
	cfg, err := pytestcfg.Plain(root)
	if err != nil || cfg == nil {
		t.Fatalf("the pytest.ini is not found: %v", err)
	}
	spec := treeSpec(root, "per_test_timeout", "preload", "")
	for _, group := range []string{"", "g", "g, empty preload"} {
		spec.Group.Name, _, _ = strings.Cut(group, ",")
		if strings.HasSuffix(group, "empty preload") {
			spec.Preload.Modules = nil
		}
		res, err := Check(Options{Options: suite.Options{Spec: spec, Roots: []string{"tests"}, Planned: map[string]bool{}, ListUsers: true, ListGroup: true,
			Config: cfg, Conftest: filepath.Join(root, "tests", "conftest.py")}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Users) != 1 || res.Users[0].Path != "tests/test_plain.py" {
			t.Errorf("group %q: users %+v, want tests/test_plain.py", group, res.Users)
		}
		var rules []string
		for _, f := range res.Findings {
			rules = append(rules, f.Rule)
		}
		// An empty preload has no import for a group to keep on one
		// worker: neither the group nor --dist loadgroup is advised.
		want := ""
		if group == "g" {
			want = RuleDistLoadgroup + " " + RuleMissingGroup
		}
		slices.Sort(rules)
		if got := strings.Join(rules, " "); got != want {
			t.Errorf("group %q: findings %q, want %q", group, got, want)
		}
	}
}
