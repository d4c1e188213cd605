package contract

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/fixturegen/fixturegen/internal/check/finding"
	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/schema"
)

// rules applies the contract's rules to an index and collects findings.
type rules struct {
	ix       *index
	opts     *Options
	spec     *schema.Spec
	findings []finding.Finding
	members  []finding.Member
	users    []User
	cwd      string
	sc       scratch
}

// parallelRules is the number of modules from which perModule applies the
// rules on every core.
const parallelRules = 64

// perModule applies the rules that look at one module at a time to every
// module, on every core (from parallelRules modules). Each goroutine has a
// copy of r with buffers of its own; the index is only read (newIndex
// filled its caches), but for the deadline answers, which each module
// keeps for itself. The findings, members and users come out in the
// modules' order, as one goroutine would find them.
func (r *rules) perModule(sources []*source) {
	type out struct {
		findings []finding.Finding
		members  []finding.Member
		users    []User
	}
	outs := make([]out, len(sources))
	var next atomic.Int64
	var wg sync.WaitGroup
	n := r.opts.Workers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	worker := func() {
		w := &rules{ix: r.ix, opts: r.opts, spec: r.spec, cwd: r.cwd}
		for {
			i := int(next.Add(1)) - 1
			if i >= len(sources) {
				return
			}
			src := sources[i]
			for _, check := range moduleChecks {
				check(w, src)
			}
			if w.opts.ListGroup {
				w.member(src)
			}
			if w.opts.ListUsers {
				w.user(src)
			}
			outs[i] = out{w.findings, w.members, w.users}
			w.findings, w.members, w.users = nil, nil, nil
		}
	}
	// The calling goroutine is one of the workers: a tree of a few
	// modules is done before another thread has woken up. Below
	// parallelRules modules it is the only one: the project of one test
	// module in bench/trees.sh took 0.95 of the wall and CPU time with
	// one worker than with two (its three sources), CPython's Lib/test
	// (12, 0.2 ms of rules) and sympy the same.
	if len(sources) < parallelRules {
		n = 1
	}
	for range min(n, len(sources)) - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			worker()
		}()
	}
	worker()
	wg.Wait()
	for _, o := range outs {
		r.findings = append(r.findings, o.findings...)
		r.members = append(r.members, o.members...)
		r.users = append(r.users, o.users...)
	}
}

func (r *rules) add(rule, path string, pos pyscan.Pos, msg, fix string) {
	r.findings = append(r.findings, finding.Finding{Rule: rule, Severity: finding.Error, Path: path,
		Line: max(pos.Line, 1), Col: max(pos.Col, 1), Message: msg, Fix: fix})
}

// specPos is where key is written in the spec, for findings about the
// spec's own values; 1:1 when the spec does not write it.
func (r *rules) specPos(key string) pyscan.Pos {
	sp, ok := r.spec.Position(key)
	if !ok {
		return pyscan.Pos{Line: 1, Col: 1}
	}
	return pyscan.Pos{Line: sp.Line, Col: sp.Col}
}

// timerSignals are the signals an interval timer delivers, as a call
// resolves them ("signal.SIGALRM").
var timerSignals = func() map[string]bool {
	m := map[string]bool{}
	for _, t := range schema.IntervalTimers {
		m["signal."+t.Signal] = true
	}
	return m
}()

// armsTimer reports whether call c arms a timer or installs a timer
// signal's handler, and describes it. Disarming (a zero delay, the default
// or ignoring handler) does not count.
func armsTimer(m *pyscan.Module, c pyscan.Call) (string, bool) {
	if !mayArm(m, c.Callee) {
		return "", false
	}
	callee := m.ResolveCall(c)
	// A name used as an argument is looked up where the call is.
	resolve := func(name string) string { return m.ResolveAt(name, c.Scope, c.Pos) }
	arg := func(i int) (pyscan.Arg, bool) {
		if i < len(c.Args) && c.Args[i].Keyword == "" {
			return c.Args[i], true
		}
		return pyscan.Arg{}, false
	}
	zero := func(a pyscan.Arg, ok bool) bool {
		return ok && a.Kind == pyscan.ArgNumber && strings.Trim(a.Value, "0._") == ""
	}
	switch callee {
	case "signal.setitimer":
		if zero(arg(1)) {
			return "", false
		}
		return "signal.setitimer", true
	case "signal.alarm":
		if zero(arg(0)) {
			return "", false
		}
		return "signal.alarm", true
	case "signal.signal":
		sig, ok := arg(0)
		if !ok || sig.Kind != pyscan.ArgName || !timerSignals[resolve(sig.Value)] {
			return "", false
		}
		if h, ok := arg(1); ok && h.Kind == pyscan.ArgName {
			switch resolve(h.Value) {
			case "signal.SIG_DFL", "signal.SIG_IGN":
				return "", false
			}
		}
		return "signal.signal(" + strings.TrimPrefix(resolve(sig.Value), "signal.") + ", ...)", true
	}
	return "", false
}

