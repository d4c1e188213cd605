package render

import (
	"bytes"
	"os"
	"testing"

	"github.com/fixturegen/fixturegen/internal/gen/diff"
	"github.com/fixturegen/fixturegen/internal/version"
)

// TestPluginGolden holds the pytest-import-shield plugin's module to the
// runtime fixturegen generates for a spec with [shield] alone (PluginSpec):
// one is rendered from the other's templates, and they may differ only
// where packaging needs, as testdata/plugin.diff records it: the header and
// docstring, settings read from pytest's ini options and flags in place of
// the spec's constants, the plugin's hooks in place of the conftest
// region's loader, and the generated shield asking the plugin to stand
// aside. Any other difference fails: run go test ./internal/gen/render
// -run TestPluginGolden -update and review testdata/plugin.diff.
func TestPluginGolden(t *testing.T) {
	files, err := Render(PluginSpec())
	if err != nil {
		t.Fatal(err)
	}
	var runtime []byte
	for _, f := range files {
		if f.Path == runtimePath(PluginSpec()) {
			runtime = f.Content
		}
	}
	if runtime == nil {
		t.Fatalf("PluginSpec renders no runtime: %v", files)
	}
	plugin, err := Plugin(version.Version())
	if err != nil {
		t.Fatal(err)
	}
	got := diff.Unified("pytest_import_shield.py", runtime, plugin)
	const golden = "testdata/plugin.diff"
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/gen/render -run TestPluginGolden -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the plugin's module and the shield-only runtime differ in more (or less) than %s records:\n%s", golden, got)
	}
}
