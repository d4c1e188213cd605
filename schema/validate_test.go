package schema

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// minimal is the smallest valid spec, plus the two probe paths so that rows
// can append probe cases. Appended text starts on line 18.
const minimal = `version = 1

[deadline]
fixture = "deadline"
seconds = 5

[preload]
fixture = "preload"
modules = ["a", "b.c"]

[group]
name = "g"

[paths]
conftest = "tests/conftest.py"
probe_plugin = "tests/alarm_probe.py"
probe_tests = "tests/test_alarm_probe.py"
`

// oneCase is a valid probe case to append to minimal, on lines 18 to 20.
const oneCase = `[[probe.case]]
test = "test_one"
node = "tests/test_x.py::test_a"
`

// edit applies old, new replacement pairs to minimal and appends add.
func edit(t *testing.T, pairs []string, add string) string {
	t.Helper()
	src := minimal
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(src, pairs[i]) {
			t.Fatalf("test bug: %q is not in the minimal spec", pairs[i])
		}
		src = strings.Replace(src, pairs[i], pairs[i+1], 1)
	}
	return src + add
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name  string
		edits []string // old, new pairs applied to minimal
		add   string   // appended to minimal
		want  string   // substring of the error, with its position
	}{
		// TOML itself.
		{"syntax error", []string{"seconds = 5", "seconds = [1,\n  x]"}, "",
			"spec.toml:6:3: invalid TOML: expected value"},
		{"duplicate key", []string{"seconds = 5", "seconds = 5\nseconds = 6"}, "",
			"spec.toml:6:"},

		// Unknown keys.
		{"unknown top-level key", []string{"version = 1", "version = 1\ncolour = 1"}, "",
			`spec.toml:2:1: unknown key "colour" at the top level; valid keys are version, required_version, deadline, preload, group, paths, probe`},
		{"required_version type", []string{"version = 1", "version = 1\nrequired_version = 0.4"}, "",
			"spec.toml:2:1: required_version must be a string, not a float"},
		{"required_version without an operator", []string{"version = 1", "version = 1\nrequired_version = '0.4'"}, "",
			`spec.toml:2:1: required_version clause "0.4" has no operator; start it with one of ~= == != <= >= < >`},
		{"required_version not a version", []string{"version = 1", "version = 1\nrequired_version = '>=0.4, <next'"}, "",
			`spec.toml:2:1: required_version clause "<next": "next" is not a version such as 0.4 or 1.0.0rc1`},
		{"wrong case", []string{"seconds = 5", "Seconds = 5"}, "",
			`spec.toml:5:1: unknown key "Seconds" in [deadline]; did you mean "seconds"?`},
		{"typo", []string{"seconds = 5", "seconds = 5\nmesage = 'x'"}, "",
			`spec.toml:6:1: unknown key "mesage" in [deadline]; did you mean "message"?`},
		{"dash for underscore", []string{"seconds = 5", "seconds = 5\non-import = 'defer'"}, "",
			`spec.toml:6:1: unknown key "on-import" in [deadline]; did you mean "on_import"?`},
		{"unknown key in a case", nil, oneCase + "Test = 'test_x'\n",
			`spec.toml:21:1: unknown key "Test" in [[probe.case]]; did you mean "test"?`},
		{"unknown key in an inline table", nil, oneCase + "planted_delay = { module = 'a', seconds = 1, when = 2 }\n",
			`spec.toml:21:46: unknown key "when" in [probe.case.planted_delay]; valid keys are module, seconds`},
		// Columns count characters, not bytes: "é" is one.
		{"column after a two-byte character", nil, oneCase + "planted_delay = { module = 'é', seconds = 1, when = 2 }\n",
			`spec.toml:21:46: unknown key "when" in [probe.case.planted_delay]; valid keys are module, seconds`},
		{"TOML syntax error after a three-byte character", []string{`fixture = "deadline"`, `fixture = "日" x`}, "",
			"spec.toml:4:14: invalid TOML"}, // in bytes, 4:16
		{"unknown table", nil, "[probe.recrod]\n",
			`spec.toml:18:1: unknown key "recrod" in [probe]; did you mean "record"?`},

		// version.
		{"missing version", []string{"version = 1\n", ""}, "",
			"spec.toml:1:1: missing required key version; add version = 1"},
		{"version 2", []string{"version = 1", "version = 2\ncolour = 1"}, "",
			"spec.toml:1:1: unsupported spec version 2; this fixturegen reads version 1"},
		{"version as a string", []string{"version = 1", `version = "1"`}, "",
			"spec.toml:1:1: version must be an integer, not a string"},
		{"version as a float", []string{"version = 1", "version = 1.0"}, "",
			"spec.toml:1:1: version must be the integer 1, not 1.0"},

		// Required keys and tables.
		{"missing deadline.seconds", []string{"seconds = 5\n", ""}, "",
			"spec.toml:3:1: missing required key deadline.seconds"},
		{"missing [deadline]", []string{"[deadline]\nfixture = \"deadline\"\nseconds = 5\n", ""}, "",
			"spec.toml:1:1: missing required key deadline.fixture"},
		{"missing preload.modules", []string{"modules = [\"a\", \"b.c\"]\n", ""}, "",
			"spec.toml:7:1: missing required key preload.modules"},
		{"group without its name", []string{"name = \"g\"\n", ""}, "",
			"spec.toml:11:1: missing required key group.name"},
		{"missing paths.conftest", []string{"conftest = \"tests/conftest.py\"\n", ""}, "",
			"spec.toml:14:1: missing required key paths.conftest"},
		{"missing case node", nil, "[[probe.case]]\ntest = \"test_x\"\n",
			"spec.toml:18:1: missing required key probe.case[0].node"},
		{"missing planted_delay.seconds", nil, oneCase + "planted_delay = { module = 'a' }\n",
			"spec.toml:21:1: missing required key probe.case[0].planted_delay.seconds"},

		// [shield], and a spec that holds only it.
		{"preload without deadline", []string{"[deadline]\nfixture = \"deadline\"\nseconds = 5\n", ""}, "[shield]\n",
			"spec.toml:4:1: [preload] needs [deadline]: the preload fixture runs before the deadline's alarm; add [deadline], or remove [preload] to keep only the shield"},
		{"probe without deadline", []string{"[deadline]\nfixture = \"deadline\"\nseconds = 5\n", "", "[preload]\nfixture = \"preload\"\nmodules = [\"a\", \"b.c\"]\n", ""}, "[shield]\n" + oneCase,
			"[probe] needs [deadline]: the probe records the state at each arming of the deadline's alarm"},
		{"shield as a value", []string{"version = 1", "version = 1\nshield = true"}, "",
			"spec.toml:2:1: shield must be a table, not a boolean"},
		{"unknown shield key", nil, "[shield]\ngrace = 1\n",
			`spec.toml:19:1: unknown key "grace" in [shield]; valid keys are signals, import_grace, past_grace, rollback`},
		{"signals not a list", nil, "[shield]\nsignals = \"SIGALRM\"\n",
			"spec.toml:19:1: shield.signals must be an array of signal names, not a string"},
		{"signal unknown", nil, "[shield]\nsignals = [\"SIGALRM\", \"SIGINT\"]\n",
			`spec.toml:19:23: shield.signals[1] must be one of "SIGALRM", "SIGVTALRM", "SIGPROF", not "SIGINT"`},
		{"signal repeated", nil, "[shield]\nsignals = [\"SIGPROF\", \"SIGPROF\"]\n",
			"spec.toml:19:23: shield.signals[1] repeats SIGPROF, already listed as shield.signals[0] on line 19"},
		{"shield grace zero", nil, "[shield]\nimport_grace = 0\n",
			"spec.toml:19:1: shield.import_grace must be a number of seconds more than 0 and at most 86400 (a day), not 0"},
		{"past_grace unknown", nil, "[shield]\npast_grace = \"raise\"\n",
			`spec.toml:19:1: shield.past_grace must be one of "deliver", "wait", not "raise"`},
		{"rollback as text", nil, "[shield]\nrollback = \"yes\"\n",
			"spec.toml:19:1: shield.rollback must be true or false, not a string"},

		// Types.
		{"string for a number", []string{"seconds = 5", `seconds = "5"`}, "",
			"spec.toml:5:1: deadline.seconds must be a number, not a string"},
		{"boolean for a number", []string{"seconds = 5", "seconds = true"}, "",
			"spec.toml:5:1: deadline.seconds must be a number, not a boolean"},
		{"number for a string", []string{`fixture = "deadline"`, "fixture = 3"}, "",
			"spec.toml:4:1: deadline.fixture must be a string, not an integer"},
		{"date for a string", []string{`name = "g"`, "name = 2024-01-01"}, "",
			"spec.toml:12:1: group.name must be a string, not a date or time"},
		{"value for a table", []string{"[group]\nname = \"g\"\n", "", "version = 1", "version = 1\ngroup = \"g\""}, "",
			"spec.toml:2:1: group must be a table, not a string"},
		{"array of tables for a table", []string{"[group]", "[[group]]"}, "",
			"spec.toml:11:1: group must be a table, not an array of tables"},
		{"string for modules", []string{`modules = ["a", "b.c"]`, `modules = "a"`}, "",
			"spec.toml:9:1: preload.modules must be an array of module names, not a string"},
		{"number in modules", []string{`modules = ["a", "b.c"]`, `modules = ["a", 3]`}, "",
			"spec.toml:9:17: preload.modules[1] must be a string, not an integer"},
		{"table for probe.case", nil, "[probe.case]\ntest = 'test_x'\n",
			"spec.toml:18:1: probe.case must be an array of tables, written [[probe.case]], not a table"},
		{"string in an inline case array", nil, "[probe]\ncase = ['x']\n",
			"spec.toml:19:9: probe.case[0] must be a table, not a string"},

		// Enums.
		{"timer", []string{"seconds = 5", "seconds = 5\ntimer = 'REAL'"}, "",
			`spec.toml:6:1: deadline.timer must be one of "real", "virtual", "prof", "thread", "auto", not "REAL"`},
		{"raises", []string{"seconds = 5", "seconds = 5\nraises = 'RuntimeError'"}, "",
			`spec.toml:6:1: deadline.raises must be one of "AssertionError", "TimeoutError", "Failed", not "RuntimeError"`},
		{"seconds_env_invalid without seconds_env", []string{"seconds = 5", "seconds = 5\nseconds_env_invalid = 'fallback'"}, "",
			`spec.toml:6:1: deadline.seconds_env_invalid needs deadline.seconds_env: it says what a variable of it that holds no number does`},
		{"seconds_env_invalid", []string{"seconds = 5", "seconds = 5\nseconds_env = 'T'\nseconds_env_invalid = 'default'"}, "",
			`spec.toml:7:1: deadline.seconds_env_invalid must be one of "error", "fallback", not "default"`},
		{"armed_when_env_set without seconds_env", []string{"seconds = 5", "armed_when_env_set = true"}, "",
			`spec.toml:5:1: deadline.armed_when_env_set needs deadline.seconds_env: it arms the deadline only when one of those variables is set`},
		{"armed_when_env_set not a boolean", []string{"seconds = 5", "seconds_env = 'T'\narmed_when_env_set = 'yes'"}, "",
			`spec.toml:6:1: deadline.armed_when_env_set must be true or false, not a string`},
		{"fallback without seconds", []string{"seconds = 5", "seconds_env = 'T'\narmed_when_env_set = true\nseconds_env_invalid = 'fallback'"}, "",
			`spec.toml:7:1: deadline.seconds_env_invalid = "fallback" keeps deadline.seconds, which this spec does not give: set it, or drop deadline.seconds_env_invalid`},
		{"seconds missing", []string{"seconds = 5", "seconds_env = 'T'"}, "",
			`spec.toml:3:1: missing required key deadline.seconds`},
		{"without_timer", []string{"seconds = 5", "seconds = 5\nwithout_timer = 'thread'"}, "",
			`spec.toml:6:1: deadline.without_timer must be one of "fail", "off", not "thread"`},
		{"message_verbatim", []string{"seconds = 5", "seconds = 5\nmessage_verbatim = 1"}, "",
			`spec.toml:6:1: deadline.message_verbatim must be true or false, not an integer`},
		{"module_seconds outside the folder", nil, "[deadline.module_seconds]\n\"../x/test_a.py\" = 120\n",
			`spec.toml:19:1: keys in [deadline.module_seconds] must be test modules' paths relative to the spec's folder, or globs of them, as in "tests/test_zone.py" = 120 or "tests/slow/**" = 60, not "../x/test_a.py": the path has a segment ".."; write it from the spec's folder, inside it`},
		{"module_seconds naming a folder", nil, "[deadline.module_seconds]\n\"tests/slow\" = 120\n",
			`not "tests/slow": it names no test module: end it with .py, or with /** for every module below a folder`},
		{"module_seconds with an unquoted dotted key", nil, "[deadline.module_seconds]\ntest_zone.py = 120\n",
			`spec.toml:19:1: deadline.module_seconds.test_zone must be a number of seconds, not a table; a key with dots or slashes must be quoted, as in "tests/test_zone.py" = 120`},
		{"module_seconds of none", nil, "[deadline.module_seconds]\n\"tests/test_a.py\" = 0\n",
			`spec.toml:19:1: deadline.module_seconds."tests/test_a.py" must be a number of seconds more than 0`},
		{"autouse as text", []string{"seconds = 5", "seconds = 5\nautouse = 'yes'"}, "",
			`spec.toml:6:1: deadline.autouse must be true or false, not a string`},
		{"dump_threads as a number", []string{"seconds = 5", "seconds = 5\ndump_threads = 1"}, "",
			`spec.toml:6:1: deadline.dump_threads must be true or false, not an integer`},
		{"seconds_env with a dash", []string{"seconds = 5", "seconds = 5\nseconds_env = 'TEST-LIMIT'"}, "",
			`spec.toml:6:1: deadline.seconds_env must be an environment variable name, letters, digits and _ not starting with a digit, not "TEST-LIMIT"`},
		{"seconds_env starting with a digit", []string{"seconds = 5", "seconds = 5\nseconds_env = '1LIMIT'"}, "",
			`spec.toml:6:1: deadline.seconds_env must be an environment variable name`},
		{"empty seconds_env", []string{"seconds = 5", "seconds = 5\nseconds_env = ''"}, "",
			`spec.toml:6:1: deadline.seconds_env must be an environment variable name`},
		{"seconds_env as a number", []string{"seconds = 5", "seconds = 5\nseconds_env = 5"}, "",
			`spec.toml:6:1: deadline.seconds_env must be an environment variable's name or an array of them, not an integer`},
		{"seconds_env an empty array", []string{"seconds = 5", "seconds = 5\nseconds_env = []"}, "",
			`spec.toml:6:1: deadline.seconds_env must name at least one environment variable; leave it out for none`},
		{"seconds_env repeating a name", []string{"seconds = 5", "seconds = 5\nseconds_env = ['A', 'B', 'A']"}, "",
			`spec.toml:6:26: deadline.seconds_env[2] repeats "A", already listed as deadline.seconds_env[0] on line 6`},
		{"seconds_env with a bad name in an array", []string{"seconds = 5", "seconds = 5\nseconds_env = ['A', 'B-C']"}, "",
			`spec.toml:6:21: deadline.seconds_env[1] must be an environment variable name`},
		{"runtime not Python", []string{`probe_tests = "tests/test_alarm_probe.py"`, "probe_tests = \"tests/test_alarm_probe.py\"\nruntime = \"tests/runtime.txt\""}, "",
			`spec.toml:18:1: paths.runtime must end in .py, not "runtime.txt"`},
		{"runtime collected as tests", []string{`probe_tests = "tests/test_alarm_probe.py"`, "probe_tests = \"tests/test_alarm_probe.py\"\nruntime = \"tests/test_runtime.py\""}, "",
			`spec.toml:18:1: paths.runtime must not be named "test_runtime.py"`},
		{"runtime is the plugin", []string{`probe_tests = "tests/test_alarm_probe.py"`, "probe_tests = \"tests/test_alarm_probe.py\"\nruntime = \"tests/alarm_probe.py\""}, "",
			`spec.toml:18:1: paths.runtime names the same file as paths.probe_plugin, "tests/alarm_probe.py"`},
		{"plugin where the runtime goes by default", []string{`"tests/alarm_probe.py"`, `"tests/_fixturegen_runtime.py"`}, "",
			`spec.toml:16:1: paths.probe_plugin names "tests/_fixturegen_runtime.py", where the runtime goes by default; set paths.runtime to another file`},
		{"on_import", []string{"seconds = 5", "seconds = 5\non_import = 'ignore'"}, "",
			`spec.toml:6:1: deadline.on_import must be one of "exclude", "defer", "raise", not "ignore"`},
		{"late_imports", []string{"seconds = 5", "seconds = 5\nlate_imports = 'error'"}, "",
			`spec.toml:6:1: deadline.late_imports must be one of "off", "warn", "fail", not "error"`},

		// Durations.
		{"zero seconds", []string{"seconds = 5", "seconds = 0"}, "",
			"spec.toml:5:1: deadline.seconds must be a number of seconds more than 0 and at most 86400 (a day), not 0"},
		{"negative seconds", []string{"seconds = 5", "seconds = -0.5"}, "",
			"deadline.seconds must be a number of seconds more than 0 and at most 86400 (a day), not -0.5"},
		{"nan seconds", []string{"seconds = 5", "seconds = nan"}, "",
			"(a day), not nan"},
		{"inf seconds", []string{"seconds = 5", "seconds = +inf"}, "",
			"(a day), not +inf"},
		{"more than a day", []string{"seconds = 5", "seconds = 86_401"}, "",
			"(a day), not 86_401"},
		{"huge seconds", []string{"seconds = 5", "seconds = 1e300"}, "",
			"(a day), not 1e300"},
		{"import_grace", []string{"seconds = 5", "seconds = 5\nimport_grace = 0"}, "",
			"spec.toml:6:1: deadline.import_grace must be a number of seconds more than 0"},
		{"planted delay seconds", nil, oneCase + "planted_delay = { module = 'a', seconds = -1 }\n",
			"spec.toml:21:33: probe.case[0].planted_delay.seconds must be a number of seconds more than 0"},
		{"armed_delay", nil, oneCase + "armed_delay = 100000\n",
			"spec.toml:21:1: probe.case[0].armed_delay must be a number of seconds more than 0 and at most 86400 (a day), not 100000"},
		{"armed_delay type", nil, oneCase + "armed_delay = '6'\n",
			"spec.toml:21:1: probe.case[0].armed_delay must be a number, not a string"},

		// Python identifiers.
		{"keyword fixture", []string{`fixture = "deadline"`, `fixture = "class"`}, "",
			`spec.toml:4:1: deadline.fixture must be a Python identifier, not "class": it is a Python keyword`},
		{"fixture starting with a digit", []string{`fixture = "preload"`, `fixture = "9lives"`}, "",
			`spec.toml:8:1: preload.fixture must be a Python identifier, not "9lives": it starts with a digit`},
		{"fixture with a dash", []string{`fixture = "preload"`, `fixture = "mcp-sdk"`}, "",
			`preload.fixture must be a Python identifier, not "mcp-sdk": it contains '-'`},
		{"non-ASCII fixture", []string{`fixture = "preload"`, `fixture = "café"`}, "",
			`preload.fixture must be a Python identifier, not "café": it contains 'é'`},
		{"empty fixture", []string{`fixture = "preload"`, `fixture = ""`}, "",
			`preload.fixture must be a Python identifier, not "": it is empty`},
		{"request fixture", []string{`fixture = "deadline"`, `fixture = "request"`}, "",
			`spec.toml:4:1: deadline.fixture must not be "request", which is pytest's own fixture`},
		{"reserved fixture", []string{`fixture = "deadline"`, `fixture = "_fixturegen_deadline"`}, "",
			`spec.toml:4:1: deadline.fixture must not start with "_fixturegen"`},
		{"same fixture twice", []string{`fixture = "preload"`, `fixture = "deadline"`}, "",
			`spec.toml:8:1: preload.fixture must differ from deadline.fixture; both are "deadline"`},
		{"keyword test name", nil, "[[probe.case]]\ntest = 'test-x'\nnode = 'tests/test_x.py::test_a'\n",
			`spec.toml:19:1: probe.case[0].test must be a Python identifier, not "test-x"`},
		{"test name without test", nil, "[[probe.case]]\ntest = 'check_x'\nnode = 'tests/test_x.py::test_a'\n",
			`spec.toml:19:1: probe.case[0].test must start with "test" so that pytest collects it, not "check_x"`},
		{"repeated test name", nil, oneCase + oneCase,
			`spec.toml:22:1: probe.case[1].test repeats test name "test_one", already used by probe.case[0].test on line 19`},

		// Module names.
		{"empty module part", []string{`modules = ["a", "b.c"]`, `modules = ["a", "b..c"]`}, "",
			`spec.toml:9:17: preload.modules[1] must be a dotted module name, not "b..c": it has an empty part`},
		{"keyword module part", []string{`modules = ["a", "b.c"]`, `modules = ["a", "b.import"]`}, "",
			`preload.modules[1] must be a dotted module name, not "b.import": part "import" is a Python keyword`},
		{"trailing dot", []string{`modules = ["a", "b.c"]`, `modules = ["a."]`}, "",
			`preload.modules[0] must be a dotted module name, not "a."`},
		{"repeated module", []string{`modules = ["a", "b.c"]`, "modules = [\n  \"a\",\n  \"b.c\",\n  \"a\",\n]"}, "",
			`spec.toml:12:3: preload.modules[2] repeats module "a", already listed as preload.modules[0] on line 10`},
		{"planted module", nil, oneCase + "planted_delay = { module = 'a/b', seconds = 1 }\n",
			`spec.toml:21:19: probe.case[0].planted_delay.module must be a dotted module name, not "a/b"`},

		// group.name.
		{"empty group", []string{`name = "g"`, `name = ""`}, "",
			"spec.toml:12:1: group.name must not be empty"},
		{"control character in group", []string{`name = "g"`, `name = "a\tb"`}, "",
			`spec.toml:12:1: group.name must be an xdist group name without control characters, not "a\tb"`},
		{"long group", []string{`name = "g"`, `name = "` + strings.Repeat("é", 201) + `"`}, "",
			"spec.toml:12:1: group.name must be at most 200 characters long, not 201"},

		// deadline.message.
		{"empty message", []string{"seconds = 5", "seconds = 5\nmessage = ''"}, "",
			`spec.toml:6:1: deadline.message must not be empty; leave it out to use "test exceeded its deadline"`},
		{"NUL in message", []string{"seconds = 5", "seconds = 5\nmessage = \"a\\u0000b\""}, "",
			"spec.toml:6:1: deadline.message must not contain a NUL character"},
		// deadline.message as a format string: the position is the field's,
		// where the file writes the string as it reads.
		{"other field", []string{"seconds = 5", "seconds = 5\nmessage = \"took {timeout} s\""}, "",
			`spec.toml:6:17: deadline.message has the field {timeout}, which the runtime does not fill; the message may place the seconds armed with {seconds}`},
		{"positional field", []string{"seconds = 5", "seconds = 5\nmessage = 'took {} s'"}, "",
			`spec.toml:6:17: deadline.message has the positional field {}, which the runtime does not fill`},
		{"numbered field", []string{"seconds = 5", "seconds = 5\nmessage = 'took {0:g} s'"}, "",
			`spec.toml:6:17: deadline.message has the positional field {0:g}`},
		{"attribute of the seconds", []string{"seconds = 5", "seconds = 5\nmessage = 'took {seconds.real} s'"}, "",
			`spec.toml:6:17: deadline.message has the field {seconds.real}, which the runtime does not fill`},
		{"conversion", []string{"seconds = 5", "seconds = 5\nmessage = 'took {seconds!r} s'"}, "",
			`spec.toml:6:17: deadline.message converts the field {seconds!r}, which a number of seconds needs no conversion for`},
		{"single closing brace", []string{"seconds = 5", "seconds = 5\nmessage = 'took } s'"}, "",
			`spec.toml:6:17: deadline.message has a single "}"; write a literal brace as "}}"`},
		{"unclosed brace", []string{"seconds = 5", "seconds = 5\nmessage = 'took {seconds s'"}, "",
			`spec.toml:6:17: deadline.message has a "{" that no "}" closes; write a literal brace as "{{"`},
		{"nested field", []string{"seconds = 5", "seconds = 5\nmessage = 'took {seconds:{w}} s'"}, "",
			`spec.toml:6:17: deadline.message nests a field in the format of {seconds:{w}}`},
		{"string type", []string{"seconds = 5", "seconds = 5\nmessage = 'took {seconds:s} s'"}, "",
			`spec.toml:6:17: deadline.message formats the seconds with {seconds:s}, which ends in "s", which is no type of number`},
		{"integer type", []string{"seconds = 5", "seconds = 5\nmessage = 'took {seconds:d} s'"}, "",
			`deadline.message formats the seconds with {seconds:d}, which writes whole numbers only (d), and the seconds a test is given may have a fraction`},
		{"precision without a type", []string{"seconds = 5", "seconds = 5\nmessage = 'took {seconds:.2} s'"}, "",
			`{seconds:.2}, which gives a precision without a type of fraction, which Python refuses for the whole seconds the runtime passes as an int`},
		{"dot without precision", []string{"seconds = 5", "seconds = 5\nmessage = 'took {seconds:.f} s'"}, "",
			`{seconds:.f}, which has a "." with no precision after it`},
		{"two types", []string{"seconds = 5", "seconds = 5\nmessage = 'took {seconds:gg} s'"}, "",
			`{seconds:gg}, which is not a format Python's format-spec mini-language for numbers reads: [[fill]align][sign][#][0][width][grouping][.precision][type]`},
		{"negative zero", []string{"seconds = 5", "seconds = 5\nmessage = 'took {seconds:zg} s'"}, "",
			`{seconds:zg}, which coerces negative zero (z): Python before 3.11 has no z`},
		{"grouping by locale", []string{"seconds = 5", "seconds = 5\nmessage = 'took {seconds:,n} s'"}, "",
			`{seconds:,n}, which groups digits with ',' and writes them by the locale (n)`},
		{"too wide", []string{"seconds = 5", "seconds = 5\nmessage = 'took {seconds:1000} s'"}, "",
			`{seconds:1000}, which is wider than the 100 characters a message's seconds may take`},
		{"seconds alone", []string{"seconds = 5", "seconds = 5\nmessage = ' {seconds} '"}, "",
			`spec.toml:6:12: deadline.message holds nothing but the seconds: add the words around them`},
		{"field after an escape", []string{"seconds = 5", "seconds = 5\nmessage = \"\\ttook {t}\""}, "",
			`spec.toml:6:1: deadline.message has the field {t}`},
		{"field in a multi-line string", []string{"seconds = 5", "seconds = 5\nmessage = '''took {t}'''"}, "",
			`spec.toml:6:1: deadline.message has the field {t}`},

		// Paths.
		{"absolute path", []string{`"tests/conftest.py"`, `"/tests/conftest.py"`}, "",
			`spec.toml:15:1: paths.conftest must be a relative path inside the spec's folder, not "/tests/conftest.py": it is absolute`},
		{"backslash", []string{`"tests/conftest.py"`, `'tests\conftest.py'`}, "",
			`paths.conftest must be a relative path inside the spec's folder, not "tests\\conftest.py": it contains a backslash`},
		{"drive letter", []string{`"tests/conftest.py"`, `"C:tests/conftest.py"`}, "",
			"it starts with a drive letter"},
		{"outside the folder", []string{`"tests/conftest.py"`, `"tests/../../conftest.py"`}, "",
			"it leads outside the spec's folder"},
		{"parent folder", []string{`"tests/conftest.py"`, `".."`}, "",
			"it leads outside the spec's folder"},
		{"the folder itself", []string{`"tests/conftest.py"`, `"tests/.."`}, "",
			"it names the spec's folder, not a file in it"},
		{"empty path", []string{`"tests/conftest.py"`, `""`}, "",
			`paths.conftest must be a relative path inside the spec's folder, not "": it is empty`},
		{"control character in a path", []string{`"tests/conftest.py"`, `"tests/\nconftest.py"`}, "",
			"paths.conftest must be a relative path without control characters"},
		{"conftest name", []string{`"tests/conftest.py"`, `"tests/setup.py"`}, "",
			`spec.toml:15:1: paths.conftest must name a file called conftest.py, not "setup.py"`},
		{"plugin not .py", []string{`"tests/alarm_probe.py"`, `"tests/alarm_probe.txt"`}, "",
			`spec.toml:16:1: paths.probe_plugin must end in .py, not "alarm_probe.txt"`},
		{"plugin stem", []string{`"tests/alarm_probe.py"`, `"tests/alarm-probe.py"`}, "",
			`spec.toml:16:1: paths.probe_plugin must be named after a Python identifier, since it is loaded with pytest -p alarm-probe`},
		{"tests not .py", []string{`"tests/test_alarm_probe.py"`, `"tests/test_alarm_probe"`}, "",
			`spec.toml:17:1: paths.probe_tests must end in .py, not "test_alarm_probe"`},
		{"tests not test_", []string{`"tests/test_alarm_probe.py"`, `"tests/alarm_probe_test.py"`}, "",
			`spec.toml:17:1: paths.probe_tests must name a file starting with test_, not "alarm_probe_test.py"`},
		// Case alone tells these two apart, which on macOS and Windows is
		// no difference at all.
		{"same file", []string{`"tests/test_alarm_probe.py"`, `"./tests/test_alarm.py"`, `"tests/alarm_probe.py"`, `"TESTS/test_alarm.py"`}, "",
			`spec.toml:17:1: paths.probe_tests names the same file as paths.probe_plugin, "TESTS/test_alarm.py"`},
		{"docs not Markdown", []string{"probe_tests = \"tests/test_alarm_probe.py\"\n", "probe_tests = \"tests/test_alarm_probe.py\"\ndocs = \"docs/alarm.rst\"\n"}, "",
			`spec.toml:18:1: paths.docs must name a Markdown file ending in .md, not "alarm.rst"`},
		{"docs outside", []string{"probe_tests = \"tests/test_alarm_probe.py\"\n", "probe_tests = \"tests/test_alarm_probe.py\"\ndocs = \"../alarm.md\"\n"}, "",
			`spec.toml:18:1: paths.docs must be a relative path inside the spec's folder, not "../alarm.md": it leads outside`},
		{"tests without plugin", []string{"probe_plugin = \"tests/alarm_probe.py\"\n", ""}, "",
			"spec.toml:16:1: paths.probe_tests needs paths.probe_plugin too"},

		// [probe.record].
		{"record value type", nil, "[probe.record]\nstdio = 1\n",
			`spec.toml:19:1: probe.record.stdio must be a string, "module" or "module:attr", not an integer`},
		{"record dotted key", nil, "[probe.record]\nmcp.server = 'mcp.server'\n",
			`spec.toml:19:1: probe.record.mcp must be a string, "module" or "module:attr", not a table; a key with dots must be quoted`},
		{"record module", nil, "[probe.record]\nstdio = 'mcp..server:stdio'\n",
			`spec.toml:19:1: probe.record.stdio must be "module" or "module:attr" with a dotted module name, not "mcp..server:stdio"`},
		{"record attr", nil, "[probe.record]\nstdio = 'mcp.server:'\n",
			`probe.record.stdio must be "module" or "module:attr" with an identifier after the colon, not "mcp.server:": it is empty`},
		{"record two colons", nil, "[probe.record]\nstdio = 'a:b:c'\n",
			`with an identifier after the colon, not "a:b:c"`},
		{"record empty key", nil, "[probe.record]\n\"\" = 'a'\n",
			`spec.toml:19:1: keys in [probe.record] must be non-empty and free of control characters, not ""`},
		{"record control key", nil, "[probe.record]\n\"a\\u0001\" = 'a'\n",
			`spec.toml:19:1: keys in [probe.record] must be non-empty and free of control characters, not "a\x01"`},

		// [[probe.case]].
		{"cases need the probe paths", []string{"probe_plugin = \"tests/alarm_probe.py\"\nprobe_tests = \"tests/test_alarm_probe.py\"\n", ""}, oneCase,
			"spec.toml:16:1: [[probe.case]] needs paths.probe_plugin and paths.probe_tests"},
		{"node without test", nil, "[[probe.case]]\ntest = 'test_x'\nnode = 'tests/test_x.py'\n",
			`spec.toml:20:1: probe.case[0].node must be a pytest node id like "tests/test_x.py::test_name", not "tests/test_x.py": it has no ::test_name part`},
		{"absolute node", nil, "[[probe.case]]\ntest = 'test_x'\nnode = '/tests/test_x.py::test_a'\n",
			"its file part is absolute"},
		{"node outside", nil, "[[probe.case]]\ntest = 'test_x'\nnode = '../test_x.py::test_a'\n",
			"its file part leads outside the spec's folder"},
		{"node not .py", nil, "[[probe.case]]\ntest = 'test_x'\nnode = 'tests/test_x::test_a'\n",
			"its file part does not end in .py"},
		{"node bad name", nil, "[[probe.case]]\ntest = 'test_x'\nnode = 'tests/test_x.py::test a'\n",
			`name "test a" contains ' '`},
		{"node empty name", nil, "[[probe.case]]\ntest = 'test_x'\nnode = 'tests/test_x.py::Test::::test_a'\n",
			"it has an empty name between ::"},
		{"node parameter", nil, "[[probe.case]]\ntest = 'test_x'\nnode = 'tests/test_x.py::test_a[1'\n",
			"its parameter part does not end in ]"},
		{"node runs the probe", nil, "[[probe.case]]\ntest = 'test_x'\nnode = 'tests/test_alarm_probe.py::test_a'\n",
			`spec.toml:20:1: probe.case[0].node must not run a test in paths.probe_tests, "tests/test_alarm_probe.py": the probe would run itself`},
		{"planted_delay type", nil, oneCase + "planted_delay = 3\n",
			"spec.toml:21:1: probe.case[0].planted_delay must be a table, not an integer"},
		{"planted_delay sub-table", nil, oneCase + "[probe.case.planted_delay]\nmodule = 'a'\n",
			"spec.toml:21:1: missing required key probe.case[0].planted_delay.seconds"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := edit(t, tt.edits, tt.add)
			s, err := Parse([]byte(src), "spec.toml", "/project")
			if err == nil {
				t.Fatalf("no error; got %+v\nfor\n%s", s, src)
			}
			if s != nil {
				t.Errorf("a Spec came back with the error")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error\n%s\ndoes not contain\n%s\nfor\n%s", err, tt.want, src)
			}
		})
	}
}

