package finding

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/python/suite"
)

func TestGitHubEscapesWhatWouldEndTheCommand(t *testing.T) {
	r := &Report{Spec: "fixturegen.toml", Findings: []Finding{{
		Rule: "own-timer", Severity: Error, Path: "tests/a,b:c%.py", Line: 3, Col: 5,
		Message: "50% of it\nis wrong", Fix: "do: this",
	}, {
		Rule: "undecodable", Severity: Warning, Path: "x.py", Line: 1, Col: 1, Message: "m",
	}}}
	var out bytes.Buffer
	r.GitHub(&out)
	lines := strings.Split(out.String(), "\n")
	want := "::error file=tests/a%2Cb%3Ac%25.py,line=3,col=5,title=fixturegen own-timer::50%25 of it%0Ais wrong%0Afix: do: this"
	if lines[0] != want {
		t.Errorf("annotation\n got %s\nwant %s", lines[0], want)
	}
	if !strings.HasPrefix(lines[1], "::warning file=x.py,line=1,col=1,") {
		t.Errorf("warning annotation = %s", lines[1])
	}
}

func TestJSONIsOneDocumentWithStableFields(t *testing.T) {
	r := &Report{Spec: "s.toml", FixCommand: "fixturegen generate", Findings: []Finding{{Rule: "stale-file", Severity: Error, Path: "p", Line: 1, Col: 1, Message: "m", Fix: "f"}}}
	var out bytes.Buffer
	if err := r.JSON(&out); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("not one JSON document: %v\n%s", err, out.String())
	}
	for _, k := range []string{"spec", "findings", "errors", "warnings", "fix_command"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("missing field %q", k)
		}
	}
	if _, ok := doc["group"]; ok {
		t.Errorf("group present without --list-group")
	}
	f := doc["findings"].([]any)[0].(map[string]any)
	for _, k := range []string{"rule", "severity", "path", "line", "col", "message", "fix"} {
		if _, ok := f[k]; !ok {
			t.Errorf("finding lacks field %q", k)
		}
	}
	if _, ok := f["diff"]; ok {
		t.Errorf("diff present without --diff")
	}
}

func TestTextEndsWithTheFixCommand(t *testing.T) {
	r := &Report{Spec: "s.toml", FixCommand: "fixturegen -C x generate", Findings: []Finding{
		{Rule: "b", Severity: Error, Path: "z.py", Line: 2, Col: 1, Message: "m2"},
		{Rule: "a", Severity: Warning, Path: "a.py", Line: 1, Col: 1, Message: "m1"},
	}}
	Sort(r.Findings)
	var out bytes.Buffer
	r.Text(&out)
	got := out.String()
	if !strings.HasPrefix(got, "a.py:1:1: a warning: m1\n") {
		t.Errorf("findings not sorted by path:\n%s", got)
	}
	if !strings.HasSuffix(got, "fixturegen check: 1 finding, 1 warning\nfix the drift with: fixturegen -C x generate\n") {
		t.Errorf("summary:\n%s", got)
	}
}

func TestTheStaticModelSectionComesAfterTheFindings(t *testing.T) {
	r := &Report{Spec: "s.toml", FixCommand: "fixturegen generate",
		Findings: []Finding{{Rule: "missing-group", Severity: Error, Path: "t.py", Line: 2, Col: 1, Message: "m"}},
		Model:    &ModelGap{Agree: 3, Missed: []string{"t.py::TestCase::test_a"}, NotCollected: []string{"u.py::TestInit::test_b"}}}
	var out bytes.Buffer
	r.Text(&out)
	want := `t.py:2:1: missing-group m
static model vs pytest: both see 3 test functions; they disagree on 2
  pytest collects, fixturegen check did not see: t.py::TestCase::test_a
  fixturegen check saw, pytest does not collect: u.py::TestInit::test_b
fixturegen check: 1 finding
fix the drift with: fixturegen generate
`
	if out.String() != want {
		t.Errorf("text\n got %q\nwant %q", out.String(), want)
	}

	out.Reset()
	if err := r.JSON(&out); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		StaticModel *ModelGap `json:"static_model"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.StaticModel == nil || doc.StaticModel.Agree != 3 || len(doc.StaticModel.Missed) != 1 || len(doc.StaticModel.NotCollected) != 1 {
		t.Errorf("static_model = %+v", doc.StaticModel)
	}

	r.Model = &ModelGap{Agree: 9}
	out.Reset()
	r.Findings = nil
	r.FixCommand = ""
	r.Text(&out)
	if out.String() != "static model vs pytest: both see the same 9 test functions\nfixturegen check: s.toml is in sync and the contract holds\n" {
		t.Errorf("agreeing text = %q", out.String())
	}
}

// A file name that is not UTF-8 keeps its bytes in path_bytes; path shows
// the valid text, and a UTF-8 name has no path_bytes at all.
func TestJSONKeepsNonUTF8PathBytes(t *testing.T) {
	name := "tests/caf\xe9.py"
	r := &Report{Spec: "s.toml", Listing: true, Group: "g",
		Findings: []Finding{{Rule: "own-timer", Severity: Error, Path: name, Line: 1, Col: 1}, {Rule: "own-timer", Severity: Error, Path: "tests/café.py", Line: 1, Col: 1}},
		Members:  []suite.Member{{Path: name}}}
	var out bytes.Buffer
	if err := r.JSON(&out); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Findings []struct {
			Path      string  `json:"path"`
			PathBytes *[]byte `json:"path_bytes"`
		} `json:"findings"`
		Group struct {
			Modules []struct {
				PathBytes []byte `json:"path_bytes"`
			} `json:"modules"`
		} `json:"group"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	f := doc.Findings
	if f[0].Path != "tests/caf\uFFFD.py" || f[0].PathBytes == nil || string(*f[0].PathBytes) != name {
		t.Errorf("non-UTF-8 path: %q, bytes %v", f[0].Path, f[0].PathBytes)
	}
	if f[1].PathBytes != nil {
		t.Errorf("UTF-8 path has path_bytes %q", *f[1].PathBytes)
	}
	if string(doc.Group.Modules[0].PathBytes) != name {
		t.Errorf("member path_bytes %q", doc.Group.Modules[0].PathBytes)
	}
	if r.Findings[0].PathBytes != nil {
		t.Error("JSON changed the report's findings")
	}
	if !strings.Contains(out.String(), `"path_bytes": "dGVzdHMvY2Fm6S5weQ=="`) {
		t.Errorf("path_bytes is not base64 of the name:\n%s", out.String())
	}
}
