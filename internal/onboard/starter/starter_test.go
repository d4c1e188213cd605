package starter

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/onboard/discover"
	"github.com/fixturegen/fixturegen/internal/python/pytesttimeout"
	"github.com/fixturegen/fixturegen/internal/version"
	"github.com/fixturegen/fixturegen/schema"
)

// Every spec Text writes loads as written, says what its values say, and
// starts with the #:schema line editors read.
func TestTextLoads(t *testing.T) {
	found := Defaults("tests/inbox")
	found.Deadline = schema.Deadline{Fixture: "recovery_deadline", Seconds: 0.5, Timer: schema.TimerProf, Message: `say "when" \ now`}
	found.Preload = schema.Preload{Fixture: "toy_sdk", Modules: []string{"toyredis", "toysdk.server.stdio"}}
	found.Group = "toy-sdk"
	found.From = "tests/inbox/conftest.py"
	found.Origin = map[string]string{"seconds": "tests/inbox/conftest.py:33:42"}
	found.HandProbe = "tests/inbox/alarm_probe.py, loaded by tests/inbox/test_alarm.py"
	generatedProbe := found
	perTest := found
	perTest.Deadline.Timer, perTest.Deadline.Autouse, perTest.Deadline.SecondsEnv = schema.TimerAuto, true, []string{"SUITE_TEST_LIMIT"}
	perTest.Deadline.Raises, perTest.Deadline.DumpThreads = schema.RaisesTimeoutError, true
	perTest.Group = ""
	generatedProbe.Paths.ProbePlugin, generatedProbe.Paths.ProbeTests = "tests/inbox/alarm_probe.py", "tests/inbox/test_alarm.py"
	// Keys init could not read stay commented out: the spec loads with
	// their defaults, and says so.
	unread := perTest
	unread.Deadline.Message, unread.Deadline.Raises = schema.DefaultMessage, ""
	unread.Unread = map[string]string{
		"message": "# Not read from tests/conftest.py:9:24: the message is computed.\n# message = \"\"",
		"raises":  "# Not read from tests/conftest.py:9:11: the handler raises Timeout.\n# raises = \"AssertionError\"",
	}

	for name, v := range map[string]Values{
		"starter":            Defaults("."),
		"starter with tests": Defaults("tests"),
		"found":              found,
		"generated probe":    generatedProbe,
		"per-test timeout":   perTest,
		"unread keys":        unread,
	} {
		for _, prefix := range [][]string{nil, schema.PyprojectTable} {
			t.Run(name+" "+strings.Join(prefix, "."), func(t *testing.T) {
				text := Text(v, prefix)
				if prefix == nil && !strings.HasPrefix(string(text), "#:schema "+schema.URLFor(version.Version())+"\n") {
					t.Errorf("does not start with the #:schema line:\n%s", text)
				}
				s, err := schema.ParseTable(text, "spec.toml", "/project", prefix)
				if err != nil {
					t.Fatalf("%v\n%s", err, text)
				}
				paths := v.Paths
				paths.Runtime = schema.DefaultRuntime(paths.Conftest)
				if s.Deadline.Fixture != v.Deadline.Fixture || s.Deadline.Seconds != v.Deadline.Seconds ||
					s.Deadline.Timer != v.Deadline.Timer || s.Deadline.Message != v.Deadline.Message ||
					!reflect.DeepEqual(s.Preload, v.Preload) || s.Group.Name != v.Group || s.Paths != paths ||
					s.Deadline.Autouse != v.Deadline.Autouse || !slices.Equal(s.Deadline.SecondsEnv, v.Deadline.SecondsEnv) ||
					s.Deadline.Exception() != v.Deadline.Exception() || s.Deadline.DumpThreads != v.Deadline.DumpThreads {
					t.Errorf("the spec says\n%+v\nnot\n%+v\n%s", s, v, text)
				}
				if at := v.Origin["seconds"]; at != "" && !strings.Contains(string(text), "# Found at "+at+".\nseconds = 0.5\n") {
					t.Errorf("the seconds lack their origin:\n%s", text)
				}
				for key, comment := range v.Unread {
					if !strings.Contains(string(text), "\n"+comment+"\n") || strings.Contains(string(text), "\n"+key+" = ") {
						t.Errorf("%s is not left commented out:\n%s", key, text)
					}
				}
			})
		}
	}
}