func TestParseVersionErrorComesAlone(t *testing.T) {
	src := edit(t, []string{"version = 1", "version = 2\ncolour = 1", "seconds = 5", "seconds = 'x'"}, "")
	_, err := Parse([]byte(src), "spec.toml", "/project")
	var es Errors
	if !errors.As(err, &es) || len(es) != 1 {
		t.Fatalf("want exactly one error, got %v", err)
	}
}

func TestRequiredVersion(t *testing.T) {
	defer func(f func() string) { runningVersion = f }(runningVersion)
	for _, tt := range []struct {
		required, running, wantErr, wantWarning string
	}{
		{">=0.4", "0.4.0", "", ""},
		{">=0.4, <0.6", "0.5.2", "", ""},
		{"~=0.4", "1.0.0", `spec.toml:2:1: required_version = "~=0.4" excludes this fixturegen, 1.0.0; install a version it allows (pip install 'fixturegen-cli~=0.4'), or change required_version`, ""},
		{">= 0.5", "0.4.0", `spec.toml:2:1: required_version = ">= 0.5" excludes this fixturegen, 0.4.0; install a version it allows (pip install 'fixturegen-cli>=0.5'), or change required_version`, ""},
		{">=99", "dev", "", `spec.toml: required_version = ">=99" not checked: this is a development build of fixturegen, which satisfies every requirement`},
	} {
		runningVersion = func() string { return tt.running }
		// A spec that needs a newer fixturegen may use keys this one does
		// not know; the version is reported alone.
		src := edit(t, []string{"version = 1", "version = 1\nrequired_version = '" + tt.required + "'", "seconds = 5", "seconds = 5\nfuture_key = 1"}, "")
		_, err := Parse([]byte(src), "spec.toml", "/project")
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("%s under %s: error %v, want %s", tt.required, tt.running, err, tt.wantErr)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), `unknown key "future_key"`) {
			t.Errorf("%s under %s: error %v, want only the unknown key", tt.required, tt.running, err)
			continue
		}
		src = edit(t, []string{"version = 1", "version = 1\nrequired_version = '" + tt.required + "'"}, "")
		s, err := Parse([]byte(src), "spec.toml", "/project")
		if err != nil {
			t.Fatalf("%s under %s: %v", tt.required, tt.running, err)
		}
		if s.RequiredVersion != tt.required {
			t.Errorf("RequiredVersion = %q, want %q", s.RequiredVersion, tt.required)
		}
		if got := RequiredVersionWarning(s); got != tt.wantWarning {
			t.Errorf("%s under %s: warning %q, want %q", tt.required, tt.running, got, tt.wantWarning)
		}
	}
}

