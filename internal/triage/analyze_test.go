package triage

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func analyze(t *testing.T, spec Spec, logs map[string]string, files ...string) *Report {
	t.Helper()
	m := &Matcher{Deadline: []byte(spec.DeadlineMessage)}
	var sources []*Source
	for _, name := range files {
		label := strings.TrimSuffix(strings.TrimSuffix(name, ".log"), ".xml")
		var src *Source
		if text, ok := logs[name]; ok {
			var err error
			if src, err = Read(strings.NewReader(text), name, label, m); err != nil {
				t.Fatal(err)
			}
		} else {
			src = readTestdata(t, name, label, m)
		}
		sources = append(sources, src)
	}
	return Analyze(sources, spec)
}

var exampleSpec = Spec{
	File: "fixturegen.toml", DeadlineMessage: "recovery loop exceeded its deadline", DeadlineSeconds: 1,
	Preload: []string{"toyredis"},
}

func only(t *testing.T, r *Report, kind string) Verdict {
	t.Helper()
	if len(r.Verdicts) != 1 || r.Verdicts[0].Kind != kind {
		var out bytes.Buffer
		r.Text(&out)
		t.Fatalf("want one %s verdict, got:\n%s", kind, out.String())
	}
	return r.Verdicts[0]
}

func poisoned(v Verdict) []string {
	var out []string
	for _, p := range v.Poisoned {
		out = append(out, p.Node)
	}
	return out
}

func TestRedRunWithSpec(t *testing.T) {
	v := only(t, analyze(t, exampleSpec, nil, "red.log"), PoisonedWorker)
	if v.Worker != "gw1" || v.Poisoning.Node != pending || v.Poisoning.Duration != 1 || v.Certain {
		t.Errorf("verdict %+v %+v", v, v.Poisoning)
	}
	if !strings.Contains(v.Poisoning.Why, "past the 1 s deadline") {
		t.Errorf("why = %q", v.Poisoning.Why)
	}
	if got := strings.Join(poisoned(v), ","); got != browser1+","+browser2 {
		t.Errorf("poisoned = %s", got)
	}
	wantRepro := "python -m pytest -p no:randomly " + pending +
		" tests/inbox/test_channel_reconnect.py::test_subscriber tests/inbox/test_channel_reconnect.py::test_gives_up_after_every_attempt " + browser1
	if len(v.Next) != 2 || v.Next[0] != "fixturegen probe "+pending || v.Next[1] != wantRepro {
		t.Errorf("next = %q", v.Next)
	}
	if v.Evidence[0].Loc.Line != 18 {
		t.Errorf("first evidence at %s, want the RERUN line 18", v.Evidence[0].Loc)
	}
}

func TestRerunUnderTheDeadlineIsNoInterruption(t *testing.T) {
	spec := exampleSpec
	spec.DeadlineSeconds = 5
	v := only(t, analyze(t, spec, nil, "red.log"), NotThisClass)
	var hints []string
	for _, e := range v.Evidence {
		if e.Loc.File == "" {
			hints = append(hints, e.What)
		}
	}
	if len(hints) != 2 || !strings.Contains(hints[0], "no earlier test on that worker was interrupted") {
		t.Errorf("hints = %q", hints)
	}
}

func TestRedRunFromSignaturesAlone(t *testing.T) {
	v := only(t, analyze(t, Spec{}, nil, "red.log", "red.xml"), PoisonedWorker)
	if !strings.Contains(v.Poisoning.Why, "deadline is unknown") {
		t.Errorf("why = %q", v.Poisoning.Why)
	}
}

func TestImportInterruptedTokenIsCertain(t *testing.T) {
	v := only(t, analyze(t, Spec{}, nil, "token.log"), PoisonedWorker)
	if !v.Certain || v.Worker != "gw1" || v.Poisoning.Node != pending {
		t.Errorf("verdict %+v %+v", v, v.Poisoning)
	}
	if v.Poisoning.Why != "was interrupted by the deadline while importing mcp.server" {
		t.Errorf("why = %q", v.Poisoning.Why)
	}
	if strings.Join(v.Modules, ",") != "mcp.server,mcp.server.stdio" {
		t.Errorf("modules = %q", v.Modules)
	}
}

const header = "============================= test session starts ==============================\n"

