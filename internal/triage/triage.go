// Package triage reads the evidence of a failed CI run of a pytest suite
// (terminal output, JUnit XML, pytest-replay record files), rebuilds what
// each pytest-xdist worker ran, and says whether a worker was poisoned by
// an import that a deadline interrupted half way.
//
// The failure class it knows: a SIGALRM deadline fires while a module is
// imported for the first time; CPython drops the half-imported package from
// sys.modules but keeps the submodules it had loaded, and every later test
// on that worker that reaches the package's submodule attribute fails with
// a half-import signature such as
// "'module' object at mcp.server.stdio has no attribute 'stdio'".
//
// Inputs are read as streams, line by line, so a large log costs time in
// proportion to its size and memory in proportion to its number of test
// runs, not its bytes.
package triage

import (
	"fmt"
	"slices"
	"strings"
)

// Loc is a line of an input file, the evidence behind a verdict. Col is
// set where a line holds many records, as pytest's JUnit XML does.
type Loc struct {
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	Col  int    `json:"col,omitempty"`
}

func (l Loc) String() string {
	if l.Col > 0 {
		return fmt.Sprintf("%s:%d:%d", l.File, l.Line, l.Col)
	}
	return fmt.Sprintf("%s:%d", l.File, l.Line)
}

// Outcome is what one run of a test ended with.
type Outcome string

// Outcomes as pytest and pytest-rerunfailures print them, in lower case.
const (
	Passed  Outcome = "passed"
	Failed  Outcome = "failed"
	Errored Outcome = "error"
	Rerun   Outcome = "rerun" // failed, and pytest-rerunfailures ran it again
	Skipped Outcome = "skipped"
	XFailed Outcome = "xfail"
	XPassed Outcome = "xpass"
)

// bad tells outcomes that mean the test did not pass.
func (o Outcome) bad() bool { return o == Failed || o == Errored || o == Rerun }

// Run is one execution of one test on one worker. Node is the node id as
// the input wrote it; Worker is "" when the input does not say.
type Run struct {
	Node     string
	Worker   string
	Outcome  Outcome
	Duration float64 // seconds; negative when the input does not say
	Loc      Loc
}

// ClueKind names what a line of evidence shows.
type ClueKind string

// Clue kinds. The first four are interruptions: something stopped a test
// part way, perhaps inside an import. HalfImport is the symptom a later
// test shows; LateImport names a module first imported under the alarm.
const (
	ImportInterrupted ClueKind = "import-interrupted" // the generated deadline's own report
	DeadlineFailure   ClueKind = "deadline"           // the deadline's AssertionError
	Timeout           ClueKind = "timeout"            // pytest-timeout
	HalfImport        ClueKind = "half-import"
	LateImport        ClueKind = "late-import"
)

// Clue is one line that says something about one test.
type Clue struct {
	Kind   ClueKind
	Node   string // "" until the parser knows the test
	Worker string
	// Module is the module the line names; for HalfImport the half-imported
	// module, for ImportInterrupted the interrupted one.
	Module string
	// Attr is the missing attribute of a "has no attribute" signature.
	Attr string
	// Certain tells signatures that need no more proof (Attr is surely
	// a submodule, or the module is surely half imported) from those that
	// count only when the run shows Module.Attr, or Module, is a module
	// that loaded: "module 'X' has no attribute 'Y'" and ImportErrors.
	Certain bool
	// Seconds is the deadline a generated deadline's message states.
	Seconds float64
	Text    string
	Loc     Loc
}

// Source is what one input file holds. The JSON output lists it as an
// input: its path, kind and number of lines.
type Source struct {
	Path  string `json:"path"`
	Kind  Kind   `json:"kind"`
	Label string `json:"-"`
	// Runs in the order the file shows them; for terminal output with
	// pytest-xdist, the order each worker ran them.
	Runs  []Run  `json:"-"`
	Clues []Clue `json:"-"`
	// Durations holds the longest call the file gives for each node, and
	// Setups its longest setup (from --durations), for files whose runs
	// carry no duration.
	Durations, Setups map[string]float64 `json:"-"`
	// Timeout is pytest-timeout's limit in seconds, as the output's
	// header states it ("timeout: 5.0s"); 0 when not shown.
	Timeout float64 `json:"-"`
	// Warnings say where the file could not be read to its end.
	Warnings []string `json:"-"`
	// Gaps say what the file could not show, such as the worker of a
	// passing test in output without -v.
	Gaps []string `json:"-"`
	// Lines is the number of lines read.
	Lines int `json:"lines"`
}

func (s *Source) warnf(format string, args ...any) {
	s.Warnings = append(s.Warnings, fmt.Sprintf(format, args...))
}

func (s *Source) gap(msg string) {
	if !slices.Contains(s.Gaps, msg) {
		s.Gaps = append(s.Gaps, msg)
	}
}

// stripGroup removes the "@group" suffix pytest-xdist's loadgroup
// scheduling adds to node ids, so the id can be passed back to pytest.
func stripGroup(node string) string {
	at := strings.LastIndexByte(node, '@')
	if at < 0 || strings.ContainsAny(node[at:], "/:[]") {
		return node
	}
	return node[:at]
}

// groupOf returns the loadgroup suffix of a node id, or "".
func groupOf(node string) string {
	if s := stripGroup(node); len(s) < len(node) {
		return node[len(s)+1:]
	}
	return ""
}