func TestParseErrorsAreSortedAndTyped(t *testing.T) {
	src := edit(t, []string{
		`name = "g"`, `name = ""`,
		"seconds = 5", "seconds = 0",
		"version = 1", "version = 1\ncolour = 1",
	}, "")
	_, err := Parse([]byte(src), "spec.toml", "/project")
	var es Errors
	if !errors.As(err, &es) {
		t.Fatalf("error is %T, want Errors", err)
	}
	if len(es) != 3 {
		t.Fatalf("want 3 errors, got\n%v", err)
	}
	for i := 1; i < len(es); i++ {
		if es[i-1].Line > es[i].Line {
			t.Errorf("errors out of order:\n%v", err)
		}
	}
	if es[0].File != "spec.toml" || es[0].Line != 2 || es[0].Col != 1 {
		t.Errorf("first error at %s:%d:%d, want spec.toml:2:1", es[0].File, es[0].Line, es[0].Col)
	}

	_, err = Parse([]byte("version = \n"), "spec.toml", "/project")
	var e *Error
	if !errors.As(err, &e) || e.Line != 1 {
		t.Errorf("a syntax error should be one *Error at line 1, got %#v", err)
	}
}

// design is the spec from DESIGN.md, "The spec (format version 1)".
const design = `#:schema ./schema/fixturegen.schema.json
version = 1

[deadline]
fixture = "recovery_deadline"          # Python identifier, not a keyword
seconds = 5                            # > 0
timer = "real"                         # real (ITIMER_REAL/SIGALRM) | virtual | prof
message = "recovery loop exceeded its deadline"
on_import = "exclude"                  # exclude | defer | raise   (see below)
late_imports = "warn"                  # off | warn | fail

[preload]
fixture = "mcp_sdk"
modules = ["fakeredis", "mcp.server.lowlevel", "mcp.server.stdio", "mcp.shared.message"]

[group]
name = "mcp-sdk"                       # pytest-xdist loadgroup name

[paths]                                # relative to the spec's folder
conftest = "tests/inbox/conftest.py"
probe_plugin = "tests/inbox/alarm_probe.py"
probe_tests = "tests/inbox/test_channel_reconnect_alarm.py"

[probe.record]                         # noted at each arming; key = JSON key
stdio = "mcp.server:stdio"             # module:attr → the loaded module has the attribute
message = "mcp.shared.message"         # module      → the module is in sys.modules

[[probe.case]]
test = "test_the_channel_reconnect_alarm_is_armed_only_after_the_sdk_is_loaded"
node = "tests/inbox/test_channel_reconnect.py::test_pending_items"

[[probe.case]]
test = "test_a_slow_cold_fakeredis_import_is_not_charged_to_the_reconnect_alarm"
node = "tests/inbox/test_channel_reconnect.py::test_pending_items"
planted_delay = { module = "fakeredis", seconds = 6 }

[[probe.case]]
test = "test_the_subscriber_case_imports_nothing_while_its_reconnect_alarm_is_armed"
node = "tests/inbox/test_channel_reconnect.py::test_subscriber"
armed_delay = 6
`

