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
	"github.com/fixturegen/fixturegen/schema"
)

// treeSpec is a spec for a tree written under root: its deadline and
// preload fixtures, its group ("" for none), and the conftest at
// tests/conftest.py. Its preload imports the standard library's json, so
// that the group has a module to keep on one worker.
func treeSpec(root, deadline, preload, group string) *schema.Spec {
	return &schema.Spec{
		Deadline: schema.Deadline{Fixture: deadline},
		Preload:  schema.Preload{Fixture: preload, Modules: []string{"json"}},
		Group:    schema.Group{Name: group},
		Paths:    schema.Paths{Conftest: "tests/conftest.py"},
		File:     "fixturegen.toml",
		Dir:      root,
	}
}

// checkTree writes files (a "->" value makes a symbolic link) under a new
// folder, runs Check there on tests/ with the pytest configuration it
// finds, and returns the findings as "path:line:col rule" lines, and the
// messages by those lines.
func checkTree(t *testing.T, files map[string]string) ([]string, map[string]string) {
	t.Helper()
	return checkTreeWith(t, files, nil)
}

// checkTreeWith is checkTree with a spec that edit changes, if not nil.
func checkTreeWith(t *testing.T, files map[string]string, edit func(*schema.Spec)) ([]string, map[string]string) {
	t.Helper()
	root := testenv.WriteTree(t, files)
	t.Chdir(root)
	cfg, err := pytestcfg.Plain(root)
	if err != nil {
		t.Fatal(err)
	}
	spec := treeSpec(root, "recovery_deadline", "toy_sdk", "g")
	if edit != nil {
		edit(spec)
	}
	res, err := Check(Options{Options: suite.Options{Spec: spec, Roots: []string{"tests"}, Planned: map[string]bool{},
		Conftest: filepath.Join(root, "tests", "conftest.py"), Config: cfg}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	msgs := map[string]string{}
	for _, f := range res.Findings {
		key := fmt.Sprintf("%s:%d:%d %s", filepath.ToSlash(f.Path), f.Line, f.Col, f.Rule)
		if f.Severity == "warning" {
			key += " warning"
		}
		got = append(got, key)
		msgs[key] = f.Message
	}
	slices.Sort(got)
	return got, msgs
}

const deadlineModule = `import pytest

pytestmark = pytest.mark.usefixtures("recovery_deadline")


def test_x():
    pass
`

func TestStaticModelMatchesPytest(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string
		// msgs are substrings the message at a finding must hold, or
		// (with a leading "!") must not.
		msgs map[string]string
	}{
		{
			name: "unittest case whatever its name, under the module's pytestmark",
			files: map[string]string{
				"tests/conftest.py": testenv.RegionConftest,
				"tests/test_reconnect.py": `import signal
import unittest

import pytest

pytestmark = pytest.mark.usefixtures("recovery_deadline")


class ReconnectTests(unittest.TestCase):
    def setUp(self):
        signal.alarm(2)

    def test_reconnect(self):
        signal.alarm(3)

    def helper(self):
        signal.alarm(4)
`,
			},
			want: []string{"tests/test_reconnect.py:6:38 missing-group"},
			msgs: map[string]string{"tests/test_reconnect.py:6:38 missing-group": "test test_reconnect uses recovery_deadline through usefixtures"},
		},
		{
			name: "a mixin's test methods run through the cases that inherit them",
			files: map[string]string{
				"tests/conftest.py": testenv.RegionConftest,
				"tests/test_selectors.py": `import signal
import unittest


class SelectorMixin:
    def test_interrupt(self):
        signal.alarm(1)

    def helper(self):
        signal.alarm(2)


class NotACase:
    def test_never(self):
        signal.alarm(3)


class SelectSelectorTest(SelectorMixin, unittest.TestCase):
    pass
`,
			},
			want: []string{
				"tests/test_selectors.py:10:9 own-timer",
				"tests/test_selectors.py:15:9 own-timer",
				"tests/test_selectors.py:7:9 own-timer",
			},
			msgs: map[string]string{
				"tests/test_selectors.py:7:9 own-timer":  "in test test_interrupt, which does not use",
				"tests/test_selectors.py:10:9 own-timer": "in helper helper",
				"tests/test_selectors.py:15:9 own-timer": "in helper test_never",
			},
		},
		{
			name: "unittest case through a class of the same module and one imported from another",
			files: map[string]string{
				"tests/conftest.py": testenv.RegionConftest,
				"tests/base.py":     "from unittest import TestCase as TC\n\n\nclass Case(TC):\n    pass\n",
				"tests/reexport.py": "from .base import Case\n",
				"tests/test_local.py": `import unittest
import pytest

pytestmark = pytest.mark.usefixtures("recovery_deadline")


class Base(unittest.TestCase):
    pass


class Derived(Base):
    def test_a(self):
        pass
`,
				"tests/test_imported.py": `import pytest
from tests.base import Case

pytestmark = pytest.mark.usefixtures("recovery_deadline")


class Imported(Case):
    def test_b(self):
        pass
`,
				"tests/test_reexported.py": `import pytest
from .reexport import Case

pytestmark = pytest.mark.usefixtures("recovery_deadline")


class Imported(Case):
    def test_c(self):
        pass
`,
				"tests/test_unknown.py": `import pytest
from somewhere.installed import Case

pytestmark = pytest.mark.usefixtures("recovery_deadline")


class Imported(Case):
    def test_d(self):
        pass
`,
			},
			want: []string{
				"tests/test_imported.py:4:38 missing-group",
				"tests/test_local.py:4:38 missing-group",
				"tests/test_reexported.py:4:38 missing-group",
			},
		},
		{
			name: "python_files and norecursedirs with a path, testpaths, --ignore, collect_ignore",
			files: map[string]string{
				"pytest.ini": "[pytest]\npython_files = test_*.py tests/special/*.py\nnorecursedirs = tests/skipme\n" +
					"testpaths = tests\naddopts = --ignore=tests/test_ignored.py --ignore-glob=*/old_*\n",
				"tests/conftest.py":              testenv.RegionConftest + "\ncollect_ignore = [\"legacy\"]\ncollect_ignore_glob = [\"*_py2.py\"]\n",
				"tests/special/check_x.py":       deadlineModule,
				"tests/special/test_y.py":        deadlineModule,
				"tests/other/check_z.py":         deadlineModule,
				"tests/skipme/test_skipped.py":   deadlineModule,
				"tests/sub/skipme/test_kept.py":  deadlineModule,
				"tests/test_ignored.py":          deadlineModule,
				"tests/old_stuff/test_old.py":    deadlineModule,
				"tests/legacy/test_legacy.py":    deadlineModule,
				"tests/test_thing_py2.py":        deadlineModule,
				"tests/sub/legacy/test_other.py": deadlineModule,
				"outside/test_outside.py":        deadlineModule,
			},
			want: []string{
				"tests/special/check_x.py:3:38 missing-group",
				"tests/special/test_y.py:3:38 missing-group",
				"tests/sub/legacy/test_other.py:3:38 missing-group",
				"tests/sub/skipme/test_kept.py:3:38 missing-group",
			},
		},
		{
			name: "testpaths narrows the test modules",
			files: map[string]string{
				"pytest.ini":              "[pytest]\ntestpaths = tests/unit tests/test_top.py\n",
				"tests/conftest.py":       testenv.RegionConftest,
				"tests/unit/test_a.py":    deadlineModule,
				"tests/other/test_b.py":   deadlineModule,
				"tests/test_top.py":       deadlineModule,
				"tests/test_not_named.py": deadlineModule,
			},
			want: []string{"tests/test_top.py:3:38 missing-group", "tests/unit/test_a.py:3:38 missing-group"},
		},
		{
			name: "suppression comments",
			files: map[string]string{
				"tests/conftest.py": testenv.RegionConftest,
				"tests/test_timer.py": `import signal


def test_a():
    signal.alarm(1)  # fixturegen: ignore[own-timer]


def test_b():
    signal.alarm(2)  # fixturegen: ignore[missing-group]


def test_c():
    signal.alarm(3)  # fixturegen: ignore


def test_d():
    signal.alarm(4)  # fixturegen: ignore[own-timer, no-such-rule]
`,
			},
			want: []string{"tests/test_timer.py:17:24 unknown-rule warning", "tests/test_timer.py:9:5 own-timer"},
		},
		{
			name: "names resolved by scope",
			files: map[string]string{
				"tests/conftest.py": testenv.RegionConftest,
				"tests/test_names.py": `import signal as real_signal
from signal import alarm


class Signal:
    def alarm(self, n):
        pass


signal = Signal()


def test_object():
    signal.alarm(11)


def test_lambda():
    alarm = lambda n: None
    alarm(13)


def test_imported():
    alarm(1)


def test_parenthesized():
    (real_signal.alarm)(5)


def test_fstring():
    print(f"{real_signal.alarm(3)}")
`,
				"tests/test_star.py": "from signal import *\n\n\ndef test_star():\n    alarm(1)\n    signal(SIGALRM, None)\n",
			},
			want: []string{
				"tests/test_names.py:23:5 own-timer",
				"tests/test_names.py:27:6 own-timer",
				"tests/test_names.py:31:14 own-timer",
				"tests/test_star.py:5:5 own-timer",
				"tests/test_star.py:6:5 own-timer",
			},
		},
		{
			name: "a syntax error in the region's conftest is an error, elsewhere a warning",
			files: map[string]string{
				"tests/conftest.py":     testenv.RegionConftest + "\nx = (\n",
				"tests/test_broken.py":  "import pytest\n\n\ndef test_f(recovery_deadline):\n    x = '''never closed\n",
				"tests/sub/conftest.py": "y = )\n",
			},
			want: []string{
				"tests/conftest.py:18:5 syntax", // the "(" never closed, where CPython reports it
				"tests/sub/conftest.py:1:5 syntax warning",
				"tests/test_broken.py:4:12 missing-group",
				"tests/test_broken.py:5:9 syntax warning",
			},
		},
		{
			name: "links: the walk stays in the tree, reports loops, and knows the region by its markers",
			files: map[string]string{
				"tests/conftest.py":         testenv.RegionConftest,
				"tests/a_link":              "->$ROOT/tests",
				"tests/sub/a_link":          "->$ROOT/tests",
				"tests/sub/loop":            "->..",
				"tests/out":                 "->$ROOT/outside",
				"outside/test_outside.py":   deadlineModule,
				"tests/test_in.py":          "def test_x(recovery_deadline):\n    pass\n",
				"tests/test_linked_file.py": "->$ROOT/outside/test_outside.py",
			},
			want: []string{
				"tests/a_link:1:1 symlink-loop warning",
				"tests/out:1:1 symlink-outside warning",
				"tests/sub/a_link:1:1 symlink-loop warning",
				"tests/sub/loop:1:1 symlink-loop warning",
				"tests/test_in.py:1:12 missing-group",
				"tests/test_linked_file.py:3:38 missing-group",
			},
		},
		{
			name: "a declared encoding is decoded",
			files: map[string]string{
				"tests/conftest.py": testenv.RegionConftest,
				"tests/test_koi8.py": "# -*- coding: koi8-r -*-\nimport pytest\n\n# \xf0\xd2\xc9\xd7\xc5\xd4\npytestmark = pytest.mark.usefixtures(\"recovery_deadline\")\n\n\n" +
					"def test_\xd0(): # a name in Cyrillic\n    pass\n",
				"tests/test_sjis.py": "# coding: shift_jis\nimport pytest\n\n\n@pytest.mark.usefixtures(\"recovery_deadline\")\ndef test_a():\n    s = '\x82\xa0'\n",
			},
			want: []string{"tests/test_koi8.py:5:38 missing-group", "tests/test_sjis.py:5:26 missing-group"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, msgs := checkTree(t, tt.files)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
				for _, k := range got {
					t.Logf("%s: %s", k, msgs[k])
				}
			}
			for k, sub := range tt.msgs {
				if !strings.Contains(msgs[k], sub) {
					t.Errorf("%s: message %q lacks %q", k, msgs[k], sub)
				}
			}
		})
	}
}

