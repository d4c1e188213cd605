package suite

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/python/treeread"
	"github.com/fixturegen/fixturegen/internal/relpath"
)

// unittestBases are the standard library's test case classes, by the
// names an import resolves them to.
var unittestBases = map[string]bool{
	"unittest.TestCase":                           true,
	"unittest.IsolatedAsyncioTestCase":            true,
	"unittest.case.TestCase":                      true,
	"unittest.async_case.IsolatedAsyncioTestCase": true,
}

// caseClasses marks the classes of m that pytest collects as unittest
// test cases, whatever their name: those with unittest.TestCase among
// their bases, directly, through a class of the same module, or through
// a class of another module that known names by the dotted name an import
// gives it ("tests.base.ReconnectCase").
func caseClasses(m *pyscan.Module, known map[string]bool) []bool {
	var cases []bool
	var named classIndex
	for changed := true; changed; {
		changed = false
		for i, d := range m.Defs {
			if d.Kind != pyscan.Class || len(d.Bases) == 0 || cases != nil && cases[i] {
				continue
			}
			if isCase(m, i, cases, known, &named) {
				if cases == nil {
					cases = make([]bool, len(m.Defs))
				}
				cases[i] = true
				changed = true
			}
		}
	}
	return cases
}

// withMixins returns cases with the classes of the module that a test
// case derives from without being one themselves marked too: pytest
// collects a mixin's test methods through each case that inherits them.
func withMixins(m *pyscan.Module, cases []bool) []bool {
	out := slices.Clone(cases)
	var named classIndex
	var mark func(class int)
	mark = func(class int) {
		d := m.Defs[class]
		for _, b := range d.Bases {
			if strings.Contains(b, ".") || m.ResolveAt(b, d.Parent, d.Pos) != "" {
				continue // not a class of this module
			}
			for _, j := range named.of(m, b) {
				o := m.Defs[j]
				if j == class || o.Parent != d.Parent && o.Parent >= 0 || out[j] {
					continue
				}
				out[j] = true
				mark(j)
			}
		}
	}
	for i, isCase := range cases {
		if isCase {
			mark(i)
		}
	}
	return out
}

// isCase reports whether one of the class's bases is a test case, as far
// as cases (the module's classes known so far) and known tell. named finds
// the module's classes by name; it is built when first needed.
func isCase(m *pyscan.Module, class int, cases []bool, known map[string]bool, named *classIndex) bool {
	d := m.Defs[class]
	for _, b := range d.Bases {
		r := m.ResolveAt(b, d.Parent, d.Pos)
		switch {
		case unittestBases[r] || known[r]:
			return true
		case r == "" && cases != nil && !strings.Contains(b, "."):
			// A class of this module: bound by its class statement.
			for _, j := range named.of(m, b) {
				o := m.Defs[j]
				if j != class && cases[j] && (o.Parent == d.Parent || o.Parent < 0) {
					return true
				}
			}
		}
	}
	return false
}

// classIndex lists a module's classes by name, in source order, so that
// following a base to the classes of that name does not read every def
// of the module: a large suite's module holds hundreds of classes.
type classIndex map[string][]int

// of returns the classes of m named name, building the index on first use.
func (ix *classIndex) of(m *pyscan.Module, name string) []int {
	if *ix == nil {
		*ix = classIndex{}
		for i, d := range m.Defs {
			if d.Kind == pyscan.Class {
				(*ix)[d.Name] = append((*ix)[d.Name], i)
			}
		}
	}
	return (*ix)[name]
}

// importedBases lists the bases of the classes of m that are not known to
// be test cases and that an import names: "pkg.base.Case" after "from
// pkg.base import Case", ".base.Case" after "from .base import Case".
func importedBases(m *pyscan.Module, cases []bool) []string {
	var out []string
	for i, d := range m.Defs {
		if d.Kind != pyscan.Class || cases != nil && cases[i] {
			continue
		}
		for _, b := range d.Bases {
			if r := m.ResolveAt(b, d.Parent, d.Pos); r != b && strings.Contains(r, ".") && !unittestBases[r] {
				out = append(out, r)
			}
		}
	}
	return out
}

