// Package pytext holds the text that crosses between fixturegen's Go and
// the Python it generates: the module name the runtime is loaded under,
// the names of the exceptions a fired deadline raises, the formats of the
// messages the runtime writes into a test's failure or a warning, and the
// header of every generated file.
//
// The templates render these values into the generated Python, and triage
// and check read what that Python printed through patterns built from the
// same values (Pattern), so the two sides cannot spell a name or a message
// two ways. A format uses Python's str.format fields ("{module}"); the
// runtime fills them, and Pattern turns each into a capture group.
package pytext

import (
	"regexp"
	"strings"
)

// RuntimeModule is the name the conftest region loads the runtime under,
// whatever its file is called: users name it in warning filters
// (error::_fixturegen_runtime.LateImportWarning), and the probe plugin
// finds the runtime by it.
const RuntimeModule = "_fixturegen_runtime"

// RegionPytest is the private name the conftest region binds pytest to
// (conftest_region.py.tmpl): the region imports nothing at module level, so
// that no linter merges, moves or deletes its lines, and its fixtures are
// decorated with RegionPytest + ".fixture". A static reader cannot follow
// the loader's return value to pytest, so check knows the name from here.
const RegionPytest = "_fixturegen_pytest"

// RegionConfigure is the name the conftest region binds the runtime's
// pytest_configure to. It starts with pytest_, so pytest reads it as a
// hook, and the runtime's hookimpl names the hook it implements
// (specname="pytest_configure"): a pytest_configure the user defines in
// the same conftest is neither replaced nor replaces it, and both run.
const RegionConfigure = "pytest_fixturegen_configure"

// The exceptions a fired deadline raises. A spec's deadline.raises names
// one of Raises; DeadlineExceeded is the runtime's own class, raised when
// the code under test swallowed the first one. pytest prints it with its
// module, as RuntimeModule + "." + DeadlineExceeded.
//
// Failed is pytest's own outcome, the one pytest.fail raises: pytest
// prints it by its class name ("Failed: <message>") and, raised with
// pytrace=False as the runtime raises it, reports the message alone,
// without a traceback. The runtime takes it from pytest.fail.Exception,
// since pytest exports the class under no other public name.
const (
	AssertionError   = "AssertionError"
	TimeoutError     = "TimeoutError"
	Failed           = "Failed"
	DeadlineExceeded = "DeadlineExceeded"
)

// Raises lists the exceptions a spec's deadline.raises may name.
var Raises = []string{AssertionError, TimeoutError, Failed}

// The runtime's warning classes, defined in RuntimeModule. Under
// pytest-xdist a worker sends each to the controller as a UserWarning
// whose text starts with the class name and ": ", since the controller
// cannot import RuntimeModule.
const (
	LateImportWarning        = "LateImportWarning"
	InterruptedImportWarning = "InterruptedImportWarning"
)

// What each timer measures, as the deadline's message says it.
const (
	RealTime    = "real time"
	UserCPUTime = "user CPU time"
	CPUTime     = "CPU time"
)

// TimerTexts lists every text a deadline's message may name its timer by.
var TimerTexts = []string{RealTime, UserCPUTime, CPUTime}

// The formats of the messages the runtime writes, with the fields it fills.
const (
	// DeadlineFormat is the message of a fired deadline: the spec's
	// deadline.message, the seconds armed and TimerTexts' entry:
	// "recovery loop exceeded its deadline (5 s, real time)".
	DeadlineFormat = "{message} ({seconds:g} s, {timer})"
	// InterruptedFormat ends a deadline's message when it interrupted a
	// first import: a fixed token for tools that read CI logs, with the
	// module whose import it left unfinished.
	InterruptedFormat = "[fixturegen:import-interrupted module={module}]"
	// GraceFormat explains, in a deadline's message, that an import ran
	// past the import grace and was interrupted.
	GraceFormat = "importing {module} took longer than import_grace ({grace:g} s)"
	// LateImportFormat opens a late-import report: the test's node id, the
	// modules as a comma-separated list of LateModuleFormat, and the
	// deadline fixture.
	LateImportFormat = "{node} imported {modules} for the first time while {fixture} was armed"
	// LateModuleFormat is one module of a late-import report, with the
	// seconds its import took.
	LateModuleFormat = "{module} ({seconds:.2f} s)"
)

// Capture groups for Pattern's fields.
const (
	// Module matches a dotted Python module name.
	Module = `([A-Za-z_][\w.]*)`
	// Number matches the seconds a format writes with :g or :.2f.
	Number = `(\d+(?:\.\d+)?(?:e[+-]?\d+)?)`
	// Any matches any text on the line, as little as it can.
	Any = `(.*?)`
)

// Pattern returns a regular expression that matches format as the runtime
// fills it: the literal text quoted, each field replaced by the group
// fields gives for its name, and a field fields does not name by Any.
func Pattern(format string, fields map[string]string) string {
	var b strings.Builder
	for format != "" {
		literal, rest, found := strings.Cut(format, "{")
		b.WriteString(regexp.QuoteMeta(literal))
		if !found {
			break
		}
		var field string
		field, format, _ = strings.Cut(rest, "}")
		name, _, _ := strings.Cut(field, ":")
		group, ok := fields[name]
		if !ok {
			group = Any
		}
		b.WriteString(group)
	}
	return b.String()
}

// Needle returns the longest literal text of format between its fields:
// text every message of that format holds, for a quick test of a line
// before the regular expression of Pattern.
func Needle(format string) string {
	longest := ""
	for format != "" {
		literal, rest, _ := strings.Cut(format, "{")
		if len(literal) > len(longest) {
			longest = literal
		}
		_, format, _ = strings.Cut(rest, "}")
	}
	return longest
}

// GeneratedHeader starts every whole file fixturegen writes. A file that
// lacks it is the user's, and fixturegen will not overwrite it; a file
// that has it where the spec plans none is an orphan.
const GeneratedHeader = "# Code generated by fixturegen"
