package probe

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/schema"
)

// importableScript puts pytest's import path (a JSON list, its first
// argument) at the head of sys.path, imports each module named after it
// in one fresh interpreter and prints, one per line, those that do not
// import.
const importableScript = `import importlib, json, sys
sys.path[:0] = json.loads(sys.argv[1])
for name in sys.argv[2:]:
    try:
        importlib.import_module(name)
    except BaseException:
        print(name)
`

// Unimportable returns the modules that do not import in a fresh python,
// started in the spec's folder with sys.path as pytest sets it for nodes
// (its pythonpath, rootdir and import mode; see importPath), as the
// preload fixture's session imports them: a module a test writes and
// imports itself (under tmp_path, say) was loaded under the alarm, yet
// preloading it would fail every test. --fix writes only the others.
func Unimportable(spec *schema.Spec, python string, modules, nodes []string) ([]string, error) {
	if len(modules) == 0 {
		return nil, nil
	}
	path, err := ImportPath(spec, nodes)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(python, append([]string{"-c", importableScript, path}, modules...)...)
	cmd.Dir = spec.Dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("checking that %s import in a fresh %s: %v\n%s", strings.Join(modules, ", "), python, err, stderr.String())
	}
	failed := strings.Fields(string(out))
	return slices.DeleteFunc(slices.Clone(modules), func(m string) bool { return !slices.Contains(failed, m) }), nil
}

// ImportPath is pytest's import path for nodes run from the spec's
// folder (see pytestView.importPath), as a JSON list for a script's
// command line.
func ImportPath(spec *schema.Spec, nodes []string) (string, error) {
	view, err := viewFor(spec, nodes, false)
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(view.importPath(spec, nodes))
	return string(b), err
}
