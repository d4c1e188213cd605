package contract

import (
	"github.com/fixturegen/fixturegen/internal/check/rule"
	"github.com/fixturegen/fixturegen/schema"
)

// The contract's rules. Each is declared once, here, with its check; the
// rule package's registry gives docs/check.md, check --help, the
// suppression comment and the prefilter what they say about it. A new rule
// is one more declaration and its check function.
//
// The per-module checks run in the order declared: hand-written-deadline
// comes last, as it edits what the others found in the module.

// timerCalls are the signal module's calls that arm a timer or install a
// timer signal's handler.
var timerCalls = []string{"setitimer", "alarm", "ALRM", "SIGPROF"}

func deadlineName(s *schema.Spec) []string { return []string{s.Deadline.Fixture} }

const RuleOwnTimer = "own-timer"

var _ = declare(rule.Rule{
	ID:           RuleOwnTimer,
	Summary:      "code arms a timer without the deadline fixture",
	Meaning:      "Code arms a timer (`signal.setitimer`, `signal.alarm`, `signal.signal(SIGALRM, ...)`) in a test or fixture that does not use the deadline fixture, or in a helper of a module whose tests do not all use it. A module imported for the first time under that alarm can be left half imported. Disarming (`setitimer(..., 0)`, `SIG_DFL`) is not flagged.",
	Fix:          "Use the deadline fixture, which runs the preload first",
	Suppressible: true,
	Calls:        timerCalls,
}, check{module: (*rules).ownTimer})

const RuleMissingGroup = "missing-group"

var _ = declare(rule.Rule{
	ID:           RuleMissingGroup,
	Summary:      "deadline users outside the xdist group",
	Meaning:      "Tests use the deadline fixture (as a parameter, through `usefixtures`, or through an autouse fixture that depends on it) but are not marked `pytest.mark.xdist_group(\"<group>\")`, or are in another group. Not checked when the spec has no `[group]`.",
	Fix:          "Add the mark to the module's `pytestmark`",
	Suppressible: true,
	Fixtures:     deadlineName,
	Pytest:       "each test whose fixture closure holds the deadline fixture but that pytest-xdist would not schedule in the group, at the test's `file:line`",
}, check{module: (*rules).missingGroup})

// shadows reports name-clash too.
const RuleShadowFixture = "shadow-fixture"

var _ = declare(rule.Rule{
	ID:           RuleShadowFixture,
	Summary:      "a fixture shadows the preload or deadline fixture",
	Meaning:      "Another fixture with the preload's or the deadline's name would shadow the generated one.",
	Fix:          "Rename or remove it",
	Suppressible: true,
	Fixtures:     func(s *schema.Spec) []string { return []string{s.Deadline.Fixture, s.Preload.Fixture} },
}, check{module: (*rules).shadows})

const RuleNameClash = "name-clash"

var _ = declare(rule.Rule{
	ID:           RuleNameClash,
	Summary:      "the conftest defines a name the region defines",
	Meaning:      "The conftest defines, outside the region, a name the region defines (`pytest_configure`, the helpers); one replaces the other, and `generate` refuses to run.",
	Fix:          "Rename or remove it",
	Suppressible: true,
}, check{}) // reported by shadow-fixture's check, which reads the conftest

const RuleDeadlinePreload = "deadline-without-preload"

var _ = declare(rule.Rule{
	ID:           RuleDeadlinePreload,
	Summary:      "a deadline fixture lost its preload parameter",
	Meaning:      "A deadline fixture no longer depends on the preload fixture (the reference's \"lost its mcp_sdk parameter\"): pytest may arm the alarm before the preload runs.",
	Fix:          "Restore the parameter (`fixturegen generate` does, for the generated one)",
	Suppressible: true,
	Fixtures:     deadlineName,
	Pytest:       "a deadline fixture that, as pytest resolves it for some test (overrides included), does not reach the preload fixture; the message names that test",
}, check{module: (*rules).deadlinePreload})

const RuleHandwrittenDeadline = "hand-written-deadline"

var _ = declare(rule.Rule{
	ID:           RuleHandwrittenDeadline,
	Summary:      "a hand-written per-test deadline, to adopt",
	Meaning:      "A fixture arms a timer itself (`signal.setitimer`, `signal.alarm`) without the deadline fixture: a hand-written per-test deadline, most often an autouse timeout. Its alarm can interrupt a module's first import in any test it covers. Reported once, at the fixture, in place of an `own-timer` finding per timer call (and, when it bears the spec's deadline name, of `shadow-fixture`, `deadline-without-preload` and `region-missing`).",
	Fix:          "Adopt it: `fixturegen init`, then `fixturegen generate --adopt` ([migrating](migrating.md#autouse-per-test-timeout)); with a spec already there, set `[deadline].fixture` to its name first",
	Suppressible: true,
	Calls:        timerCalls,
}, check{module: (*rules).handwrittenDeadlines})

const RuleProbeNode = "probe-node"

