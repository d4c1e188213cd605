package pytesttimeout

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/python/pytestcfg"
	"github.com/fixturegen/fixturegen/internal/testenv"
)

// find runs Find on the project at root as init does, its tests in
// roots, and returns each place as "at: text" lines in file order.
func find(t *testing.T, root string, roots ...string) (string, *Found) {
	t.Helper()
	var abs []string
	for _, r := range roots {
		abs = append(abs, filepath.Join(root, r))
	}
	run, err := pytestcfg.Project(root, abs)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Find(root, run, Options{})
	if err != nil {
		t.Fatal(err)
	}
	Sort(f.Places)
	var b strings.Builder
	for _, p := range f.Places {
		b.WriteString(p.At(root) + ": " + p.Text() + "\n")
	}
	return b.String(), f
}

func TestFindEveryPlace(t *testing.T) {
	root := testenv.WriteTree(t, map[string]string{
		"pytest.ini": "[pytest]\ntestpaths = tests\naddopts = -n 2 --timeout 30\ntimeout_method = signal\n",
		"tests/test_marks.py": `import pytest

pytestmark = [pytest.mark.timeout(5), pytest.mark.slow]


@pytest.mark.timeout(2, method="thread")
def test_thread():
    pass


@pytest.mark.timeout(0)
def test_none():
    pass


class TestC:
    pytestmark = pytest.mark.timeout(timeout=3)


@pytest.mark.parametrize("x", [1, pytest.param(2, marks=pytest.mark.timeout(7))])
def test_p(x):
    "pytest.mark.timeout(99) in a string is no mark"
`,
		"tests/conftest.py":             "# pytest.mark.timeout(1) in a comment\n",
		"tests/test_alias.py":           "from pytest import mark as m\n\n\n@m.timeout(4)\ndef test_a():\n    pass\n",
		"tests/test_socket.py":          "def test_s(sock):\n    sock.settimeout(5)\n",
		"outside/test_not_collected.py": "import pytest\n\n@pytest.mark.timeout(1)\ndef test_x():\n    pass\n",
		"requirements-dev.txt":          "pytest==9.2.0\n  pytest_timeout>=2.4  # the timeouts\n",
		"pyproject.toml":                "[project]\nname = \"x\"\n[project.optional-dependencies]\ntest = [\"pytest\", \"pytest-timeout\"]\n[dependency-groups]\ndev = [\"Pytest.Timeout\"]\n[tool.poetry.group.dev.dependencies]\npytest-timeout = \"^2\"\n",
		"setup.cfg":                     "[options.extras_require]\ntests =\n    pytest-timeout\n    pytest-import-shield\n",
	})
	got, f := find(t, root)
	want := `pyproject.toml:4:19: pytest-timeout, a declared test dependency (in [project.optional-dependencies.test] of pyproject.toml); its timeouts run with the signal method (pytest.ini:4:18)
pyproject.toml:6:8: pytest-timeout, a declared test dependency (in [dependency-groups.dev] of pyproject.toml); its timeouts run with the signal method (pytest.ini:4:18)
pyproject.toml:8:1: pytest-timeout, a declared test dependency (in [tool.poetry.group.dev.dependencies] of pyproject.toml); its timeouts run with the signal method (pytest.ini:4:18)
pytest.ini:3:16: --timeout 30 in addopts, with the signal method (pytest.ini:4:18)
requirements-dev.txt:2:3: pytest-timeout, a declared test dependency (in requirements-dev.txt); its timeouts run with the signal method (pytest.ini:4:18)
setup.cfg:3:5: pytest-timeout, a declared test dependency (in [options.extras_require] tests of setup.cfg); its timeouts run with the signal method (pytest.ini:4:18)
tests/test_alias.py:4:2: @m.timeout(4) on function test_a, with the signal method (pytest.ini:4:18)
tests/test_marks.py:3:15: pytestmark = pytest.mark.timeout(5), with the signal method (pytest.ini:4:18)
tests/test_marks.py:6:2: @pytest.mark.timeout(2, method="thread") on function test_thread, with the thread method (the mark's method)
tests/test_marks.py:17:18: pytestmark = pytest.mark.timeout(timeout=3), with the signal method (pytest.ini:4:18)
tests/test_marks.py:20:57: pytest.mark.timeout(7) in the decorators of test_p, with the signal method (pytest.ini:4:18)
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	// Only setup.cfg's extra declares the plugin beside pytest-timeout:
	// the other sets are unshielded, and so are the settings and marks.
	var sets []string
	for _, p := range f.Unshielded() {
		sets = append(sets, p.Set.Fix(root))
	}
	wantSets := []string{
		"add `pytest-import-shield` next to pytest-timeout in [project.optional-dependencies.test] of pyproject.toml",
		"add `pytest-import-shield` next to pytest-timeout in [dependency-groups.dev] of pyproject.toml",
		"add `pytest-import-shield` next to pytest-timeout in [tool.poetry.group.dev.dependencies] of pyproject.toml",
		"add `pytest-import-shield` next to pytest-timeout in requirements-dev.txt",
	}
	if strings.Join(sets, "\n") != strings.Join(wantSets, "\n") {
		t.Errorf("unshielded sets:\n%s\nwant:\n%s", strings.Join(sets, "\n"), strings.Join(wantSets, "\n"))
	}
	if f.Shielded(f.Places[0]) || f.Shielded(f.Places[3]) {
		t.Errorf("%s and %s are shielded, but other sets lack the plugin", f.Places[0].What, f.Places[3].What)
	}
}

func TestTheMethodTheConfigurationSets(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string
		signal int // places with the signal method
		all    int
	}{
		{"thread everywhere needs no shield", map[string]string{
			"pytest.ini":       "[pytest]\ntimeout = 5\ntimeout_method = thread\n",
			"tests/test_a.py":  "import pytest\n\n@pytest.mark.timeout(1)\ndef test_a():\n    pass\n",
			"requirements.txt": "pytest-timeout\n",
		}, 0, 3},
		{"a mark's signal method beats the configuration's thread", map[string]string{
			"pytest.ini":      "[pytest]\ntimeout_method = thread\n",
			"tests/test_a.py": "import pytest\n\n@pytest.mark.timeout(1, 'signal')\ndef test_a():\n    pass\n",
		}, 1, 1},
		{"-p no:timeout turns it off", map[string]string{
			"pytest.ini":       "[pytest]\ntimeout = 5\naddopts = -p no:timeout\n",
			"requirements.txt": "pytest-timeout\n",
		}, 0, 0},
		{"a configuration below the root, read by pytest run on the tests", map[string]string{
			"tests/pytest.ini":         "[pytest]\ntimeout = 2\ntimeout_method = signal\n",
			"tests/src/unit/test_a.py": "def test_a():\n    pass\n",
		}, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := testenv.WriteTree(t, tt.files)
			got, f := find(t, root, "tests")
			signal := 0
			for _, p := range f.Places {
				if p.Method != Thread {
					signal++
				}
			}
			if len(f.Places) != tt.all || signal != tt.signal {
				t.Errorf("%d places, %d with the signal method; want %d and %d:\n%s", len(f.Places), signal, tt.all, tt.signal, got)
			}
		})
	}
}
