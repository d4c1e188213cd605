package pytesttimeout

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/fixturegen/fixturegen/internal/lazyregexp"
	"github.com/fixturegen/fixturegen/internal/pytext"
	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/python/pytestcfg"
	"github.com/fixturegen/fixturegen/internal/relpath"
	"github.com/fixturegen/fixturegen/schema"
)

// Name is pytest-timeout's distribution name, normalized (PEP 503);
// Plugin is the import shield's, which fixturegen releases.
const (
	Name   = "pytest-timeout"
	Plugin = pytext.PluginDistribution
)

var (
	// requirementName matches the name at the start of a requirement
	// specifier ("pytest-timeout>=2", "pytest_timeout[x]; python_version>'3'").
	requirementName = lazyregexp.New(`^[A-Za-z0-9][A-Za-z0-9._-]*`)
	separators      = lazyregexp.New(`[-_.]+`)
	bareKey         = lazyregexp.New(`^[A-Za-z0-9_-]+$`)
	arrayIndex      = lazyregexp.New(`\[\d+\]`)
)

// named returns the distribution a requirement specifier names when it
// is pytest-timeout or the plugin, "" otherwise.
func named(req string) string {
	name := requirementName().FindString(strings.TrimSpace(req))
	switch norm := strings.ToLower(separators().ReplaceAllString(name, "-")); norm {
	case Name, Plugin:
		return norm
	}
	return ""
}

// Set is one set of dependencies a project installs together: a
// requirements file, a table or array of pyproject.toml or Pipfile, a
// key of setup.cfg, setup.py.
type Set struct {
	File string // absolute
	Part string // the table, array or key inside File; "" for the whole file
}

// Where is the set as a user finds it, File relative to root.
func (s Set) Where(root string) string {
	file := relpath.Slash(root, s.File)
	if s.Part == "" {
		return file
	}
	return s.Part + " of " + file
}

// Fix is the one line that declares the plugin beside pytest-timeout in
// the set.
func (s Set) Fix(root string) string {
	return fmt.Sprintf("add `%s` next to pytest-timeout in %s", Plugin, s.Where(root))
}

// Declaration is pytest-timeout or the plugin declared as a dependency.
type Declaration struct {
	Name      string // Name or Plugin
	File      string
	Line, Col int
	Set       Set
}

// Declarations returns where the project at root declares pytest-timeout
// and the plugin: requirement files, pyproject.toml (project dependencies
// and extras, dependency groups, Poetry's, PDM's, uv's and hatch's),
// Pipfile, setup.cfg and setup.py, in file order.
func Declarations(root string) []Declaration {
	var out []Declaration
	for _, f := range requirementFiles(root) {
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for i, line := range strings.Split(string(src), "\n") {
			trimmed := strings.TrimLeft(line, " \t")
			if n := named(trimmed); n != "" {
				out = append(out, Declaration{Name: n, File: f, Line: i + 1, Col: len(line) - len(trimmed) + 1, Set: Set{File: f}})
			}
		}
	}
	if file := filepath.Join(root, "pyproject.toml"); pytestcfg.IsFile(file) {
		out = append(out, tomlDeps(file, pyprojectTables)...)
	}
	if file := filepath.Join(root, "Pipfile"); pytestcfg.IsFile(file) {
		out = append(out, tomlDeps(file, [][]string{{"packages"}, {"dev-packages"}})...)
	}
	if file := filepath.Join(root, "setup.cfg"); pytestcfg.IsFile(file) {
		src, _ := os.ReadFile(file)
		keys, _, _ := pytestcfg.INI(src)
		for _, k := range keys {
			if k.Section != "options.extras_require" && !(k.Section == "options" && strings.HasSuffix(k.Name.Text, "_require")) {
				continue
			}
			for _, l := range k.Lines {
				if n := named(strings.Split(l.Text, ";")[0]); n != "" {
					out = append(out, Declaration{Name: n, File: file, Line: l.Line, Col: l.Col,
						Set: Set{File: file, Part: fmt.Sprintf("[%s] %s", k.Section, k.Name.Text)}})
				}
			}
		}
	}
	if file := filepath.Join(root, "setup.py"); pytestcfg.IsFile(file) {
		src, _ := os.ReadFile(file)
		lx := pyscan.NewLexer(src)
		for t := lx.Next(); t.Kind != pyscan.EOF; t = lx.Next() {
			if t.Kind != pyscan.String {
				continue
			}
			if v, ok := pyscan.StringValue(string(t.Text)); ok && named(v) != "" {
				pos := lx.Pos(t)
				out = append(out, Declaration{Name: named(v), File: file, Line: pos.Line, Col: pos.Col, Set: Set{File: file}})
			}
		}
	}
	return out
}