func TestSignaturesThatNeedProof(t *testing.T) {
	logs := map[string]string{
		"attr.log": header +
			"[gw0] [ 50%] FAILED tests/a.py::test_slow\n" +
			"[gw0] [100%] FAILED tests/b.py::test_uses_helpers\n" +
			"=================================== FAILURES ===================================\n" +
			"___ test_slow ___\n" +
			"[gw0] linux -- Python 3.12.3 /usr/bin/python\n" +
			"E   AssertionError: recovery loop exceeded its deadline (5 s, real time)\n" +
			"___ test_uses_helpers ___\n" +
			"[gw0] linux -- Python 3.12.3 /usr/bin/python\n" +
			"E   AttributeError: module 'app' has no attribute 'helpers'\n",
		"import.log": header +
			"[gw0] [ 50%] FAILED tests/a.py::test_slow\n" +
			"[gw0] [100%] FAILED tests/b.py::test_uses_shared\n" +
			"=================================== FAILURES ===================================\n" +
			"___ test_slow ___\n" +
			"[gw0] linux -- Python 3.12.3 /usr/bin/python\n" +
			"E   AssertionError: recovery loop exceeded its deadline (5 s, real time)\n" +
			"___ test_uses_shared ___\n" +
			"[gw0] linux -- Python 3.12.3 /usr/bin/python\n" +
			"E   ModuleNotFoundError: No module named 'mcp.shared'\n" +
			"=============================== warnings summary ===============================\n" +
			"tests/a.py::test_slow\n" +
			"  conftest.py:120: _FixturegenLateImport: tests/a.py::test_slow imported mcp.shared (2.10 s) for the first time while recovery_deadline was armed.\n",
	}
	// app.helpers is not known to be a module, but the missing attribute
	// follows a deadline failure on the same worker: a poisoning, named
	// without a preload list (and not certain).
	v := only(t, analyze(t, Spec{}, logs, "attr.log"), PoisonedWorker)
	if v.Certain || v.Poisoning.Node != "tests/a.py::test_slow" || strings.Join(v.Modules, ",") != "app.helpers" {
		t.Errorf("without a preload list: certain %v, poisoning %+v, modules %q", v.Certain, v.Poisoning, v.Modules)
	}
	// The spec preloads it: a half-imported package.
	v = only(t, analyze(t, Spec{Preload: []string{"app.helpers"}}, logs, "attr.log"), PoisonedWorker)
	if v.Poisoning.Node != "tests/a.py::test_slow" || v.Poisoning.Why != "failed on its deadline" {
		t.Errorf("poisoning %+v", v.Poisoning)
	}
	// With nothing interrupted before it on the worker, the same missing
	// attribute is an ordinary failure, not this failure class.
	logs["plain.log"] = header +
		"[gw0] [ 50%] PASSED tests/a.py::test_slow\n" +
		"[gw0] [100%] FAILED tests/b.py::test_uses_helpers\n" +
		"=================================== FAILURES ===================================\n" +
		"___ test_uses_helpers ___\n" +
		"[gw0] linux -- Python 3.12.3 /usr/bin/python\n" +
		"E   AttributeError: module 'app' has no attribute 'helpers'\n"
	only(t, analyze(t, Spec{}, logs, "plain.log"), NotThisClass)
	// mcp.shared was imported earlier in the run, so its ImportError is a
	// symptom.
	v = only(t, analyze(t, Spec{}, logs, "import.log"), PoisonedWorker)
	if strings.Join(poisoned(v), ",") != "tests/b.py::test_uses_shared" {
		t.Errorf("poisoned = %q", poisoned(v))
	}
}

func TestSlowLoopNeedsEveryAttempt(t *testing.T) {
	slow := func(outcome string) string {
		return header +
			"[gw0] [ 50%] RERUN tests/a.py::test_loop\n" +
			"[gw0] [ 50%] " + outcome + " tests/a.py::test_loop\n" +
			"=================================== FAILURES ===================================\n" +
			"___ test_loop ___\n" +
			"[gw0] linux -- Python 3.12.3 /usr/bin/python\n" +
			"E   AssertionError: test exceeded its deadline (2 s, real time)\n"
	}
	logs := map[string]string{"a1.log": slow("FAILED"), "a2.log": slow("FAILED"), "a3.log": header + "[gw1] [100%] PASSED tests/a.py::test_loop\n"}
	v := only(t, analyze(t, Spec{}, logs, "a1.log", "a2.log"), SlowRecoveryLoop)
	if !strings.Contains(v.Summary, "(2 of 2)") || len(v.Evidence) != 2 {
		t.Errorf("verdict %+v", v)
	}
	// A later attempt passed: not a slow loop.
	only(t, analyze(t, Spec{}, logs, "a1.log", "a3.log"), NotThisClass)
}