// The starter spec shows exactly the keys schema.Keys marks as Starter,
// each in its table (set, or commented out), so a new key of the spec
// must say whether the starter shows it, and then cannot be left out.
func TestTextShowsTheStarterKeys(t *testing.T) {
	v := Defaults("tests")
	v.Deadline.Autouse, v.Deadline.SecondsEnv = true, []string{"SUITE_TEST_LIMIT"}
	v.Deadline.Raises, v.Deadline.DumpThreads = schema.RaisesTimeoutError, true
	v.Shield = schema.Shield{On: true, Signals: schema.DefaultShieldSignals(), ImportGrace: schema.DefaultShieldGrace, PastGrace: schema.DefaultPastGrace, Rollback: true}
	v.Deadline.DeferToPytestTimeout = true
	v.Deadline.SecondsEnvInvalid = schema.SecondsEnvFallback
	v.Deadline.ModuleSeconds = []schema.ModuleSeconds{{Pattern: "tests/test_zone.py", Seconds: 120}}
	for _, prefix := range [][]string{nil, schema.PyprojectTable} {
		pfx := strings.Join(prefix, ".")
		if pfx != "" {
			pfx += "."
		}
		shown := map[string]bool{}
		table := ""
		for _, line := range strings.Split(string(Text(v, prefix)), "\n") {
			line, commented := strings.CutPrefix(line, "# ")
			for _, h := range []string{"[[", "["} {
				if i := strings.Index(line, h+pfx); i >= 0 {
					name, _, _ := strings.Cut(line[i+len(h)+len(pfx):], "]")
					shown[name] = true
					if i == 0 && !commented {
						table = name
					}
					break
				}
			}
			if key, _, ok := strings.Cut(line, " = "); ok && !strings.ContainsAny(key, " [") {
				if table != "" && !strings.HasPrefix(line, "[") {
					key = table + "." + key
				}
				shown[key] = true
			}
		}
		for _, k := range schema.Keys {
			if shown[k.Name] != k.Starter {
				t.Errorf("prefix %q: the starter shows %s: %v; schema.Keys says Starter: %v", pfx, k.Name, shown[k.Name], k.Starter)
			}
		}
	}
}

// A project with pytest-timeout's signal method and no deadline of its own
// gets a spec with only the shield; with a deadline, it gets both. Both
// load as written.
func TestShieldedSpecsLoad(t *testing.T) {
	timeouts := &Timeouts{Root: "/project", Folder: "tests",
		Signal: []pytesttimeout.Place{{Kind: pytesttimeout.Ini, File: "/project/pytest.ini", Line: 5, Col: 11, Seconds: "2"}}}
	for _, alone := range []bool{true, false} {
		for _, prefix := range [][]string{nil, schema.PyprojectTable} {
			v := Shielded(Defaults("tests"), alone, timeouts)
			text := Text(v, prefix)
			s, err := schema.ParseTable(text, "spec.toml", "/project", prefix)
			if err != nil {
				t.Fatalf("alone %v, prefix %v: %v\n%s", alone, prefix, err, text)
			}
			if !s.Shield.On || s.HasDeadline() == alone || s.Paths.Conftest != "tests/conftest.py" {
				t.Errorf("alone %v, prefix %v: shield %+v, deadline %q, conftest %q", alone, prefix, s.Shield, s.Deadline.Fixture, s.Paths.Conftest)
			}
			if !strings.Contains(string(text), "# Found at pytest.ini:5:11.\n") {
				t.Errorf("alone %v: the shield does not say where the timeout was found:\n%s", alone, text)
			}
		}
	}
}

// raises and message left unread for the one reason, the handler's, are
// reported in one line.
func TestReportJoinsOneReason(t *testing.T) {
	why := "the handler calls pytest.skip"
	found := &discover.Contract{
		Conftest: "tests/conftest.py",
		Deadline: discover.Fixture{Name: "deadline", At: "tests/conftest.py:9:5"},
		Spec:     schema.Deadline{Seconds: 2},
		Unread: []discover.Unread{
			{Key: "raises", At: "tests/conftest.py:7:9", Why: why},
			{Key: "message", At: "tests/conftest.py:7:9", Why: why},
		},
	}
	var b strings.Builder
	(&Report{Target: "fixturegen.toml", Found: found}).Text(&b)
	want := "  tests/conftest.py:7:9: " + why + "; [deadline].raises and message are left commented out in the spec, so their defaults apply until you set them\n"
	if !strings.Contains(b.String(), want) || strings.Count(b.String(), why) != 1 {
		t.Errorf("report\n%s\nwant the line once\n%s", b.String(), want)
	}
}
