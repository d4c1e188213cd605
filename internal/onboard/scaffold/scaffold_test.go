package scaffold

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/testenv"
	"github.com/fixturegen/fixturegen/schema"
)

func spec() *schema.Spec {
	return &schema.Spec{
		Deadline: schema.Deadline{Fixture: "recovery_deadline", Seconds: 2.5, Timer: schema.TimerReal},
		Preload:  schema.Preload{Fixture: "toy_sdk", Modules: []string{"toyredis", "toysdk.server.stdio"}},
		Group:    schema.Group{Name: `toy "sdk"`},
		Paths:    schema.Paths{Conftest: "tests/inbox/conftest.py", ProbePlugin: "tests/inbox/alarm_probe.py", ProbeTests: "tests/inbox/test_alarm.py"},
		Dir:      "/project",
	}
}

// The module marks the group and both fixtures, as pyscan (and so check)
// reads it, and is Python the tokenizer accepts.
func TestNew(t *testing.T) {
	m, err := New(spec(), "tests/inbox/sub/test_waker_reconnect.py")
	if err != nil {
		t.Fatal(err)
	}
	mod := pyscan.Scan(m.Content)
	if len(mod.Problems) > 0 {
		t.Fatalf("problems %v in\n%s", mod.Problems, m.Content)
	}
	var marks []string
	for _, c := range mod.Calls {
		var args []string
		for _, a := range c.Args {
			args = append(args, a.Value)
		}
		if c.Target == "pytestmark" {
			marks = append(marks, c.Callee+"("+strings.Join(args, ", ")+")")
		}
	}
	want := `pytest.mark.xdist_group(toy "sdk") pytest.mark.usefixtures(toy_sdk, recovery_deadline)`
	if strings.Join(marks, " ") != want {
		t.Errorf("pytestmark calls %q, want %q", marks, want)
	}
	if m.Test != "test_waker_reconnect_within_the_deadline" || !strings.Contains(string(m.Content), "\ndef "+m.Test+"():\n") {
		t.Errorf("test %q not defined in\n%s", m.Test, m.Content)
	}
	if !strings.Contains(string(m.Content), "after\n2.5 seconds of real time") {
		t.Errorf("the docstring does not give the deadline:\n%s", m.Content)
	}
	c := m.ProbeCase()
	if c.Test != "test_waker_reconnect_alarm_is_armed_only_after_the_preload" ||
		c.Node != "tests/inbox/sub/test_waker_reconnect.py::test_waker_reconnect_within_the_deadline" {
		t.Errorf("probe case %+v", c)
	}
}

func TestNewRefuses(t *testing.T) {
	for path, want := range map[string]string{
		"../test_x.py":                "outside the spec's folder",
		"tests/inbox/test_x.txt":      "does not end in .py",
		"tests/inbox/helpers.py":      "pytest would not collect it",
		"tests/inbox/test_x-y.py":     "not named after a Python identifier",
		"tests/test_x.py":             "is not below tests/inbox/",
		"tests/inbox/test_alarm.py":   "a file fixturegen generates",
		"tests/inbox/sub/x_test.py":   "",
		"tests/inbox/deep/test_ok.py": "",
	} {
		_, err := New(spec(), path)
		var se *Error
		switch {
		case want == "" && err != nil:
			t.Errorf("New(%s) = %v, want success", path, err)
		case want != "" && (!errors.As(err, &se) || !strings.Contains(err.Error(), want)):
			t.Errorf("New(%s) = %v, want an *Error containing %q", path, err, want)
		}
	}
}

// A scaffolded module is what ruff format writes, whatever the preload
// holds (nothing, one module, one too long for a line, several), and
// ruff check finds nothing in it: a user who runs either on the new module
// sees no change.
func TestModuleIsRuffClean(t *testing.T) {
	python := testenv.Python(t)
	ruff := filepath.Join(filepath.Dir(python), "ruff")
	if _, err := os.Stat(ruff); err != nil {
		t.Fatalf("no ruff beside %s (requirements-test.txt pins it): %v", python, err)
	}
	dir := t.TempDir()
	var files []string
	for name, modules := range map[string][]string{
		"test_none.py":    nil,
		"test_one.py":     {"toyredis"},
		"test_long.py":    {"a_very_long_package_name.with_a_submodule.and_another_one.and_a_last_one"},
		"test_several.py": {"toyredis", "toysdk.server.stdio"},
	} {
		s := spec()
		s.Preload.Modules = modules
		// ruff format writes a string that holds a double quote in single
		// quotes, which pyquote does not; a group name has none.
		s.Group.Name = "toy-sdk"
		m, err := New(s, "tests/inbox/"+name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), m.Content, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	format := exec.Command(ruff, append([]string{"format", "--isolated", "--no-cache", "--diff"}, files...)...)
	format.Dir = dir
	if out, err := format.CombinedOutput(); err != nil {
		t.Errorf("ruff format would change a scaffolded module (%v):\n%s", err, out)
	}
	check := exec.Command(ruff, append([]string{"check", "--isolated", "--no-cache", "--output-format", "concise"}, files...)...)
	check.Dir = dir
	if out, err := check.CombinedOutput(); err != nil {
		t.Errorf("ruff check finds problems in a scaffolded module (%v):\n%s", err, out)
	}
}
