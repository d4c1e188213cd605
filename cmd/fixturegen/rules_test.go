package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/check/rules"
)

var update = flag.Bool("update", false, "rewrite the rule tables of docs/check.md from the rule registry, and the testscripts' expected output files")

// ruleTables are the tables of docs/check.md the registry writes: each
// between the line "<!-- rules:NAME begin: ... -->" and "<!-- rules:NAME end -->".
var ruleTables = []struct {
	name  string
	table func() string
}{
	{"errors", func() string { return rules.Table(false) }},
	{"warnings", func() string { return rules.Table(true) }},
	{"collect", rules.PytestTable},
	{"suppressible", rules.SuppressibleList},
}

// TestRulesDoc fails when docs/check.md's rule tables differ from what the
// registry says; go test ./cmd/fixturegen -run TestRulesDoc -update
// rewrites them.
func TestRulesDoc(t *testing.T) {
	const path = "../../docs/check.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, tb := range ruleTables {
		begin := "<!-- rules:" + tb.name + " begin: generated from the rule registry by go test ./cmd/fixturegen -run TestRulesDoc -update -->\n"
		end := "<!-- rules:" + tb.name + " end -->\n"
		i := strings.Index(doc, begin)
		j := strings.Index(doc, end)
		if i < 0 || j < i {
			t.Fatalf("%s: no %q ... %q lines around the %s table", path, strings.TrimSpace(begin), strings.TrimSpace(end), tb.name)
		}
		doc = doc[:i+len(begin)] + tb.table() + doc[j:]
	}
	if doc == string(data) {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: the rule tables differ from the rule registry; run go test ./cmd/fixturegen -run TestRulesDoc -update and review the diff", path)
}

// TestRulesHaveScripts fails when a rule's id appears in no testscript:
// every rule is shown end to end.
func TestRulesHaveScripts(t *testing.T) {
	files, err := filepath.Glob("../../testscripts/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testscripts found: %v", err)
	}
	var all strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(data)
	}
	registered := rules.All()
	if len(registered) == 0 {
		t.Fatal("the rule registry is empty")
	}
	for _, r := range registered {
		if !strings.Contains(all.String(), r.ID) {
			t.Errorf("rule %s: no testscript in testscripts/ mentions it", r.ID)
		}
	}
}
