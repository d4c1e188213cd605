package specedit

import (
	"testing"

	"github.com/fixturegen/fixturegen/schema"
)

func TestAppendModules(t *testing.T) {
	const head = "version = 1\n\n[deadline]\nfixture = \"d\"\nseconds = 1\n\n[preload]\nfixture = \"p\"\n"
	const tail = "\n[group]\nname = \"g\"  # the group\n\n[paths]\nconftest = \"tests/conftest.py\"\n"
	for _, tc := range []struct{ name, modules, want string }{
		{"empty", `modules = []`, `modules = ["x.y", "z"]`},
		{"inline", `modules = ["a"]  # keep me`, `modules = ["a", "x.y", "z"]  # keep me`},
		{"inline trailing comma", `modules = ["a",]`, `modules = ["a", "x.y", "z"]`},
		{"lines", "modules = [\n    \"a\",  # why a\n    \"b\"  # why b\n]",
			"modules = [\n    \"a\",  # why a\n    \"b\",  # why b\n    \"x.y\",\n    \"z\",\n]"},
		{"lines with comment after", "modules = [\n  \"a\",\n  # more to come\n]",
			"modules = [\n  \"a\",\n  # more to come\n  \"x.y\",\n  \"z\",\n]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(head + tc.modules + "\n" + tail)
			spec, err := schema.Parse(src, "fixturegen.toml", "/p")
			if err != nil {
				t.Fatal(err)
			}
			out, got, err := AppendModules(spec, src, []string{"x.y", "z"})
			if err != nil {
				t.Fatal(err)
			}
			if want := head + tc.want + "\n" + tail; string(out) != want {
				t.Errorf("got:\n%s\nwant:\n%s", out, want)
			}
			if n := len(got.Preload.Modules); got.Preload.Modules[n-1] != "z" {
				t.Errorf("loaded modules %v", got.Preload.Modules)
			}
		})
	}
}