func TestJSONFields(t *testing.T) {
	r := analyze(t, exampleSpec, nil, "red.log")
	var out bytes.Buffer
	if err := r.JSON(&out); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Poisoned bool `json:"poisoned"`
		Verdicts []struct {
			Kind      string `json:"kind"`
			Worker    string `json:"worker"`
			Poisoning struct {
				Node     string  `json:"node"`
				Duration float64 `json:"duration"`
				Attempt  string  `json:"attempt"`
			} `json:"poisoning_test"`
			Poisoned []struct{ Node string } `json:"poisoned_tests"`
			Evidence []struct {
				File string `json:"file"`
				Line int    `json:"line"`
			} `json:"evidence"`
		} `json:"verdicts"`
		Attempts []struct {
			Workers []struct {
				Name string `json:"name"`
				Runs []struct {
					Node    string `json:"node"`
					Outcome string `json:"outcome"`
				} `json:"runs"`
			} `json:"workers"`
		} `json:"attempts"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	v := doc.Verdicts[0]
	if !doc.Poisoned || v.Kind != PoisonedWorker || v.Worker != "gw1" || v.Poisoning.Node != pending || v.Poisoning.Attempt != "red" ||
		len(v.Poisoned) != 2 || v.Evidence[0].File != "testdata/red.log" || v.Evidence[0].Line != 18 {
		t.Errorf("document:\n%s", out.String())
	}
	if w := doc.Attempts[0].Workers[1]; w.Name != "gw1" || len(w.Runs) != 10 || w.Runs[0].Outcome != "rerun" {
		t.Errorf("gw1 = %+v", w)
	}
}

func TestAnEarlierUnexplainedSymptomDoesNotHideALaterPoisoning(t *testing.T) {
	e := func(head, line string) string {
		return "___ " + head + " ___\n[gw0] linux -- Python 3.12.3 /usr/bin/python\nE   " + line + "\n"
	}
	logs := map[string]string{"w.log": header +
		"[gw0] [ 25%] FAILED tests/a.py::test_early\n" +
		"[gw0] [ 50%] FAILED tests/a.py::test_slow\n" +
		"[gw0] [ 75%] FAILED tests/b.py::test_late\n" +
		"=================================== FAILURES ===================================\n" +
		e("test_early", "AttributeError: partially initialized module 'other' has no attribute 'x' (most likely due to a circular import)") +
		e("test_slow", "AssertionError: recovery loop exceeded its deadline (5 s, real time)") +
		e("test_late", "AttributeError: 'module' object at mcp.server.stdio has no attribute 'stdio'"),
	}
	v := only(t, analyze(t, Spec{}, logs, "w.log"), PoisonedWorker)
	if v.Poisoning.Node != "tests/a.py::test_slow" || strings.Join(poisoned(v), ",") != "tests/b.py::test_late" {
		t.Errorf("poisoning %s, poisoned %q", v.Poisoning.Node, poisoned(v))
	}
}

// The record files and the log come from two red runs of the example, so
// they place the group on different workers; the order is pytest-replay's.
func TestReplayTimelineTakesLastOutcomesFromTheLog(t *testing.T) {
	m := &Matcher{Deadline: []byte(exampleSpec.DeadlineMessage)}
	var sources []*Source
	for _, name := range []string{"red.log", "replay/.pytest-replay-gw0.txt", "replay/.pytest-replay-gw1.txt"} {
		sources = append(sources, readTestdata(t, name, "a1", m))
	}
	r := Analyze(sources, exampleSpec)
	a := r.Attempts[0]
	if a.Timeline != KindReplay || a.Workers[0].Name != "gw0" {
		t.Fatalf("timeline %s, first worker %s", a.Timeline, a.Workers[0].Name)
	}
	runs := a.Workers[0].Runs
	if runs[0].Outcome != Rerun || runs[1].Outcome != Passed || runs[1].Node != runs[0].Node {
		t.Errorf("runs of %s: %s, %s; want rerun, passed", pending, runs[0].Outcome, runs[1].Outcome)
	}
	v := only(t, r, PoisonedWorker)
	if v.Worker != "gw0" || v.Poisoning.Node != pending || v.Evidence[0].Loc.File != "testdata/replay/.pytest-replay-gw0.txt" {
		t.Errorf("verdict on %s: %s at %s", v.Worker, v.Poisoning.Node, v.Evidence[0].Loc)
	}
	// Alone, the record files show the order but no signature.
	r = Analyze([]*Source{readTestdata(t, "replay/.pytest-replay-gw0.txt", "r", m)}, exampleSpec)
	if v := only(t, r, NotThisClass); !strings.Contains(v.Summary, "hold no failure messages") {
		t.Errorf("summary = %s", v.Summary)
	}
}

// A cold import under the alarm that fails on its deadline on every rerun
// and leaves the next test of its worker a half-imported package: one
// verdict, the poisoned worker, and no slow recovery loop for the same
// test that would say the preload is not involved.
func TestThePoisoningTestIsNoSlowLoop(t *testing.T) {
	r := analyze(t, exampleSpec, nil, "cold_import.log")
	v := only(t, r, PoisonedWorker)
	if v.Poisoning.Node != "tests/test_sdk.py::test_cold_import" || strings.Join(poisoned(v), ",") != "tests/test_sdk.py::test_stdio_server" {
		t.Errorf("poisoning %s, poisoned %q", v.Poisoning.Node, poisoned(v))
	}
	var out bytes.Buffer
	r.Text(&out)
	if strings.Contains(out.String(), "preload is not involved") {
		t.Errorf("the report contradicts its poisoning finding:\n%s", out.String())
	}
}
