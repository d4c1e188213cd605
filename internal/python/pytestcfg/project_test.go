package pytestcfg

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/testenv"
)

// TestProjectReadsWhatPytestReadsForTheTests: the configuration below the
// spec's folder that "pytest tests" reads wins; otherwise a plain
// "pytest" in the folder, whose testpaths apply.
func TestProjectReadsWhatPytestReadsForTheTests(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string
		config string // relative to the root; "" for none
		args   string // the run's arguments, joined
	}{
		{"the tests' own pytest.ini", map[string]string{"tests/pytest.ini": "[pytest]\n", "tests/test_a.py": ""}, "tests/pytest.ini", "tests"},
		{"the root's, with testpaths", map[string]string{"pytest.ini": "[pytest]\ntestpaths = tests\n", "tests/test_a.py": ""}, "pytest.ini", ""},
		{"the root's beats none below", map[string]string{"pyproject.toml": "[tool.pytest.ini_options]\n", "tests/test_a.py": ""}, "pyproject.toml", ""},
		{"a pyproject without pytest's tables roots the run only", map[string]string{"pyproject.toml": "[project]\nname = \"x\"\n", "tests/test_a.py": ""}, "", ""},
		{"none", map[string]string{"tests/test_a.py": ""}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := testenv.WriteTree(t, tt.files)
			r, err := Project(root, []string{filepath.Join(root, "tests")})
			if err != nil {
				t.Fatal(err)
			}
			config := ""
			if c := r.Config(); c != nil {
				config, _ = filepath.Rel(root, c.File)
			}
			if filepath.ToSlash(config) != tt.config || strings.Join(r.Inv.Args, " ") != tt.args {
				t.Errorf("config %q, args %q; want %q, %q", config, r.Inv.Args, tt.config, tt.args)
			}
			plain, err := Determine(Invocation{Dir: r.Inv.Dir, Args: r.Inv.Args})
			if err != nil {
				t.Fatal(err)
			}
			if plain.Rootdir != r.Setup.Rootdir {
				t.Errorf("rootdir %s, Determine says %s", r.Setup.Rootdir, plain.Rootdir)
			}
		})
	}
}
