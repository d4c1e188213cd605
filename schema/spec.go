// Package schema holds fixturegen's spec: its Go types, strict loading with
// file:line:col errors, and validation.
//
// A spec is a TOML document, format version 1. Every value that reaches the
// generated Python passes through this package first, so the renderer can
// trust identifiers and module names and needs to quote only strings.
package schema

import (
	"path"
	"reflect"
)

// Version is the only spec format version this fixturegen understands.
const Version = 1

// DefaultFile is the spec file name looked up in the working directory.
const DefaultFile = "fixturegen.toml"

// URL is where TOML editors fetch fixturegen.schema.json, the JSON Schema
// of the spec; specs that fixturegen writes name it in a #:schema comment.
const URL = "https://raw.githubusercontent.com/fixturegen/fixturegen/main/schema/fixturegen.schema.json"

// Spec is a loaded and validated spec.
type Spec struct {
	Version int `toml:"version"`
	// RequiredVersion is the required_version text, "" when absent: the
	// fixturegen versions the spec allows. Load has checked it against
	// the running fixturegen.
	RequiredVersion string   `toml:"required_version"`
	Deadline        Deadline `toml:"deadline"`
	Preload         Preload  `toml:"preload"`
	Group           Group    `toml:"group"`
	Paths           Paths    `toml:"paths"`
	Probe           Probe    `toml:"probe"`

	// File is the spec's path as the user named it (or as it was found),
	// used in messages and in generated headers.
	File string
	// Dir is the absolute path of the spec's folder: the project folder.
	// Every path in [paths] is relative to it and must stay inside it.
	Dir string
	// Positions holds where each key, table and array element written in
	// File sits, by its path from the spec table as Locate names it
	// ("deadline.seconds", "probe.case[1].node"; a pyproject.toml's
	// tool.fixturegen prefix left off). Findings about the spec's own
	// values point there, so nothing reads the spec's text a second time.
	Positions map[string]Span
}

// Position returns where key (a path as in Positions) is written in the
// spec's file; false when the spec does not write it.
func (s *Spec) Position(key string) (Span, bool) {
	sp, ok := s.Positions[key]
	return sp, ok
}

// SameValues reports whether s and o hold the same values, wherever their
// keys are written: an edit that moves a key keeps its meaning.
func (s *Spec) SameValues(o *Spec) bool {
	a, b := *s, *o
	a.Positions, b.Positions = nil, nil
	return reflect.DeepEqual(a, b)
}

// Deadline is the [deadline] table: the fixture that arms the alarm.
type Deadline struct {
	Fixture     string  `toml:"fixture"`      // Python identifier of the deadline fixture.
	Seconds     float64 `toml:"seconds"`      // Time the guarded code may take; > 0.
	Timer       string  `toml:"timer"`        // "real", "virtual", "prof", "thread" or "auto".
	Message     string  `toml:"message"`      // Start of the failure message.
	OnImport    string  `toml:"on_import"`    // "exclude", "defer" or "raise".
	LateImports string  `toml:"late_imports"` // "off", "warn" or "fail".
	// ImportGrace bounds an import that the alarm does not interrupt: after
	// this many seconds in one import the deadline fires anyway, so a hung
	// import cannot hang the test forever.
	ImportGrace float64 `toml:"import_grace"`
	// Autouse makes the deadline fixture autouse: every test below the
	// conftest runs under it, after the preload.
	Autouse bool `toml:"autouse"`
	// SecondsEnv names an environment variable read when the session
	// starts: its value replaces Seconds, and 0 turns the deadline off.
	// "" when not configured.
	SecondsEnv string `toml:"seconds_env"`
	// Raises is the exception a fired deadline raises: "AssertionError" or
	// "TimeoutError".
	Raises string `toml:"raises"`
	// DumpThreads writes every thread's stack to stderr, with faulthandler,
	// when the deadline fires.
	DumpThreads bool `toml:"dump_threads"`
}

// Exception is the exception a fired deadline raises: Raises, or its
// default for a Deadline built without the loader.
func (d Deadline) Exception() string {
	if d.Raises == "" {
		return DefaultRaises
	}
	return d.Raises
}

// Timer names, as written in the spec.
const (
	TimerReal    = "real"
	TimerVirtual = "virtual"
	TimerProf    = "prof"
	// TimerThread measures real time in a watchdog thread, which delivers
	// the deadline to the main thread: for platforms without SIGALRM.
	TimerThread = "thread"
	// TimerAuto is TimerReal where signal.setitimer exists, TimerThread
	// elsewhere; the generated code decides when it runs.
	TimerAuto = "auto"
)

