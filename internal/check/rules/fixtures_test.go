package rules

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/fixturegen/fixturegen/internal/gen/render"
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/schema"
)

var update = flag.Bool("update", false, "rewrite the findings of testdata/<rule-id>.txtar")

// noFixture names the rules that a fixture cannot show, and why.
var noFixture = map[string]string{
	suite.ProblemUnreadable: "an archive holds no file that cannot be read (a root user reads every file); treeread's tests and testscripts/check_tree.txtar cover it",
}

// TestRuleFixtures checks each rule against its fixture,
// testdata/<rule-id>.txtar: the Python files (and the spec, pytest's
// configuration) of a project, and the findings check reports on it, in
// the archive's "findings" file. A file "links" lists the symbolic links
// to make, a "link -> target" a line. go test -update rewrites the
// findings.
func TestRuleFixtures(t *testing.T) {
	for _, c := range static {
		id := c.ID
		t.Run(id, func(t *testing.T) {
			if why := noFixture[id]; why != "" {
				t.Skip(why)
			}
			// Absolute, as runFixture leaves the working folder.
			file, err := filepath.Abs(filepath.Join("testdata", id+".txtar"))
			if err != nil {
				t.Fatal(err)
			}
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatalf("every rule has a fixture: %v", err)
			}
			got := runFixture(t, ar)
			if !strings.Contains(got, ": "+id+": ") {
				t.Errorf("%s: the fixture gives no %s finding:\n%s", file, id, got)
			}
			i := findingsFile(ar)
			if *update {
				ar.Files[i].Data = []byte(got)
				if err := os.WriteFile(file, txtar.Format(ar), 0o666); err != nil {
					t.Fatal(err)
				}
				return
			}
			if want := string(ar.Files[i].Data); got != want {
				t.Errorf("%s: the findings differ (go test -update rewrites them)\ngot:\n%s\nwant:\n%s", file, got, want)
			}
		})
	}
}

// findingsFile returns the index of the archive's findings, adding an
// empty one when it has none.
func findingsFile(ar *txtar.Archive) int {
	for i, f := range ar.Files {
		if f.Name == "findings" {
			return i
		}
	}
	ar.Files = append(ar.Files, txtar.File{Name: "findings"})
	return len(ar.Files) - 1
}

// runFixture writes the archive's project to a new folder and checks it
// as fixturegen check does, from that folder, and returns the findings
// as check prints them, with their fixes; the folder is $ROOT in them.
func runFixture(t *testing.T, ar *txtar.Archive) string {
	root := t.TempDir()
	for _, f := range ar.Files {
		switch f.Name {
		case "findings":
			continue
		case "links":
			for _, line := range strings.Split(strings.TrimSpace(string(f.Data)), "\n") {
				link, target, ok := strings.Cut(line, " -> ")
				if !ok {
					t.Fatalf("links: %q is not \"link -> target\"", line)
				}
				p := filepath.Join(root, filepath.FromSlash(link))
				if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(filepath.FromSlash(target), p); err != nil {
					t.Fatal(err)
				}
			}
			continue
		}
		p := filepath.Join(root, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(root)
	spec, err := schema.Load("fixturegen.toml")
	if err != nil {
		t.Fatal(err)
	}
	opts, err := SpecProject(spec)
	if err != nil {
		t.Fatal(err)
	}
	opts.GeneratedNames = render.RegionNames(spec)
	res, err := Check(opts)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, f := range res.Findings {
		fmt.Fprintf(&b, "%s:%d:%d: %s: %s\n    fix: %s\n", filepath.ToSlash(f.Path), f.Line, f.Col, f.Rule, f.Message, f.Fix)
	}
	// A message that names the project's folder names it as $ROOT.
	out := b.String()
	if real, err := filepath.EvalSymlinks(root); err == nil {
		out = strings.ReplaceAll(out, real, "$ROOT")
	}
	return strings.ReplaceAll(out, root, "$ROOT")
}
