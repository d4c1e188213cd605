package triage

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		head string
		want Kind
	}{
		{`<?xml version="1.0" encoding="utf-8"?><testsuites>`, KindJUnit},
		{"\n  <testsuite name=\"pytest\">", KindJUnit},
		{"\xef\xbb\xbf<?xml version=\"1.0\"?>", KindJUnit},
		{`{"nodeid": "tests/a.py::test_b", "start": 0.1}`, KindReplay},
		{"# recorded by pytest-replay\n{\"nodeid\": \"a.py::b\", \"start\": 1}", KindReplay},
		{"============================= test session starts ==============================", KindLog},
		{`{"not": "a replay record"}`, KindLog},
		{"2026-11-30T17:40:40Z ##[group]Run pytest", KindLog},
		{"", KindLog},
	} {
		if got := Detect([]byte(tc.head)); got != tc.want {
			t.Errorf("Detect(%q) = %s, want %s", tc.head, got, tc.want)
		}
	}
}

func TestMatch(t *testing.T) {
	m := &Matcher{Deadline: []byte("recovery loop exceeded its deadline")}
	for _, tc := range []struct {
		line    string
		kind    ClueKind
		module  string
		attr    string
		certain bool
		seconds float64
	}{
		{"E   AttributeError: 'module' object at mcp.server.stdio has no attribute 'stdio'", HalfImport, "mcp.server.stdio", "stdio", true, 0},
		{"E   AttributeError: 'module' object at mcp.server has no attribute 'helper'", HalfImport, "mcp.server", "helper", false, 0},
		{"E   AttributeError: module 'mcp.server' has no attribute 'stdio'", HalfImport, "mcp.server", "stdio", false, 0},
		{"E   ImportError: cannot import name 'Server' from partially initialized module 'mcp.server' (most likely due to a circular import) (/x/mcp/server/__init__.py)", HalfImport, "mcp.server", "", true, 0},
		{"E   ImportError: cannot import name 'Server' from 'mcp.server' (/x/mcp/server/__init__.py)", HalfImport, "mcp.server", "Server", false, 0},
		{"E   ModuleNotFoundError: No module named 'mcp.shared'", HalfImport, "mcp.shared", "", false, 0},
		{"E   AssertionError: recovery loop exceeded its deadline (5 s, real time)", DeadlineFailure, "", "", false, 5},
		{"E   AssertionError: test exceeded its deadline (0.5 s, user CPU time)", DeadlineFailure, "", "", false, 0.5},
		{"E   Failed: Timeout (>30.0s) from pytest-timeout.", Timeout, "", "", true, 0},
		{"+++++++++++++++++++++++++++++++++++ Timeout ++++++++++++++++++++++++++++++++++++", Timeout, "", "", true, 0},
		{"E   AssertionError: recovery loop exceeded its deadline (5 s, real time) [fixturegen:import-interrupted module=mcp.server]", ImportInterrupted, "mcp.server", "", true, 0},
		{"E   AssertionError: d (1 s, real time); importing toysdk.server took longer than import_grace (60 s), so the alarm interrupted it", ImportInterrupted, "toysdk.server", "", true, 0},
		{"  conftest.py:48: UserWarning: LateImportWarning: tests/a.py::test_b imported toysdk.shared.message (1.20 s) for the first time while recovery_deadline was armed.", LateImport, "toysdk.shared.message", "", true, 0},
		{"  conftest.py:120: _FixturegenLateImport: tests/a.py::test_b imported toysdk.shared.message (0.00 s) for the first time while recovery_deadline was armed.", LateImport, "toysdk.shared.message", "", true, 0},
	} {
		clues := m.Match([]byte(tc.line), nil)
		var got *Clue
		for i := range clues {
			if clues[i].Kind == tc.kind {
				got = &clues[i]
				break
			}
		}
		if got == nil {
			t.Errorf("%q: no %s clue in %+v", tc.line, tc.kind, clues)
			continue
		}
		if got.Module != tc.module || got.Attr != tc.attr || got.Certain != tc.certain || got.Seconds != tc.seconds {
			t.Errorf("%q:\n got module=%q attr=%q certain=%v seconds=%v\nwant module=%q attr=%q certain=%v seconds=%v",
				tc.line, got.Module, got.Attr, got.Certain, got.Seconds, tc.module, tc.attr, tc.certain, tc.seconds)
		}
	}
	for _, line := range []string{
		`            f"{type(obj).__name__!r} object at {ann} has no attribute {name!r}"`,
		"tests/test_plain.py::test_backoff_doubles_until_the_cap PASSED",
		"E   AssertionError: assert 3 == 4",
		"E   AssertionError: it took (5 s) in real life",
	} {
		if clues := m.Match([]byte(line), nil); len(clues) != 0 {
			t.Errorf("%q: want no clue, got %+v", line, clues)
		}
	}
}

