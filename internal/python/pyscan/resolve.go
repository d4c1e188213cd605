package pyscan

import (
	"hash/maphash"
	"math/bits"
	"slices"
	"strings"
)

// binding is a name bound by a statement other than a parameter: an
// import, an assignment, a def or a class. Parameters are read from the
// Defs themselves.
type binding struct {
	name  string
	scope int // as in Call.Scope
	pos   Pos
	// target is what an import binds the name to ("signal.alarm"), or ""
	// when the statement binds an object of the code's own.
	target string
}

// bindIndex holds a module's bindings grouped by a hash of their names,
// so that ResolveAt looks at a name's few bindings, not at the thousands
// of a large module. Grouping is a counting sort: no names are compared.
//
// The bindings of imports and of defs and classes are the Module's
// Imports and Defs themselves, named by their index: only those of
// assignments are bindings of their own. On CPython's Lib/test, whose
// nine modules check tokenizes bind 5,855 names, 2,853 of them by defs
// and imports, the index took 328 KB of fresh memory as bindings of 56
// bytes each, and takes 191 KB with references of 4 bytes: check's page
// faults there went from 1,581 to 1,522 (medians of 60 runs).
type bindIndex struct {
	// assigns are the bindings of assignments, in source order.
	assigns []binding
	// targets[i] is what Module.Imports[i] binds its name to.
	targets []string
	// refs name every binding, grouped by hash: an index in assigns,
	// then past them in Module.Imports, then past those in Module.Defs.
	refs []int32
	// start[h] is where the bindings whose names hash to h start in
	// refs; start has one more entry than there are buckets.
	start []int32
}

var bindSeed = maphash.MakeSeed()

// indexBindings groups the bindings of m: those of assigns, then of
// m.Imports, whose targets are targets, then of m.Defs. It uses scratch
// for its working memory, and keeps assigns and targets.
func (m *Module) indexBindings(assigns []binding, targets []string, scratch *[]int32) {
	m.binds = bindIndex{assigns: assigns, targets: targets}
	total := len(assigns) + len(m.Imports) + len(m.Defs)
	if total == 0 {
		return
	}
	n := 1 << bits.Len(uint(total-1)) // buckets: a power of two, at least total
	ix := &m.binds
	ix.refs, ix.start = make([]int32, total), make([]int32, n+1)
	// The counts are written before they are read: fresh memory read
	// first is mapped to the shared zero page, and the write that follows
	// must flush that mapping from every core's TLB, an interrupt to the
	// other core (a module of a thousand bindings has four pages of them).
	clear(ix.start)
	work := append((*scratch)[:0], make([]int32, total+n)...)
	*scratch = work
	buckets, next := work[:total], work[total:]
	for i := range buckets {
		h := int32(maphash.String(bindSeed, m.binding(int32(i)).name) & uint64(n-1))
		buckets[i] = h
		ix.start[h+1]++
	}
	for h := 1; h <= n; h++ {
		ix.start[h] += ix.start[h-1]
	}
	copy(next, ix.start[:n])
	for i, h := range buckets {
		ix.refs[next[h]] = int32(i)
		next[h]++
	}
}

// of returns the references of the bindings that may be of name: those
// in its bucket.
func (ix *bindIndex) of(name string) []int32 {
	if len(ix.start) == 0 {
		return nil
	}
	h := maphash.String(bindSeed, name) & uint64(len(ix.start)-2)
	return ix.refs[ix.start[h]:ix.start[h+1]]
}

// binding returns the binding a reference of m.binds names.
func (m *Module) binding(ref int32) binding {
	i := int(ref)
	if i < len(m.binds.assigns) {
		return m.binds.assigns[i]
	}
	i -= len(m.binds.assigns)
	if i < len(m.Imports) {
		im := &m.Imports[i]
		return binding{name: im.Bound, scope: im.Scope, pos: im.Pos, target: m.binds.targets[i]}
	}
	d := &m.Defs[i-len(m.Imports)]
	return binding{name: d.Name, scope: d.Parent, pos: d.Pos}
}

// before reports whether a comes before b in the source.
func before(a, b Pos) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
}

