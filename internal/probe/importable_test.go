package probe

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fixturegen/fixturegen/internal/testenv"
	"github.com/fixturegen/fixturegen/schema"
)

// TestUnimportable checks that a module of the project and one of the
// standard library count as importable, and that a module no fresh
// interpreter can find (one a test wrote under tmp_path) and one that
// raises on import do not.
func TestUnimportable(t *testing.T) {
	python := testenv.Python(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "local_mod.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "broken_mod.py"), []byte("raise RuntimeError('no')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	not, err := Unimportable(&schema.Spec{Dir: dir, Paths: schema.Paths{Conftest: "conftest.py"}}, python, []string{"local_mod", "json.decoder", "dupe_pkg", "broken_mod"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(not, []string{"dupe_pkg", "broken_mod"}) {
		t.Errorf("Unimportable = %v; want [dupe_pkg broken_mod]", not)
	}
}
