package suite_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/internal/testenv"
)

// A test module that derives from a timed test base is read for it,
// whether the walk meets it before the base's module (it is read again)
// or after (run leaves it for Read, which reads it once), unless the
// base's module is one collect_ignore leaves out; and a base found only
// in a module read for a fixture that depends on the deadline fixture
// still has its test modules read.
func TestTestModulesAreReadForTheirTimedBases(t *testing.T) {
	const timedCase = `import signal
import unittest


class %s(unittest.TestCase):
    def setUp(self):
        signal.alarm(5)
`
	derived := func(module, base string) string {
		return "from " + module + " import " + base + "\n\n\nclass TestDerived(" + base + ")" + `:
    def test_it(self):
        pass
`
	}
	files := map[string]string{
		"tests/conftest.py": `import pytest

collect_ignore = ["ignored_base.py"]


@pytest.fixture
def watch(recovery_deadline):
    yield
`,
		// With one reader, in the walk's order: a test module before any
		// timed base, a base, then test modules after it, one in another
		// folder than its base's.
		"tests/_early_test.py":   derived("zz_base", "LateCase"),
		"tests/a_base.py":        fmt.Sprintf(timedCase, "FirstCase"),
		"tests/b_test.py":        derived("a_base", "FirstCase"),
		"tests/c/test_nested.py": derived("z.base", "NestedCase"),
		"tests/z/base.py":        fmt.Sprintf(timedCase, "NestedCase"),
		"tests/zz_base.py":       fmt.Sprintf(timedCase, "LateCase"),
		"tests/ignored_base.py":  fmt.Sprintf(timedCase, "IgnoredCase"),
		"tests/test_ignored.py":  derived("ignored_base", "IgnoredCase"),
		// Read only for its fixture "watch" when the timer calls are not
		// looked for.
		"tests/watched_base.py": `import signal
import unittest

import pytest


@pytest.mark.usefixtures("watch")
class WatchedCase(unittest.TestCase):
    def setUp(self):
        signal.alarm(5)
`,
		"tests/test_watched.py": derived("watched_base", "WatchedCase"),
		"tests/test_plain.py":   "def test_plain():\n    pass\n",
	}
	root := testenv.WriteTree(t, files)
	t.Chdir(root)
	read := func(calls []string, workers int) map[string][]string {
		t.Helper()
		spec := testSpec(root)
		tree, err := suite.Read(suite.Options{Spec: spec, Roots: []string{"tests"}, Conftest: filepath.Join(root, "tests", "conftest.py"),
			Fixtures: []string{spec.Deadline.Fixture}, Calls: calls, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		q := tree.Query()
		got := map[string][]string{}
		for _, src := range tree.Sources {
			var bases []string
			if src.Test {
				for _, tc := range q.TimedClasses(src) {
					bases = append(bases, src.Mod.Defs[tc.Class].Name+"("+tc.Base.Src.Mod.Defs[tc.Base.Class].Name+")")
				}
			}
			got[filepath.ToSlash(src.Path)] = bases
		}
		return got
	}
	for _, workers := range []int{1, 0} {
		withCalls := read(suite.TimerWords, workers)
		for p, base := range map[string]string{"tests/_early_test.py": "LateCase", "tests/b_test.py": "FirstCase", "tests/c/test_nested.py": "NestedCase", "tests/test_watched.py": "WatchedCase"} {
			if b, want := withCalls[p], []string{"TestDerived(" + base + ")"}; !slices.Equal(b, want) {
				t.Errorf("%d readers, %s: timed classes %q, want %q", workers, p, b, want)
			}
		}
		for _, p := range []string{"tests/test_ignored.py", "tests/ignored_base.py", "tests/test_plain.py"} {
			if _, ok := withCalls[p]; ok {
				t.Errorf("%d readers: %s was tokenized; nothing in it matters", workers, p)
			}
		}
		// Without the timer calls, the base of tests/test_watched.py is
		// read for its fixture alone, after the test modules.
		noCalls := read(nil, workers)
		if b := noCalls["tests/test_watched.py"]; !slices.Equal(b, []string{"TestDerived(WatchedCase)"}) {
			t.Errorf("%d readers, without the timer calls, tests/test_watched.py: timed classes %q, want TestDerived(WatchedCase)", workers, b)
		}
		if _, ok := noCalls["tests/b_test.py"]; ok {
			t.Errorf("%d readers, without the timer calls: tests/b_test.py was tokenized, but no module read names its base's timer", workers)
		}
	}
}