// TestMatchWithoutSpec reads the deadline's failure with no spec to give
// its message, whichever exception the runtime raised: each one a spec's
// raises may name, and the runtime's own re-raise class, with and without
// the module pytest prints before it.
func TestMatchWithoutSpec(t *testing.T) {
	m := &Matcher{}
	for _, line := range []string{
		"E   AssertionError: recovery loop exceeded its deadline (1 s, real time)",
		"E   TimeoutError: test took too long (2.5 s, real time)",
		"FAILED tests/a.py::test_b - TimeoutError: test took too long (1 s, CPU time)",
		"FAILED tests/a.py::test_b - Failed: Test timed out (5 s, real time)",
		"E   _fixturegen_runtime.DeadlineExceeded: recovery loop exceeded its deadline (1 s, real time); the code under test caught the deadline's TimeoutError",
		"E   DeadlineExceeded: recovery loop exceeded its deadline (1 s, user CPU time); the code under test caught",
	} {
		clues := m.Match([]byte(line), nil)
		if len(clues) != 1 || clues[0].Kind != DeadlineFailure || clues[0].Seconds == 0 {
			t.Errorf("%q: want one deadline clue with its seconds, got %+v", line, clues)
		}
	}
	for _, line := range []string{
		"E   ValueError: recovery loop exceeded its deadline (1 s, real time)",
		"E   TimeoutError: the server did not answer (1 s, over the network)",
	} {
		if clues := m.Match([]byte(line), nil); len(clues) != 0 {
			t.Errorf("%q: want no clue, got %+v", line, clues)
		}
	}
}

