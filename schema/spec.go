// Package schema holds fixturegen's spec: its Go types, strict loading with
// file:line:col errors and each key's position, and validation.
//
// Keys describes every key once: its name, default, allowed values and
// documentation. The editor schema (fixturegen.schema.json) and the
// key table of docs/spec.md are generated from it (go test ./schema -update),
// and tests hold the Go types, the loader's defaults and the starter spec
// to it.
//
// A spec is a TOML document, format version 1. Every value that reaches the
// generated Python passes through this package first, so the renderer can
// trust identifiers and module names and needs to quote only strings.
package schema

import (
	"cmp"
	"path"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/internal/pytext"
	"github.com/fixturegen/fixturegen/internal/version"
)

// Version is the only spec format version this fixturegen understands.
const Version = 1

// DefaultFile is the spec file name looked up in the working directory.
const DefaultFile = "fixturegen.toml"

// URL is fixturegen.schema.json, the JSON Schema of the spec, on the main
// branch: its $id, and what a development build's specs name.
const URL = "https://raw.githubusercontent.com/fixturegen/fixturegen/main/schema/fixturegen.schema.json"

// URLFor is the schema that fixturegen version v understands, which the
// specs it writes name in their #:schema comment, so an editor checks a
// spec against the keys of the version that wrote it, not of a later
// main: for a release, the file at its tag (v0.4.0). A development build
// names main's: it matches no release, it is built from main or a branch
// of it, and the commit it was built from may be nowhere an editor can
// fetch (a local or modified tree), while main always is.
func URLFor(v string) string {
	tag := version.Tag(v)
	if tag == "" {
		return URL
	}
	return strings.Replace(URL, "/main/", "/"+tag+"/", 1)
}

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
	Shield          Shield   `toml:"shield"`

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
	// SecondsEnv names the environment variables read when the session
	// starts, in order: the first one set replaces Seconds, and 0 turns the
	// deadline off. The spec writes one name as a string, several as an
	// array; nil when not configured.
	SecondsEnv []string `toml:"seconds_env"`
	// SecondsEnvInvalid says what a variable of SecondsEnv that holds no
	// number does: SecondsEnvError stops the session, SecondsEnvFallback
	// warns once, naming the variable and its value, and keeps Seconds,
	// as a hand-written helper's "except ValueError: return 5" does.
	SecondsEnvInvalid string `toml:"seconds_env_invalid"`
	// Raises is the exception a fired deadline raises: one of
	// pytext.Raises ("AssertionError", "TimeoutError", or pytest's
	// "Failed", as pytest.fail raises it).
	Raises string `toml:"raises"`
	// DumpThreads writes every thread's stack to stderr, with faulthandler,
	// when the deadline fires.
	DumpThreads bool `toml:"dump_threads"`
	// DeferToPytestTimeout leaves the timing to pytest-timeout when that
	// plugin is loaded: the deadline fixture then arms no timer (with
	// DumpThreads, faulthandler still dumps the stacks at the deadline),
	// as a hand-written fixture that checks for the plugin does.
	DeferToPytestTimeout bool `toml:"defer_to_pytest_timeout"`
	// ModuleSeconds gives the tests of some modules their own deadline,
	// in place of Seconds (and of SecondsEnv's value), in the order the
	// spec writes them: the first whose pattern matches a test's module
	// wins. nil when not configured.
	ModuleSeconds []ModuleSeconds `toml:"module_seconds"`
	// ArmedWhenEnvSet arms the deadline only when a variable of
	// SecondsEnv holds a value: unset, the tests run with no deadline, as
	// a hand-written opt-in timer's do. Seconds is optional then.
	ArmedWhenEnvSet bool `toml:"armed_when_env_set"`
	// MessageVerbatim makes the failure say Message alone, as written:
	// no "(<seconds> s, <timer>)" follows a message without {seconds}, as
	// none followed the hand-written handler's text.
	MessageVerbatim bool `toml:"message_verbatim"`
	// WithoutTimer says what the deadline does where its timer does not
	// exist (no SIGALRM): WithoutTimerFail fails the test saying what to
	// set, WithoutTimerOff arms nothing, as a hand-written
	// hasattr(signal, "SIGALRM") guard does; "" is WithoutTimerFail.
	WithoutTimer string `toml:"without_timer"`
}