// Exceptions a fired deadline can raise, as written in the spec.
const (
	RaisesAssertionError = "AssertionError"
	RaisesTimeoutError   = "TimeoutError"
)

// on_import modes.
const (
	OnImportExclude = "exclude"
	OnImportDefer   = "defer"
	OnImportRaise   = "raise"
)

// late_imports modes.
const (
	LateImportsOff  = "off"
	LateImportsWarn = "warn"
	LateImportsFail = "fail"
)

// Defaults for optional keys.
const (
	DefaultTimer       = TimerReal
	DefaultMessage     = "test exceeded its deadline"
	DefaultOnImport    = OnImportExclude
	DefaultLateImports = LateImportsWarn
	DefaultImportGrace = 60.0
	DefaultRaises      = RaisesAssertionError
)

// Preload is the [preload] table: the fixture that imports every module the
// deadline's tests would otherwise import for the first time under the alarm.
type Preload struct {
	Fixture string   `toml:"fixture"` // Python identifier of the preload fixture.
	Modules []string `toml:"modules"` // Dotted module names, imported in this order.
}

// Group is the [group] table: the pytest-xdist loadgroup that keeps every
// test touching the preloaded modules on one worker. The table is optional:
// an autouse deadline makes every test a deadline user, and a group would
// put the whole suite on one worker.
type Group struct {
	Name string `toml:"name"` // "" when the spec has no [group].
}

// Paths is the [paths] table. Each path is slash-separated and relative to
// the spec's folder, as written in the spec.
type Paths struct {
	Conftest    string `toml:"conftest"`     // The conftest.py that holds the generated region.
	ProbePlugin string `toml:"probe_plugin"` // The generated probe plugin; "" when not configured.
	ProbeTests  string `toml:"probe_tests"`  // The generated probe tests; "" when not configured.
	// Docs is the Markdown file whose marked region fixturegen docs writes
	// and check keeps current; "" when not configured.
	Docs string `toml:"docs"`
	// Runtime is the generated deadline runtime, a whole file that the
	// region loads; DefaultRuntime beside the conftest when not written.
	Runtime string `toml:"runtime"`
}

// RuntimeFile is the file name of the generated runtime when paths.runtime
// is not set. The region loads it from its path under a private module
// name, so the name need not be importable.
const RuntimeFile = "_fixturegen_runtime.py"

// DefaultRuntime is the runtime's path beside conftest.
func DefaultRuntime(conftest string) string {
	if dir := path.Dir(conftest); dir != "." {
		return dir + "/" + RuntimeFile
	}
	return RuntimeFile
}

// Probe holds [probe.record] and [[probe.case]].
type Probe struct {
	// Record is [probe.record] in document order. When the table is absent,
	// Record is derived from the preload (see DefaultRecord) and
	// RecordDefaulted is true.
	Record          []Record `toml:"record"`
	RecordDefaulted bool
	Cases           []Case `toml:"case"`
}

// Record is one [probe.record] entry: a JSON key and what it checks at each
// arming of the alarm.
type Record struct {
	Key    string // JSON key in the probe report.
	Module string // Dotted module name.
	Attr   string // When set, the module must be loaded and have this attribute.
}

// Case is one [[probe.case]].
type Case struct {
	Test         string        `toml:"test"`          // Name of the generated probe test; a Python identifier starting with "test".
	Node         string        `toml:"node"`          // pytest node id run by the probe, relative to the spec's folder.
	PlantedDelay *PlantedDelay `toml:"planted_delay"` // Optional.
	ArmedDelay   float64       `toml:"armed_delay"`   // Seconds; 0 when not set.
}

// PlantedDelay makes the first import of Module sleep Seconds, wherever it happens.
type PlantedDelay struct {
	Module  string  `toml:"module"`
	Seconds float64 `toml:"seconds"`
}

// DefaultRecord is the probe record used when [probe.record] is absent: one
// key per preload module (true when loaded), plus a "parent:child" key for
// each dotted module (true when the parent has the child as an attribute,
// the half-import signature).
func DefaultRecord(modules []string) []Record {
	var rec []Record
	for _, m := range modules {
		rec = append(rec, Record{Key: m, Module: m})
		if i := lastDot(m); i >= 0 {
			rec = append(rec, Record{Key: m[:i] + ":" + m[i+1:], Module: m[:i], Attr: m[i+1:]})
		}
	}
	return rec
}

func lastDot(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '.' {
			return i
		}
	}
	return -1
}