var designSpec = &Spec{
	Version: 1,
	Deadline: Deadline{
		Fixture:           "recovery_deadline",
		Seconds:           5,
		Timer:             "real",
		Message:           "recovery loop exceeded its deadline",
		OnImport:          "exclude",
		LateImports:       "warn",
		ImportGrace:       DefaultImportGrace,
		Raises:            DefaultRaises,
		SecondsEnvInvalid: DefaultSecondsEnvInvalid,
		WithoutTimer:      DefaultWithoutTimer,
	},
	Preload: Preload{
		Fixture: "mcp_sdk",
		Modules: []string{"fakeredis", "mcp.server.lowlevel", "mcp.server.stdio", "mcp.shared.message"},
	},
	Group: Group{Name: "mcp-sdk"},
	Paths: Paths{
		Conftest:    "tests/inbox/conftest.py",
		ProbePlugin: "tests/inbox/alarm_probe.py",
		ProbeTests:  "tests/inbox/test_channel_reconnect_alarm.py",
		Runtime:     "tests/inbox/_fixturegen_runtime.py",
	},
	Probe: Probe{
		Record: []Record{
			{Key: "stdio", Module: "mcp.server", Attr: "stdio"},
			{Key: "message", Module: "mcp.shared.message"},
		},
		Cases: []Case{
			{
				Test: "test_the_channel_reconnect_alarm_is_armed_only_after_the_sdk_is_loaded",
				Node: "tests/inbox/test_channel_reconnect.py::test_pending_items",
			},
			{
				Test:         "test_a_slow_cold_fakeredis_import_is_not_charged_to_the_reconnect_alarm",
				Node:         "tests/inbox/test_channel_reconnect.py::test_pending_items",
				PlantedDelay: &PlantedDelay{Module: "fakeredis", Seconds: 6},
			},
			{
				Test:       "test_the_subscriber_case_imports_nothing_while_its_reconnect_alarm_is_armed",
				Node:       "tests/inbox/test_channel_reconnect.py::test_subscriber",
				ArmedDelay: 6,
			},
		},
	},
	File: "fixturegen.toml",
	Dir:  "/project",
}

