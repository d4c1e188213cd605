package schema

import "strings"

// Key describes one key of the spec once, for the loader and for every
// place that documents the spec: the JSON Schema for editors
// (fixturegen.schema.json) and the README's key table are generated from
// Keys, and the loader's lists of allowed keys and values, the starter
// spec and the Go types are tested against it.
type Key struct {
	// Name is the key's dotted path from the spec table. Keys of the
	// tables of an array of tables follow the array's name:
	// "probe.case.node".
	Name string
	// Required is true when the table that holds the key must have it;
	// the README says "with [table]" when that table is optional.
	Required bool
	// RequiredWhen overrides the README's required column, for a key
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
	// Doc is one line of Markdown: the README's meaning column, and the
	// description editors show.
	Doc string
	// Schema is the JSON Schema of the value, without its description,
	// enum and default, which come from the fields above.
	Schema string
	// Table marks a table whose keys are listed on their own; the README
	// leaves it out of its key table.
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

	{Name: "deadline", Required: true, Table: true, Starter: true,
		Doc: "The deadline fixture: it arms the alarm that bounds each test using it, after the preload fixture has run."},
	{Name: "deadline.fixture", Required: true, Starter: true,
		Doc:    "name of the deadline fixture: a Python identifier, not a keyword, not `request`, not starting with `_fixturegen`",
		Schema: `{"$ref": "#/$defs/fixture"}`},
	{Name: "deadline.seconds", Required: true, Starter: true,
		Doc:    "the deadline, in seconds of the timer's time; more than 0, at most 86400",
		Schema: `{"$ref": "#/$defs/seconds"}`},
	{Name: "deadline.timer", Default: DefaultTimer, Starter: true,
		Enum: []string{TimerReal, TimerVirtual, TimerProf, TimerThread, TimerAuto},
		Doc:  "`real` (wall clock, SIGALRM), `virtual` (user CPU, SIGVTALRM), `prof` (CPU, SIGPROF), `thread` (wall clock, a watchdog thread; Python 3.10+, any platform), `auto` (`real` where `signal.setitimer` exists, `thread` elsewhere)"},
	{Name: "deadline.message", Default: DefaultMessage, Starter: true,
		Doc:    "start of the failure's message",
		Schema: `{"type": "string", "minLength": 1}`},
	{Name: "deadline.on_import", Default: DefaultOnImport, Starter: true,
		Enum: []string{OnImportExclude, OnImportDefer, OnImportRaise},
		Doc:  "what the alarm does to an import it meets: `exclude` never interrupts it nor charges its time, `defer` fails the test right after it, `raise` interrupts anything; see below"},
	{Name: "deadline.late_imports", Default: DefaultLateImports, Starter: true,
		Enum: []string{LateImportsOff, LateImportsWarn, LateImportsFail},
		Doc:  "`off`, `warn` (a pytest warning) or `fail` (the test fails) when a module is first imported under the alarm"},
	{Name: "deadline.import_grace", Default: DefaultImportGrace,
		Doc:    "the longest one import may run under the alarm before the deadline interrupts it anyway",
		Schema: `{"$ref": "#/$defs/seconds"}`},
	{Name: "deadline.autouse", Default: false, Starter: true,
		Doc:    "`true`: the deadline fixture is autouse, so every test below the conftest runs under it (its preload still runs first)",
		Schema: `{"type": "boolean"}`},
	{Name: "deadline.seconds_env", Starter: true,
		Doc:    "an environment variable read when the session starts: its value replaces `seconds`, `0` turns the deadline off, anything but a number fails the session",
		Schema: `{"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"}`},
	{Name: "deadline.raises", Default: DefaultRaises, Starter: true,
		Enum: []string{RaisesAssertionError, RaisesTimeoutError},
		Doc:  "the exception a fired deadline raises: `AssertionError` or `TimeoutError`"},
	{Name: "deadline.dump_threads", Default: false, Starter: true,
		Doc:    "`true`: when the deadline fires, `faulthandler` writes every thread's stack to stderr",
		Schema: `{"type": "boolean"}`},

	{Name: "preload", Required: true, Table: true, Starter: true,
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