// ResolveAt rewrites a dotted name used at pos, in the def or class scope
// (as in Call.Scope; -1 for module level), through the names bound where
// Python would look it up: the scope itself, the functions around it (not
// the classes), the module, then the module's star imports. A name bound
// by an import resolves as Resolve does ("sig.alarm" after "import signal
// as sig" is "signal.alarm"); a name the code binds to an object of its
// own (an assignment, a def, a parameter) resolves to "", which names no
// module; a name nothing binds is returned as it is.
//
// Where a scope binds a name more than once, a use in that scope sees the
// last binding before it; a use in a nested function sees an import of
// the name if the scope has one, as after "try: import signal / except
// ImportError: signal = None". An assignment of None binds nothing here,
// for the same reason.
func (m *Module) ResolveAt(dotted string, scope int, pos Pos) string {
	head, _, _ := strings.Cut(dotted, ".")
	for s, direct := scope, true; ; direct = false {
		if s < 0 || direct || m.Defs[s].Kind == Function {
			if target, ok := m.boundIn(head, s, pos, direct); ok {
				if target == "" {
					return ""
				}
				return target + dotted[len(head):] // and the rest of the name
			}
		}
		if s < 0 {
			break
		}
		s = m.Defs[s].Parent
	}
	if star := m.starFor(head); star != "" {
		return star + "." + dotted
	}
	return dotted
}

// ResolveCall is ResolveAt for a call's callee, where the call is.
func (m *Module) ResolveCall(c Call) string {
	return m.ResolveAt(c.Callee, c.Scope, c.Pos)
}

// boundIn looks name up among the bindings of one scope, and returns what
// it is bound to and whether the scope binds it at all.
func (m *Module) boundIn(name string, scope int, pos Pos, direct bool) (string, bool) {
	if scope >= 0 && m.Defs[scope].Kind == Function && slices.ContainsFunc(m.Defs[scope].Params, func(p Param) bool { return p.Name == name }) {
		return "", true
	}
	// The bindings are not in source order (imports, defs and assignments
	// are gathered apart), so each "last" is the latest by position. A
	// binding's line is never 0, the zero binding's: that one is none.
	var last, lastBefore, lastImport binding
	for _, ref := range m.binds.of(name) {
		b := m.binding(ref)
		if b.scope != scope || b.name != name {
			continue
		}
		if before(last.pos, b.pos) {
			last = b
		}
		if before(b.pos, pos) && before(lastBefore.pos, b.pos) {
			lastBefore = b
		}
		if b.target != "" && before(lastImport.pos, b.pos) {
			lastImport = b
		}
	}
	switch {
	case last.pos.Line == 0:
		return "", false
	case direct && lastBefore.pos.Line > 0:
		return lastBefore.target, true
	case !direct && lastImport.pos.Line > 0:
		return lastImport.target, true
	}
	return last.target, true
}

// starFor returns the module of the star import that supplies name, or
// "". A star import of a module whose names are known supplies only
// those; the last star import of any other module supplies every name.
func (m *Module) starFor(name string) string {
	other := ""
	for i := len(m.StarImports) - 1; i >= 0; i-- {
		mod := m.StarImports[i].Module
		exports, known := starExports[mod]
		switch {
		case known && exports(name):
			return mod
		case !known && other == "":
			other = mod
		}
	}
	return other
}

// starExports tells, for the modules the rules read names of, which names
// "from MODULE import *" binds.
var starExports = map[string]func(string) bool{
	"signal": func(n string) bool {
		return slices.Contains([]string{"alarm", "setitimer", "getitimer", "signal", "getsignal", "pause", "default_int_handler"}, n) ||
			strings.HasPrefix(n, "SIG") || strings.HasPrefix(n, "ITIMER_")
	},
	"pytest": func(n string) bool {
		return slices.Contains([]string{"fixture", "yield_fixture", "mark", "param", "importorskip", "raises", "skip", "fail"}, n)
	},
}

// importCalls are the calls whose result, assigned to a name, is the
// module their first argument names: "signal =
// import_helper.import_module('signal')".
var importCalls = map[string]bool{"import_module": true, "importorskip": true, "__import__": true}

// Under returns the def or class directly in the body of def top (at
// module level for top -1) that is or holds scope (as in Call.Scope), or
// -1 when scope is top itself or lies outside it.
func (m *Module) Under(scope, top int) int {
	for s := scope; s >= 0; s = m.Defs[s].Parent {
		if m.Defs[s].Parent == top {
			return s
		}
	}
	return -1
}

// Inside reports whether the def or class scope (as in Call.Scope; -1 for
// module level) is def or lies inside it.
func (m *Module) Inside(scope, def int) bool {
	return def >= 0 && (scope == def || m.Under(scope, def) >= 0)
}