// A tree scanned through a link reaches the region's conftest by another
// name; its region is still known by its markers, so neither its fixtures
// nor its timer are taken for user code.
func TestRegionKnownThroughALink(t *testing.T) {
	root := testenv.WriteTree(t, map[string]string{
		"tests/conftest.py": testenv.RegionConftest,
		"tests/test_in.py":  "import pytest\n\n\n@pytest.mark.xdist_group('g')\ndef test_x(recovery_deadline):\n    pass\n",
		"tests/probe.py":    "# Code generated by fixturegen from \"fixturegen.toml\". DO NOT EDIT.\nimport signal\nsignal.alarm(1)\n",
		"view":              "->$ROOT/tests",
	})
	t.Chdir(root)
	spec := treeSpec(root, "recovery_deadline", "toy_sdk", "g")
	res, err := Check(Options{Options: suite.Options{Spec: spec, Roots: []string{"view"}, Planned: map[string]bool{filepath.Join(root, "tests", "probe.py"): true},
		Conftest: filepath.Join(root, "tests", "conftest.py")}, GeneratedNames: []string{"toy_sdk", "recovery_deadline"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Findings {
		t.Errorf("%s:%d:%d: %s %s", f.Path, f.Line, f.Col, f.Rule, f.Message)
	}
	// The planned probe file is not an orphan for being reached by
	// another name.
	if len(res.Generated) > 0 {
		t.Errorf("generated files not planned: %v", res.Generated)
	}
}