func TestParseDesignSpec(t *testing.T) {
	s, err := Parse([]byte(design), "fixturegen.toml", "/project")
	if err != nil {
		t.Fatal(err)
	}
	if !s.SameValues(designSpec) {
		t.Errorf("got\n%+v\nwant\n%+v", s, designSpec)
	}
}

func TestParseDefaults(t *testing.T) {
	src := edit(t, []string{"probe_plugin = \"tests/alarm_probe.py\"\nprobe_tests = \"tests/test_alarm_probe.py\"\n", ""}, "")
	s, err := Parse([]byte(src), "spec.toml", "/project")
	if err != nil {
		t.Fatal(err)
	}
	want := &Spec{
		Version: 1,
		Deadline: Deadline{
			Fixture:           "deadline",
			Seconds:           5,
			Timer:             DefaultTimer,
			Message:           DefaultMessage,
			OnImport:          DefaultOnImport,
			LateImports:       DefaultLateImports,
			ImportGrace:       DefaultImportGrace,
			Raises:            DefaultRaises,
			SecondsEnvInvalid: DefaultSecondsEnvInvalid,
			WithoutTimer:      DefaultWithoutTimer,
		},
		Preload: Preload{Fixture: "preload", Modules: []string{"a", "b.c"}},
		Group:   Group{Name: "g"},
		Paths:   Paths{Conftest: "tests/conftest.py", Runtime: "tests/_fixturegen_runtime.py"},
		Probe: Probe{
			Record:          []Record{{Key: "a", Module: "a"}, {Key: "b.c", Module: "b.c"}, {Key: "b:c", Module: "b", Attr: "c"}},
			RecordDefaulted: true,
		},
		File: "spec.toml",
		Dir:  "/project",
	}
	if !s.SameValues(want) {
		t.Errorf("got\n%+v\nwant\n%+v", s, want)
	}
}

