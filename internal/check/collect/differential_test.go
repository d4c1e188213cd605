package collect

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/check/finding"
	checkrules "github.com/fixturegen/fixturegen/internal/check/rules"
	"github.com/fixturegen/fixturegen/internal/gen/plan"
	"github.com/fixturegen/fixturegen/internal/gen/render"
	"github.com/fixturegen/fixturegen/internal/gen/write"
	"github.com/fixturegen/fixturegen/internal/python/pytestcfg"
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/internal/relpath"
	"github.com/fixturegen/fixturegen/internal/testenv"
	"github.com/fixturegen/fixturegen/schema"
)

// The differential test runs the static check and check --collect on the
// same trees and asserts that they agree: on which tests exist, which of
// them use the deadline fixture, and on the findings of the rules both
// judge. A disagreement is a blind spot of the static model.

// TestStaticModelAgreesOnTheExample: the bundled example.
func TestStaticModelAgreesOnTheExample(t *testing.T) {
	python := testenv.Python(t)
	root, err := testenv.Root()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := testenv.CopyTree(filepath.Join(root, "examples", "inbox"), dir); err != nil {
		t.Fatal(err)
	}
	agree(t, dir, python, 9)
}

// treeSpec is the spec of the generated tree; its probe cases name one
// node that collects and one that does not.
const treeSpec = `version = 1

[deadline]
fixture = "deadline"
seconds = 5

[preload]
fixture = "preload"
modules = ["json"]

[group]
name = "sdk"

[paths]
conftest = "tests/conftest.py"
probe_plugin = "tests/probe_plugin.py"
probe_tests = "tests/test_probe.py"

[[probe.case]]
test = "test_probe_method"
node = "tests/marks/test_marks.py::TestMarked::test_method[2]"

[[probe.case]]
test = "test_probe_gone"
node = "tests/marks/test_marks.py::test_gone"
`

