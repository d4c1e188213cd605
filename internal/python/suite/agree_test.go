package suite_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/fixturegen/fixturegen/internal/check/rules"
	"github.com/fixturegen/fixturegen/internal/python/pytestcfg"
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/schema"
)

// agreeTree is a tree an agreement test checks: its folder, the spec and
// the roots the check scans.
type agreeTree struct {
	dir   string
	spec  *schema.Spec
	roots []string
}

// testSpec is the spec of a tree written for a test in root: the
// region's conftest in tests/, the deadline fixture recovery_deadline.
func testSpec(root string) *schema.Spec {
	return &schema.Spec{
		Deadline: schema.Deadline{Fixture: "recovery_deadline"},
		Preload:  schema.Preload{Fixture: "toy_sdk", Modules: []string{"toysdk"}},
		Group:    schema.Group{Name: "g"},
		Paths:    schema.Paths{Conftest: "tests/conftest.py"},
		File:     "fixturegen.toml",
		Dir:      root,
	}
}

// inboxTree is the example project, with its own spec.
func inboxTree(t *testing.T) agreeTree {
	t.Helper()
	inbox, err := filepath.Abs("../../../examples/inbox")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := schema.Load(filepath.Join(inbox, "fixturegen.toml"))
	if err != nil {
		t.Fatal(err)
	}
	return agreeTree{inbox, spec, []string{"tests"}}
}

// checkAgrees checks each tree twice, the second time with plain(true),
// which turns a fast path off, and fails where the two results differ
// (findings, members and users; with listTests, the tests too), or when
// no tree gave a finding or a user to compare. fast and slow name the two
// in a failure.
func checkAgrees(t *testing.T, trees []agreeTree, listTests bool, fast, slow string, plain func(bool)) {
	t.Helper()
	found := 0
	for _, tr := range trees {
		t.Chdir(tr.dir)
		cfg, err := pytestcfg.Plain(tr.dir)
		if err != nil {
			t.Fatal(err)
		}
		check := func() string {
			res, err := rules.Check(rules.Options{Options: suite.Options{Spec: tr.spec, Roots: tr.roots, Planned: map[string]bool{},
				Conftest: filepath.Join(tr.dir, "tests", "conftest.py"), Config: cfg,
				ListGroup: true, ListUsers: true, ListTests: listTests}})
			if err != nil {
				t.Fatal(err)
			}
			found += len(res.Findings) + len(res.Users)
			return fmt.Sprintf("%+v", *res)
		}
		a := check()
		plain(true)
		b := check()
		plain(false)
		if a != b {
			t.Errorf("%s %v: %s\n%s\n%s\n%s", tr.dir, tr.roots, fast, a, slow, b)
		}
	}
	if found == 0 {
		t.Error("the trees gave no finding and no user to compare")
	}
}