// mayArm rules out most calls by their last name, before their callee is
// looked up by scope: resolving keeps the last part of a dotted name
// (json.dumps is never a timer), and a bare name (len) is a timer only
// when an import names it after one ("arm" after "from signal import alarm
// as arm") or a star import may supply it.
func mayArm(m *pyscan.Module, callee string) bool {
	if !strings.Contains(callee, ".") {
		if len(m.StarImports) > 0 {
			return true
		}
		callee = m.Resolve(callee)
	}
	return timerCallees[lastName(callee)]
}

// timerCallees are the last names of the signal module's calls that can
// arm a timer or install its handler.
var timerCallees = map[string]bool{"setitimer": true, "alarm": true, "signal": true}

// The marks the rules read, as a call resolves to them, and the name a
// module or class assigns its marks to.
const (
	groupMarkCall       = "pytest.mark.xdist_group"
	usefixturesMarkCall = "pytest.mark.usefixtures"
	pytestmarkTarget    = "pytestmark"
)

// lastName is what follows a dotted name's last dot.
func lastName(dotted string) string {
	return dotted[strings.LastIndexByte(dotted, '.')+1:]
}

// readCalls are the calls the rules read, for the scan's Scanners to keep:
// the calls of the marks (in decorators and pytestmark), the timer calls
// (own-timer, hand-written-deadline), and the group marks and patches
// anywhere (--list-group's members). It is built from the names the rules
// match, so a rule reading another call adds its name to one of them.
var readCalls = func() *pyscan.CallFilter {
	f := &pyscan.CallFilter{
		Last:    map[string]bool{lastName(groupMarkCall): true, lastName(usefixturesMarkCall): true},
		Targets: map[string]bool{pytestmarkTarget: true},
	}
	for _, set := range []map[string]bool{timerCallees, patchCallees} {
		for name := range set {
			f.Last[name] = true
		}
	}
	return f
}()

// owner returns the outermost function around def that is a test or a
// fixture, or the outermost function of all (a helper) when none is; -1
// for module level.
func (r *rules) owner(src *source, def int) int {
	m := src.mod
	best := -1
	for d := def; d >= 0; d = m.Defs[d].Parent {
		if m.Defs[d].Kind != pyscan.Function {
			continue
		}
		if best < 0 || r.isFixtureDef(src, d) || r.ix.isTest(src, d) {
			best = d
		}
	}
	return best
}

func (r *rules) isFixtureDef(src *source, def int) bool {
	return src.facts.isFixture[def]
}

// usesDeadline reports whether the test or fixture def reaches the
// deadline fixture, and how. Several rules ask it of every test, so the
// answer is kept with the module's facts.
func (r *rules) usesDeadline(src *source, def int) (request, bool) {
	f := src.facts
	if u := f.uses[def]; u.known {
		return u.via, u.ok
	}
	if !r.ix.mayReach(src) {
		return request{}, false
	}
	isTest := r.ix.isTest(src, def)
	rs := r.ix.requests(src, def, isTest, &r.sc)
	via, ok := r.ix.reaches(src, src.mod.Defs[def].Parent, rs, r.spec.Deadline.Fixture, &r.sc)
	f.uses[def] = use{via, ok, true}
	return via, ok
}

// use is whether a def reaches the deadline fixture, once known.
type use struct {
	via   request
	ok    bool
	known bool
}

