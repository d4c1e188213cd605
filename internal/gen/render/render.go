// Package render turns a spec into the files fixturegen owns: the conftest
// region, the deadline runtime it loads and, when configured, the probe
// plugin and the probe tests.
//
// It is the one renderer behind generate, check and probe, so they can never
// disagree about what the generated code should be. It does no I/O.
package render

import (
	"bytes"
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
	"text/template"

	"github.com/fixturegen/fixturegen/internal/pytext"
	"github.com/fixturegen/fixturegen/internal/python/pyquote"
	"github.com/fixturegen/fixturegen/internal/relpath"
	"github.com/fixturegen/fixturegen/internal/version"
	"github.com/fixturegen/fixturegen/schema"
	"github.com/fixturegen/fixturegen/templates"
)

// HasConfigure reports whether the conftest region binds the runtime's
// pytest_configure (as pytext.RegionConfigure): with a group to guard, variables to
// read, or pytest-timeout to look for.
func HasConfigure(spec *schema.Spec) bool {
	return spec.Group.Name != "" || len(spec.Deadline.SecondsEnv) > 0 || spec.Deadline.DeferToPytestTimeout || spec.Shield.On
}

// RegionNames are the module-level names the conftest region defines
// (conftest_region.py.tmpl): the two fixtures, the runtime's loader and
// the names it binds, and pytext.RegionConfigure when the region has one. A
// definition of one of them outside the region clashes with it.
func RegionNames(spec *schema.Spec) []string {
	names := []string{"_fixturegen_load", "_fixturegen", pytext.RegionPytest}
	if spec.HasDeadline() {
		names = append([]string{spec.Preload.Fixture, spec.Deadline.Fixture}, names...)
	}
	if HasConfigure(spec) {
		names = append(names, pytext.RegionConfigure)
	}
	return names
}

// File is one planned file.
type File struct {
	// Path is slash-separated and relative to the spec's folder.
	Path string
	// Region reports that Content is the conftest region, to be spliced
	// between fixturegen's markers; otherwise Content is the whole file.
	Region bool
	// Content is the rendered Python, ending in a newline. A region's
	// Content excludes the marker lines; package region adds them.
	Content []byte
}

// sources are the templates, by the names of their files. They point at
// the strings, so the table is laid out when the program is linked, with
// nothing to fill in when it starts.
var sources = [...]struct {
	name string
	text *string
}{
	{"conftest_region.py.tmpl", &templates.ConftestRegion},
	{"runtime.py.tmpl", &templates.Runtime},
	// The parts of the runtime, which runtime.py.tmpl places as the spec
	// uses them.
	{"runtime_deadline.py.tmpl", &templates.RuntimeDeadline},
	{"runtime_loadgroup.py.tmpl", &templates.RuntimeLoadgroup},
	{"runtime_shield.py.tmpl", &templates.RuntimeShield},
	{"runtime_plugin.py.tmpl", &templates.RuntimePlugin},
	{"probe_plugin.py.tmpl", &templates.ProbePlugin},
	{"probe_tests.py.tmpl", &templates.ProbeTests},
	// The test module fixturegen scaffold writes.
	{"scaffold_module.py.tmpl", &templates.ScaffoldModule},
}

// tmpl parses the templates when they are first needed, not at start-up:
// commands that render nothing (version, triage) should not pay for them.
var tmpl = sync.OnceValue(func() *template.Template {
	t := template.New("").
		Option("missingkey=error").
		Funcs(template.FuncMap{"py": pyquote.String, "num": pyquote.Number, "assign": assign, "strings": quoteAll, "tuple": tuple})
	for _, src := range sources {
		template.Must(t.New(src.name).Parse(*src.text))
	}
	return t
})

// Target is one file the spec plans, before it is rendered.
type Target struct {
	// Path is slash-separated and relative to the spec's folder.
	Path string
	// Region reports that the file is the conftest, which holds the
	// rendered region between fixturegen's markers.
	Region   bool
	template string
}

// Targets returns the files spec plans, conftest region first, as Render
// renders them: where each goes is known from the spec alone, without
// rendering anything.
func Targets(spec *schema.Spec) []Target {
	return slices.DeleteFunc([]Target{
		{spec.Paths.Conftest, true, "conftest_region.py.tmpl"},
		{runtimePath(spec), false, "runtime.py.tmpl"},
		{spec.Paths.ProbePlugin, false, "probe_plugin.py.tmpl"},
		{spec.Paths.ProbeTests, false, "probe_tests.py.tmpl"},
	}, func(t Target) bool { return t.Path == "" })
}

