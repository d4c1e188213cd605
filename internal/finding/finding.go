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
}

// Member is one module of the xdist group, for --list-group.
type Member struct {
	Path    string   `json:"path"`
	Reasons []Reason `json:"reasons"`
}

// Reason is why a module is in the group.
type Reason struct {
	Kind   string `json:"kind"` // "uses-fixture", "patches" or "marks"
	Line   int    `json:"line"`
	Col    int    `json:"col"`
	Detail string `json:"detail"`
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
	Members []Member
	Listing bool
}

// Sort orders findings by path, position and rule, so output is the same
// on every run whatever order the files were read in.
func Sort(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col), cmp.Compare(a.Rule, b.Rule))
	})
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
	for _, f := range r.Findings {
		sev := ""
		if f.Severity == Warning {
			sev = "warning: "
		}
		fmt.Fprintf(w, "%s:%d:%d: %s %s%s\n", f.Path, f.Line, f.Col, f.Rule, sev, f.Message)
		if f.Fix != "" {
			fmt.Fprintf(w, "    fix: %s\n", f.Fix)
		}
	}
	for _, f := range r.Findings {
		if f.Diff != "" {
			fmt.Fprint(w, f.Diff)
		}
	}
	r.summary(w)
}

func (r *Report) summary(w io.Writer) {
	errs, warns := r.Counts()
	switch {
	case errs == 0 && warns == 0:
		fmt.Fprintf(w, "fixturegen check: %s is in sync and the contract holds\n", r.Spec)
		return
	case errs == 0:
		fmt.Fprintf(w, "fixturegen check: no findings, %s\n", plural(warns, "warning"))
		return
	}
	fmt.Fprintf(w, "fixturegen check: %s", plural(errs, "finding"))
	if warns > 0 {
		fmt.Fprintf(w, ", %s", plural(warns, "warning"))
	}
	fmt.Fprintln(w)
	if r.FixCommand != "" {
		fmt.Fprintf(w, "fix the drift with: %s\n", r.FixCommand)
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func (r *Report) listText(w io.Writer) {
	fmt.Fprintf(w, "xdist group %q: %s\n", r.Group, plural(len(r.Members), "module"))
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
}

type jsonGroup struct {
	Name    string   `json:"name"`
	Modules []Member `json:"modules"`
}

// JSON prints the report as one JSON document.
func (r *Report) JSON(w io.Writer) error {
	doc := jsonReport{Spec: r.Spec, Findings: r.Findings, FixCommand: r.FixCommand}
	if doc.Findings == nil {
		doc.Findings = []Finding{}
	}
	doc.Errors, doc.Warnings = r.Counts()
	if r.Listing {
		doc.Group = &jsonGroup{Name: r.Group, Modules: r.Members}
		if doc.Group.Modules == nil {
			doc.Group.Modules = []Member{}
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
		kind := "error"
		if f.Severity == Warning {
			kind = "warning"
		}
		msg := f.Message
		if f.Fix != "" {
			msg += "\nfix: " + f.Fix
		}
		fmt.Fprintf(w, "::%s file=%s,line=%d,col=%d,title=%s::%s\n",
			kind, EscapeProperty(f.Path), f.Line, f.Col, EscapeProperty("fixturegen "+f.Rule), EscapeData(msg))
	}
	for _, f := range r.Findings {
		if f.Diff != "" {
			fmt.Fprint(w, f.Diff)
		}
	}
	r.summary(w)
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