// TestParseValid lists specs that are unusual but right.
func TestParseValid(t *testing.T) {
	tests := []struct {
		name  string
		edits []string
		add   string
		check func(*Spec) bool
	}{
		{"float seconds", []string{"seconds = 5", "seconds = 0.25"}, "",
			func(s *Spec) bool { return s.Deadline.Seconds == 0.25 }},
		{"a whole day", []string{"seconds = 5", "seconds = 86400"}, "",
			func(s *Spec) bool { return s.Deadline.Seconds == 86400 }},
		{"every option", []string{"seconds = 5", "seconds = 5\ntimer = 'prof'\non_import = 'defer'\nlate_imports = 'fail'\nimport_grace = 2.5\nmessage = \"\"\"\nslow \"loop\"\"\"\""}, "",
			func(s *Spec) bool {
				d := s.Deadline
				return d.Timer == "prof" && d.OnImport == "defer" && d.LateImports == "fail" && d.ImportGrace == 2.5 && d.Message == `slow "loop"`
			}},
		{"autouse per-test timeout", []string{"seconds = 5", "seconds = 4\ntimer = 'auto'\nautouse = true\nseconds_env = 'SUITE_TEST_LIMIT'\nraises = 'TimeoutError'\ndump_threads = true"}, "",
			func(s *Spec) bool {
				d := s.Deadline
				return d.Timer == "auto" && d.Autouse && slices.Equal(d.SecondsEnv, []string{"SUITE_TEST_LIMIT"}) && d.Raises == "TimeoutError" && d.DumpThreads
			}},
		{"seconds_env in order", []string{"seconds = 5", "seconds = 5\nseconds_env = ['PER_TEST_TIMEOUT', 'TIMEOUT']"}, "",
			func(s *Spec) bool {
				return slices.Equal(s.Deadline.SecondsEnv, []string{"PER_TEST_TIMEOUT", "TIMEOUT"})
			}},
		{"thread timer", []string{"seconds = 5", "seconds = 5\ntimer = 'thread'"}, "",
			func(s *Spec) bool { return s.Deadline.Timer == TimerThread }},
		{"no group", []string{"[group]\nname = \"g\"\n", ""}, "",
			func(s *Spec) bool { return s.Group.Name == "" }},
		{"runtime named", []string{`probe_tests = "tests/test_alarm_probe.py"`, "probe_tests = \"tests/test_alarm_probe.py\"\nruntime = \"tests/support/deadline_runtime.py\""}, "",
			func(s *Spec) bool { return s.Paths.Runtime == "tests/support/deadline_runtime.py" }},
		{"runtime beside a top-level conftest", []string{`"tests/conftest.py"`, `"conftest.py"`}, "",
			func(s *Spec) bool { return s.Paths.Runtime == "_fixturegen_runtime.py" }},
		{"no modules", []string{`modules = ["a", "b.c"]`, "modules = []"}, "",
			func(s *Spec) bool {
				return s.Preload.Modules != nil && len(s.Preload.Modules) == 0 && len(s.Probe.Record) == 0
			}},
		{"soft keywords are names", []string{`fixture = "deadline"`, `fixture = "match"`, `modules = ["a", "b.c"]`, `modules = ["type.case", "_"]`}, "",
			func(s *Spec) bool { return s.Deadline.Fixture == "match" && s.Preload.Modules[0] == "type.case" }},
		{"paths are cleaned", []string{`"tests/conftest.py"`, `"./tests//sub/../conftest.py"`}, "",
			func(s *Spec) bool { return s.Paths.Conftest == "tests/conftest.py" }},
		{"conftest at the top", []string{`"tests/conftest.py"`, `"conftest.py"`}, "",
			func(s *Spec) bool { return s.Paths.Conftest == "conftest.py" }},
		{"tables as dotted keys", []string{"[group]\nname = \"g\"\n", "", "version = 1", "version = 1\ngroup.name = \"g\""}, "",
			func(s *Spec) bool { return s.Group.Name == "g" }},
		{"empty record", nil, "[probe.record]\n",
			func(s *Spec) bool { return len(s.Probe.Record) == 0 && !s.Probe.RecordDefaulted }},
		{"record order and quoted keys", nil, "[probe]\nrecord = { z = 'z', \"mcp.server:stdio\" = 'mcp.server:stdio', a = 'a' }\n",
			func(s *Spec) bool {
				r := s.Probe.Record
				return len(r) == 3 && r[0].Key == "z" && r[1].Key == "mcp.server:stdio" && r[1].Attr == "stdio" && r[2].Key == "a"
			}},
		{"node with class and parameters", nil, "[[probe.case]]\ntest = 'test_x'\nnode = './tests/test_x.py::TestX::test_a[a::b-1.5]'\n",
			func(s *Spec) bool { return s.Probe.Cases[0].Node == "tests/test_x.py::TestX::test_a[a::b-1.5]" }},
		{"planted_delay as a sub-table and armed_delay together", nil, oneCase + "armed_delay = 1.5\n[probe.case.planted_delay]\nmodule = 'b.c'\nseconds = 2\n",
			func(s *Spec) bool {
				c := s.Probe.Cases[0]
				return c.ArmedDelay == 1.5 && c.PlantedDelay != nil && *c.PlantedDelay == PlantedDelay{Module: "b.c", Seconds: 2}
			}},
		{"cases as an inline array", nil, "[probe]\ncase = [\n  { test = 'test_a', node = 'tests/test_x.py::test_a' },\n  { test = 'test_b', node = 'tests/test_x.py::test_b' },\n]\n",
			func(s *Spec) bool { return len(s.Probe.Cases) == 2 && s.Probe.Cases[1].Test == "test_b" }},
		{"no cases", nil, "[probe]\ncase = []\n",
			func(s *Spec) bool { return len(s.Probe.Cases) == 0 && s.Probe.RecordDefaulted }},
		{"shield with its defaults", nil, "[shield]\n",
			func(s *Spec) bool {
				sh := s.Shield
				return sh.On && len(sh.Signals) == 1 && sh.Signals[0] == SignalAlarm && sh.ImportGrace == DefaultShieldGrace && sh.PastGrace == PastGraceDeliver && sh.Rollback && s.HasDeadline()
			}},
		{"only the shield", []string{"[deadline]\nfixture = \"deadline\"\nseconds = 5\n", "", "[preload]\nfixture = \"preload\"\nmodules = [\"a\", \"b.c\"]\n", ""}, "[shield]\nsignals = ['SIGALRM', 'SIGPROF']\nimport_grace = 2.5\npast_grace = 'wait'\nrollback = false\n",
			func(s *Spec) bool {
				sh := s.Shield
				return !s.HasDeadline() && s.Deadline.Timer == DefaultTimer && len(sh.Signals) == 2 && sh.Signals[1] == SignalProf && sh.ImportGrace == 2.5 && sh.PastGrace == PastGraceWait && !sh.Rollback
			}},
		{"a shield that holds no signal", nil, "[shield]\nsignals = []\n",
			func(s *Spec) bool { return s.Shield.Signals != nil && len(s.Shield.Signals) == 0 }},
		{"no shield", nil, "",
			func(s *Spec) bool { return !s.Shield.On && s.Shield.Signals == nil }},
		{"message with any character but NUL", []string{"seconds = 5", "seconds = 5\nmessage = \"tab\\there\\u0007 é\""}, "",
			func(s *Spec) bool { return s.Deadline.Message == "tab\there\a é" }},
		{"message with the seconds", []string{"seconds = 5", "seconds = 5\nmessage = 'Test exceeded {seconds:g} seconds {{not a field}}'"}, "",
			func(s *Spec) bool { return s.Deadline.Message == "Test exceeded {seconds:g} seconds {{not a field}}" }},
		{"every number format", []string{"seconds = 5", "seconds = 5\nmessage = '{seconds} {seconds:} {seconds:*^+#010,.3f} {seconds:_e} {seconds:.1%} {seconds:n} {seconds:>8G} s'"}, "",
			func(s *Spec) bool { return strings.HasPrefix(s.Deadline.Message, "{seconds} ") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := edit(t, tt.edits, tt.add)
			s, err := Parse([]byte(src), "spec.toml", "/project")
			if err != nil {
				t.Fatalf("%v\nfor\n%s", err, src)
			}
			if !tt.check(s) {
				t.Errorf("unexpected spec %+v", s)
			}
		})
	}
}

