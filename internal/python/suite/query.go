package suite

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/schema"
)

// Query asks the tree the questions the rules and the docs ask of each
// module: who owns a call, whether a test reaches the deadline fixture
// and how, which group it is in. Each goroutine has one, with buffers of
// its own; the tree is only read, but for the deadline answers, which each
// module keeps for itself, so one module is asked about by one goroutine
// at a time.
type Query struct {
	ix   *index
	spec *schema.Spec
	sc   scratch
}

// Query returns a new Query of the tree.
func (t *Tree) Query() *Query { return &Query{ix: t.ix, spec: t.opts.Spec} }

// Owner returns the outermost function around def that is a test or a
// fixture, or the outermost function of all (a helper) when none is; -1
// for module level.
func (q *Query) Owner(src *Source, def int) int {
	m := src.Mod
	best := -1
	for d := def; d >= 0; d = m.Defs[d].Parent {
		if m.Defs[d].Kind != pyscan.Function {
			continue
		}
		if best < 0 || src.IsFixture(d) || src.IsTest(d) {
			best = d
		}
	}
	return best
}

// IsFixture reports whether def is a fixture.
func (s *Source) IsFixture(def int) bool { return s.facts.isFixture[def] }

// UsesDeadline reports whether the test or fixture def reaches the
// deadline fixture, and how. Several rules ask it of every test, so the
// answer is kept with the module's facts.
func (q *Query) UsesDeadline(src *Source, def int) (Request, bool) {
	f := src.facts
	if u := f.uses[def]; u.known {
		return u.via, u.ok
	}
	if !q.ix.mayReach(src) {
		return Request{}, false
	}
	rs := q.ix.requests(src, def, src.IsTest(def), &q.sc)
	via, ok := q.ix.reaches(src, src.Mod.Defs[def].Parent, rs, q.spec.Deadline.Fixture, &q.sc)
	f.uses[def] = use{via, ok, true}
	return via, ok
}

// use is whether a def reaches the deadline fixture, once known.
type use struct {
	via   Request
	ok    bool
	known bool
}

// AllTestsUseDeadline reports whether a module has tests and every one of
// them uses the deadline fixture.
func (q *Query) AllTestsUseDeadline(src *Source) bool {
	tests := src.Tests()
	return len(tests) > 0 && !slices.ContainsFunc(tests, func(t int) bool {
		_, ok := q.UsesDeadline(src, t)
		return !ok
	})
}

// parallelWork is the number of definitions and kept calls, over all
// modules, from which PerModule asks on every core: the rules' work grows
// with them, most of all in a module that arms timers.
const parallelWork = 1000

// PerModule calls ask with every module of the tree, on every core (from
// parallelWork definitions and calls), and returns the answers in the
// modules' order, as one goroutine would find them. Each goroutine has a
// Query of its own; the index is only read (Read filled its caches), but
// for the deadline answers, which each module keeps for itself.
func PerModule[T any](t *Tree, ask func(q *Query, src *Source) T) []T {
	sources := t.Sources
	outs := make([]T, len(sources))
	var next atomic.Int64
	var wg sync.WaitGroup
	n := t.opts.Workers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	worker := func() {
		q := t.Query()
		for {
			i := int(next.Add(1)) - 1
			if i >= len(sources) {
				return
			}
			outs[i] = ask(q, sources[i])
		}
	}
	// The calling goroutine is one of the workers: a tree of a few
	// modules is done before another thread has woken up. Below
	// parallelWork it is the only one: the project of one test module in
	// bench/trees.sh took longer with two, CPython's Lib/test, whose timer
	// modules hold thousands of definitions, less (bench/README.md).
	work := 0
	for _, src := range sources {
		work += len(src.Mod.Defs) + len(src.Mod.Calls)
	}
	if work < parallelWork {
		n = 1
	}
	for range min(n, len(sources)) - 1 {
		wg.Go(worker)
	}
	worker()
	wg.Wait()
	return outs
}

// Facts are what the docs file lists of a tree: the modules of the group
// and the modules that use the deadline fixture.
type Facts struct {
	Members []Member // with Options.ListGroup
	Users   []User   // with Options.ListUsers
}

// Listing returns what src adds to the facts the tree was read for.
func (q *Query) Listing(src *Source) Facts {
	var f Facts
	opts := q.ix.opts
	if opts.ListGroup {
		if m, ok := q.Member(src); ok {
			f.Members = append(f.Members, m)
		}
	}
	if opts.ListUsers {
		if u, ok := q.User(src); ok {
			f.Users = append(f.Users, u)
		}
	}
	return f
}

// Add appends the facts of other.
func (f *Facts) Add(other Facts) {
	f.Members = append(f.Members, other.Members...)
	f.Users = append(f.Users, other.Users...)
}

// Facts gathers the facts the tree was read for.
func (t *Tree) Facts() *Facts {
	all := &Facts{}
	for _, f := range PerModule(t, (*Query).Listing) {
		all.Add(f)
	}
	return all
}

// SpecFacts reads the spec's own tree, as SpecTree gives it, for the docs
// file's facts.
func SpecFacts(spec *schema.Spec, conftest string, planned map[string]bool) (*Facts, error) {
	run, err := SpecRun(spec)
	if err != nil {
		return nil, err
	}
	opts := SpecTree(spec, run.Config(), conftest, planned)
	opts.ListGroup, opts.ListUsers = true, true
	if len(opts.Roots) == 0 {
		return &Facts{}, nil
	}
	t, err := Read(opts)
	if err != nil {
		return nil, err
	}
	return t.Facts(), nil
}
