package probe

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/cli/color"
	"github.com/fixturegen/fixturegen/internal/timerexc"
	"github.com/fixturegen/fixturegen/schema"
)

func TestParseReport(t *testing.T) {
	r := &Report{Code: 1, Stdout: ".F\n" +
		`{"code": 1, "armed": [{"stdio": false}], "armed_nodes": ["t.py::a"], "imports": [{"node": "t.py::a", "module": "sdk.msg", "seconds": 1.5}, {"node": "t.py::b", "module": "sdk.msg", "seconds": 0.1}]}` +
		"\n1 failed\n"}
	if err := r.parse(timerexc.Names{}); err != nil {
		t.Fatal(err)
	}
	if r.OK() {
		t.Error("a report with a false record and late imports is OK")
	}
	if got := strings.Join(r.LateModules(), ","); got != "sdk.msg" {
		t.Errorf("LateModules = %s", got)
	}
	if r.ArmedNodes[0] != "t.py::a" || r.Armed[0]["stdio"] {
		t.Errorf("armed = %v at %v", r.Armed, r.ArmedNodes)
	}

	missing := &Report{Code: 4, Stdout: "ERROR: not found\n", Stderr: "boom\n"}
	err := missing.parse(timerexc.Names{})
	if err == nil || !strings.Contains(err.Error(), "exited 4 and printed no probe report") || !strings.Contains(err.Error(), "boom") {
		t.Errorf("error for a missing report: %v", err)
	}
}

func TestOK(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    Report
		ok   bool
	}{
		{"all true", Report{Armed: []map[string]bool{{"a": true}}}, true},
		{"never armed", Report{}, false},
		{"tests failed", Report{Code: 1, Armed: []map[string]bool{{"a": true}}}, false},
		{"late import", Report{Armed: []map[string]bool{{"a": true}}, Late: []Import{{Module: "m"}}}, false},
	} {
		if got := tc.r.OK(); got != tc.ok {
			t.Errorf("%s: OK() = %t", tc.name, got)
		}
	}
}

func TestParseImportTime(t *testing.T) {
	out := "import time: self [us] | cumulative | imported package\n" +
		"import time:       100 |        100 | encodings\n" +
		marker + "\n" +
		"import time:       200 |        200 |   sdk._cold\n" +
		"import time:      1500000 |    1500000 |     sdk.server.fastmcp\n" +
		"import time:       300 |    1500500 | sdk\n" +
		"import time:        50 |         50 | extra\n"
	got, err := parseImportTime("sdk", out)
	if err != nil {
		t.Fatal(err)
	}
	if got.Seconds != 1.50055 || got.Heaviest != "sdk.server.fastmcp" || got.HeaviestSeconds != 1.5 {
		t.Errorf("got %+v", got)
	}
	if _, err := parseImportTime("sdk", "no marker\n"); err == nil {
		t.Error("output without the marker parsed")
	}
}

