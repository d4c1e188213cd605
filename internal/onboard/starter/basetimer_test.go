package starter

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/python/pytesttimeout"
	"github.com/fixturegen/fixturegen/schema"
)

const (
	helpersPy = `import signal
import unittest


def _too_slow(signum, frame):
    raise TimeoutError("too slow")


class TimedCase(unittest.TestCase):
    def setUp(self):
        signal.signal(signal.SIGALRM, HANDLER)
        signal.alarm(10)
`
	jobsPy = `from tests import helpers


class JobTests(helpers.TimedCase):
    def test_a_job_runs(self):
        self.assertEqual(2 + 2, 4)
`
	conftestPy = `import signal

import pytest


@pytest.fixture(AUTOUSE)
def _budget():
    signal.alarm(5)
    yield
    signal.alarm(0)
`
)

// baseTimerProject writes a project whose test base class in a helper
// module arms signal.alarm in setUp with handler, and whose conftest
// defines the deadline fixture _budget (autouse when autouse is set), and
// returns the spec init would write for it with values v.
func baseTimerProject(t *testing.T, handler string, autouse bool, v Values) *schema.Spec {
	dir := t.TempDir()
	deco := ""
	if autouse {
		deco = "autouse=True"
	}
	files := map[string]string{
		"pytest.ini":         "[pytest]\npythonpath = .\ntestpaths = tests\n",
		"tests/__init__.py":  "",
		"tests/helpers.py":   strings.Replace(helpersPy, "HANDLER", handler, 1),
		"tests/test_jobs.py": jobsPy,
		"tests/conftest.py":  strings.Replace(conftestPy, "AUTOUSE", deco, 1),
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v.Deadline.Fixture, v.Deadline.Autouse = "_budget", autouse
	s, err := schema.ParseTable(Text(v, nil), filepath.Join(dir, schema.DefaultFile), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A base class's timer whose handler can raise is found where the
// deadline does not run in its tests by default: not autouse, or opt-in.
// An autouse deadline armed by default covers it; a handler that returns,
// or a [shield] that holds SIGALRM already, needs nothing.
func TestFindBaseTimers(t *testing.T) {
	optIn := Defaults("tests")
	optIn.Deadline.ArmedWhenEnvSet, optIn.Deadline.SecondsEnv = true, []string{"SUITE_BUDGET"}
	shielded := ShieldBaseTimers(Defaults("tests"), []BaseTimer{{At: "x.py:1:1", Signal: schema.SignalAlarm}})
	for _, c := range []struct {
		name    string
		handler string
		autouse bool
		v       Values
		why     string // "" for no timer found
	}{
		{"autouse", "_too_slow", true, Defaults("tests"), ""},
		{"not autouse", "_too_slow", false, Defaults("tests"), "the deadline _budget is no autouse fixture"},
		{"opt-in", "_too_slow", true, optIn, "the deadline _budget arms nothing unless $SUITE_BUDGET is set"},
		{"handler returns", "lambda *args: None", false, Defaults("tests"), ""},
		{"shielded", "_too_slow", false, shielded, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := baseTimerProject(t, c.handler, c.autouse, c.v)
			got, err := FindBaseTimers(s, s.Dir)
			if err != nil {
				t.Fatal(err)
			}
			if c.why == "" {
				if len(got) != 0 {
					t.Fatalf("found %+v, want none", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("found %+v, want one timer", got)
			}
			bt := got[0]
			if bt.At != "tests/helpers.py:12:9" || bt.Base != "TimedCase" || bt.Method != "setUp" || bt.Signal != schema.SignalAlarm ||
				!slices.Equal(bt.Classes, []string{"JobTests (tests/test_jobs.py:4)"}) || !strings.HasPrefix(bt.Why, c.why) {
				t.Errorf("found %+v, want the alarm at tests/helpers.py:12:9, because %s", bt, c.why)
			}
		})
	}
}

// The shield init adds for a base class's timer holds its signal once,
// beside pytest-timeout's, and its comment names both places.
func TestShieldBaseTimersText(t *testing.T) {
	timeouts := &Timeouts{Root: "/project", Folder: "tests",
		Signal: []pytesttimeout.Place{{Kind: pytesttimeout.Ini, File: "/project/pytest.ini", Line: 5, Col: 11, Seconds: "2"}}}
	timers := []BaseTimer{{At: "tests/helpers.py:16:9", Signal: schema.SignalAlarm}}
	for name, v := range map[string]Values{
		"alone":               ShieldBaseTimers(Defaults("tests"), timers),
		"with pytest-timeout": ShieldBaseTimers(Shielded(Defaults("tests"), false, timeouts), timers),
	} {
		text := Text(v, nil)
		s, err := schema.ParseTable(text, "spec.toml", "/project", nil)
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, text)
		}
		if !s.Shield.On || !slices.Equal(s.Shield.Signals, []string{schema.SignalAlarm}) {
			t.Errorf("%s: shield %+v, want signals [SIGALRM]", name, s.Shield)
		}
		if !strings.Contains(string(text), "tests/helpers.py:16:9.\n") {
			t.Errorf("%s: the shield's comment does not name the timer:\n%s", name, text)
		}
		if name != "alone" && !strings.Contains(string(text), "# Found at pytest.ini:5:11, tests/helpers.py:16:9.\n") {
			t.Errorf("%s: the shield's comment does not name both places:\n%s", name, text)
		}
	}
}