// Render returns the files spec plans, conftest region first.
func Render(spec *schema.Spec) ([]File, error) {
	v := newView(spec)
	var files []File
	for _, t := range Targets(spec) {
		content, err := execute(t.template, v)
		if err != nil {
			return nil, fmt.Errorf("render %s: %w", t.Path, err)
		}
		files = append(files, File{Path: t.Path, Region: t.Region, Content: content})
	}
	return files, nil
}

// runtimePath is where the runtime goes: paths.runtime, or its default for
// a spec built without the loader.
func runtimePath(spec *schema.Spec) string {
	return cmp.Or(spec.Paths.Runtime, schema.DefaultRuntime(spec.Paths.Conftest))
}

// ProbePlugin renders the recording probe plugin, whether or not the spec
// places it in the project: fixturegen probe loads it from a folder of its own.
func ProbePlugin(spec *schema.Spec) ([]byte, error) {
	return execute("probe_plugin.py.tmpl", newView(spec))
}

// ScaffoldModule renders the test module fixturegen scaffold writes, from
// the values package scaffold works out for it.
func ScaffoldModule(values map[string]any) ([]byte, error) {
	return execute("scaffold_module.py.tmpl", values)
}

func execute(name string, data any) ([]byte, error) {
	// The output is at most about as long as the template and the parts
	// it places: room for their length and a quarter more from the start
	// saves growing the buffer, and copying what it holds, a dozen times.
	var buf bytes.Buffer
	size := 0
	for _, src := range sources {
		if src.name == name || name == "runtime.py.tmpl" && strings.HasPrefix(src.name, "runtime_") {
			size += len(*src.text)
		}
	}
	buf.Grow(size * 5 / 4)
	if err := tmpl().ExecuteTemplate(&buf, name, data); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// view is what the templates see: the spec plus the Python spellings
// derived from it, so the templates hold no logic beyond layout.
type view struct {
	Spec       string // the spec's path relative to the project folder
	Version    string // the fixturegen version that writes the files
	ModulesKey string // how the preload's module list is named in the spec
	Deadline   deadlineView
	Preload    preloadView
	Group      string
	Runtime    runtimeView
	Probe      probeView
	// Text holds the names and message formats that cross from the
	// generated Python to the Go that reads what it printed.
	Text map[string]string
	// HasDeadline is false for a spec that holds only the shield: the
	// region then defines no fixture.
	HasDeadline bool
	Shield      schema.Shield
	// Configure is true when the region binds the runtime's
	// pytest_configure (HasConfigure); ConfigureDoc is the first line of
	// its docstring, which says what it does for this spec.
	Configure    bool
	ConfigureDoc string
	// Region holds the region's lines that are laid out in Go.
	Region regionView
	// Plugin is set when the runtime is rendered as the module of the
	// pytest-import-shield distribution (see Plugin), nil otherwise.
	Plugin *pluginView
}

// pluginView is what the plugin's own part (runtime_plugin.py.tmpl) needs:
// its name, and the values its settings may take, as Python literals.
type pluginView struct {
	Name           string // the pytest11 entry-point name
	DefaultSignals string // "SIGALRM", as the ini option spells it
	SignalsText    string // "SIGALRM, SIGVTALRM, SIGPROF"
	Signals        string // ("SIGALRM", "SIGVTALRM", "SIGPROF")
	PastGraces     string // ("deliver", "wait")
}

type runtimeView struct {
	Module string // the module name the region loads it under
	// SpecDirLine is the runtime's assignment of the spec's folder,
	// relative to the runtime's: ".", "..", "../..".
	// deadline.module_seconds' paths start there.
	SpecDirLine string
}

func newRuntimeView(spec *schema.Spec) runtimeView {
	up := "."
	if dir := path.Dir(runtimePath(spec)); dir != "." {
		up = strings.Repeat("../", strings.Count(dir, "/")) + ".."
	}
	return runtimeView{Module: pytext.RuntimeModule, SpecDirLine: specDirLine(up)}
}

type preloadView struct {
	Fixture string
	Imports []preloadImport
	// KeepOrder marks the first import with noqa I001: the modules are
	// imported in the spec's order, which an import sorter must not change.
	KeepOrder bool
}

// preloadImport is one import statement of the preload fixture. NoQA marks
// the imports that pyflakes (and ruff's F401) would report as unused: only
// the last import of each top-level package, since each later "import a.x"
// rebinds the name "a". A noqa on the others would itself be reported as
// unused (RUF100).
type preloadImport struct {
	Module string
	NoQA   bool
}

func newPreloadView(p schema.Preload) preloadView {
	last := map[string]int{}
	for i, m := range p.Modules {
		top, _, _ := strings.Cut(m, ".")
		last[top] = i
	}
	v := preloadView{Fixture: p.Fixture, KeepOrder: len(p.Modules) > 1}
	for i, m := range p.Modules {
		top, _, _ := strings.Cut(m, ".")
		v.Imports = append(v.Imports, preloadImport{Module: m, NoQA: last[top] == i})
	}
	return v
}

type deadlineView struct {
	schema.Deadline
	TimerText string // "real time"
	Which     string // signal.ITIMER_* name
	Signal    string // signal.SIG* name
	Clock     string // time.* function that measures the timer's time
	// RaisesFailed is true when the deadline raises pytest's Failed,
	// which the runtime takes from pytest.fail and raises without a
	// traceback, as pytest.fail(message, pytrace=False) does.
	RaisesFailed bool
	// FallBackOnInvalidEnv is true when a seconds_env variable that holds
	// no number keeps the spec's seconds, with a warning.
	FallBackOnInvalidEnv bool
	// ModulePatterns is deadline.module_seconds, each path or glob as the
	// regular expression the runtime matches a test module's path with.
	ModulePatterns []modulePattern
	// MessageText is the message as text, its doubled braces undone, for
	// a message without the {seconds} field, which the runtime follows
	// with the seconds and the timer.
	MessageText string
	// MessageAlone is true when the failure is the message filled in and
	// nothing else: it places the seconds itself, or the spec keeps it
	// verbatim (message_verbatim).
	MessageAlone bool
	// WithoutTimerOff is true when the deadline arms nothing on a
	// platform without its timer (without_timer = "off").
	WithoutTimerOff bool
	// SignalTimer and ThreadTimer say which timers the runtime may arm:
	// an interval timer of the signal module (real, virtual, prof, auto),
	// the watchdog thread (thread, auto). TimerType is the Python type of
	// the one it arms.
	SignalTimer bool
	ThreadTimer bool
	TimerType   string
}

// modulePattern is one entry of deadline.module_seconds, for the runtime.
type modulePattern struct {
	Regexp  string
	Seconds float64
}

// timerView is what the templates say of a [deadline].timer value: the
// interval timer it arms (none for thread; auto arms real's where it
// can) and the time.* clock that measures the same time.
func timerView(kind string) (t schema.IntervalTimer, clock string) {
	switch kind {
	case schema.TimerThread:
		return schema.IntervalTimer{Time: pytext.RealTime}, "monotonic"
	case schema.TimerAuto:
		kind = schema.TimerReal
	}
	t = schema.IntervalTimers[kind]
	if kind == schema.TimerReal {
		return t, "monotonic"
	}
	return t, "process_time"
}

// crossingText is pytext's names and formats, by the names the templates
// use for them.
var crossingText = map[string]string{
	"RegionPytest":      pytext.RegionPytest,
	"RegionConfigure":   pytext.RegionConfigure,
	"DeadlineExceeded":  pytext.DeadlineExceeded,
	"LateImportWarning": pytext.LateImportWarning,
	// The import shield's report of an import it rolled back.
	"InterruptedImportWarning": pytext.InterruptedImportWarning,
	"DeadlineFormat":           pytext.DeadlineFormat,
	"InterruptedFormat":        pytext.InterruptedFormat,
	// The pytest-import-shield plugin's module, which a generated shield
	// asks to stand aside.
	"PluginModule":     pytext.PluginModule,
	"GraceFormat":      pytext.GraceFormat,
	"LateImportFormat": pytext.LateImportFormat,
	"LateModuleFormat": pytext.LateModuleFormat,
}

func modulePatterns(ms []schema.ModuleSeconds) []modulePattern {
	var out []modulePattern
	for _, m := range ms {
		out = append(out, modulePattern{Regexp: m.Regexp(), Seconds: m.Seconds})
	}
	return out
}

func newView(spec *schema.Spec) view {
	t, clock := timerView(spec.Deadline.Timer)
	signalTimer := spec.Deadline.Timer != schema.TimerThread
	threadTimer := spec.Deadline.Timer == schema.TimerThread || spec.Deadline.Timer == schema.TimerAuto
	timerType := "_SignalTimer"
	switch {
	case signalTimer && threadTimer:
		timerType = "_SignalTimer | _ThreadTimer"
	case threadTimer:
		timerType = "_ThreadTimer"
	}
	// The loader refuses a message that is not a format string the runtime
	// can fill; a spec built without it keeps its message as text.
	message, p := schema.ParseMessage(spec.Deadline.Message)
	if p != nil {
		message = schema.MessageFormat{{Literal: spec.Deadline.Message}}
	}
	seconds := Seconds(spec.Deadline.Seconds)
	return view{
		Spec:       path.Base(spec.File),
		Version:    version.Version(),
		ModulesKey: "[" + strings.Join(append(schema.TablePrefix(spec.File), "preload"), ".") + "].modules",
		Deadline: deadlineView{
			Deadline:  spec.Deadline,
			TimerText: t.Time,
			Which:     t.Which,
			Signal:    t.Signal,
			Clock:     clock,

			RaisesFailed:         spec.Deadline.Exception() == schema.RaisesFailed,
			FallBackOnInvalidEnv: spec.Deadline.SecondsEnvInvalid == schema.SecondsEnvFallback && len(spec.Deadline.SecondsEnv) > 0,
			ModulePatterns:       modulePatterns(spec.Deadline.ModuleSeconds),
			MessageText:          message.Text(),
			MessageAlone:         message.HasSeconds() || spec.Deadline.MessageVerbatim,
			WithoutTimerOff:      spec.Deadline.WithoutTimer == schema.WithoutTimerOff,
			SignalTimer:          signalTimer,
			ThreadTimer:          threadTimer,
			TimerType:            timerType,
		},
		Preload:      newPreloadView(spec.Preload),
		Group:        spec.Group.Name,
		Runtime:      newRuntimeView(spec),
		Probe:        newProbeView(spec),
		Text:         crossingText,
		HasDeadline:  spec.HasDeadline(),
		Shield:       spec.Shield,
		Configure:    HasConfigure(spec),
		ConfigureDoc: configureDoc(spec),
		Region:       newRegionView(spec, relpath.Slash(path.Dir(spec.Paths.Conftest), runtimePath(spec)), seconds, t.Time),
	}
}

// Seconds says a number of seconds in words: "1 second", "2.5 seconds".
func Seconds(s float64) string {
	if s == 1 {
		return "1 second"
	}
	return pyquote.Number(s) + " seconds"
}

// configureDoc says what the runtime's pytest_configure does for spec, in
// the order it does it.
func configureDoc(spec *schema.Spec) string {
	var does []string
	if spec.HasDeadline() {
		d := spec.Deadline
		if len(d.SecondsEnv) > 0 {
			does = append(does, "check the deadline's seconds")
		}
		does = append(does, "watch how test functions end")
		if d.DeferToPytestTimeout {
			does = append(does, "note pytest-timeout")
		}
	}
	if spec.Shield.On {
		does = append(does, "turn the import shield on")
	}
	if spec.Group.Name != "" {
		does = append(does, "keep the xdist group on one worker")
	}
	if len(does) == 0 {
		return ""
	}
	text := does[len(does)-1]
	if len(does) > 1 {
		text = strings.Join(does[:len(does)-1], ", ") + " and " + text
	}
	return strings.ToUpper(text[:1]) + text[1:] + "."
}

// quoteAll quotes each of ss as a Python string, for tuple.
func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = pyquote.String(s)
	}
	return out
}