func TestNotCollected(t *testing.T) {
	for _, tc := range []struct {
		name  string
		r     Report
		nodes string // the nodes named, or "" for none
		msg   string // the start of the message
	}{
		{"collected", Report{Code: 1, Nodes: []string{"t.py::a"}}, "", ""},
		{"another usage error", Report{Code: 4, Nodes: []string{"t.py::a"}, Stderr: "ERROR: usage: pytest [options]\n"}, "", ""},
		{"not found", Report{Code: 4, Nodes: []string{"t.py::a", "u.py::b"},
			Stderr: "ERROR: not found: /p/u.py::b\n(no match in any of [<Module u.py>])\n"},
			"u.py::b", "ERROR: not found: /p/u.py::b\n(no match in any of [<Module u.py>])"},
		{"syntax error", Report{Code: 4, Nodes: []string{"t.py::a", "u.py::b"},
			Stderr:        "ERROR: found no collectors for /p/t.py::a\n",
			CollectErrors: []CollectError{{Node: "t.py", Message: "trace\nE   SyntaxError: invalid syntax\n"}}},
			"t.py::a", "ERROR: found no collectors for /p/t.py::a\nE   SyntaxError: invalid syntax"},
		{"a collect error in a run that went on", Report{Code: 2, Nodes: []string{"t.py"},
			CollectErrors: []CollectError{{Node: "t.py", Message: "ImportError: no module x"}}},
			"t.py", "ImportError: no module x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nc := tc.r.NotCollected()
			if tc.nodes == "" {
				if nc != nil {
					t.Errorf("NotCollected = %+v, want nil", nc)
				}
				return
			}
			if nc == nil {
				t.Fatal("NotCollected = nil")
			}
			if got := strings.Join(nc.Nodes, ","); got != tc.nodes {
				t.Errorf("nodes = %s, want %s", got, tc.nodes)
			}
			if !strings.HasPrefix(nc.Message, tc.msg) {
				t.Errorf("message = %q, want it to start %q", nc.Message, tc.msg)
			}
		})
	}
}

func TestProgressLog(t *testing.T) {
	var l progressLog
	var seen []string
	l.read(strings.NewReader(`{"node": "t.py::a", "outcome": "passed", "seconds": 0.25}`+"\n"+
		"not json\n"+
		`{"collect_error": "u.py", "message": "E   SyntaxError"}`+"\n"+
		`{"node": "t.py::b", "outcome": "failed", "seconds": 1}`+"\n"),
		func(r Result) { seen = append(seen, r.Node+" "+r.Outcome) })
	results, errs := l.snapshot()
	if got := strings.Join(seen, ", "); got != "t.py::a passed, t.py::b failed" {
		t.Errorf("progress calls: %s", got)
	}
	if len(results) != 2 || results[0].Seconds != 0.25 {
		t.Errorf("results = %+v", results)
	}
	if len(errs) != 1 || errs[0].Node != "u.py" || errs[0].Message != "E   SyntaxError" {
		t.Errorf("collect errors = %+v", errs)
	}
}