// ownTimer: code that arms a timer must run under the deadline fixture, so
// that the preload runs before the alarm can interrupt an import.
func (r *rules) ownTimer(src *source) {
	m := src.mod
	deadline := r.spec.Deadline.Fixture
	var allCovered *bool // computed once, for helpers and module-level code
	for _, ci := range src.facts.arming {
		c := m.Calls[ci]
		what, ok := armsTimer(m, c)
		if !ok || src.inRegion(c.Pos.Line) {
			continue
		}
		own := -1
		if c.Scope >= 0 {
			own = r.owner(src, c.Scope)
		}
		if strings.HasPrefix(what, "signal.signal") && (own < 0 || !r.ix.isTest(src, own) && !r.isFixtureDef(src, own)) {
			// A handler installed at import or by a helper arms nothing:
			// the code that starts the timer is reported where it does.
			continue
		}
		where := "at module level"
		if own >= 0 && (r.ix.isTest(src, own) || r.isFixtureDef(src, own)) {
			if _, ok := r.usesDeadline(src, own); ok {
				continue
			}
			kind := "test"
			if !r.ix.isTest(src, own) {
				kind = "fixture"
			}
			where = fmt.Sprintf("in %s %s, which does not use %s", kind, m.Defs[own].Name, deadline)
		} else {
			if allCovered == nil {
				v := r.allTestsUseDeadline(src)
				allCovered = &v
			}
			if *allCovered {
				continue
			}
			if own >= 0 {
				where = fmt.Sprintf("in helper %s", m.Defs[own].Name)
			}
			where += fmt.Sprintf(", and not every test in this module uses %s", deadline)
		}
		r.add(RuleOwnTimer, src.path, c.Pos,
			fmt.Sprintf("%s arms its own timer %s; a module imported for the first time under that alarm can be left half imported", what, where),
			fmt.Sprintf("use the %s fixture instead (it imports the preload first), or take it as a parameter of the code that arms the timer", deadline))
	}
}

// allTestsUseDeadline reports whether a module has tests and every one of
// them uses the deadline fixture.
func (r *rules) allTestsUseDeadline(src *source) bool {
	tests := r.ix.tests(src)
	if len(tests) == 0 {
		return false
	}
	for _, t := range tests {
		if _, ok := r.usesDeadline(src, t); !ok {
			return false
		}
	}
	return true
}

// groupMark is an xdist_group mark and the group it names.
type groupMark struct {
	group string
	pos   pyscan.Pos
}

func (r *rules) groupMarks(src *source, calls []int) []groupMark {
	m := src.mod
	var out []groupMark
	for _, ci := range calls {
		c := m.Calls[ci]
		if m.ResolveCall(c) != groupMarkCall {
			continue
		}
		for _, a := range c.Args {
			if a.Kind == pyscan.ArgString && (a.Keyword == "" || a.Keyword == "name") {
				out = append(out, groupMark{a.Value, a.Pos})
				break
			}
		}
	}
	return out
}

// inGroup reports whether the marks on a test put it in the spec's group;
// other names the group it is in instead, if any.
func (r *rules) inGroup(src *source, test int) (in bool, other string) {
	f := src.facts
	r.sc.markBuf = f.marks(test, r.sc.markBuf[:0])
	calls := r.sc.markBuf
	// Marks inside pytest.param(...) in the test's decorators apply to
	// its parametrized cases; they are among the decorator's calls.
	for _, gm := range r.groupMarks(src, calls) {
		if gm.group == r.spec.Group.Name {
			return true, ""
		}
		other = gm.group
	}
	return false, other
}

