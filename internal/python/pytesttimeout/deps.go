package pytesttimeout

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/fixturegen/fixturegen/internal/lazyregexp"
	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/python/pytestrun"
	"github.com/fixturegen/fixturegen/schema"
)

// Name is pytest-timeout's distribution name, normalized (PEP 503).
const Name = "pytest-timeout"

var (
	// requirementName matches the name at the start of a requirement
	// specifier ("pytest-timeout>=2", "pytest_timeout[x]; python_version>'3'").
	requirementName = lazyregexp.New(`^[A-Za-z0-9][A-Za-z0-9._-]*`)
	separators      = lazyregexp.New(`[-_.]+`)
	bareKey         = lazyregexp.New(`^[A-Za-z0-9_-]+$`)
	arrayIndex      = lazyregexp.New(`\[\d+\]`)
)

// isTimeout reports whether a requirement specifier names pytest-timeout.
func isTimeout(req string) bool {
	name := requirementName().FindString(strings.TrimSpace(req))
	if name == "" {
		return false
	}
	norm := strings.ToLower(separators().ReplaceAllString(name, "-"))
	return norm == Name
}

// dependencies are the places that declare pytest-timeout as a
// dependency: requirement files, pyproject.toml (project dependencies and
// extras, dependency groups, Poetry's and PDM's dev dependencies),
// Pipfile, setup.cfg and setup.py, tox's deps and the install commands of
// the CI files, noxfile and Makefile.
func dependencies(proj *pytestrun.Project) []Place {
	root := proj.Root
	var out []Place
	dep := func(file string, line, col int, where string) {
		out = append(out, Place{Kind: Dependency, File: file, Line: line, Col: col,
			What: fmt.Sprintf("pytest-timeout, a declared test dependency (%s)", where)})
	}
	for _, f := range requirementFiles(root) {
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for i, line := range strings.Split(string(src), "\n") {
			trimmed := strings.TrimLeft(line, " \t")
			if isTimeout(trimmed) {
				dep(f, i+1, len(line)-len(trimmed)+1, "in "+rel(root, f))
			}
		}
	}
	if src, err := os.ReadFile(filepath.Join(root, "pyproject.toml")); err == nil {
		out = append(out, tomlDeps(filepath.Join(root, "pyproject.toml"), src, pyprojectTables)...)
	}
	if src, err := os.ReadFile(filepath.Join(root, "Pipfile")); err == nil {
		out = append(out, tomlDeps(filepath.Join(root, "Pipfile"), src, [][]string{{"packages"}, {"dev-packages"}})...)
	}
	if src, err := os.ReadFile(filepath.Join(root, "setup.cfg")); err == nil {
		file := filepath.Join(root, "setup.cfg")
		for _, k := range pytestrun.INI(file, src) {
			if k.Section != "options.extras_require" && !(k.Section == "options" && strings.HasSuffix(k.Name.Text, "_require")) {
				continue
			}
			for _, l := range k.Lines {
				for _, req := range strings.Split(l.Text, ";")[:1] {
					if isTimeout(req) {
						dep(file, l.Line, l.Col, fmt.Sprintf("[%s] %s in setup.cfg", k.Section, k.Name.Text))
					}
				}
			}
		}
	}
	if src, err := os.ReadFile(filepath.Join(root, "setup.py")); err == nil {
		file := filepath.Join(root, "setup.py")
		lx := pyscan.NewLexer(src)
		for t := lx.Next(); t.Kind != pyscan.EOF; t = lx.Next() {
			if t.Kind != pyscan.String {
				continue
			}
			if v, ok := pyscan.StringValue(string(t.Text)); ok && isTimeout(v) {
				pos := lx.Pos(t)
				dep(file, pos.Line, pos.Col, "in setup.py")
			}
		}
	}
	for _, w := range proj.Installs {
		if isTimeout(w.Text) {
			dep(w.File, w.Line, w.Col, "installed in "+rel(root, w.File))
		}
	}
	return out
}

// requirementFiles are the project's requirement files: *requirements*.txt
// and *.in beside it and one folder down, and the files of a
// requirements/ folder.
func requirementFiles(root string) []string {
	var out []string
	for _, pat := range []string{"*requirements*.txt", "*requirements*.in", "*/*requirements*.txt", "*/*requirements*.in",
		"requirements/*.txt", "requirements/*.in", "requirements/*/*.txt"} {
		m, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(pat)))
		out = append(out, m...)
	}
	sort.Strings(out)
	seen := map[string]bool{}
	var uniq []string
	for _, f := range out {
		if !seen[f] {
			seen[f] = true
			uniq = append(uniq, f)
		}
	}
	return uniq
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

// tomlDeps finds pytest-timeout in the dependency tables of a TOML file,
// at the position schema.Locate gives its entry.
func tomlDeps(file string, src []byte, tables [][]string) []Place {
	var doc map[string]any
	if _, err := toml.Decode(string(src), &doc); err != nil {
		return nil
	}
	spans := schema.Locate(src)
	var out []Place
	var walk func(v any, path string, depth int)
	walk = func(v any, path string, depth int) {
		switch v := v.(type) {
		case []any:
			for i, e := range v {
				if s, ok := e.(string); ok && isTimeout(s) {
					sp := spans[fmt.Sprintf("%s[%d]", path, i)]
					out = append(out, Place{Kind: Dependency, File: file, Line: sp.Line, Col: sp.Col,
						What: fmt.Sprintf("pytest-timeout, a declared test dependency ([%s] in %s)", tableName(path), filepath.Base(file))})
				}
			}
		case map[string]any:
			if depth > 4 {
				return
			}
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				key := path + "." + tomlKey(k)
				if isTimeout(k) && requirementName().FindString(k) == k {
					sp := spans[key]
					out = append(out, Place{Kind: Dependency, File: file, Line: sp.Line, Col: sp.Col,
						What: fmt.Sprintf("pytest-timeout, a declared test dependency ([%s] in %s)", tableName(path), filepath.Base(file))})
					continue
				}
				walk(v[k], key, depth+1)
			}
		}
	}
	for _, t := range tables {
		var v any = doc
		for _, k := range t {
			m, ok := v.(map[string]any)
			if !ok {
				v = nil
				break
			}
			v = m[k]
		}
		if v != nil {
			walk(v, strings.Join(t, "."), 0)
		}
	}
	return out
}

// tomlKey writes a key as schema.Locate writes it in a path.
func tomlKey(k string) string {
	if bareKey().MatchString(k) {
		return k
	}
	return fmt.Sprintf("%q", k)
}

// tableName is a key path as its table is written, without array
// indexes.
func tableName(path string) string {
	return arrayIndex().ReplaceAllString(path, "")
}