// A node that does not collect is named before pytest's message, in the
// singular or the plural.
func TestNotCollectedError(t *testing.T) {
	one := &NotCollected{Nodes: []string{"t.py::a"}, Message: "ERROR: not found"}
	if got, want := one.Error(), "node t.py::a does not collect:\nERROR: not found"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	two := &NotCollected{Nodes: []string{"t.py::a", "u.py::b"}, Message: "E   SyntaxError"}
	if got, want := two.Error(), "nodes t.py::a, u.py::b do not collect:\nE   SyntaxError"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestFailedImportsAreNotLate(t *testing.T) {
	r := &Report{Stdout: `{"code": 0, "armed": [{"a": true}], "imports": [], "failed": [{"node": "t.py::a", "module": "sdk.client.Session", "error": "ModuleNotFoundError"}]}` + "\n"}
	if err := r.parse(timerexc.Names{}); err != nil {
		t.Fatal(err)
	}
	if !r.OK() || len(r.Late) != 0 || len(r.Failed) != 1 || r.Failed[0].Error != "ModuleNotFoundError" {
		t.Errorf("a failed attempt alone: OK %t, late %v, failed %v", r.OK(), r.Late, r.Failed)
	}
}

func TestToPreload(t *testing.T) {
	r := &Report{Late: []Import{{Module: "b"}, {Module: "a"}, {Module: "b"}, {Module: "c"}}}
	if got := strings.Join(r.ToPreload([]string{"a"}), ","); got != "b,c" {
		t.Errorf("ToPreload = %s, want b,c: each late module once, none already preloaded", got)
	}
	if got := r.preloadedLate([]string{"a", "c"}); strings.Join(got, ",") != "a,c" {
		t.Errorf("preloadedLate = %v", got)
	}
}

func TestBroken(t *testing.T) {
	res := func(outcomes ...string) *Report {
		r := &Report{}
		for i, o := range outcomes {
			r.Results = append(r.Results, Result{Node: string(rune('a' + i)), Outcome: o})
			if o != "passed" && o != "skipped" {
				r.Code = 1
			}
		}
		return r
	}
	for _, tc := range []struct {
		name          string
		before, after *Report
		want          string
	}{
		{"still green", res("passed", "passed"), res("passed", "passed"), ""},
		{"failed already", res("failed", "passed"), res("failed", "passed"), ""},
		{"a setup error", res("passed", "passed"), res("passed", "error"), "b"},
		{"not run", res("passed", "passed"), res("passed"), "b"},
		{"red run, same tests", &Report{}, &Report{Code: 2}, "the run"},
	} {
		if got := strings.Join(Broken(tc.before, tc.after), ","); got != tc.want {
			t.Errorf("%s: Broken = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// An import a timer's exception ended is late, whichever timer: the
// deadline's (by its token, its line or the spec's own exception and
// message), pytest-timeout's, or any exception a watched signal's handler
// raised. ImportError and its kind, and anything else a module raises on
// its own, are failed attempts. The late ones keep the order their tests
// ran in.
func TestClassify(t *testing.T) {
	r := &Report{Results: []Result{{Node: "t.py::a"}, {Node: "t.py::b"}, {Node: "t.py::c"}}}
	r.Late = []Import{{Node: "t.py::c", Module: "loaded"}}
	names := timerexc.Names{Exception: "TimeoutError", Message: "Test timed out after {seconds}s"}
	r.classify([]attempt{
		{FailedImport: FailedImport{Node: "t.py::b", Module: "by.token", Error: "AssertionError", Message: "slow (1 s, real time) [fixturegen:import-interrupted module=by.token]"}},
		{FailedImport: FailedImport{Node: "t.py::a", Module: "by.spec", Error: "TimeoutError", Message: "Test timed out after 5s"}},
		{FailedImport: FailedImport{Node: "t.py::c", Module: "by.timeout", Error: "Failed", Message: "Timeout (>1.0s) from pytest-timeout."}},
		{FailedImport: FailedImport{Node: "t.py::c", Module: "by.handler", Error: "KeyboardInterrupt"}, Handler: "SIGALRM"},
		{FailedImport: FailedImport{Node: "t.py::a", Module: "sdk.Session", Error: "ModuleNotFoundError", Message: "No module named 'sdk.Session'"}},
		{FailedImport: FailedImport{Node: "t.py::a", Module: "mode", Error: "RuntimeError", Message: "set MODE first"}},
		{FailedImport: FailedImport{Node: "t.py::a", Module: "other.timeout", Error: "TimeoutError", Message: "connect timed out"}},
	}, names)
	var late []string
	for _, imp := range r.Late {
		late = append(late, imp.Module+"/"+imp.Timer)
	}
	want := "by.spec/deadline by.token/deadline loaded/ by.timeout/pytest-timeout by.handler/SIGALRM handler"
	if got := strings.Join(late, " "); got != want {
		t.Errorf("late = %s\nwant   %s", got, want)
	}
	var failed []string
	for _, f := range r.Failed {
		failed = append(failed, f.Module)
	}
	if got := strings.Join(failed, " "); got != "sdk.Session mode other.timeout" {
		t.Errorf("failed = %s", got)
	}
	if got := strings.Join(r.ToPreload(nil), ","); got != "by.spec,by.token,loaded,by.timeout,by.handler" {
		t.Errorf("ToPreload = %s", got)
	}
}

// The text report names each late module, failed attempt and record
// state once, with a count and the first test: a suite whose every test
// patches the same missing targets gets one line for all of them, and
// --verbose one per target.
func TestTextIsShort(t *testing.T) {
	spec := &schema.Spec{
		Deadline: schema.Deadline{Fixture: "deadline", Seconds: 1},
		Preload:  schema.Preload{Fixture: "sdk", Modules: []string{"sdk"}},
		Paths:    schema.Paths{Conftest: "tests/conftest.py"},
		Probe:    schema.Probe{Record: []schema.Record{{Key: "sdk", Module: "sdk"}}},
	}
	r := &Report{Code: 0}
	for i := 0; i < 40; i++ {
		node := fmt.Sprintf("tests/test_x.py::test_%d", i)
		r.Armed = append(r.Armed, map[string]bool{"sdk": true})
		r.ArmedNodes = append(r.ArmedNodes, node)
		for j := 0; j < 13; j++ {
			for k := 0; k < 4; k++ {
				r.Failed = append(r.Failed, FailedImport{Node: node, Module: fmt.Sprintf("httpcore.m%d.Class", j), Error: "ModuleNotFoundError"})
			}
		}
		r.Late = append(r.Late, Import{Node: node, Module: "slow.client", Seconds: 0.5})
	}
	var out strings.Builder
	r.Text(&out, spec, color.Painter{}, false)
	want := `late imports (first imported while deadline was armed):
  slow.client                                 0.50 s  tests/test_x.py::test_0 and 39 more tests
failed import attempts while deadline was armed: 13 modules, 2080 attempts in 40 tests; none loaded a module, so there is nothing to preload (--verbose lists them)
armed: tests/test_x.py::test_0  sdk=true  (and 39 more armings alike)
fix: fixturegen probe --fix (adds slow.client to [preload].modules and regenerates)
`
	if out.String() != want {
		t.Errorf("text report:\n%s\nwant:\n%s", out.String(), want)
	}
	out.Reset()
	r.Text(&out, spec, color.Painter{}, true)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2+1+13+40+1 {
		t.Errorf("verbose report has %d lines, want a header and one per target and arming:\n%s", len(lines), out.String())
	}
	if !strings.Contains(out.String(), "\n  httpcore.m0.Class                        ModuleNotFoundError  tests/test_x.py::test_0 and 39 more tests (160 attempts)\n") {
		t.Errorf("verbose report lacks the first target's line:\n%s", out.String())
	}
	// The JSON report keeps every one.
	out.Reset()
	if err := r.JSON(&out); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Late   []Import          `json:"late"`
		Failed []FailedImport    `json:"failed"`
		Armed  []json.RawMessage `json:"armed"`
	}
	if err := json.Unmarshal([]byte(out.String()), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Late) != 40 || len(doc.Failed) != 2080 || len(doc.Armed) != 40 {
		t.Errorf("JSON report holds %d late, %d failed, %d armed; want 40, 2080, 40", len(doc.Late), len(doc.Failed), len(doc.Armed))
	}
}

// A module that does not import is said in one line first, with the
// Python and the folder; the traceback follows only when it says more
// than that line, and never -X importtime's lines.
func TestImportError(t *testing.T) {
	importtime := "import time: self [us] | cumulative | imported package\nimport time:       100 |        100 | encodings\n" + marker + "\n"
	trace := "Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n"
	missing := importError("sdk.server", "/venv/bin/python", "/p", importtime+trace+"ModuleNotFoundError: No module named 'sdk'\n")
	if got, want := missing.Error(), "cannot import sdk.server with /venv/bin/python (started in /p): ModuleNotFoundError: No module named 'sdk'"; got != want {
		t.Errorf("missing module:\n%s\nwant\n%s", got, want)
	}
	inside := importError("sdk", "python3", "/p", importtime+trace+"  File \"/p/sdk.py\", line 3\nRuntimeError: no config\n").Error()
	first, rest, _ := strings.Cut(inside, "\n")
	if first != "cannot import sdk with python3 (started in /p): RuntimeError: no config" || !strings.Contains(rest, "/p/sdk.py\", line 3") || strings.Contains(rest, "import time") {
		t.Errorf("an error inside the module:\n%s", inside)
	}
}