// missingGroup: a module whose tests use the deadline fixture must be in
// the xdist group, so that under --dist loadgroup they share the worker
// whose imports the preload manages.
func (r *rules) missingGroup(src *source) {
	// A spec without [group] keeps no tests together: nothing is missing.
	if !src.test || r.spec.Group.Name == "" {
		return
	}
	var first request
	var names []string
	other := ""
	for _, t := range r.ix.tests(src) {
		via, ok := r.usesDeadline(src, t)
		if !ok {
			continue
		}
		in, o := r.inGroup(src, t)
		if in {
			continue
		}
		if len(names) == 0 {
			first = via
		}
		names = append(names, src.mod.Defs[t].Name)
		if other == "" {
			other = o
		}
	}
	if len(names) == 0 {
		return
	}
	deadline := r.spec.Deadline.Fixture
	how := map[string]string{
		"parameter":   "as a parameter",
		"usefixtures": "through usefixtures",
		"autouse":     "through an autouse fixture",
	}[first.how]
	if first.autouse != nil {
		how = "through the autouse fixture " + first.autouse.where()
	} else if first.name != deadline {
		how = fmt.Sprintf("through the fixture %s", first.name)
	}
	tests := fmt.Sprintf("test %s", names[0])
	if len(names) > 1 {
		tests = fmt.Sprintf("%d tests (%s, ...)", len(names), names[0])
	}
	msg := fmt.Sprintf("%s uses %s %s but is not marked pytest.mark.xdist_group(%q)", tests, deadline, how, r.spec.Group.Name)
	if other != "" {
		msg += fmt.Sprintf("; it is in group %q instead", other)
	}
	r.add(RuleMissingGroup, src.path, first.pos, msg,
		fmt.Sprintf("add pytest.mark.xdist_group(%q) to the module's pytestmark", r.spec.Group.Name))
}

// shadows: no definition may replace the generated fixtures or helpers.
func (r *rules) shadows(src *source) {
	f := src.facts
	names := []string{r.spec.Preload.Fixture, r.spec.Deadline.Fixture}
	reported := map[int]bool{}
	for _, byClass := range f.fixtures {
		for _, fx := range byClass {
			if !slices.Contains(names, fx.name) || src.inRegion(fx.pos().Line) {
				continue
			}
			reported[fx.def] = true
			r.add(RuleShadowFixture, src.path, fx.pos(),
				fmt.Sprintf("defines fixture %s, which shadows the one fixturegen generates in %s", fx.name, display(r.cwd, r.opts.Conftest)),
				fmt.Sprintf("rename or remove this fixture; change the generated one through %s and fixturegen generate", r.spec.File))
		}
	}
	if !src.holdsRegion {
		return
	}
	m := src.mod
	for i, d := range m.Defs {
		if d.Parent < 0 && !reported[i] && slices.Contains(r.opts.GeneratedNames, d.Name) && !src.inRegion(d.Pos.Line) {
			r.clash(src, d.Name, d.Pos)
		}
	}
	for _, a := range m.Assigns {
		if a.Scope < 0 && slices.Contains(r.opts.GeneratedNames, a.Name) && !src.inRegion(a.Pos.Line) {
			r.clash(src, a.Name, a.Pos)
		}
	}
}

func (r *rules) clash(src *source, name string, pos pyscan.Pos) {
	r.add(RuleNameClash, src.path, pos,
		fmt.Sprintf("defines %s outside fixturegen's region, which defines it too; one replaces the other, and fixturegen generate refuses to run", name),
		"rename or remove this definition")
}

// deadlinePreload: every deadline fixture must depend on the preload
// fixture, or a cold import can run under the alarm again.
func (r *rules) deadlinePreload(src *source) {
	f := src.facts
	for _, byClass := range f.fixtures {
		for _, fx := range byClass {
			if fx.name != r.spec.Deadline.Fixture {
				continue
			}
			rs := r.ix.requests(src, fx.def, false, &r.sc)
			if _, ok := r.ix.reaches(src, fx.class, rs, r.spec.Preload.Fixture, &r.sc); ok {
				continue
			}
			r.add(RuleDeadlinePreload, src.path, fx.pos(),
				fmt.Sprintf("fixture %s does not depend on %s, so pytest may arm the alarm before the preload imports run", fx.name, r.spec.Preload.Fixture),
				fmt.Sprintf("restore def %s(%s, ...): run fixturegen generate, or add the parameter", fx.name, r.spec.Preload.Fixture))
		}
	}
}

