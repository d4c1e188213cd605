package probe

import (
	"cmp"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/fixturegen/fixturegen/schema"
)

// optionalScript reads where the project imports a few packages, and
// whether only where they may be missing; see its docstring.
//
//go:embed optional.py
var optionalScript string

// Optional is a late module the project imports only where its package
// may be missing: under try/except ImportError, pytest.importorskip or
// importlib.util.find_spec. The preload imports every module it holds
// unconditionally, so adding it would make an optional dependency
// mandatory: every test would fail where the package is not installed.
type Optional struct {
	Module string `json:"module"`
	// Where is the first place the project imports it so, relative to
	// the spec's folder: "src/app/speedups.py:3".
	Where string `json:"where"`
}

// Optionals returns the modules of modules that the project, every Python
// file under the spec's folder, imports only where their package may be
// missing, read by python's own parser. A module the project never
// imports (a dependency's) is not optional here.
func Optionals(spec *schema.Spec, python string, modules []string) ([]Optional, error) {
	if len(modules) == 0 {
		return nil, nil
	}
	tops := unique(modules, func(m string) string {
		top, _, _ := strings.Cut(m, ".")
		return top
	})
	arg, err := json.Marshal(tops)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(python, "-c", optionalScript, spec.Dir, string(arg))
	cmd.Dir = spec.Dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("reading where %s import %s in %s: %v\n%s", python, strings.Join(tops, ", "), spec.Dir, err, stderr.String())
	}
	var places [][3]any
	if err := json.Unmarshal(out, &places); err != nil {
		return nil, fmt.Errorf("reading where the project imports %s: %v", strings.Join(tops, ", "), err)
	}
	var opt []Optional
	for _, m := range modules {
		top, _, _ := strings.Cut(m, ".")
		// The package is optional where the project imports it only
		// guarded; the module alone, within a package the project needs,
		// where the project imports it (or one below it) only guarded.
		var guardedTop, plainTop, guardedMod, plainMod int
		var whereTop, whereMod string // the first guarded import of each
		for _, p := range places {
			name, _ := p[0].(string)
			guarded, _ := p[1].(bool)
			place, _ := p[2].(string)
			switch {
			case !under(name, top):
			case guarded:
				guardedTop++
				whereTop = cmp.Or(whereTop, place)
				if under(name, m) {
					guardedMod++
					whereMod = cmp.Or(whereMod, place)
				}
			default:
				plainTop++
				if under(name, m) {
					plainMod++
				}
			}
		}
		where := cmp.Or(whereMod, whereTop)
		// A package of the project's own is there wherever the project is:
		// only a module of it can be optional.
		if guardedTop > 0 && plainTop == 0 && !firstParty(spec.Dir, top) || guardedMod > 0 && plainMod == 0 {
			opt = append(opt, Optional{Module: m, Where: filepath.ToSlash(where)})
		}
	}
	return opt, nil
}

// under reports whether the module name is module m or lies below it.
func under(name, m string) bool {
	return name == m || strings.HasPrefix(name, m+".")
}

// firstParty reports whether the package top lies in the project, in its
// folder or in a src layout's src folder.
func firstParty(dir, top string) bool {
	for _, base := range []string{dir, filepath.Join(dir, "src")} {
		for _, p := range []string{filepath.Join(base, top), filepath.Join(base, top+".py")} {
			if _, err := os.Stat(p); err == nil {
				return true
			}
		}
	}
	return false
}