var _ = declare(rule.Rule{
	ID:      RuleProbeNode,
	Summary: "a probe case names a test that does not exist",
	Meaning: "A probe case's node id names a file, class or test function that does not exist. Reported at the case's `node` in the spec.",
	Fix:     "Point the node at an existing test",
	Pytest:  "a probe case's node that pytest does not collect",
}, check{tree: (*rules).probeNodes}) // the cases' files are read whatever they hold

const RulePreloadMissing = "preload-missing"

var _ = declare(rule.Rule{
	ID:      RulePreloadMissing,
	Summary: "a first-party preload module does not exist",
	Meaning: "A preload module belongs to the project (its top package is under the spec's folder or a `pythonpath` folder) but does not exist. Reported at the module in the spec.",
	Fix:     "Fix the name, or restore the module",
}, check{tree: func(r *rules, _ *scan) { r.preloadModules() }})

const RuleDistLoadgroup = "dist-loadgroup"

var _ = declare(rule.Rule{
	ID:      RuleDistLoadgroup,
	Summary: "pytest-xdist runs without --dist loadgroup",
	Meaning: "The pytest configuration's `addopts` runs pytest-xdist (`-n`) without `--dist loadgroup`, so the group mark does nothing. Reported at the `-n` (or at the wrong `--dist`). Not checked when the spec has no `[group]`.",
	Fix:     "Add `--dist loadgroup` to `addopts`",
}, check{tree: func(r *rules, _ *scan) { r.distLoadgroup() }})

// The scan's own findings: problems reading the tree, reported where the
// scan meets them.

const WarnUndecodable = "undecodable"

var _ = declare(rule.Rule{
	ID:      WarnUndecodable,
	Summary: "a Python file in no encoding fixturegen knows",
	Meaning: "A Python file is not UTF-8 and declares no encoding, or one neither Python nor fixturegen knows.",
	Fix:     "Save it as UTF-8, or declare its encoding",
	Warning: true,
}, check{})

const WarnSyntax = "syntax"

var _ = declare(rule.Rule{
	ID:           WarnSyntax,
	Summary:      "a Python file has a syntax error",
	Meaning:      "A Python file has an unterminated string, unbalanced brackets or a bad dedent; rules may miss code after it. (In the region's conftest it is an error.)",
	Fix:          "`python -m py_compile FILE` shows it",
	Warning:      true,
	Suppressible: true,
}, check{})

const WarnUnreadable = "unreadable"

var _ = declare(rule.Rule{
	ID:      WarnUnreadable,
	Summary: "a folder or file cannot be read",
	Meaning: "A folder or file cannot be read (permissions); a file larger than 16 MiB, or that is not a regular file (a FIFO, a socket, a device). Such a file costs at most one read of 64 KiB: check asks a file's size and type before it reads more, and never waits on a FIFO.",
	Fix:     "`chmod`, or leave it out of `--scan`",
	Warning: true,
}, check{})

const WarnSymlinkLoop = "symlink-loop"

var _ = declare(rule.Rule{
	ID:      WarnSymlinkLoop,
	Summary: "a link to a folder that contains it",
	Meaning: "A symbolic link leads to a folder that contains it; it is not followed.",
	Fix:     "Remove the link",
	Warning: true,
}, check{})

const WarnSymlinkOutside = "symlink-outside"

var _ = declare(rule.Rule{
	ID:      WarnSymlinkOutside,
	Summary: "a link to a folder outside the scanned ones",
	Meaning: "A symbolic link leads to a folder outside the scanned folders; it is not followed.",
	Fix:     "Scan that folder too (`--scan`), or replace the link with the folder",
	Warning: true,
}, check{})

const WarnDanglingSymlink = "dangling-symlink"

var _ = declare(rule.Rule{
	ID:      WarnDanglingSymlink,
	Summary: "a .py link to a file that does not exist",
	Meaning: "A `.py` link points to a file that does not exist.",
	Fix:     "Remove the link, or restore the file",
	Warning: true,
}, check{})

const WarnUnknownRule = "unknown-rule"

var _ = declare(rule.Rule{
	ID:      WarnUnknownRule,
	Summary: "a suppression comment names no suppressible rule",
	Meaning: "A `# fixturegen: ignore[...]` comment names a rule that no comment can suppress, or none at all; it suppresses nothing.",
	Fix:     "Fix the rule's name",
	Warning: true,
}, check{}) // reported by suppress

// check is how Check runs a rule: module on every module read, on every
// core (perModule); tree once, after. A rule that another's check or the
// scan reports has neither.
type check struct {
	module func(*rules, *source)
	tree   func(*rules, *scan)
}

var (
	moduleChecks []func(*rules, *source)
	treeChecks   []func(*rules, *scan)
)

// declare registers r and its check. Its result is only there to let a
// declaration stand at package level.
func declare(r rule.Rule, c check) string {
	if c.module != nil {
		moduleChecks = append(moduleChecks, c.module)
	}
	if c.tree != nil {
		treeChecks = append(treeChecks, c.tree)
	}
	return rule.Register(r)
}