// probeNodes: each probe case must name a test that exists.
func (r *rules) probeNodes(s *scan) {
	byAbs := map[string]*source{}
	for _, src := range s.sources {
		byAbs[src.abs] = src
	}
	for i, c := range r.spec.Probe.Cases {
		file, rest, _ := strings.Cut(c.Node, "::")
		abs := filepath.Join(r.spec.Dir, filepath.FromSlash(file))
		pos := r.specPos(fmt.Sprintf("probe.case[%d].node", i))
		src := byAbs[abs]
		if src == nil {
			if _, err := os.Stat(abs); err != nil {
				r.add(RuleProbeNode, r.spec.File, pos,
					fmt.Sprintf("probe case %s runs %s, but %s does not exist", c.Test, c.Node, file),
					"point node at an existing test, or restore the file")
			}
			continue // unreadable or undecodable: already a warning
		}
		names, _, _ := strings.Cut(rest, "[")
		parts := strings.Split(names, "::")
		if !hasDef(src.mod, parts) {
			r.add(RuleProbeNode, r.spec.File, pos,
				fmt.Sprintf("probe case %s runs %s, but %s has no %s", c.Test, c.Node, file, describeNode(parts)),
				"point node at an existing test, or restore the test")
		}
	}
}

// hasDef reports whether the module defines the nested names: classes,
// then a function.
func hasDef(m *pyscan.Module, parts []string) bool {
	parent := -1
	for i, name := range parts {
		kind := pyscan.Class
		if i == len(parts)-1 {
			kind = pyscan.Function
		}
		found := -1
		for j, d := range m.Defs {
			if d.Parent == parent && d.Name == name && d.Kind == kind {
				found = j
			}
		}
		if found < 0 {
			return false
		}
		parent = found
	}
	return true
}

func describeNode(parts []string) string {
	if len(parts) == 1 {
		return "test function " + parts[0]
	}
	return "test " + strings.Join(parts, ".")
}

// preloadModules: a preload module that belongs to the project must exist,
// or the preload fails (or, worse, someone drops it from the list).
func (r *rules) preloadModules() {
	roots := []string{r.spec.Dir}
	// A src layout's packages are imported from src/, installed or on
	// the path.
	if src := filepath.Join(r.spec.Dir, "src"); isDir(src) {
		roots = append(roots, src)
	}
	if cfg := r.opts.Config; cfg != nil {
		for _, a := range cfg.Options["pythonpath"] {
			p := filepath.Join(cfg.Dir, filepath.FromSlash(a.Text))
			if !slices.Contains(roots, p) {
				roots = append(roots, p)
			}
		}
	}
	for i, mod := range r.spec.Preload.Modules {
		parts := strings.Split(mod, ".")
		for _, root := range roots {
			if !exists(filepath.Join(root, parts[0])) && !isFile(filepath.Join(root, parts[0]+".py")) {
				continue // not first-party under this root
			}
			if missing := firstMissing(r.cwd, root, parts); missing != "" {
				where := display(r.cwd, root)
				if where == "." {
					where = "the project folder"
				}
				r.add(RulePreloadMissing, r.spec.File, r.specPos(fmt.Sprintf("preload.modules[%d]", i)),
					fmt.Sprintf("preload module %s belongs to the project (%s is in %s), but %s",
						mod, parts[0], where, missing),
					"fix the module name in the spec, or restore the module")
			}
			break
		}
	}
}

// firstMissing walks a dotted module name down from root and describes the
// first part that is not there, or returns "".
func firstMissing(cwd, root string, parts []string) string {
	dir := root
	for i, p := range parts {
		last := i == len(parts)-1
		pkg := filepath.Join(dir, p)
		switch {
		case isDir(pkg):
			dir = pkg
		case isFile(pkg + ".py"):
			if !last {
				return fmt.Sprintf("%s is a module, not a package, so it has no %s", strings.Join(parts[:i+1], "."), parts[i+1])
			}
		default:
			return fmt.Sprintf("there is no %s.py or %s/ in %s", p, p, filepath.ToSlash(display(cwd, dir)))
		}
	}
	return ""
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return !errors.Is(err, fs.ErrNotExist)
}

func isDir(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}

func isFile(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.Mode().IsRegular()
}

