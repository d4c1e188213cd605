package probe

import (
	"fmt"
	"slices"
	"testing"

	"github.com/fixturegen/fixturegen/internal/testenv"
	"github.com/fixturegen/fixturegen/schema"
)

// TestOptionals: the modules the project imports only where their
// package may be missing (try/except ImportError, importorskip,
// find_spec, TYPE_CHECKING) are optional; one it also imports plainly,
// anywhere, is not, nor is one it never imports; and a module alone can
// be optional within a package the project needs (yamlish.loader), or of
// the project's own (app._native), whose package is not. Files in a
// virtual environment and in hidden folders are not the project's.
func TestOptionals(t *testing.T) {
	python := testenv.Python(t)
	dir := testenv.WriteTree(t, map[string]string{
		"app/__init__.py": `try:
    import fastjson.speedups
except ImportError:
    fastjson = None

try:
    from app import _native
except (ModuleNotFoundError, OSError):
    _native = None

import yamlish
`,
		"app/_native.py": "",
		"app/plot.py": `from importlib.util import find_spec

if find_spec("plotter"):
    import plotter.axes
`,
		"app/types.py": `from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import hinted.stubs
`,
		"tests/test_skip.py": `import pytest

skimage = pytest.importorskip("skimage.filters")
`,
		"tests/test_yaml.py": `try:
    import yamlish.loader
except ImportError:
    yamlish = None
`,
		".venv/lib/site.py": "import plotter.axes\n",
		".venv/pyvenv.cfg":  "",
		"env/pyvenv.cfg":    "",
		"env/lib/x.py":      "import hinted.stubs\n",
	})
	spec := &schema.Spec{Dir: dir}
	got, err := Optionals(spec, python, []string{"fastjson.speedups", "app._native", "app.plot", "plotter.axes", "hinted.stubs", "skimage.filters", "yamlish.loader", "yamlish.dumper", "never.imported"})
	if err != nil {
		t.Fatal(err)
	}
	var list []string
	for _, o := range got {
		list = append(list, fmt.Sprintf("%s %s", o.Module, o.Where))
	}
	want := []string{
		"fastjson.speedups app/__init__.py:2",
		"app._native app/__init__.py:7",
		"plotter.axes app/plot.py:4",
		"hinted.stubs app/types.py:4",
		"skimage.filters tests/test_skip.py:3",
		"yamlish.loader tests/test_yaml.py:2",
	}
	if !slices.Equal(list, want) {
		t.Errorf("Optionals =\n  %q\nwant\n  %q", list, want)
	}
}
