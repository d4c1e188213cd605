// Package check runs fixturegen check from end to end, one way: it surveys
// the planned files, scans the test tree once with the contract's rules,
// asks pytest when told to, and turns what they found into one report of
// drift and findings. The command prints the report; nothing here prints.
//
// The one scan (rules.Check) yields the rules' findings and the tree's
// facts that the other parts read: the files carrying the generated header
// that the spec no longer plans (drift's orphans), and the group's members
// and the deadline's users (the docs file's tables, which the plan renders
// from them; see scanOptions). Drift reads those facts and never walks the
// tree itself.
package check

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/fixturegen/fixturegen/internal/check/collect"
	"github.com/fixturegen/fixturegen/internal/check/drift"
	"github.com/fixturegen/fixturegen/internal/check/finding"
	"github.com/fixturegen/fixturegen/internal/check/rules"
	"github.com/fixturegen/fixturegen/internal/gen/plan"
	"github.com/fixturegen/fixturegen/internal/gen/render"
	"github.com/fixturegen/fixturegen/internal/python/pytestcfg"
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/internal/python/venv"
	"github.com/fixturegen/fixturegen/internal/relpath"
	"github.com/fixturegen/fixturegen/schema"
)

// Options are check's flags.
type Options struct {
	// Scan are the folders named with --scan; empty for the spec's own.
	Scan []string
	// ListGroup asks for the modules of the xdist group (--list-group).
	ListGroup bool
	// Collect asks pytest for its view (--collect), with Python.
	Collect bool
	Python  string
	// Diffs attaches to each drift finding the diff that repairs it.
	Diffs bool
}

// Fix names the fixturegen command that repairs what a report holds.
type Fix int

const (
	FixNone     Fix = iota
	FixGenerate     // fixturegen generate
	FixAdopt        // fixturegen generate --adopt
)

// Run checks spec's project. A collection error is a *collect.CollectionError
// carrying pytest's output.
func Run(spec *schema.Spec, o Options) (*finding.Report, Fix, error) {
	// pytest's collection takes far longer than the static check, so it
	// starts first and runs alongside.
	var pytestView func() (*collect.View, error)
	if o.Collect {
		python := o.Python
		if python == "" {
			python = venv.Python(spec.Dir)
		}
		pytestView = collect.Start(spec, python, o.Scan)
		defer pytestView()
	}
	opts, shareFacts, err := scanOptions(spec, o)
	if err != nil {
		return nil, FixNone, err
	}
	changes, res, err := surveyAndScan(spec, opts, shareFacts)
	if err != nil {
		return nil, FixNone, err
	}
	var model *finding.ModelGap
	if o.Collect {
		view, err := pytestView()
		if err != nil {
			return nil, FixNone, err
		}
		if res.Findings, model, err = collect.Judge(spec, view, res, opts.Planned); err != nil {
			return nil, FixNone, err
		}
	}
	if res.Adopt {
		changes = drift.BeforeAdoption(spec, changes)
	}
	d := drift.Find(spec, changes, res.Generated, o.Diffs)

	report := &finding.Report{Spec: spec.File, Findings: append(d.Findings, res.Findings...), Model: model,
		Read: readLines(spec, opts.Config, opts.Roots, res.Files, changes)}
	if cwd, err := os.Getwd(); err == nil {
		report.TidyPaths(cwd)
	}
	finding.Sort(report.Findings)
	if o.ListGroup {
		report.Listing, report.Group, report.Members = true, spec.Group.Name, res.Members
	}
	fix := FixNone
	switch {
	case res.Adopt:
		fix = FixAdopt
	case d.Generate:
		fix = FixGenerate
	}
	return report, fix, nil
}

// errNoFacts stands for the facts of a scan that failed, whose error
// surveyAndScan returns instead.
var errNoFacts = errors.New("the scan of the tree failed")

