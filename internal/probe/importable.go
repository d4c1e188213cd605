package probe

import (
	"fmt"
	"os/exec"
	"strings"

	"github.com/fixturegen/fixturegen/schema"
)

// importableScript imports each module named on its command line in one
// fresh interpreter and prints, one per line, those that do not import.
const importableScript = `import importlib, sys
for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
    except BaseException:
        print(name)
`

// Importable splits modules into those that import in a fresh python,
// started in the spec's folder as the preload fixture's session starts,
// and those that do not: a module a test writes and imports itself (under
// tmp_path, say) was loaded under the alarm, yet preloading it would fail
// every test. --fix writes only the first.
func Importable(spec *schema.Spec, python string, modules []string) (ok, not []string, err error) {
	if len(modules) == 0 {
		return nil, nil, nil
	}
	cmd := exec.Command(python, append([]string{"-c", importableScript}, modules...)...)
	cmd.Dir = spec.Dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, nil, fmt.Errorf("checking that %s import in a fresh %s: %v\n%s", strings.Join(modules, ", "), python, err, stderr.String())
	}
	failed := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		failed[strings.TrimSpace(line)] = true
	}
	for _, m := range modules {
		if failed[m] {
			not = append(not, m)
		} else {
			ok = append(ok, m)
		}
	}
	return ok, not, nil
}