func TestParseTable(t *testing.T) {
	const pyproject = `[project]
name = "inbox"
version = "0.1.0"

[tool.ruff]
line-length = 100
Seconds = "ignored: outside the spec"

[tool.fixturegen]
version = 1

[tool.fixturegen.deadline]
fixture = "recovery_deadline"
seconds = 5

[tool.fixturegen.preload]
fixture = "mcp_sdk"
modules = ["mcp.server.stdio"]

[tool.fixturegen.group]
name = "mcp-sdk"

[tool.fixturegen.paths]
conftest = "tests/conftest.py"
probe_plugin = "tests/alarm_probe.py"
probe_tests = "tests/test_alarm_probe.py"

[tool.fixturegen.probe.record]
stdio = "mcp.server:stdio"

[[tool.fixturegen.probe.case]]
test = "test_probe"
node = "tests/test_x.py::test_a"
`
	prefix := []string{"tool", "fixturegen"}
	s, err := ParseTable([]byte(pyproject), "pyproject.toml", "/project", prefix)
	if err != nil {
		t.Fatal(err)
	}
	if s.Deadline.Fixture != "recovery_deadline" || s.Preload.Modules[0] != "mcp.server.stdio" ||
		s.Probe.Record[0] != (Record{Key: "stdio", Module: "mcp.server", Attr: "stdio"}) ||
		s.Probe.Cases[0].Test != "test_probe" || s.File != "pyproject.toml" {
		t.Errorf("unexpected spec %+v", s)
	}

	bad := strings.Replace(pyproject, "seconds = 5", "Seconds = 5", 1)
	bad = strings.Replace(bad, `node = "tests/test_x.py::test_a"`, `node = "tests/test_x.py"`, 1)
	_, err = ParseTable([]byte(bad), "pyproject.toml", "/project", prefix)
	for _, want := range []string{
		`pyproject.toml:14:1: unknown key "Seconds" in [tool.fixturegen.deadline]; did you mean "seconds"?`,
		"pyproject.toml:33:1: tool.fixturegen.probe.case[0].node must be a pytest node id",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error\n%v\ndoes not contain\n%s", err, want)
		}
	}
	// "Seconds" is the missing seconds: not reported twice.
	if err != nil && strings.Contains(err.Error(), "missing required key") {
		t.Errorf("a misspelt key is also reported missing:\n%v", err)
	}

	noVersion := strings.Replace(pyproject, "version = 1\n", "", 1)
	_, err = ParseTable([]byte(noVersion), "pyproject.toml", "/project", prefix)
	if want := "pyproject.toml:9:1: missing required key tool.fixturegen.version"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want %s", err, want)
	}

	_, err = ParseTable([]byte("[project]\nname = 'x'\n"), "pyproject.toml", "/project", prefix)
	if want := "pyproject.toml: no [tool.fixturegen] table"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want %s", err, want)
	}
	_, err = ParseTable([]byte("[tool]\nfixturegen = 1\n"), "pyproject.toml", "/project", prefix)
	if want := "pyproject.toml:2:1: tool.fixturegen must be a table, not an integer"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want %s", err, want)
	}
	_, err = ParseTable([]byte("[tool.fixturegen]\n"), "pyproject.toml", "/project", prefix)
	if want := "pyproject.toml: [tool.fixturegen] is empty; it needs at least version = 1"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