// surveyAndScan plans the generated files and scans the tree at once: the
// plan renders and reads the files it would write, most of a small
// project's check, while the scan reads the tree. Only the docs
// file, which lists the facts of the spec's tree, waits for the scan when
// the scan gathers them (shareFacts); else the plan reads the tree for
// them itself. The scan's error comes first, then the plan's.
func surveyAndScan(spec *schema.Spec, opts rules.Options, shareFacts bool) ([]*plan.Change, *rules.Result, error) {
	scanned := make(chan *rules.Result, 1)
	var facts plan.Facts // nil: the plan reads the spec's tree
	if shareFacts {
		facts = func(*schema.Spec) (*suite.Facts, error) {
			if res := <-scanned; res != nil {
				return res.Facts(), nil
			}
			return nil, errNoFacts
		}
	}
	// A call made while the survey runs waits for it.
	survey := sync.OnceValues(func() ([]*plan.Change, error) { return plan.Survey(spec, facts) })
	go survey()
	res, err := rules.Check(opts)
	scanned <- res
	changes, planErr := survey()
	if err != nil {
		return nil, nil, err
	}
	if planErr != nil {
		return nil, nil, planErr
	}
	return changes, res, nil
}

// scanOptions are the contract's options for one check: the roots, the
// planned files, the conftest and the configuration. shareFacts reports
// that the scan also gathers the docs block's facts.
func scanOptions(spec *schema.Spec, o Options) (opts rules.Options, shareFacts bool, err error) {
	opts, err = rules.SpecProject(spec)
	if err != nil {
		return opts, false, err
	}
	opts.GeneratedNames = render.RegionNames(spec)
	opts.ListGroup, opts.ListTests = o.ListGroup, o.Collect
	if len(o.Scan) > 0 {
		opts.Roots, opts.NamedRoots = o.Scan, true
	}
	// The docs block lists the group's members and the deadline's users
	// over the spec's own tree. When this scan covers that tree and reads
	// no more of it than the docs need (--collect reads every test
	// module), it gathers them too, and the plan renders the docs from
	// them. It is not under --scan, which names other folders, nor under
	// --collect, which reads every test module in full: with an autouse
	// deadline that read finds users in modules that name no fixture,
	// which fixturegen docs does not list, and the block would never be in
	// sync. There the docs get a read of their own.
	docsAbs, _ := plan.DocsTarget(spec)
	shareFacts = docsAbs != "" && len(o.Scan) == 0 && !o.Collect
	if shareFacts {
		opts.ListGroup, opts.ListUsers = true, true
	}
	return opts, shareFacts, nil
}

// IsCollectionError returns pytest's output when err is a collection
// error, for the command to print.
func IsCollectionError(err error) (output string, ok bool) {
	var ce *collect.CollectionError
	if errors.As(err, &ce) {
		return ce.Output, true
	}
	return "", false
}

// readLines says what check read, for --verbose: the spec, pytest's
// configuration, the tree and how many Python files it held, and the
// state of each file generate writes.
func readLines(spec *schema.Spec, cfg *pytestcfg.Config, roots []string, files int, changes []*plan.Change) []string {
	lines := []string{"spec: " + spec.File}
	if cfg != nil {
		lines = append(lines, fmt.Sprintf("pytest configuration: %s (rootdir %s)", relpath.FromWD(cfg.File), relpath.FromWD(cfg.Dir)))
	} else {
		lines = append(lines, "pytest configuration: none found for the spec's tests; pytest's defaults")
	}
	lines = append(lines, fmt.Sprintf("tree: %s (%s read)", strings.Join(roots, ", "), finding.Plural(files, "Python file")))
	for _, c := range changes {
		kind := ""
		switch {
		case c.Region:
			kind = " (region)"
		case c.Docs:
			kind = " (docs block)"
		}
		state := "in sync"
		switch {
		case c.Problem != nil:
			state = "generate will not write it"
		case !c.Exists:
			state = "missing"
		case c.Changed():
			state = "differs from what the spec renders"
		}
		lines = append(lines, fmt.Sprintf("generated: %s%s: %s", c.Display, kind, state))
	}
	return lines
}