// SecondsOf returns the seconds ModuleSeconds gives the test module at
// rel, a slash-separated path relative to the spec's folder, and false
// when no entry matches it.
func (d Deadline) SecondsOf(rel string) (float64, bool) {
	for _, m := range d.ModuleSeconds {
		if ok, _ := regexp.MatchString("^(?:"+m.Regexp()+")$", rel); ok {
			return m.Seconds, true
		}
	}
	return 0, false
}

// ModuleSeconds is one entry of deadline.module_seconds.
type ModuleSeconds struct {
	// Pattern is a test module's path relative to the spec's folder, or a
	// glob of such paths: "*" and "?" match within one path segment, a
	// segment "**" matches any number of segments.
	Pattern string
	Seconds float64
}

// Regexp returns the regular expression that matches, whole, the
// slash-separated paths Pattern names. Its syntax is the common part of
// Go's and Python's re: the generated runtime matches with it.
func (m ModuleSeconds) Regexp() string {
	var b strings.Builder
	segments := strings.Split(m.Pattern, "/")
	for i, seg := range segments {
		last := i == len(segments)-1
		if seg == "**" {
			if last {
				b.WriteString(".*")
			} else {
				b.WriteString("(?:[^/]+/)*")
			}
			continue
		}
		for _, r := range seg {
			switch r {
			case '*':
				b.WriteString("[^/]*")
			case '?':
				b.WriteString("[^/]")
			default:
				b.WriteString(regexp.QuoteMeta(string(r)))
			}
		}
		if !last {
			b.WriteByte('/')
		}
	}
	return b.String()
}

// HasDeadline reports whether the spec has a [deadline] (and with it a
// [preload]): a spec may hold only the import shield.
func (s *Spec) HasDeadline() bool { return s.Deadline.Fixture != "" }

