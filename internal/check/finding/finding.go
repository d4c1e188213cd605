// Package finding holds what fixturegen check reports, and prints it in the
// three formats CI reads: plain text (path:line:col: RULE message), one
// JSON document, and GitHub Actions annotations.
package finding

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/fixturegen/fixturegen/internal/cli/color"
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/internal/relpath"
)

// Severity tells findings that fail the check from warnings that do not.
type Severity string

// Severities.
const (
	Error   Severity = "error"   // drift or a broken contract: exit 1
	Warning Severity = "warning" // something check could not read: reported, exit unchanged
)

// Finding is one problem at one place. The JSON field names are part of
// fixturegen's interface: scripts read them, so they do not change.
type Finding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Path     string   `json:"path"`
	Line     int      `json:"line"`
	Col      int      `json:"col"`
	Message  string   `json:"message"`
	Fix      string   `json:"fix"`
	// Diff is the unified diff that generate would apply, for drift found
	// with --diff.
	Diff string `json:"diff,omitempty"`
	// PathBytes is the path's bytes, base64 in JSON, when they are not
	// valid UTF-8: JSON strings hold only Unicode, so "path" then shows
	// each invalid byte as U+FFFD and only path_bytes names the file.
	PathBytes []byte `json:"path_bytes,omitempty"`
}

// rawPath is a path's bytes when JSON cannot carry them in a string.
func rawPath(p string) []byte {
	if utf8.ValidString(p) {
		return nil
	}
	return []byte(p)
}

// Report is everything one check prints.
type Report struct {
	Spec     string
	Findings []Finding
	// FixCommand is the command that repairs the drift among the
	// findings, or "" when generate would change nothing.
	FixCommand string
	// Group and Members are set for --list-group.
	Group   string
	Members []suite.Member
	Listing bool
	// Paint colours the text format (package color decides whether).
	Paint color.Painter
	// Model is set by check --collect: where the static model and pytest
	// disagree on which tests exist.
	Model *ModelGap
	// Verbosity is the text format's: Quiet prints the findings and
	// nothing else (no summary, no model section; nothing when clean),
	// Verbose prints Read first.
	Verbosity Verbosity
	// Read says what check read, a line each (the spec, pytest's
	// configuration, the tree, each planned file's state), for Verbose.
	Read []string
}

// Verbosity is how much the text format says.
type Verbosity int

// Verbosities, as -q and -v ask for them.
const (
	Quiet   Verbosity = -1
	Normal  Verbosity = 0
	Verbose Verbosity = 1
)

// ModelGap is where the static model of pytest's collection and pytest
// itself disagree. The JSON field names are stable.
type ModelGap struct {
	// Agree counts the test functions both see; Items counts the test
	// items pytest collects from them, one per parameter set, as its own
	// summary does.
	Agree int `json:"agree"`
	Items int `json:"items"`
	// Missed are tests pytest collects that the model did not see;
	// NotCollected are tests the model saw that pytest does not collect.
	// Each is "path::Class::test".
	Missed       []string `json:"missed"`
	NotCollected []string `json:"not_collected"`
}

// Sort orders findings by path, position and rule, so output is the same
// on every run whatever order the files were read in.
func Sort(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col), cmp.Compare(a.Rule, b.Rule))
	})
}

// TidyPaths writes every path of the report in its shortest form from
// the folder cwd, so a check run below the spec's folder shows "x.py",
// not "../../tests/inbox/x.py".
func (r *Report) TidyPaths(cwd string) {
	for i := range r.Findings {
		r.Findings[i].Path = relpath.Tidy(cwd, r.Findings[i].Path)
	}
	for i := range r.Members {
		r.Members[i].Path = relpath.Tidy(cwd, r.Members[i].Path)
	}
}

// Counts returns the number of errors and of warnings.
func (r *Report) Counts() (errors, warnings int) {
	for _, f := range r.Findings {
		if f.Severity == Error {
			errors++
		} else {
			warnings++
		}
	}
	return errors, warnings
}

