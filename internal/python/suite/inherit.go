package suite

import (
	"path/filepath"
	"strings"

	"github.com/fixturegen/fixturegen/internal/python/pyscan"
)

// The test methods a collected class takes from its bases, in its own
// module or in another: pytest collects each through the class, as
// "TestJobs::test_inherited", whatever module defines it.

// inheritedTest is a test method a collected class of a test module takes
// from one of its bases.
type inheritedTest struct {
	class string // the collected class, as a node id names it: "TestJobs", "TestA::TestB"
	line  int    // where the module defines or imports it
	name  string // the method's name
}

// inheritedTests lists the test methods the collected classes of the test
// module src take from their bases, in the order of the classes and of
// their bases (an approximation of the method resolution order that
// agrees with it when no two bases define the same name).
func (s *scan) inheritedTests(src *Source) []inheritedTest {
	m, cases := src.Mod, src.facts.cases
	var out []inheritedTest
	for i, d := range m.Defs {
		if d.Kind != pyscan.Class || len(d.Bases) == 0 || !collectedClass(m, i, s.pats, cases) {
			continue
		}
		seen := map[string]bool{}
		for _, o := range m.Defs {
			if o.Parent == i && o.Kind == pyscan.Function {
				seen[o.Name] = true
			}
		}
		visit := s.testMethods(&out, seen, cases != nil && cases[i], strings.ReplaceAll(qualifiedName(m, i), ".", "::"), d.Pos.Line)
		s.cases.walkBases(src.Dir, m, i, 0, visit)
	}
	return append(out, s.importedClassTests(src)...)
}

// testMethods returns a visitor of a class's bases that adds to out, as
// tests of class, the methods pytest collects (test* in a unittest case,
// python_functions elsewhere) that no class before defines (seen).
func (s *scan) testMethods(out *[]inheritedTest, seen map[string]bool, unit bool, class string, line int) func(*pyscan.Module, int) {
	return func(bm *pyscan.Module, k int) {
		for _, o := range bm.Defs {
			if o.Parent != k || o.Kind != pyscan.Function || seen[o.Name] {
				continue
			}
			seen[o.Name] = true
			if unit && strings.HasPrefix(o.Name, "test") || !unit && matchName(s.pats.funcs, o.Name) {
				*out = append(*out, inheritedTest{class: class, line: line, name: o.Name})
			}
		}
	}
}

// importedClassTests lists the tests of the test classes the test module
// src imports by name ("from tests.helpers import ChannelChecks"): pytest
// collects every class of the module's namespace, imported or not, that
// is a unittest case or whose name python_classes matches, with the test
// methods it defines and those it inherits.
func (s *scan) importedClassTests(src *Source) []inheritedTest {
	m := src.Mod
	var out []inheritedTest
	for _, im := range m.Imports {
		if im.Scope >= 0 || im.Name == "" || im.Name == "*" {
			continue
		}
		target := importTarget(im)
		if m.ResolveAt(im.Bound, -1, pyscan.Pos{Line: 1 << 30}) != target {
			continue // bound again after the import
		}
		if unittestBases[target] {
			continue // unittest.TestCase itself holds no tests
		}
		unit := s.cases.isCase(src.Dir, target, 0)
		if !unit && !matchName(s.pats.classes, im.Bound) {
			continue
		}
		bm, file, k, ok := s.cases.class(src.Dir, target, 0)
		if !ok {
			continue
		}
		visit := s.testMethods(&out, map[string]bool{}, unit, im.Bound, im.Pos.Line)
		visit(bm, k)
		s.cases.walkBases(filepath.Dir(file), bm, k, 0, visit)
	}
	return out
}

// collectedClass reports whether pytest collects the class def of m, and
// every class around it: a unittest case, or a name python_classes
// matches. A def at module level (-1) is in no class.
func collectedClass(m *pyscan.Module, def int, pats *testPatterns, cases []bool) bool {
	for p := def; p >= 0; p = m.Defs[p].Parent {
		if m.Defs[p].Kind != pyscan.Class || !matchName(pats.classes, m.Defs[p].Name) && !(cases != nil && cases[p]) {
			return false
		}
	}
	return true
}

// directTest reports whether the test def of m is collected as itself:
// every class around it is collected, where a mixin's test methods are
// collected only through the cases that derive from it.
func directTest(m *pyscan.Module, def int, pats *testPatterns, cases []bool) bool {
	return collectedClass(m, m.Defs[def].Parent, pats, cases)
}

// walkBases calls visit with each class the class of m (a module of
// folder dir) derives from, depth first in the order its bases are
// written: classes of the same module, and classes of other modules as
// their imports name them.
func (cf *caseFinder) walkBases(dir string, m *pyscan.Module, class, depth int, visit func(*pyscan.Module, int)) {
	if depth > depthLimit {
		return
	}
	d := m.Defs[class]
	var named classIndex
	for _, b := range d.Bases {
		r := m.ResolveAt(b, d.Parent, d.Pos)
		if r == "" && !strings.Contains(b, ".") || r == b && !strings.Contains(b, ".") {
			// A class of this module, bound by its class statement.
			for _, j := range named.of(m, b) {
				o := m.Defs[j]
				if j != class && (o.Parent == d.Parent || o.Parent < 0) {
					visit(m, j)
					cf.walkBases(dir, m, j, depth+1, visit)
					break
				}
			}
			continue
		}
		if unittestBases[r] {
			continue
		}
		if bm, file, k, ok := cf.class(dir, r, depth); ok {
			visit(bm, k)
			cf.walkBases(filepath.Dir(file), bm, k, depth+1, visit)
		}
	}
}

// class finds the class that the dotted name (as an import in a module of
// folder dir resolves it) names: its module, that module's file, and its
// index there.
func (cf *caseFinder) class(dir, dotted string, depth int) (*pyscan.Module, string, int, bool) {
	i := strings.LastIndexByte(dotted, '.')
	if depth > depthLimit || i <= 0 || i == len(dotted)-1 {
		return nil, "", 0, false
	}
	modName, class := dotted[:i], dotted[i+1:]
	for _, file := range moduleFiles(dir, modName) {
		bm := cf.module(file)
		if bm.mod == nil {
			continue
		}
		m := bm.mod
		for j, d := range m.Defs {
			if d.Kind == pyscan.Class && d.Parent < 0 && d.Name == class {
				return m, file, j, true
			}
		}
		// The module may import the class from another one.
		for _, im := range m.Imports {
			if im.Bound == class && im.Scope < 0 && im.Name != "" {
				return cf.class(filepath.Dir(file), importTarget(im), depth+1)
			}
		}
		return nil, "", 0, false
	}
	return nil, "", 0, false
}

// importTarget is the dotted name "from M import N" binds: "M.N", or
// "..pkg" + "N" for a relative M that ends in a dot.
func importTarget(im pyscan.Import) string {
	if strings.HasSuffix(im.Module, ".") {
		return im.Module + im.Name
	}
	return im.Module + "." + im.Name
}