// PluginSpec is the spec the plugin's module is rendered from: the import
// shield alone, with [shield]'s defaults, which the plugin's ini options
// and flags then change.
func PluginSpec() *schema.Spec {
	return &schema.Spec{
		File:   "pyproject.toml",
		Paths:  schema.Paths{Conftest: "conftest.py", Runtime: pytext.PluginModule + ".py"},
		Shield: schema.Shield{On: true, Signals: schema.DefaultShieldSignals(), ImportGrace: schema.DefaultShieldGrace, PastGrace: schema.DefaultPastGrace, Rollback: true},
	}
}

// Plugin renders the module of the pytest-import-shield distribution,
// released as version: the runtime of PluginSpec from the same templates,
// with the plugin's own part (its hooks and settings) in place of what only
// the conftest region uses. TestPluginGolden holds the two to differing in
// that alone.
func Plugin(version string) ([]byte, error) {
	v := newView(PluginSpec())
	v.Runtime.Module = pytext.PluginModule
	v.Version = version
	v.Configure = false
	v.Plugin = &pluginView{
		Name:           pytext.PluginName,
		DefaultSignals: strings.Join(schema.DefaultShieldSignals(), ","),
		SignalsText:    strings.Join(schema.ShieldSignals, ", "),
		Signals:        "(" + strings.Join(quoteAll(schema.ShieldSignals), ", ") + ")",
		PastGraces:     "(" + strings.Join(quoteAll([]string{schema.PastGraceDeliver, schema.PastGraceWait}), ", ") + ")",
	}
	return execute("runtime.py.tmpl", v)
}