// treeFiles are the situations of the generated tree, each a few files
// under tests/ and, if it needs them, lines for the [pytest] section of
// pytest.ini. To teach the static model a new one, add an entry: the test
// then asserts that the model reads it as pytest does.
var treeFiles = []struct {
	what  string
	files map[string]string
	ini   []string
	// ignored counts the test functions of files that pytest must not
	// collect (the settings exclude them).
	ignored int
	// inherited counts the tests pytest collects beyond the test
	// functions written: a class collects the test methods of its bases
	// (and a base outside a test module, none of its own).
	inherited int
}{
	{what: "an autouse conftest fixture that depends on the deadline, with and without the group", files: map[string]string{
		"tests/autouse/conftest.py": `import pytest


@pytest.fixture(autouse=True)
def watchdog(deadline):
    yield
`,
		"tests/autouse/test_watched.py": `def test_watched():
    pass


def test_also_watched():
    pass
`,
		"tests/autouse/grouped/test_grouped.py": `import pytest

pytestmark = pytest.mark.xdist_group("sdk")


def test_grouped():
    pass
`,
	}},
	{what: "an autouse fixture of a class", files: map[string]string{
		"tests/classes/test_class_autouse.py": `import pytest


class TestArmed:
    pytestmark = pytest.mark.xdist_group("sdk")

    @pytest.fixture(autouse=True)
    def _armed(self, deadline):
        yield

    def test_armed(self):
        pass


class TestPlain:
    def test_plain(self):
        pass
`,
	}},
	{what: "a deadline override that wraps the generated one, and one that drops the preload", files: map[string]string{
		"tests/wrapped/conftest.py": `import pytest


@pytest.fixture
def deadline(deadline):
    yield
`,
		"tests/wrapped/test_wrapped.py": `import pytest

pytestmark = pytest.mark.xdist_group("sdk")


def test_wrapped(deadline):
    pass
`,
		"tests/dropped/conftest.py": `import pytest


@pytest.fixture
def deadline():
    yield
`,
		"tests/dropped/test_dropped.py": `def test_dropped(deadline):
    pass
`,
	}},
	{what: "a fixture that carries the deadline, overridden below by one that does not", files: map[string]string{
		"tests/carrier/conftest.py": `import pytest


@pytest.fixture
def armed(deadline):
    yield
`,
		"tests/carrier/test_carried.py": `def test_carried(armed):
    pass
`,
		"tests/carrier/plain/conftest.py": `import pytest


@pytest.fixture
def armed():
    yield
`,
		"tests/carrier/plain/test_not_carried.py": `def test_not_carried(armed):
    pass
`,
	}},
	{what: "usefixtures and group marks on modules, classes and parameters", files: map[string]string{
		"tests/marks/test_marks.py": `import pytest

pytestmark = pytest.mark.usefixtures("deadline")


@pytest.mark.xdist_group("sdk")
def test_marked():
    pass


def test_unmarked():
    pass


@pytest.mark.xdist_group("sdk")
class TestMarked:
    @pytest.mark.parametrize("n", [1, 2])
    def test_method(self, n):
        assert n
`,
		"tests/marks/test_other_group.py": `import pytest

pytestmark = [pytest.mark.xdist_group("other"), pytest.mark.usefixtures("deadline")]


def test_elsewhere():
    pass
`,
	}},
	{what: "unittest.TestCase subclasses, named as pytest's class pattern would not find them", files: map[string]string{
		"tests/units/test_units.py": `import unittest

import pytest

pytestmark = pytest.mark.usefixtures("deadline")


class ReconnectTests(unittest.TestCase):
    def test_reconnects(self):
        pass

    def helper(self):
        pass


class Base(unittest.TestCase):
    pass


class DerivedChecks(Base):
    def test_derived(self):
        pass
`,
		"tests/units/test_grouped_units.py": `import unittest

import pytest

pytestmark = [pytest.mark.xdist_group("sdk"), pytest.mark.usefixtures("deadline")]


class GroupedChecks(unittest.TestCase):
    def test_grouped_unit(self):
        pass
`,
	}},
	{what: "test classes that inherit test methods from bases in a helper module and in their own, and one a test module imports", inherited: 4, files: map[string]string{
		"tests/inherit/test_imported.py": `from tests.inherit.helpers import ChannelChecks, PumpChecks


class TestPumpHere(PumpChecks):
    def test_here(self):
        pass
`,
		"tests/inherit/helpers.py": `import unittest


class ChannelChecks(unittest.TestCase):
    def test_opens(self):
        pass

    def test_closes(self):
        pass

    def helper(self):
        pass


class PumpChecks:
    def test_pumps(self):
        pass
`,
		"tests/inherit/test_inherit.py": `from tests.inherit import helpers


class LocalChannelTests(helpers.ChannelChecks):
    def test_local(self):
        pass

    def test_closes(self):
        pass


class TestPump(helpers.PumpChecks):
    pass


class TestPumpAgain(TestPump):
    def test_again(self):
        pass


class TestPumpThird(TestPump):
    pass
`,
	}},
	{what: "collection settings whose patterns hold a slash", ignored: 1, ini: []string{
		"python_files = test_*.py tests/special/*.py",
		"norecursedirs = tests/skipme .* build",
	}, files: map[string]string{
		"tests/special/checks_special.py": `import pytest

pytestmark = pytest.mark.usefixtures("deadline")


def test_special():
    pass
`,
		"tests/skipme/test_skipped.py": `import pytest

pytestmark = pytest.mark.usefixtures("deadline")


def test_skipped():
    pass
`,
	}},
}

// testDef matches the definition of a test function or method.
var testDef = regexp.MustCompile(`(?m)^\s*def test_`)

