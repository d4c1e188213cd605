package rules

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/internal/python/pytestcfg"
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/internal/relpath"
)

const RulePreloadMissing = "preload-missing"

var preloadMissingRule = checked{
	Rule: Rule{
		ID:      RulePreloadMissing,
		Summary: "a first-party preload module does not exist",
		Meaning: "A preload module belongs to the project (its top package is under the spec's folder or a `pythonpath` folder) but does not exist. Reported at the module in the spec.",
		Fix:     "Fix the name, or restore the module",
	},
	tree: func(r *rules, _ *suite.Tree) { r.preloadModules() },
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
			if !exists(filepath.Join(root, parts[0])) && !pytestcfg.IsFile(filepath.Join(root, parts[0]+".py")) {
				continue // not first-party under this root
			}
			if missing := firstMissing(r.cwd, root, parts); missing != "" {
				where := relpath.Rel(r.cwd, root)
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
		case pytestcfg.IsFile(pkg + ".py"):
			if !last {
				return fmt.Sprintf("%s is a module, not a package, so it has no %s", strings.Join(parts[:i+1], "."), parts[i+1])
			}
		default:
			return fmt.Sprintf("there is no %s.py or %s/ in %s", p, p, filepath.ToSlash(relpath.Rel(cwd, dir)))
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
