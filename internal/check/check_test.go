package check

import (
	"bytes"
	"testing"

	"github.com/fixturegen/fixturegen/internal/check/rules"
	"github.com/fixturegen/fixturegen/internal/gen/docs"
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/schema"
)

// TestSharedFacts: the docs block check renders from its own scan of the
// tree is the one a scan of its own (suite.SpecFacts, as fixturegen docs runs)
// renders, and only a plain check shares its scan.
func TestSharedFacts(t *testing.T) {
	spec, err := schema.Load("../../examples/inbox/fixturegen.toml")
	if err != nil {
		t.Fatal(err)
	}
	spec.Paths.Docs = "docs/alarm-contract.md"
	for _, o := range []Options{{Scan: []string{"../../examples/inbox/tests"}}, {Collect: true}} {
		if _, share, err := scanOptions(spec, o); err != nil || share {
			t.Errorf("%+v: shares the scan with the docs, which read the spec's own tree without --collect (%v)", o, err)
		}
	}
	opts, share, err := scanOptions(spec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !share {
		t.Fatal("a plain check does not share its scan with the docs drift")
	}
	shared, err := rules.Check(opts)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := suite.SpecFacts(spec, opts.Conftest, opts.Planned)
	if err != nil {
		t.Fatal(err)
	}
	got, err := docs.Block(spec, shared.Facts())
	if err != nil {
		t.Fatal(err)
	}
	want, err := docs.Block(spec, fresh)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the block from check's scan differs from the block of a scan of its own:\n%s\nwant\n%s", got, want)
	}
	if len(shared.Members) == 0 || len(shared.Users) == 0 {
		t.Errorf("check's scan found %d members and %d users; the example has both", len(shared.Members), len(shared.Users))
	}
}
