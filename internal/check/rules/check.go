// Package rules checks a Python test tree against the alarm-preload
// contract a spec describes, without running Python: every module that
// arms a timer goes through the deadline fixture, every module that uses
// the deadline is in the xdist group, nothing shadows the generated
// fixtures, the probe cases and preload modules exist, and pytest-xdist
// honours the group.
//
// Each rule lives in a file of its own, with its id, its documentation,
// the words a file must hold for it to matter and its check; registry.go
// lists them. The rules read the tree's model (package suite), which
// reads only the files that hold a word a rule looks for.
//
// The package also holds the registry of every rule check reports
// (rule.go): the static rules here, and the drift and collection rules,
// which their packages declare and register.
package rules

import (
	"os"

	"github.com/fixturegen/fixturegen/internal/check/finding"
	"github.com/fixturegen/fixturegen/internal/gen/plan"
	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/python/pytestcfg"
	"github.com/fixturegen/fixturegen/internal/python/pytesttimeout"
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/schema"
)

// Options is what one check needs: the read of the tree (the rules add
// the words they look for) and the names the region defines.
type Options struct {
	suite.Options
	// GeneratedNames are the names the region defines (render.RegionNames).
	GeneratedNames []string
	// Project is how the project runs pytest (SpecProject); nil when the
	// options are built without it, and the rules that need it read
	// what the configuration says.
	Project *Project
}

// Project is what check knows of the project's pytest runs.
type Project struct {
	// Timeouts are pytest-timeout's places outside the Python files, and
	// the plugin's declarations; the marks are read in the scan.
	Timeouts *pytesttimeout.Found
	// Run is the pytest run of the spec's tests (suite.SpecRun).
	Run pytestcfg.Run
}

// Result is what Check found.
type Result struct {
	Findings []finding.Finding
	// Generated lists the files under the roots that carry fixturegen's
	// generated header but are not planned: orphans, for the drift report.
	Generated []string
	Members   []suite.Member
	Users     []suite.User // with Options.ListUsers
	Tests     []suite.Test // with Options.ListTests
	// Adopt is true when the conftest holds a hand-written deadline
	// fixture of the spec's name: generate --adopt, not generate, writes
	// the region.
	Adopt bool
	// Files counts the Python files read.
	Files int
	// Plugin are the project's declarations of pytest-import-shield, for
	// check --collect to confirm pytest loads it.
	Plugin []pytesttimeout.Place
}

// Facts are the members and users Check listed, as the docs file lists
// them.
func (r *Result) Facts() *suite.Facts {
	return &suite.Facts{Members: r.Members, Users: r.Users}
}

// Check reads the roots and applies every rule.
func Check(opts Options) (*Result, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	// The checks that read no module walk the tests on their own, beside
	// the read.
	beside := make(chan []finding.Finding, 1)
	go func() {
		b := &rules{opts: &opts, spec: opts.Spec, cwd: cwd}
		for _, c := range static {
			if c.beside != nil {
				c.beside(b)
			}
		}
		beside <- b.findings
	}()
	// The read tokenizes only the files that hold a word the rules look for.
	read := opts.Options
	read.Fixtures, read.Marks, read.Calls = Words(opts.Spec)
	t, err := suite.Read(read)
	if err != nil {
		return nil, err
	}
	r := &rules{opts: &opts, spec: opts.Spec, cwd: cwd, tree: t}
	r.perModule()
	for _, c := range static {
		if c.tree != nil {
			c.tree(r, t)
		}
	}
	r.findings = append(r.findings, <-beside...)
	for _, p := range t.Problems {
		sev := finding.Warning
		if p.Error {
			sev = finding.Error
		}
		r.findings = append(r.findings, finding.Finding{Rule: p.Kind, Severity: sev, Path: p.Path,
			Line: p.Line, Col: p.Col, Message: p.Msg, Fix: p.Fix})
	}
	res := &Result{Findings: suppress(t, r.findings), Generated: t.Generated, Members: r.facts.Members, Users: r.facts.Users,
		Adopt: t.Adopt, Files: t.Files}
	if opts.ListTests {
		res.Tests = t.Tests()
	}
	if opts.Project != nil {
		res.Plugin = opts.Project.Timeouts.Plugin
	}
	finding.Sort(res.Findings)
	return res, nil
}

// rules applies the contract's rules to a tree and collects findings.
type rules struct {
	*suite.Query
	tree     *suite.Tree
	opts     *Options
	spec     *schema.Spec
	findings []finding.Finding
	facts    suite.Facts
	cwd      string
}

// perModule applies the rules that look at one module at a time to every
// module, on every core (suite.PerModule), with the facts the options ask
// for. The findings and facts come out in the modules' order, as one
// goroutine would find them.
func (r *rules) perModule() {
	type out struct {
		findings []finding.Finding
		facts    suite.Facts
	}
	outs := suite.PerModule(r.tree, func(q *suite.Query, src *suite.Source) out {
		w := &rules{Query: q, tree: r.tree, opts: r.opts, spec: r.spec, cwd: r.cwd}
		for _, c := range static {
			if c.module != nil {
				c.module(w, src)
			}
		}
		return out{w.findings, q.Listing(src)}
	})
	for _, o := range outs {
		r.findings = append(r.findings, o.findings...)
		r.facts.Add(o.facts)
	}
}

func (r *rules) add(rule, path string, pos pyscan.Pos, msg, fix string) {
	r.findings = append(r.findings, finding.Finding{Rule: rule, Severity: finding.Error, Path: path,
		Line: max(pos.Line, 1), Col: max(pos.Col, 1), Message: msg, Fix: fix})
}

// specPos is where key is written in the spec, for findings about the
// spec's own values; the zero Pos, which add reports at 1:1, when the
// spec does not write it.
func (r *rules) specPos(key string) pyscan.Pos {
	sp := r.spec.Positions[key]
	return pyscan.Pos{Line: sp.Line, Col: sp.Col}
}

// SpecProject returns the options of a check of the spec's own tree
// (suite.SpecTree): the files generate writes, left out of the scan, the
// conftest that holds the region, and the default roots that exist, read
// with the configuration pytest reads for the spec's tests (suite.SpecRun),
// which may lie below the spec's folder, and with what the rules need to
// know of that run.
func SpecProject(spec *schema.Spec) (Options, error) {
	run, err := suite.SpecRun(spec)
	if err != nil {
		return Options{}, err
	}
	timeouts, err := pytesttimeout.Find(spec.Dir, run, pytesttimeout.Options{NoMarks: true})
	if err != nil {
		return Options{}, err
	}
	conftest, planned := plan.Targets(spec)
	return Options{
		Options: suite.SpecTree(spec, run.Config(), conftest, planned),
		Project: &Project{Timeouts: timeouts, Run: run},
	}, nil
}

// argPos is where a value of pytest's configuration is written; 1:1 for
// one that is not.
func argPos(a *pytestcfg.Arg) pyscan.Pos {
	if a == nil {
		return pyscan.Pos{Line: 1, Col: 1}
	}
	return pyscan.Pos{Line: a.Line, Col: a.Col}
}