func TestPythonNames(t *testing.T) {
	for s, want := range map[string]bool{
		"x": true, "_": true, "__init__": true, "match": true, "Test1": true,
		"": false, "1x": false, "a-b": false, "a.b": false, "None": false, "async": false, "café": false,
	} {
		if got := IsIdentifier(s); got != want {
			t.Errorf("IsIdentifier(%q) = %v, want %v", s, got, want)
		}
	}
	for s, want := range map[string]bool{
		"a": true, "a.b.c": true, "mcp.server.stdio": true, "_x.y_": true,
		"": false, ".a": false, "a.": false, "a..b": false, "a.if": false, "a.1b": false, "a b": false, "a/b": false,
	} {
		if got := moduleProblem(s) == ""; got != want {
			t.Errorf("IsModuleName(%q) = %v, want %v", s, got, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(design)
	f.Add(minimal + oneCase)
	f.Add("version = 1\n[probe]\ncase = [{test = 1}]\nrecord = {a = {b = 1}}\n")
	f.Fuzz(func(t *testing.T, src string) {
		s, err := Parse([]byte(src), "spec.toml", "/project")
		if (s == nil) == (err == nil) {
			t.Fatalf("Parse returned spec %v and error %v", s, err)
		}
		var es Errors
		if errors.As(err, &es) {
			for _, e := range es {
				if e.Line < 1 || e.Col < 1 || e.Msg == "" {
					t.Fatalf("error without a position: %#v", e)
				}
			}
		}
	})
}

// A misspelt table or key is reported alone, with its did-you-mean: not
// after the required keys its absence leaves missing, which it most likely
// is. Without a did-you-mean, the missing keys are still reported.
func TestMisspeltKeyAlone(t *testing.T) {
	for _, tt := range []struct{ name, src, want string }{
		{"shield-only spec, [sheild]",
			"version = 1\n\n[sheild]\nimport_grace = 0.3\n\n[paths]\nconftest = \"tests/conftest.py\"\n",
			`spec.toml:3:1: unknown key "sheild" at the top level; did you mean "shield"?`},
		{"[dedline] beside [shield]",
			"version = 1\n[shield]\n[dedline]\nfixture = \"x\"\nseconds = 1\n[preload]\nfixture = \"y\"\nmodules = []\n[paths]\nconftest = \"tests/conftest.py\"\n",
			`spec.toml:3:1: unknown key "dedline" at the top level; did you mean "deadline"?`},
		{"verison", strings.Replace(minimal, "version = 1", "verison = 1", 1),
			`spec.toml:1:1: unknown key "verison" at the top level; did you mean "version"?`},
		{"no suggestion: the missing keys stay",
			strings.Replace(minimal, "[deadline]", "[zzzzzzzz]", 1),
			"spec.toml:1:1: missing required key deadline.fixture\n" +
				"spec.toml:1:1: missing required key deadline.seconds\n" +
				`spec.toml:3:1: unknown key "zzzzzzzz" at the top level; valid keys are version, required_version, deadline, preload, group, paths, probe, shield`},
	} {
		_, err := Parse([]byte(tt.src), "spec.toml", "/project")
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: error\n%v\nwant\n%s", tt.name, err, tt.want)
		}
	}
}