// TestStaticModelAgreesOnAGeneratedTree: autouse and overridden fixtures,
// unittest classes and collection settings with path patterns.
func TestStaticModelAgreesOnAGeneratedTree(t *testing.T) {
	python := testenv.Python(t)
	dir := t.TempDir()
	ini := []string{"[pytest]", "pythonpath = ."}
	files := map[string]string{"fixturegen.toml": treeSpec}
	tests := 0
	for _, situation := range treeFiles {
		ini = append(ini, situation.ini...)
		tests += situation.inherited - situation.ignored
		for name, text := range situation.files {
			files[name] = text
			tests += len(testDef.FindAllString(text, -1))
		}
	}
	files["pytest.ini"] = strings.Join(ini, "\n") + "\n"
	for name, text := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	spec, err := schema.Load(filepath.Join(dir, "fixturegen.toml"))
	if err != nil {
		t.Fatal(err)
	}
	changes, err := plan.Make(spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range changes {
		if err := write.File(ch.Abs, ch.New); err != nil {
			t.Fatal(err)
		}
	}
	gap := agree(t, dir, python, tests)
	// The tree holds every rule both judge, so agreement is not agreement
	// on nothing.
	if gap.rules[checkrules.RuleMissingGroup] == 0 || gap.rules[checkrules.RuleDeadlinePreload] == 0 || gap.rules[checkrules.RuleProbeNode] == 0 {
		t.Errorf("the tree should give missing-group, deadline-without-preload and probe-node findings; got %v", gap.rules)
	}
}

// agreement is what both views found, for the callers' own checks.
type agreement struct {
	rules map[string]int // findings per rule
}

// agree runs both views on the project in dir and fails t where they
// differ; want is the number of test functions both must see.
func agree(t *testing.T, dir, python string, want int) agreement {
	t.Helper()
	spec, err := schema.Load(filepath.Join(dir, "fixturegen.toml"))
	if err != nil {
		t.Fatal(err)
	}
	static, planned := staticCheck(t, spec)
	view, err := Run(spec, python, nil)
	if err != nil {
		if ce, ok := err.(*CollectionError); ok {
			t.Fatalf("%v\n%s", err, ce.Output)
		}
		t.Fatal(err)
	}
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	collected := Findings(spec, view, cwd)

	gap := Compare(view, static.Tests, planned, cwd)
	if len(gap.Missed) > 0 || len(gap.NotCollected) > 0 {
		t.Errorf("tests: pytest collects, the static model did not see: %v; the static model saw, pytest does not collect: %v", gap.Missed, gap.NotCollected)
	}
	if gap.Agree != want {
		t.Errorf("both see %d tests, want %d", gap.Agree, want)
	}

	// Which tests use the deadline fixture.
	var staticUsers, pytestUsers []string
	for _, u := range static.Users {
		for _, use := range u.Uses {
			path := u.Path
			if !filepath.IsAbs(path) {
				path = filepath.Join(cwd, path)
			}
			staticUsers = appendOnce(staticUsers, relpath.Rel(cwd, path)+"::"+strings.ReplaceAll(use.Test, ".", "::"))
		}
	}
	for _, it := range view.Items {
		if it.Python && !planned[it.Path] && slices.Contains(it.Fixtures, spec.Deadline.Fixture) {
			pytestUsers = appendOnce(pytestUsers, relpath.Rel(cwd, it.Path)+"::"+it.Test)
		}
	}
	sameSet(t, "tests that use the deadline fixture", staticUsers, pytestUsers)

	// The findings of the rules both judge, where they are reported: the
	// module for missing-group (the static check names a module once, at
	// its first test), the fixture's line for deadline-without-preload, the
	// spec's line for probe-node.
	got := agreement{rules: map[string]int{}}
	key := func(f finding.Finding) string {
		if f.Rule == checkrules.RuleMissingGroup {
			return f.Rule + " " + f.Path
		}
		return f.Rule + " " + f.Path + ":" + strconv.Itoa(f.Line)
	}
	var staticFound, pytestFound []string
	for _, f := range static.Findings {
		if replaced(f.Rule) {
			staticFound = appendOnce(staticFound, key(f))
		}
	}
	for _, f := range collected {
		if f.Rule == RuleGroupVoid {
			t.Errorf("group-void on pytest %s with the generated guard: %s", view.Pytest, f.Message)
			continue
		}
		pytestFound = appendOnce(pytestFound, key(f))
		got.rules[f.Rule]++
	}
	sameSet(t, "findings", staticFound, pytestFound)
	return got
}

// staticCheck runs the static check as fixturegen check does, asking for
// every test and every deadline user; planned holds the generated files.
func staticCheck(t *testing.T, spec *schema.Spec) (*checkrules.Result, map[string]bool) {
	t.Helper()
	changes, err := plan.SurveyPython(spec)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := pytestcfg.Plain(spec.Dir)
	if err != nil {
		t.Fatal(err)
	}
	opts := checkrules.Options{GeneratedNames: render.RegionNames(spec), Options: suite.Options{Spec: spec, Planned: map[string]bool{},
		Config: cfg, ListTests: true, ListUsers: true}}
	for _, ch := range changes {
		if ch.Region {
			opts.Conftest = ch.Abs
		} else {
			opts.Planned[ch.Abs] = true
		}
	}
	for _, r := range suite.DefaultRoots(spec) {
		if _, err := os.Stat(r); err == nil {
			opts.Roots = append(opts.Roots, r)
		}
	}
	res, err := checkrules.Check(opts)
	if err != nil {
		t.Fatal(err)
	}
	return res, opts.Planned
}

func sameSet(t *testing.T, what string, static, pytest []string) {
	t.Helper()
	sort.Strings(static)
	sort.Strings(pytest)
	if !slices.Equal(static, pytest) {
		t.Errorf("%s disagree:\n  static check:     %q\n  check --collect:  %q", what, static, pytest)
	}
}

func appendOnce(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}
