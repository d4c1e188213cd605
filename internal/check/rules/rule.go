// The registry of check's rules. Each rule is declared
// once, in the package that reports it, with everything fixturegen says
// about it: its id, its documentation, whether a suppression comment may
// name it, and the words a file must hold for the rule to need it. The
// rules table of docs/check.md, check --help's list, the suppression
// comment's rule names and the scan's prefilter all read the registry, so
// a new rule cannot be missing from one of them.

package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/schema"
)

// Rule is one rule check reports.
type Rule struct {
	// ID is the rule's name as printed; it is part of fixturegen's
	// interface.
	ID string
	// Summary says in a few words what the rule reports, for check
	// --help's list; it fits in 52 columns.
	Summary string
	// Meaning and Fix are the rule's row in docs/check.md: what a finding
	// means, and what fixes it.
	Meaning, Fix string
	// Warning marks a problem check had reading the tree: it is reported,
	// and the exit status is unchanged.
	Warning bool
	// Suppressible is set for the rules check reports at a line of a
	// Python file it read, which a "# fixturegen: ignore[...]" comment on
	// that line may name. The others are reported at the spec, the pytest
	// configuration, a link or a file check could not read, where no such
	// comment can be.
	Suppressible bool
	// Fixtures returns the names of the fixtures a file must request or
	// define for the rule to need it (as a parameter of a test or a
	// fixture, a fixture's def, or a string such as a usefixtures
	// argument); Calls are the signal module's calls a file must hold in
	// its code, beside the word "signal". A rule that sets neither reads
	// no file the scan would skip: it reads the spec, the configuration or
	// files read whatever they hold.
	Fixtures func(*schema.Spec) []string
	Calls    []string
	// Marks returns the names of the marks a file must name in its code
	// or its strings for the rule to need it, for spec; nil for none.
	Marks func(*schema.Spec) []string
	// Pytest says how check --collect judges the rule from the tests
	// pytest collects; it is set for the rules --collect judges.
	Pytest string
}

var all []Rule

// Register adds r to the registry and returns its id. Rules register as
// their package is initialized; an id registered twice is a programming
// error.
func Register(r Rule) string {
	if r.ID == "" || r.Summary == "" || r.Meaning == "" || r.Fix == "" {
		panic(fmt.Sprintf("rule %q: ID, Summary, Meaning and Fix are required", r.ID))
	}
	if len(r.Summary) > 52 {
		panic(fmt.Sprintf("rule %q: the summary is longer than 52 columns", r.ID))
	}
	if slices.ContainsFunc(all, func(o Rule) bool { return o.ID == r.ID }) {
		panic(fmt.Sprintf("rule %q registered twice", r.ID))
	}
	all = append(all, r)
	return r.ID
}

// All returns the registered rules, errors before warnings, each sorted by
// id.
func All() []Rule {
	out := slices.Clone(all)
	slices.SortFunc(out, func(a, b Rule) int {
		if a.Warning != b.Warning {
			if a.Warning {
				return 1
			}
			return -1
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out
}

// Suppressible lists, sorted, the ids a suppression comment may name.
func Suppressible() []string {
	var out []string
	for _, r := range all {
		if r.Suppressible {
			out = append(out, r.ID)
		}
	}
	slices.Sort(out)
	return out
}

// Words returns the union of the registered rules' names for spec, of
// their marks and of their calls: what the scan's prefilter looks for.
func Words(spec *schema.Spec) (names, marks, calls []string) {
	union := func(set, words []string) []string {
		for _, w := range words {
			if w != "" && !slices.Contains(set, w) {
				set = append(set, w)
			}
		}
		return set
	}
	for _, r := range all {
		if r.Marks != nil {
			marks = union(marks, r.Marks(spec))
		}
		if r.Fixtures != nil {
			names = union(names, r.Fixtures(spec))
		}
		calls = union(calls, r.Calls)
	}
	return names, marks, calls
}

// Table is the Markdown table of the rules, errors (warning false) or
// warnings, for docs/check.md.
func Table(warnings bool) string {
	var b strings.Builder
	head := "rule"
	if warnings {
		head = "warning"
	}
	fmt.Fprintf(&b, "| %s | what it means | fix |\n|---|---|---|\n", head)
	for _, r := range All() {
		if r.Warning == warnings {
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", r.ID, r.Meaning, r.Fix)
		}
	}
	return b.String()
}

// PytestTable is the Markdown table of how check --collect judges rules
// from pytest's view, for docs/check.md.
func PytestTable() string {
	var b strings.Builder
	b.WriteString("| rule | from pytest's view |\n|---|---|\n")
	for _, r := range All() {
		if r.Pytest != "" {
			fmt.Fprintf(&b, "| `%s` | %s |\n", r.ID, r.Pytest)
		}
	}
	return b.String()
}

// SuppressibleList is the sentence of docs/check.md that names the rules
// a suppression comment may name.
func SuppressibleList() string {
	ids := Suppressible()
	for i, id := range ids {
		ids[i] = "`" + id + "`"
	}
	if len(ids) < 2 {
		return strings.Join(ids, "") + ".\n"
	}
	return strings.Join(ids[:len(ids)-1], ", ") + " and " + ids[len(ids)-1] + ".\n"
}

// List is check --help's list of the rules: each id and its summary,
// errors first, then warnings under their own heading.
func List() string {
	var b strings.Builder
	b.WriteString("Rules:\n")
	warnings := false
	for _, r := range All() {
		if r.Warning && !warnings {
			b.WriteString("\nWarnings (reported; the exit status is unchanged):\n")
			warnings = true
		}
		fmt.Fprintf(&b, "  %-26s %s\n", r.ID, r.Summary)
	}
	return b.String()
}