// distLoadgroup: with pytest-xdist in use, only --dist loadgroup honours
// xdist_group marks.
func (r *rules) distLoadgroup() {
	cfg := r.opts.Config
	if cfg == nil || r.spec.Group.Name == "" {
		return
	}
	x := cfg.Xdist()
	if x.Workers == nil || x.Disabled || x.Mode == "loadgroup" {
		return
	}
	path := display(r.cwd, cfg.File)
	group := fmt.Sprintf("pytest.mark.xdist_group(%q)", r.spec.Group.Name)
	if x.Dist != nil {
		r.add(RuleDistLoadgroup, path, pyscan.Pos{Line: x.Dist.Line, Col: x.Dist.Col},
			fmt.Sprintf("addopts distributes tests with --dist %s, which ignores %s: grouped modules can land on different workers", x.Mode, group),
			"use --dist loadgroup in addopts")
		return
	}
	r.add(RuleDistLoadgroup, path, pyscan.Pos{Line: x.Workers.Line, Col: x.Workers.Col},
		fmt.Sprintf("addopts runs pytest-xdist (%s) without --dist loadgroup, so %s does nothing: grouped modules can land on different workers", x.Workers.Text, group),
		"add --dist loadgroup to addopts")
}

// member lists a module of the group with the reasons it is there.
func (r *rules) member(src *source) {
	if r.spec.Group.Name == "" {
		return
	}
	m := src.mod
	var all []int
	for i := range m.Calls {
		all = append(all, i)
	}
	var marks []groupMark
	for _, gm := range r.groupMarks(src, all) {
		if gm.group == r.spec.Group.Name {
			marks = append(marks, gm)
		}
	}
	if len(marks) == 0 {
		return
	}
	mem := finding.Member{Path: src.path}
	for _, t := range r.ix.tests(src) {
		if via, ok := r.usesDeadline(src, t); ok {
			mem.Reasons = append(mem.Reasons, finding.Reason{Kind: "uses-fixture", Line: via.pos.Line, Col: via.pos.Col,
				Detail: fmt.Sprintf("uses %s (%s)", r.spec.Deadline.Fixture, describeRequest(via))})
			break
		}
	}
	for _, c := range m.Calls {
		if target, ok := r.patchesPreload(m, c); ok {
			mem.Reasons = append(mem.Reasons, finding.Reason{Kind: "patches", Line: c.Pos.Line, Col: c.Pos.Col,
				Detail: "patches " + target})
			break
		}
	}
	if len(mem.Reasons) == 0 {
		mem.Reasons = append(mem.Reasons, finding.Reason{Kind: "marks", Line: marks[0].pos.Line, Col: marks[0].pos.Col,
			Detail: fmt.Sprintf("marks it, but neither uses %s nor patches a preload module", r.spec.Deadline.Fixture)})
	}
	r.members = append(r.members, mem)
}

func describeRequest(q request) string {
	switch {
	case q.autouse != nil:
		return "autouse fixture " + q.autouse.name
	case q.how == "usefixtures":
		return "usefixtures"
	default:
		return "parameter " + q.name
	}
}

// patchCallees are the last names of the calls that patch by dotted path:
// monkeypatch.setattr/delattr and unittest.mock's patch.
var patchCallees = map[string]bool{"setattr": true, "delattr": true, "patch": true}

// patchesPreload reports whether c patches something inside a preload
// module, or inside a package that holds one: after a half import, that is
// where the attribute goes missing.
func (r *rules) patchesPreload(m *pyscan.Module, c pyscan.Call) (string, bool) {
	// Only the last name counts. monkeypatch.setattr is a method of a
	// parameter, which resolves to no module: its name as written does.
	callee := m.ResolveCall(c)
	if callee == "" {
		callee = c.Callee
	}
	if !patchCallees[lastName(callee)] || len(c.Args) == 0 || c.Args[0].Kind != pyscan.ArgString || c.Args[0].Keyword != "" {
		return "", false
	}
	target := c.Args[0].Value
	for _, mod := range r.spec.Preload.Modules {
		for p := mod; p != ""; {
			if target == p || strings.HasPrefix(target, p+".") {
				return target, true
			}
			i := strings.LastIndexByte(p, '.')
			if i < 0 {
				break
			}
			p = p[:i]
		}
	}
	return "", false
}