// Text prints the report for people and for editors' error parsers: one
// "path:line:col: RULE message" line per finding with its fix below it,
// then the diffs, then a summary that ends with the command that fixes the
// drift.
func (r *Report) Text(w io.Writer) {
	if r.Listing {
		r.listText(w)
		return
	}
	p := r.Paint
	if r.Verbosity >= Verbose {
		for _, line := range r.Read {
			fmt.Fprintln(w, p.Paint(color.Dim, line))
		}
	}
	for _, f := range r.Findings {
		rule, sev := p.Paint(color.Red, f.Rule), ""
		if f.Severity == Warning {
			rule, sev = p.Paint(color.Yellow, f.Rule), p.Paint(color.Yellow, "warning: ")
		}
		fmt.Fprintf(w, "%s %s %s%s\n", p.Paint(color.Bold, fmt.Sprintf("%s:%d:%d:", f.Path, f.Line, f.Col)), rule, sev, f.Message)
		if f.Fix != "" {
			fmt.Fprintf(w, "    %s %s\n", p.Paint(color.Cyan, "fix:"), f.Fix)
		}
	}
	r.tail(w, p.Diff)
}

// tail prints what follows the findings in the text and GitHub formats:
// the diffs, through paint, then, unless quiet, the model section and the
// summary.
func (r *Report) tail(w io.Writer, paint func(string) string) {
	for _, f := range r.Findings {
		if f.Diff != "" {
			fmt.Fprint(w, paint(f.Diff))
		}
	}
	if r.Verbosity <= Quiet {
		return
	}
	r.modelText(w)
	r.summary(w)
}

// itemsText says how many items pytest collects from the test functions
// both see, when parametrization makes them more.
func (g *ModelGap) itemsText() string {
	if g.Items <= g.Agree {
		return ""
	}
	return fmt.Sprintf(" (%d items, as pytest counts them with their parameters)", g.Items)
}

// modelText prints the short "static model vs pytest" section, after the
// findings: it informs, and never changes the exit status.
func (r *Report) modelText(w io.Writer) {
	g := r.Model
	if g == nil {
		return
	}
	if len(g.Missed) == 0 && len(g.NotCollected) == 0 {
		fmt.Fprintf(w, "static model vs pytest: both see the same %s%s\n", Plural(g.Agree, "test function"), g.itemsText())
		return
	}
	fmt.Fprintf(w, "static model vs pytest: both see %s%s; they disagree on %d\n", Plural(g.Agree, "test function"), g.itemsText(), len(g.Missed)+len(g.NotCollected))
	for _, t := range g.Missed {
		fmt.Fprintf(w, "  pytest collects, fixturegen check did not see: %s\n", t)
	}
	for _, t := range g.NotCollected {
		fmt.Fprintf(w, "  fixturegen check saw, pytest does not collect: %s\n", t)
	}
}

func (r *Report) summary(w io.Writer) {
	errs, warns := r.Counts()
	p := r.Paint
	switch {
	case errs == 0 && warns == 0:
		fmt.Fprintf(w, "fixturegen check: %s\n", p.Paint(color.Green, r.Spec+" is in sync and the contract holds"))
		return
	case errs == 0:
		fmt.Fprintf(w, "fixturegen check: %s, %s\n", p.Paint(color.Green, "no findings"), Plural(warns, "warning"))
		return
	}
	fmt.Fprintf(w, "fixturegen check: %s", p.Paint(color.Red, Plural(errs, "finding")))
	if warns > 0 {
		fmt.Fprintf(w, ", %s", Plural(warns, "warning"))
	}
	fmt.Fprintln(w)
	if r.FixCommand != "" {
		fmt.Fprintf(w, "fix the drift with: %s\n", r.FixCommand)
	}
}