func readTestdata(t *testing.T, name, label string, m *Matcher) *Source {
	t.Helper()
	src, err := ReadFile(filepath.Join("testdata", name), label, m)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// runsOn lists a source's runs on one worker as "outcome node" lines.
func runsOn(src *Source, worker string) []string {
	var out []string
	for _, r := range src.Runs {
		if r.Worker == worker {
			out = append(out, string(r.Outcome)+" "+stripGroup(r.Node))
		}
	}
	return out
}

const (
	pending  = "tests/inbox/test_channel_reconnect.py::test_pending_items"
	browser1 = "tests/test_profile_browser.py::test_a_list_without_a_matching_cache_launches_once_and_caches_the_tools"
	browser2 = "tests/test_profile_browser.py::test_a_list_with_a_matching_cache_does_not_launch"
)

func TestParseVerboseXdistLog(t *testing.T) {
	src := readTestdata(t, "red.log", "red", &Matcher{})
	if src.Kind != KindLog || len(src.Warnings) != 0 {
		t.Fatalf("kind %s, warnings %v", src.Kind, src.Warnings)
	}
	got := strings.Join(runsOn(src, "gw1"), "\n")
	want := strings.Join([]string{
		"rerun " + pending, "passed " + pending,
		"passed tests/inbox/test_channel_reconnect.py::test_subscriber",
		"passed tests/inbox/test_channel_reconnect.py::test_gives_up_after_every_attempt",
		"rerun " + browser1, "rerun " + browser1, "failed " + browser1,
		"rerun " + browser2, "rerun " + browser2, "failed " + browser2,
	}, "\n")
	if got != want {
		t.Errorf("gw1 runs:\n%s\nwant:\n%s", got, want)
	}
	if n := len(runsOn(src, "gw0")); n != 3 {
		t.Errorf("gw0 has %d runs, want 3", n)
	}
	if d := src.Durations[pending+"@toy-sdk"]; d != 1.00 {
		t.Errorf("duration of %s = %v, want 1.00 from --durations", pending, d)
	}
	halves, late := 0, 0
	for _, c := range src.Clues {
		switch c.Kind {
		case HalfImport:
			halves++
			if c.Worker != "gw1" || stripGroup(c.Node) != browser1 && stripGroup(c.Node) != browser2 {
				t.Errorf("half-import clue on %s %s, want a browser test on gw1 (%s)", c.Worker, c.Node, c.Loc)
			}
		case LateImport:
			late++
			if stripGroup(c.Node) != pending || c.Module != "toysdk.shared.message" || c.Loc.Line != 143 {
				t.Errorf("late-import clue %+v", c)
			}
		}
	}
	if halves != 4 || late != 1 {
		t.Errorf("%d half-import and %d late-import clues, want 4 and 1", halves, late)
	}
}

func TestParsePlainLogPlacesFailuresByTheirSections(t *testing.T) {
	src := readTestdata(t, "token.log", "t", &Matcher{})
	got := strings.Join(runsOn(src, "gw1"), "\n")
	want := "failed " + pending + "\nfailed " + browser1
	if got != want {
		t.Errorf("gw1 runs:\n%s\nwant:\n%s", got, want)
	}
	if len(src.Gaps) == 0 || !strings.Contains(src.Gaps[0], "without -v") {
		t.Errorf("gaps = %q, want one saying the output has no -v", src.Gaps)
	}
}

func TestParseLogWithoutXdist(t *testing.T) {
	log := "============================= test session starts ==============================\n" +
		"tests/a.py::test_one PASSED                                    [ 33%]\n" +
		"tests/a.py::test_two RERUN                                     [ 66%]\n" +
		"tests/a.py::test_two FAILED                                    [ 66%]\n" +
		"tests/b.py::TestC::test_three[x-1] PASSED                      [100%]\n"
	src, err := Read(strings.NewReader(log), "x.log", "x", &Matcher{})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(runsOn(src, "main"), "\n")
	want := "passed tests/a.py::test_one\nrerun tests/a.py::test_two\nfailed tests/a.py::test_two\npassed tests/b.py::TestC::test_three[x-1]"
	if got != want {
		t.Errorf("runs:\n%s\nwant:\n%s", got, want)
	}
}

func TestParseLogFromGitHubActionsWithColours(t *testing.T) {
	log := "2026-11-30T17:40:40.8190180Z ============================= test session starts ==============================\n" +
		"2026-11-30T17:40:41.0000000Z [gw1] [ 50%] \x1b[33mRERUN\x1b[0m tests/a.py::test_slow@g \n" +
		"2026-11-30T17:40:42.0000000Z [gw1] [100%] \x1b[31mFAILED\x1b[0m tests/b.py::test_patch@g \n" +
		"2026-11-30T17:40:42.1000000Z \x1b[31m\x1b[1m=================================== FAILURES ===================================\x1b[0m\n" +
		"2026-11-30T17:40:42.2000000Z \x1b[31m\x1b[1m___ test_patch ___\x1b[0m\n" +
		"2026-11-30T17:40:42.3000000Z [gw1] linux -- Python 3.12.3 /usr/bin/python\n" +
		"2026-11-30T17:40:42.4000000Z \x1b[1m\x1b[31mE   AttributeError: 'module' object at mcp.server.stdio has no attribute 'stdio'\x1b[0m\n"
	src, err := Read(strings.NewReader(log), "gha.log", "gha", &Matcher{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(runsOn(src, "gw1"), ","); got != "rerun tests/a.py::test_slow,failed tests/b.py::test_patch" {
		t.Errorf("runs = %s", got)
	}
	if len(src.Clues) != 1 || src.Clues[0].Node != "tests/b.py::test_patch@g" || src.Clues[0].Module != "mcp.server.stdio" || src.Clues[0].Loc.Line != 7 {
		t.Errorf("clues = %+v", src.Clues)
	}
}

func TestParseLogCutMidLine(t *testing.T) {
	data, err := os.ReadFile("testdata/red.log")
	if err != nil {
		t.Fatal(err)
	}
	// Cut inside the short summary's last FAILED line.
	cut := data[:len(data)-150]
	src, err := Read(strings.NewReader(string(cut)), "cut.log", "cut", &Matcher{})
	if err != nil {
		t.Fatal(err)
	}
	if len(src.Warnings) != 1 || !strings.Contains(src.Warnings[0], "cut.log:168: the file ends in the middle of a line") {
		t.Errorf("warnings = %q", src.Warnings)
	}
	for _, r := range src.Runs {
		if !strings.HasSuffix(r.Node, "@toy-sdk") && !strings.HasPrefix(r.Node, "tests/test_plain.py::") {
			t.Errorf("run of a test named by a cut line: %+v", r)
		}
	}
	if n := len(runsOn(src, "gw1")); n != 10 {
		t.Errorf("gw1 has %d runs, want 10", n)
	}
}

func TestParseLogLongLines(t *testing.T) {
	long := strings.Repeat("x", 3*maxLine)
	log := "[gw0] [ 50%] PASSED tests/a.py::test_a\n" + long + "\n[gw0] [100%] FAILED tests/a.py::test_b\n" + long
	src, err := Read(strings.NewReader(log), "long.log", "l", &Matcher{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(runsOn(src, "gw0"), ","); got != "passed tests/a.py::test_a,failed tests/a.py::test_b" {
		t.Errorf("runs = %s", got)
	}
	if len(src.Warnings) != 2 {
		t.Errorf("warnings = %q, want the cut last line and the long lines", src.Warnings)
	}
}

func TestParseJUnit(t *testing.T) {
	src := readTestdata(t, "red.xml", "red", &Matcher{})
	if src.Kind != KindJUnit || len(src.Warnings) != 0 {
		t.Fatalf("kind %s, warnings %v", src.Kind, src.Warnings)
	}
	got := strings.Join(runsOn(src, ""), "\n")
	want := strings.Join([]string{
		"passed tests/test_plain.py::test_backoff_doubles_until_the_cap",
		"passed tests/test_plain.py::test_a_new_channel_has_nothing_pending",
		"passed tests/test_plain.py::test_reconnect_raises_once_attempts_run_out",
		"rerun " + pending, "passed " + pending,
		"passed tests/inbox/test_channel_reconnect.py::test_subscriber",
		"passed tests/inbox/test_channel_reconnect.py::test_gives_up_after_every_attempt",
		"rerun " + browser1, "rerun " + browser1, "failed " + browser1,
		"rerun " + browser2, "rerun " + browser2, "failed " + browser2,
	}, "\n")
	if got != want {
		t.Errorf("runs:\n%s\nwant:\n%s", got, want)
	}
	if d := src.Runs[3].Duration; d != 1.304 {
		t.Errorf("first run of %s took %v, want 1.304", pending, d)
	}
}

func TestParseJUnitTruncated(t *testing.T) {
	data, err := os.ReadFile("testdata/red.xml")
	if err != nil {
		t.Fatal(err)
	}
	src, err := Read(strings.NewReader(string(data[:len(data)-300])), "cut.xml", "cut", &Matcher{})
	if err != nil {
		t.Fatal(err)
	}
	if len(src.Warnings) != 1 || !strings.Contains(src.Warnings[0], "the XML stops early") {
		t.Errorf("warnings = %q", src.Warnings)
	}
	last := src.Runs[len(src.Runs)-1]
	if stripGroup(last.Node) != browser2 || last.Outcome != Failed {
		t.Errorf("last run %+v, want the failure being read when the file stopped", last)
	}
}

func TestParseJUnitRerunElements(t *testing.T) {
	xml := `<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="pytest" tests="1">
  <testcase classname="tests.inbox.test_channel_reconnect.TestReconnect" name="test_pending_items" time="0.2">
    <rerunFailure message="AssertionError: recovery loop exceeded its deadline (5 s, real time)" type="AssertionError">
E   AssertionError: recovery loop exceeded its deadline (5 s, real time)
    </rerunFailure>
  </testcase>
</testsuite>
`
	src, err := Read(strings.NewReader(xml), "s.xml", "s", &Matcher{})
	if err != nil {
		t.Fatal(err)
	}
	node := "tests/inbox/test_channel_reconnect.py::TestReconnect::test_pending_items"
	if got := strings.Join(runsOn(src, ""), ","); got != "rerun "+node+",passed "+node {
		t.Errorf("runs = %s", got)
	}
	if len(src.Clues) != 2 || src.Clues[0].Kind != DeadlineFailure || src.Clues[1].Loc.Line != 5 {
		t.Errorf("clues = %+v, want the message and the E line (line 5)", src.Clues)
	}
}

func TestParseReplay(t *testing.T) {
	src := readTestdata(t, "replay/.pytest-replay-gw0.txt", "r", &Matcher{})
	if src.Kind != KindReplay || len(src.Warnings) != 0 {
		t.Fatalf("kind %s, warnings %v", src.Kind, src.Warnings)
	}
	if src.Runs[0].Outcome != Rerun || src.Runs[0].Duration < 1 || src.Runs[0].Worker != "gw0" {
		t.Errorf("first run %+v, want a rerun of over a second on gw0", src.Runs[0])
	}
	if n := len(src.Runs); n != 10 {
		t.Errorf("%d runs, want 10", n)
	}
	// A record file cut while a test runs.
	rec := `{"nodeid": "tests/a.py::test_a", "start": 0.5}
{"nodeid": "tests/a.py::test_a", "start": 0.5, "finish": 0.75, "outcome": "passed"}
{"nodeid": "tests/a.py::test_b", "start": 0.8}
{"nodeid": "tests/a.py::test_b", "sta`
	src, err := Read(strings.NewReader(rec), "x/.pytest-replay-gw3.txt", "x", &Matcher{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(runsOn(src, "gw3"), ","); got != "passed tests/a.py::test_a, tests/a.py::test_b" {
		t.Errorf("runs = %q", got)
	}
	if src.Runs[0].Duration != 0.25 {
		t.Errorf("duration = %v", src.Runs[0].Duration)
	}
	if len(src.Warnings) != 2 {
		t.Errorf("warnings = %q, want the cut line and the unfinished test", src.Warnings)
	}
}

func TestJUnitNode(t *testing.T) {
	for _, tc := range []struct{ classname, name, file, want string }{
		{"tests.test_a", "test_b", "", "tests/test_a.py::test_b"},
		{"tests.test_a.TestB", "test_c[1-x]", "", "tests/test_a.py::TestB::test_c[1-x]"},
		{"tests.test_a.TestB.TestInner", "test_c", "", "tests/test_a.py::TestB::TestInner::test_c"},
		{"test_a", "test_b@grp", "", "test_a.py::test_b@grp"},
		{"tests.test_a", "test_b", "tests/test_a.py", "tests/test_a.py::test_b"},
	} {
		if got := junitNode(tc.classname, tc.name, tc.file); got != tc.want {
			t.Errorf("junitNode(%q, %q) = %q, want %q", tc.classname, tc.name, got, tc.want)
		}
	}
}

func TestStripGroup(t *testing.T) {
	for _, tc := range []struct{ node, want, group string }{
		{"tests/a.py::test_b@toy-sdk", "tests/a.py::test_b", "toy-sdk"},
		{"tests/a.py::test_b[x@y]", "tests/a.py::test_b[x@y]", ""},
		{"tests/a.py::test_b[1]@g", "tests/a.py::test_b[1]", "g"},
		{"tests/a.py::test_b", "tests/a.py::test_b", ""},
	} {
		if got := stripGroup(tc.node); got != tc.want {
			t.Errorf("stripGroup(%q) = %q, want %q", tc.node, got, tc.want)
		}
		if got := groupOf(tc.node); got != tc.group {
			t.Errorf("groupOf(%q) = %q, want %q", tc.node, got, tc.group)
		}
	}
}

func TestDefaultLabel(t *testing.T) {
	for _, tc := range []struct{ path, want string }{
		{"job.log", "job"},
		{"ci/attempt-1.xml", "ci/attempt-1"},
		{"ci/attempt-1/.pytest-replay-gw0.txt", "ci/attempt-1"},
		{".pytest-replay.txt", "."},
		{"output", "output"},
	} {
		if got := DefaultLabel(tc.path); got != tc.want {
			t.Errorf("DefaultLabel(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}

// timedOutLog is the -v log of a run under pytest-timeout's limit (as the
// header prints it, "1.5s") in which tests/a.py::test_b was rerun and a
// later test on the same worker failed with a half-import signature;
// durations are --durations lines for test_b.
func timedOutLog(limit string, durations ...string) string {
	return header +
		"plugins: rerunfailures-16.7, xdist-3.8.0, timeout-2.4.0\n" +
		"timeout: " + limit + "\n" +
		"timeout method: signal\n" +
		"created: 2/2 workers\n" +
		"[gw0] [ 50%] RERUN tests/a.py::test_b\n" +
		"[gw0] [ 50%] PASSED tests/a.py::test_b\n" +
		"[gw0] [100%] FAILED tests/c.py::test_d\n" +
		"=================================== FAILURES ===================================\n" +
		"___ test_d ___\n" +
		"[gw0] linux -- Python 3.12.3 /usr/bin/python\n" +
		"E   AttributeError: 'module' object at mcp.server.stdio has no attribute 'stdio'\n" +
		"============================== slowest durations ===============================\n" +
		strings.Join(durations, "")
}

func TestParseLogTimeoutAndDurations(t *testing.T) {
	log := timedOutLog("1.5s",
		"0.70s call     tests/a.py::test_b\n",
		"0.80s setup    tests/a.py::test_b\n",
		"0.02s call     tests/a.py::test_b\n",
		"0.01s teardown tests/a.py::test_b\n")
	src, err := Read(strings.NewReader(log), "t.log", "t", &Matcher{})
	if err != nil {
		t.Fatal(err)
	}
	if src.Timeout != 1.5 || src.Durations["tests/a.py::test_b"] != 0.7 || src.Setups["tests/a.py::test_b"] != 0.8 {
		t.Errorf("timeout %v, call %v, setup %v", src.Timeout, src.Durations, src.Setups)
	}
	// pytest-timeout times setup and call together: 0.80 + 0.70 s reach
	// its 1.5 s, while the call alone is under the 5 s deadline.
	v := only(t, Analyze([]*Source{src}, Spec{DeadlineSeconds: 5}), PoisonedWorker)
	if v.Poisoning.Why != "ran 1.50 s with its setup, reaching pytest-timeout's 1.5 s, and was rerun" {
		t.Errorf("why = %q", v.Poisoning.Why)
	}
}

// pytest-timeout starts its timer before pytest times the setup, and the
// hooks between the phases go untimed: setup and call a few percent short
// of the limit still reached it, while a run well under it did not.
func TestTimeoutReachedWithinItsSlack(t *testing.T) {
	for _, tc := range []struct {
		setup, call string
		poisoned    bool
	}{
		{"0.20", "0.77", true},  // 0.97 s of a 1 s limit
		{"0.20", "0.80", true},  // exactly the limit
		{"0.20", "0.70", false}, // 0.90 s: well under it
	} {
		log := timedOutLog("1.0s", tc.call+"s call     tests/a.py::test_b\n", tc.setup+"s setup    tests/a.py::test_b\n")
		src, err := Read(strings.NewReader(log), "t.log", "t", &Matcher{})
		if err != nil {
			t.Fatal(err)
		}
		poisoned := false
		for _, v := range Analyze([]*Source{src}, Spec{DeadlineSeconds: 5}).Verdicts {
			poisoned = poisoned || v.Kind == PoisonedWorker
		}
		if poisoned != tc.poisoned {
			t.Errorf("setup %s + call %s of a 1 s timeout: poisoned worker = %v, want %v", tc.setup, tc.call, poisoned, tc.poisoned)
		}
	}
}

// TestDeadlineReachedWithinItsSlack takes a rerun test whose call phase read
// a few hundredths short of the deadline as one the deadline ended: the
// deadline is armed in the fixture's setup, before pytest times the call.
func TestDeadlineReachedWithinItsSlack(t *testing.T) {
	for _, tc := range []struct {
		call     string
		poisoned bool
	}{
		{"0.97", true},  // a loaded machine's reading of a 1 s deadline
		{"1.00", true},  // exactly the deadline
		{"0.90", false}, // well under it
	} {
		log := strings.Replace(timedOutLog("1.0s", tc.call+"s call     tests/a.py::test_b\n"),
			"timeout: 1.0s\ntimeout method: signal\n", "", 1)
		src, err := Read(strings.NewReader(log), "t.log", "t", &Matcher{})
		if err != nil {
			t.Fatal(err)
		}
		poisoned := false
		for _, v := range Analyze([]*Source{src}, Spec{DeadlineSeconds: 1}).Verdicts {
			poisoned = poisoned || v.Kind == PoisonedWorker
		}
		if poisoned != tc.poisoned {
			t.Errorf("a %s s call under a 1 s deadline: poisoned worker = %v, want %v", tc.call, poisoned, tc.poisoned)
		}
	}
}
