package coverage

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fixturegen/fixturegen/internal/python/pytestcfg"
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/internal/relpath"
	"github.com/fixturegen/fixturegen/internal/testenv"

	"github.com/fixturegen/fixturegen/schema"
)

func TestFolderCoversEveryRun(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string
		roots  []string // the folders of the tests, relative to the root
		folder string   // relative to the root
		// outside are the modules a conftest in notBelow does not reach.
		notBelow string
		outside  int
	}{
		{"testpaths: the folder above the tests", map[string]string{
			"pytest.ini": "[pytest]\ntestpaths = tests\n", "tests/unit/test_a.py": "", "tests/test_b.py": "", "scripts/test_c.py": "",
		}, nil, "tests", "tests/unit", 1},
		{"an existing conftest between the limit and the tests", map[string]string{
			"pytest.ini": "[pytest]\ntestpaths = tests/unit\n", "conftest.py": "", "tests/unit/test_a.py": "",
		}, nil, ".", "tests", 0},
		{"python_files decides what is a test", map[string]string{
			"pytest.ini": "[pytest]\npython_files = check_*.py\n", "a/check_a.py": "", "b/test_b.py": "",
		}, nil, "a", "b", 1},
		{"a configuration below the root that pytest run on the tests reads", map[string]string{
			"pyproject.toml":           "[project]\nname = \"x\"\n",
			"conftest.py":              "",
			"tests/pytest.ini":         "[pytest]\n",
			"tests/src/unit/test_a.py": "",
			"tests/src/it/test_b.py":   "",
		}, []string{"tests/src"}, "tests/src", ".", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := testenv.WriteTree(t, tt.files)
			var roots []string
			for _, r := range tt.roots {
				roots = append(roots, filepath.Join(root, r))
			}
			run, err := pytestcfg.Project(root, roots)
			if err != nil {
				t.Fatal(err)
			}
			modules, err := Collected(run, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			folder, ok := Folder(run, modules)
			if !ok || relpath.Slash(root, folder) != tt.folder {
				t.Errorf("Folder = %q, %v; want %q", relpath.Slash(root, folder), ok, tt.folder)
			}
			if out := Outside(run, folder, modules); len(out) > 0 {
				t.Errorf("the folder found does not cover %s", relpath.Slash(root, out[0]))
			}
			if n := len(Outside(run, filepath.Join(root, tt.notBelow), modules)); n != tt.outside {
				t.Errorf("a conftest in %s misses %d modules, want %d", tt.notBelow, n, tt.outside)
			}
		})
	}
}

func TestCheckConftestRefusesATypo(t *testing.T) {
	root := testenv.WriteTree(t, map[string]string{
		"pytest.ini": "[pytest]\ntestpaths = tests\n", "tests/test_a.py": "",
		"fixturegen.toml": "version = 1\n\n[shield]\n\n[paths]\nconftest = \"testz/conftest.py\"\n",
	})
	spec, err := schema.Load(filepath.Join(root, "fixturegen.toml"))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := suite.SpecRun(spec)
	if err != nil {
		t.Fatal(err)
	}
	err = CheckConftest(spec, runs, nil)
	se, ok := err.(*schema.Error)
	if !ok || se.Line != 6 || se.Col != 1 {
		t.Fatalf("want an error at the key, 6:1; got %v", err)
	}
	spec.Paths.Conftest = "tests/conftest.py"
	if err := CheckConftest(spec, runs, nil); err != nil {
		t.Errorf("tests/conftest.py: %v", err)
	}
	// A project without tests yet: nothing to refuse.
	os.Remove(filepath.Join(root, "tests", "test_a.py"))
	spec.Paths.Conftest = "testz/conftest.py"
	if err := CheckConftest(spec, runs, nil); err != nil {
		t.Errorf("no tests: %v", err)
	}
}
