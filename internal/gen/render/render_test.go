package render

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/schema"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGolden renders every spec under testdata/*.toml and the bundled
// example, and compares each planned file with its golden copy.
func TestGolden(t *testing.T) {
	specs, _ := filepath.Glob("testdata/*.toml")
	specs = append(specs, "../../../examples/inbox/fixturegen.toml")
	for _, file := range specs {
		name := strings.TrimSuffix(filepath.Base(file), ".toml")
		if strings.Contains(file, "examples") {
			name = "example"
		}
		t.Run(name, func(t *testing.T) {
			spec, err := schema.Load(file)
			if err != nil {
				t.Fatal(err)
			}
			files, err := Render(spec)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				golden := filepath.Join("testdata", name+"."+strings.ReplaceAll(f.Path, "/", "_")+".golden")
				if *update {
					if err := os.WriteFile(golden, f.Content, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test ./internal/gen/render -update)", err)
				}
				if string(want) != string(f.Content) {
					t.Errorf("%s differs from %s; run go test ./internal/gen/render -update and review the diff", f.Path, golden)
				}
			}
		})
	}
}