// requirementFiles are the project's requirement files: *requirements*.txt
// and *requirements*.in beside it and one folder down, and the .txt and
// .in files of a requirements/ folder (.txt one folder further down too).
// Each folder is listed once.
func requirementFiles(root string) []string {
	var out []string
	// list adds to out the files of dir whose names keep accepts, and
	// returns its folders.
	list := func(dir string, keep func(name string) bool) []os.DirEntry {
		entries, _ := os.ReadDir(dir)
		var folders []os.DirEntry
		for _, e := range entries {
			if e.IsDir() {
				folders = append(folders, e)
			} else if keep(e.Name()) {
				out = append(out, filepath.Join(dir, e.Name()))
			}
		}
		return folders
	}
	isList := func(name string) bool { return strings.HasSuffix(name, ".txt") || strings.HasSuffix(name, ".in") }
	named := func(name string) bool { return strings.Contains(name, "requirements") && isList(name) }
	for _, d := range list(root, named) {
		dir := filepath.Join(root, d.Name())
		if d.Name() != "requirements" {
			list(dir, named)
			continue
		}
		for _, sub := range list(dir, isList) {
			list(filepath.Join(dir, sub.Name()), func(name string) bool { return strings.HasSuffix(name, ".txt") })
		}
	}
	sort.Strings(out)
	return out
}

// pyprojectTables are the tables of a pyproject.toml that declare
// dependencies: arrays of requirement strings (or of tables of
// arrays, one level down), or tables keyed by the package's name.
var pyprojectTables = [][]string{
	{"project", "dependencies"},
	{"project", "optional-dependencies"},
	{"dependency-groups"},
	{"tool", "poetry", "dependencies"},
	{"tool", "poetry", "dev-dependencies"},
	{"tool", "poetry", "group"},
	{"tool", "pdm", "dev-dependencies"},
	{"tool", "uv", "dev-dependencies"},
	{"tool", "hatch", "envs"},
}

// tomlDeps finds pytest-timeout and the plugin in the dependency tables
// of a TOML file, at the position schema.Locate gives each entry; the
// set of an entry is the array or table that holds it.
func tomlDeps(file string, tables [][]string) []Declaration {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	doc, err := pytestcfg.DecodeTOML(src)
	if err != nil {
		return nil
	}
	// Where each entry sits is worked out only for a file that declares
	// one: most do not, and locating every key of a large file costs as
	// much as decoding it.
	var spans map[string]schema.Span
	var out []Declaration
	add := func(name, key, set string) {
		if spans == nil {
			spans = schema.Locate(src)
		}
		sp := spans[key]
		// The set is the table as it is written, without array indexes.
		table := arrayIndex().ReplaceAllString(set, "")
		out = append(out, Declaration{Name: name, File: file, Line: sp.Line, Col: sp.Col, Set: Set{File: file, Part: "[" + table + "]"}})
	}
	var walk func(v any, path string, depth int)
	walk = func(v any, path string, depth int) {
		switch v := v.(type) {
		case []any:
			for i, e := range v {
				if s, ok := e.(string); ok && named(s) != "" {
					add(named(s), fmt.Sprintf("%s[%d]", path, i), path)
				}
			}
		case map[string]any:
			if depth > 4 {
				return
			}
			for _, k := range slices.Sorted(maps.Keys(v)) {
				// The key as schema.Locate writes it in a path.
				key := path + "." + k
				if !bareKey().MatchString(k) {
					key = fmt.Sprintf("%s.%q", path, k)
				}
				if n := named(k); n != "" && requirementName().FindString(k) == k {
					add(n, key, path)
					continue
				}
				walk(v[k], key, depth+1)
			}
		}
	}
	for _, t := range tables {
		// A key below a value that is no table is missing: a nil map's.
		var v any = doc
		for _, k := range t {
			m, _ := v.(map[string]any)
			v = m[k]
		}
		if v != nil {
			walk(v, strings.Join(t, "."), 0)
		}
	}
	return out
}