// caseFinder follows bases into the modules that define them, reading
// each module once: the scan's own modules are taken as they are, the
// others are read for their classes and imports alone. The readers use it
// at once, each for the modules it tokenizes.
type caseFinder struct {
	mu      sync.Mutex
	modules map[string]*baseModule // by absolute path
}

// baseModule is a module bases may be followed into, with what the search
// asks of it every time, worked out when first asked: its test cases and
// the bases it imports. mod is nil when the file cannot be read.
type baseModule struct {
	once     sync.Once
	mod      *pyscan.Module
	cases    []bool
	imported []string
}

// entry returns the finder's entry for the module at file, made on first
// use with mod: the module as the scan tokenized it, or nil for one to
// read when first asked.
func (cf *caseFinder) entry(file string, mod *pyscan.Module) *baseModule {
	cf.mu.Lock()
	defer cf.mu.Unlock()
	if cf.modules == nil {
		cf.modules = map[string]*baseModule{}
	}
	bm := cf.modules[file]
	if bm == nil {
		bm = &baseModule{mod: mod}
		cf.modules[file] = bm
	}
	return bm
}

// depthLimit bounds how many modules a chain of bases is followed
// through; real suites use one or two.
const depthLimit = 8

// isCase reports whether the class that the dotted name (as an import in
// a module of folder dir resolves it) names is a test case.
func (cf *caseFinder) isCase(dir, dotted string, depth int) bool {
	_, file, j, ok := cf.class(dir, dotted, depth)
	if !ok {
		return false
	}
	bm := cf.module(file)
	return bm.cases != nil && bm.cases[j] ||
		slices.ContainsFunc(bm.imported, func(b string) bool { return cf.isCase(filepath.Dir(file), b, depth+1) })
}

// module returns the module at file, reading it on first use, with its
// cases and imported bases worked out.
func (cf *caseFinder) module(file string) *baseModule {
	bm := cf.entry(file, nil)
	bm.once.Do(func() {
		if bm.mod == nil {
			// readFile refuses what is too large or not a regular file.
			data, err := treeread.ReadFile(file, nil)
			if err != nil {
				return
			}
			text, prob := pyscan.Decode(data)
			if prob != nil {
				return
			}
			sc := pyscan.Scanner{NoCalls: true}
			bm.mod = sc.Scan(text)
		}
		bm.cases = caseClasses(bm.mod, nil)
		bm.imported = importedBases(bm.mod, bm.cases)
	})
	return bm
}

// moduleFiles lists the files that may hold a module imported from a
// module in folder dir, most likely first: for a relative name, the one
// file its dots lead to; for an absolute one, the file under dir and under
// each folder above it, as rootdir, conftest folders and pythonpath
// entries put them on sys.path.
func moduleFiles(dir, name string) []string {
	rel := strings.TrimLeft(name, ".")
	dots := len(name) - len(rel)
	parts := strings.ReplaceAll(rel, ".", string(filepath.Separator))
	candidates := func(base string) []string {
		if parts == "" {
			return []string{filepath.Join(base, "__init__.py")}
		}
		return []string{filepath.Join(base, parts+".py"), filepath.Join(base, parts, "__init__.py")}
	}
	if dots > 0 {
		base := dir
		for range dots - 1 {
			base = filepath.Dir(base)
		}
		return candidates(base)
	}
	var out []string
	for d := range relpath.Up(dir) {
		out = append(out, candidates(d)...)
	}
	return out
}

// followBases works out, for a test module just tokenized, which of its
// classes derive from test cases defined in other modules, and recomputes
// its facts where some do. The readers call it, each for its own modules.
func (s *scan) followBases(src *Source) {
	s.cases.entry(src.Abs, src.Mod)
	if !src.Test {
		return
	}
	if s.opts.ListTests {
		// Only the list of tests names the methods a class inherits;
		// the rules read the module's own.
		defer func() { src.inherited = s.inheritedTests(src) }()
	}
	bases := importedBases(src.Mod, src.facts.cases)
	if len(bases) == 0 {
		return
	}
	known := map[string]bool{}
	for _, b := range bases {
		if s.cases.isCase(src.Dir, b, 0) {
			known[b] = true
		}
	}
	if len(known) > 0 {
		src.knownCases = known
		src.facts = newFacts(src, s.pats, s.opts.Spec.Deadline.Fixture)
	}
}