// Plural counts n of word: "1 finding", "2 findings".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func (r *Report) listText(w io.Writer) {
	fmt.Fprintf(w, "xdist group %q: %s\n", r.Group, Plural(len(r.Members), "module"))
	width := 0
	for _, m := range r.Members {
		width = max(width, len(m.Path))
	}
	for _, m := range r.Members {
		for i, reason := range m.Reasons {
			path := m.Path
			if i > 0 {
				path = ""
			}
			fmt.Fprintf(w, "  %-*s  %s (line %d)\n", width, path, reason.Detail, reason.Line)
		}
	}
}

// jsonReport is the JSON document. Its field names are stable.
type jsonReport struct {
	Spec       string     `json:"spec"`
	Findings   []Finding  `json:"findings"`
	Errors     int        `json:"errors"`
	Warnings   int        `json:"warnings"`
	FixCommand string     `json:"fix_command"`
	Group      *jsonGroup `json:"group,omitempty"`
	// StaticModel is set by check --collect.
	StaticModel *ModelGap `json:"static_model,omitempty"`
}

type jsonGroup struct {
	Name    string         `json:"name"`
	Modules []suite.Member `json:"modules"`
}

// JSON prints the report as one JSON document.
func (r *Report) JSON(w io.Writer) error {
	doc := jsonReport{Spec: r.Spec, Findings: make([]Finding, len(r.Findings)), FixCommand: r.FixCommand, StaticModel: r.Model}
	for i, f := range r.Findings {
		f.PathBytes = rawPath(f.Path)
		doc.Findings[i] = f
	}
	doc.Errors, doc.Warnings = r.Counts()
	if r.Listing {
		doc.Group = &jsonGroup{Name: r.Group, Modules: make([]suite.Member, len(r.Members))}
		for i, m := range r.Members {
			m.PathBytes = rawPath(m.Path)
			doc.Group.Modules[i] = m
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

// GitHub prints one workflow command per finding, so GitHub Actions
// annotates the line in the pull request, then the text summary (and the
// diffs) for the log.
func (r *Report) GitHub(w io.Writer) {
	if r.Listing {
		r.listText(w)
		return
	}
	for _, f := range r.Findings {
		msg := f.Message
		if f.Fix != "" {
			msg += "\nfix: " + f.Fix
		}
		fmt.Fprintf(w, "::%s file=%s,line=%d,col=%d,title=%s::%s\n",
			f.Severity, EscapeProperty(f.Path), f.Line, f.Col, EscapeProperty("fixturegen "+f.Rule), EscapeData(msg))
	}
	r.tail(w, func(diff string) string { return diff })
}

// EscapeData escapes a workflow command's message as the Actions toolkit
// does, so a newline or a "%" in it cannot end or change the command.
func EscapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// EscapeProperty escapes a workflow command's property value, where ":"
// and "," would also end it.
func EscapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// Problem is an error that stopped a command before it could report
// findings: a spec error at its position, or one without a place (Path
// empty, Line and Col 0).
type Problem struct {
	Path      string
	Line, Col int
	Message   string
}

// ProblemsJSON prints problems as the JSON document check prints, each an
// error finding of rule "error", so a tool that asked for JSON gets the
// document it knows even when the spec is bad; the exit status (2) tells
// the two cases apart.
func ProblemsJSON(w io.Writer, problems []Problem) error {
	r := &Report{}
	for _, p := range problems {
		r.Findings = append(r.Findings, Finding{Rule: "error", Severity: Error, Path: p.Path, Line: p.Line, Col: p.Col, Message: p.Message})
	}
	return r.JSON(w)
}

// ProblemsGitHub prints one error workflow command per problem, so GitHub
// Actions annotates the spec's line in the pull request.
func ProblemsGitHub(w io.Writer, problems []Problem) {
	for _, p := range problems {
		var props []string
		if p.Path != "" {
			props = append(props, "file="+EscapeProperty(p.Path))
		}
		if p.Line > 0 {
			props = append(props, fmt.Sprintf("line=%d,col=%d", p.Line, p.Col))
		}
		props = append(props, "title="+EscapeProperty("fixturegen"))
		fmt.Fprintf(w, "::error %s::%s\n", strings.Join(props, ","), EscapeData(p.Message))
	}
}