// Exception is the exception a fired deadline raises: Raises, or its
// default for a Deadline built without the loader.
func (d Deadline) Exception() string {
	return cmp.Or(d.Raises, DefaultRaises)
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

// IntervalTimer is one of the signal module's interval timers.
type IntervalTimer struct {
	Which  string // its signal.ITIMER_* name
	Signal string // the signal.SIG* signal it delivers
	Time   string // the time it measures: "real time", "CPU time"
}

// IntervalTimers are the timers the values real, virtual and prof name:
// the one table of them that the generated code, the docs and the rules
// read.
var IntervalTimers = map[string]IntervalTimer{
	TimerReal:    {"ITIMER_REAL", "SIGALRM", pytext.RealTime},
	TimerVirtual: {"ITIMER_VIRTUAL", "SIGVTALRM", pytext.UserCPUTime},
	TimerProf:    {"ITIMER_PROF", "SIGPROF", pytext.CPUTime},
}

// IsTimerSignal reports whether name, as a reader resolves it
// ("signal.SIGALRM"), is an interval timer's signal (ShieldSignals).
func IsTimerSignal(name string) bool {
	sig, ok := strings.CutPrefix(name, "signal.")
	return ok && slices.Contains(ShieldSignals, sig)
}

// Exceptions a fired deadline can raise, as written in the spec.
const (
	RaisesAssertionError = pytext.AssertionError
	RaisesTimeoutError   = pytext.TimeoutError
	RaisesFailed         = pytext.Failed
)

// on_import modes.
const (
	OnImportExclude = "exclude"
	OnImportDefer   = "defer"
	OnImportRaise   = "raise"
)

// seconds_env_invalid values.
const (
	SecondsEnvError    = "error"
	SecondsEnvFallback = "fallback"

	// deadline.without_timer values.
	WithoutTimerFail    = "fail"
	WithoutTimerOff     = "off"
	DefaultWithoutTimer = WithoutTimerFail
)

// late_imports modes.
const (
	LateImportsOff  = "off"
	LateImportsWarn = "warn"
	LateImportsFail = "fail"
)

// Defaults for optional keys.
const (
	DefaultTimer             = TimerReal
	DefaultMessage           = "test exceeded its deadline"
	DefaultOnImport          = OnImportExclude
	DefaultLateImports       = LateImportsWarn
	DefaultImportGrace       = 60.0
	DefaultRaises            = RaisesAssertionError
	DefaultSecondsEnvInvalid = SecondsEnvError
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
	return path.Join(path.Dir(conftest), RuntimeFile)
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

// Shield is the [shield] table: the import shield, which holds a handler of
// a timer's signal that is not fixturegen's own (pytest-timeout's signal
// method, a test's own signal.signal handler) while a module's first import
// runs, and runs it right after that import.
type Shield struct {
	// On is true when the spec has a [shield] table; the other fields
	// hold their defaults then, and are zero otherwise.
	On bool
	// Signals are the signals whose handlers the shield holds, by their
	// names in Python's signal module.
	Signals []string `toml:"signals"`
	// ImportGrace bounds how long one import holds a handler back.
	ImportGrace float64 `toml:"import_grace"`
	// PastGrace says what happens to a handler held past ImportGrace:
	// PastGraceDeliver runs it inside the import, PastGraceWait keeps it
	// until the import finishes.
	PastGrace string `toml:"past_grace"`
	// Rollback removes the modules an interrupted first import loaded
	// from sys.modules, so the next import of them is whole.
	Rollback bool `toml:"rollback"`
}

// The signals the shield can hold: those of the interval timers.
const (
	SignalAlarm   = "SIGALRM"
	SignalVirtual = "SIGVTALRM"
	SignalProf    = "SIGPROF"
)

// ShieldSignals lists the signals the shield can hold, in the order
// messages list them.
var ShieldSignals = []string{SignalAlarm, SignalVirtual, SignalProf}

// past_grace modes.
const (
	PastGraceDeliver = "deliver"
	PastGraceWait    = "wait"
)

// Defaults of the [shield] keys.
const (
	DefaultShieldGrace = 30.0
	DefaultPastGrace   = PastGraceDeliver
)

// DefaultShieldSignals are the signals a [shield] without signals holds:
// SIGALRM, which pytest-timeout's signal method and signal.alarm use.
func DefaultShieldSignals() []string { return []string{SignalAlarm} }

// DefaultRecord is the probe record used when [probe.record] is absent: one
// key per preload module (true when loaded), plus a "parent:child" key for
// each dotted module (true when the parent has the child as an attribute,
// the half-import signature).
func DefaultRecord(modules []string) []Record {
	var rec []Record
	for _, m := range modules {
		rec = append(rec, Record{Key: m, Module: m})
		if i := strings.LastIndexByte(m, '.'); i >= 0 {
			rec = append(rec, Record{Key: m[:i] + ":" + m[i+1:], Module: m[:i], Attr: m[i+1:]})
		}
	}
	return rec
}

// Key describes one key of the spec once, for the loader and for every
// place that documents the spec: the JSON Schema for editors
// (fixturegen.schema.json) and docs/spec.md's key table are generated from
// Keys, and the loader's lists of allowed keys and values, the starter
// spec and the Go types are tested against it.
type Key struct {
	// Name is the key's dotted path from the spec table. Keys of the
	// tables of an array of tables follow the array's name:
	// "probe.case.node".
	Name string
	// Required is true when the table that holds the key must have it;
	// the key table says "with [table]" when that table is optional.
	Required bool
	// RequiredWhen overrides the key table's required column, for a key
	// that other keys make required ("with cases").
	RequiredWhen string
	// Default is the value the loader uses when the key is absent, nil
	// when it has none; DefaultText says it in words when the loader
	// derives it from other keys.
	Default     any
	DefaultText string
	// Enum lists the values a string key allows, in the order messages
	// list them.
	Enum []string
	// Doc is one line of Markdown: the key table's meaning column, and the
	// description editors show.
	Doc string
	// Schema is the JSON Schema of the value, without its description,
	// enum and default, which come from the fields above.
	Schema string
	// Table marks a table whose keys are listed on their own; the key table
	// leaves it out.
	Table bool
	// Starter is true when the starter spec (fixturegen init) writes the
	// key, or shows it commented out.
	Starter bool
}

// Keys is every key of the spec, tables first in their own order, each
// table's keys in the order the docs list them.
var Keys = []Key{
	{Name: "version", Required: true, Starter: true,
		Doc:    "spec format; only `1` exists",
		Schema: `{"const": 1}`},
	{Name: "required_version",
		Doc:    "the fixturegen versions the spec allows, as PEP 440 clauses joined by commas: `\">=0.4\"`, `\">=0.4, <0.6\"`, `\"~=0.4\"`, `\"==0.4.*\"`, `\"!=0.4.1\"`; see below",
		Schema: `{"type": "string", "pattern": "^\\s*(~=|==|!=|<=|>=|<|>)\\s*v?[0-9]+(\\.[0-9]+)*((a|b|rc)[0-9]+|\\.\\*)?\\s*(,\\s*(~=|==|!=|<=|>=|<|>)\\s*v?[0-9]+(\\.[0-9]+)*((a|b|rc)[0-9]+|\\.\\*)?\\s*)*$"}`},

	{Name: "deadline", RequiredWhen: "without `[shield]`", Table: true, Starter: true,
		Doc: "The deadline fixture: it arms the alarm that bounds each test using it, after the preload fixture has run. A spec with a `[shield]` may leave `[deadline]` and `[preload]` out."},
	{Name: "deadline.fixture", Required: true, Starter: true,
		Doc:    "name of the deadline fixture: a Python identifier, not a keyword, not `request`, not starting with `_fixturegen`",
		Schema: `{"$ref": "#/$defs/fixture"}`},
	{Name: "deadline.seconds", Required: true, RequiredWhen: "with `[deadline]`, unless `armed_when_env_set`", Starter: true,
		Doc:    "the deadline, in seconds of the timer's time; more than 0, at most 86400",
		Schema: `{"$ref": "#/$defs/seconds"}`},
	{Name: "deadline.timer", Default: DefaultTimer, Starter: true,
		Enum: []string{TimerReal, TimerVirtual, TimerProf, TimerThread, TimerAuto},
		Doc:  "`real` (wall clock, SIGALRM), `virtual` (user CPU, SIGVTALRM), `prof` (CPU, SIGPROF), `thread` (wall clock, a watchdog thread; Python 3.10+, any platform), `auto` (`real` where `signal.setitimer` exists, `thread` elsewhere; to arm nothing there instead, `real` with `without_timer = \"off\"`)"},
	{Name: "deadline.message", Default: DefaultMessage, Starter: true,
		Doc:    "the failure's message. It may place the seconds armed for the test with `{seconds}`, or a number format of them, `{seconds:g}` (Python's format-spec mini-language): the failure is then the message filled in, exactly (`\"Test exceeded {seconds:g} seconds\"`); without the field it is followed by `(<seconds> s, <timer>)`, unless `message_verbatim`. Braces are a Python format string's: write a literal one as `{{` or `}}`",
		Schema: `{"type": "string", "minLength": 1, "pattern": "^(?:[^{}]|\\{\\{|\\}\\}|\\{seconds(?::[^{}]*)?\\})+$"}`},
	{Name: "deadline.on_import", Default: DefaultOnImport, Starter: true,
		Enum: []string{OnImportExclude, OnImportDefer, OnImportRaise},
		Doc:  "what the alarm does to an import it meets: `exclude` never interrupts it nor charges its time, `defer` fails the test right after it, `raise` interrupts anything; see below"},
	{Name: "deadline.late_imports", Default: DefaultLateImports, Starter: true,
		Enum: []string{LateImportsOff, LateImportsWarn, LateImportsFail},
		Doc:  "`off`, `warn` (a pytest warning) or `fail` (an error at the test's teardown: the test does not pass, on any rerun either) when a module is first imported under the alarm"},
	{Name: "deadline.import_grace", Default: DefaultImportGrace,
		Doc:    "the longest one import may run under the alarm before the deadline interrupts it anyway",
		Schema: `{"$ref": "#/$defs/seconds"}`},
	{Name: "deadline.autouse", Default: false, Starter: true,
		Doc:    "`true`: the deadline fixture is autouse, so every test below the conftest runs under it (its preload still runs first)",
		Schema: `{"type": "boolean"}`},
	{Name: "deadline.seconds_env", Starter: true,
		Doc:    "an environment variable, or an array of them tried in order, read when the session starts: the first one set replaces `seconds`, `0` turns the deadline off, anything but a number fails the session (see `seconds_env_invalid`)",
		Schema: `{"anyOf": [{"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"}, {"type": "array", "items": {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"}, "uniqueItems": true}]}`},
	{Name: "deadline.seconds_env_invalid", Default: DefaultSecondsEnvInvalid, Starter: true,
		Enum: []string{SecondsEnvError, SecondsEnvFallback},
		Doc:  "what a `seconds_env` variable that holds no number does: `error` fails the session, saying what to set; `fallback` keeps `seconds` and warns once, naming the variable and its value (a hand-written `except ValueError: return N`); needs `seconds_env`"},
	{Name: "deadline.raises", Default: DefaultRaises, Starter: true,
		Enum: pytext.Raises,
		Doc:  "the exception a fired deadline raises: " + raisesDoc()},
	{Name: "deadline.dump_threads", Default: false, Starter: true,
		Doc:    "`true`: when the deadline fires, `faulthandler` writes every thread's stack to stderr",
		Schema: `{"type": "boolean"}`},
	{Name: "deadline.defer_to_pytest_timeout", Default: false, Starter: true,
		Doc:    "`true`: when pytest-timeout is loaded, the deadline fixture arms no timer and leaves the timing to it (with `dump_threads`, the stacks are still dumped at the deadline)",
		Schema: `{"type": "boolean"}`},
	{Name: "deadline.armed_when_env_set", Default: false,
		Doc:    "`true`: the deadline is armed only when a `seconds_env` variable is set: with none set, the tests run with no deadline (an opt-in timer); `seconds` is then optional. Needs `seconds_env`",
		Schema: `{"type": "boolean"}`},
	{Name: "deadline.message_verbatim", Default: false,
		Doc:    "`true`: the failure says `message` alone, exactly as written, where a message without `{seconds}` is otherwise followed by `(<seconds> s, <timer>)` (what a hand-written handler's fixed text said)",
		Schema: `{"type": "boolean"}`},
	{Name: "deadline.without_timer", Default: DefaultWithoutTimer,
		Enum: []string{WithoutTimerFail, WithoutTimerOff},
		Doc:  "what the deadline does on a platform without its timer (no `SIGALRM`, say): `fail` fails each test, saying what to set; `off` arms nothing, as a hand-written `hasattr(signal, \"SIGALRM\")` guard does"},
	{Name: "deadline.module_seconds", Starter: true,
		Doc:    "the deadline of the tests of some modules, in place of `seconds` (and of `seconds_env`'s value; `0` there still turns every deadline off): a table from a test module's path relative to the spec's folder, or a glob of them (`*` and `?` within a segment, `**` for any number of segments), to seconds, written `[deadline.module_seconds]` with quoted keys, `\"tests/test_zone.py\" = 120`; the first key that matches, in the order written, wins",
		Schema: `{"type": "object", "propertyNames": {"pattern": "^[^/\\\\\\[\\]{}\\x00-\\x1f][^\\\\\\[\\]{}\\x00-\\x1f]*(\\.py|\\*\\*)$"}, "additionalProperties": {"$ref": "#/$defs/seconds"}}`},

	{Name: "preload", RequiredWhen: "with `[deadline]`", Table: true, Starter: true,
		Doc: "The preload fixture: the deadline fixture's first parameter, so pytest runs it before the alarm is armed."},
	{Name: "preload.fixture", Required: true, Starter: true,
		Doc:    "name of the preload fixture, different from the deadline fixture",
		Schema: `{"$ref": "#/$defs/fixture"}`},
	{Name: "preload.modules", Required: true, Starter: true,
		Doc:    "dotted module names, imported in order; may be empty",
		Schema: `{"type": "array", "uniqueItems": true, "items": {"$ref": "#/$defs/module"}}`},

	{Name: "group", Table: true, Starter: true,
		Doc: "The pytest-xdist worker group that keeps every test touching the preloaded modules on one worker (run pytest with --dist loadgroup). Optional: leave it out with an autouse deadline, where a group would put the whole suite on one worker."},
	{Name: "group.name", Required: true, Starter: true,
		Doc:    "the pytest-xdist worker group of the modules that touch these modules, 1 to 200 characters; leave `[group]` out (with an autouse deadline, say) and no group is kept or checked",
		Schema: `{"type": "string", "minLength": 1, "maxLength": 200, "pattern": "^[^\\x00-\\x1f\\x7f]*$"}`},

	{Name: "paths", Required: true, Table: true, Starter: true,
		Doc: "Where fixturegen writes, as slash-separated paths relative to the spec's folder (the folder of fixturegen.toml or pyproject.toml), inside it."},
	{Name: "paths.conftest", Required: true, Starter: true,
		Doc:    "the `conftest.py` that holds the generated region",
		Schema: `{"type": "string", "pattern": "^([^/\\\\:][^\\\\]*/)?conftest\\.py$"}`},
	{Name: "paths.probe_plugin", RequiredWhen: "with cases", Starter: true,
		Doc:    "the generated probe plugin, named after a Python identifier (the probe tests load it with `pytest -p`)",
		Schema: `{"type": "string", "pattern": "^([^/\\\\:][^\\\\]*/)?[A-Za-z_][A-Za-z0-9_]*\\.py$"}`},
	{Name: "paths.probe_tests", RequiredWhen: "with cases", Starter: true,
		Doc:    "the generated probe tests, a file named `test_*.py`; needs `probe_plugin`",
		Schema: `{"type": "string", "pattern": "^([^/\\\\:][^\\\\]*/)?test_[^/\\\\]*\\.py$"}`},
	{Name: "paths.docs", Starter: true,
		Doc:    "a Markdown file whose marked region `fixturegen docs` writes (the settings, the group's modules, the alarm's users); once set, `fixturegen check` reports the region when it is stale",
		Schema: `{"type": "string", "pattern": "^[^/\\\\:][^\\\\]*\\.md$"}`},
	{Name: "paths.runtime", DefaultText: "`_fixturegen_runtime.py` beside the conftest",
		Doc:    "the generated deadline runtime, a whole file the region loads by its path; not `conftest.py`, nor a name pytest collects as tests",
		Schema: `{"type": "string", "pattern": "^([^/\\\\:][^\\\\]*/)?[^/\\\\]+\\.py$", "not": {"anyOf": [{"pattern": "(^|/)conftest\\.py$"}, {"pattern": "(^|/)test_[^/]*$"}, {"pattern": "_test\\.py$"}]}}`},

	{Name: "probe", Table: true,
		Doc: "The recording probe: what it notes each time the alarm is armed, and the probe cases that run a test cold in a fresh interpreter and check the report."},
	{Name: "probe.record", DefaultText: "one key per preload module, and `parent:child` per dotted one",
		Doc:    "what the probe notes at each arming, by the JSON key of its report: `\"module\"` (loaded) or `\"module:attr\"` (loaded and has the attribute)",
		Schema: `{"type": "object", "propertyNames": {"minLength": 1, "pattern": "^[^\\x00-\\x1f\\x7f]*$"}, "additionalProperties": {"description": "A dotted module name, optionally followed by a colon and an attribute name.", "type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*(:[A-Za-z_][A-Za-z0-9_]*)?$"}}`},
	{Name: "probe.case", Starter: true,
		Doc:    "one generated probe test each, written `[[probe.case]]`; needs `paths.probe_plugin` and `paths.probe_tests`",
		Schema: `{"type": "array", "items": {"description": "One probe case.", "type": "object"}}`},
	{Name: "probe.case.test", Required: true,
		Doc:    "name of the generated probe test: a Python identifier starting with `test`, unique among the cases",
		Schema: `{"type": "string", "pattern": "^test[A-Za-z0-9_]*$"}`},
	{Name: "probe.case.node", Required: true,
		Doc:    "the pytest node id the probe runs, relative to the spec's folder (`tests/test_x.py::test_name`); not a test in `paths.probe_tests`",
		Schema: `{"type": "string", "pattern": "^[^/\\\\:][^\\\\:]*\\.py::[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)*(\\[.*\\])?$"}`},
	{Name: "probe.case.planted_delay",
		Doc: "makes the first import of a module sleep, wherever it happens, to prove the preload takes the cost before the alarm is armed: `{ module = \"m\", seconds = 6 }`"},
	{Name: "probe.case.planted_delay.module", Required: true,
		Doc:    "the dotted name of the module whose first import sleeps",
		Schema: `{"$ref": "#/$defs/module"}`},
	{Name: "probe.case.planted_delay.seconds", Required: true,
		Doc:    "how long that import sleeps",
		Schema: `{"$ref": "#/$defs/seconds"}`},
	{Name: "probe.case.armed_delay",
		Doc:    "seconds the first import that starts while the alarm is armed sleeps; the report gains the list of such late imports, which must be empty",
		Schema: `{"$ref": "#/$defs/seconds"}`},

	{Name: "shield", Table: true, Starter: true,
		Doc: "The import shield: while a module's first import runs, a handler of a timer's signal that is not fixturegen's (pytest-timeout's signal method, a test's own `signal.signal`) is held, and run right after the import. Its presence turns the shield on; a spec may hold only `[shield]` and `[paths]`."},
	{Name: "shield.signals", Default: DefaultShieldSignals(), DefaultText: "`[\"SIGALRM\"]`", Starter: true,
		Doc:    "the signals whose handlers are held during a first import: `SIGALRM` (pytest-timeout, `signal.alarm`, `ITIMER_REAL`), `SIGVTALRM`, `SIGPROF`",
		Schema: `{"type": "array", "uniqueItems": true, "items": {"description": "A timer signal's name.", "enum": ["SIGALRM", "SIGVTALRM", "SIGPROF"]}}`},
	{Name: "shield.import_grace", Default: DefaultShieldGrace, Starter: true,
		Doc:    "the longest one import holds a handler back; see `past_grace`",
		Schema: `{"$ref": "#/$defs/seconds"}`},
	{Name: "shield.past_grace", Default: DefaultPastGrace, Starter: true,
		Enum: []string{PastGraceDeliver, PastGraceWait},
		Doc:  "a handler held for `import_grace`: `deliver` runs it inside the import (which `rollback` then undoes), `wait` holds it until the import finishes, however long"},
	{Name: "shield.rollback", Default: true, Starter: true,
		Doc:    "`true`: a first import that a handler interrupts anyway is rolled back (the pure-Python modules it loaded leave `sys.modules`) and reported with an `InterruptedImportWarning`",
		Schema: `{"type": "boolean"}`},
}

// raisesDoc lists pytext.Raises in Markdown, saying what Failed is.
func raisesDoc() string {
	var names []string
	for _, r := range pytext.Raises {
		name := "`" + r + "`"
		if r == RaisesFailed {
			name += " (pytest's, as `pytest.fail(message, pytrace=False)` raises it: the report holds the message alone)"
		}
		names = append(names, name)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// tableKeys returns the names, without the table's, of the keys directly
// in table ("" for the spec table), in the order of Keys.
func tableKeys(table string) []string {
	var out []string
	for _, k := range Keys {
		parent, name := splitKey(k.Name)
		if parent == table {
			out = append(out, name)
		}
	}
	return out
}

// keyEnum returns the values key allows.
func keyEnum(key string) []string {
	for _, k := range Keys {
		if k.Name == key {
			return k.Enum
		}
	}
	panic("schema: no key " + key)
}

// splitKey splits a key's name into its table and its own name.
func splitKey(name string) (string, string) {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[:i], name[i+1:]
	}
	return "", name
}
