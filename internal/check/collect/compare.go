package collect

import (
	"github.com/fixturegen/fixturegen/internal/check/finding"
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/internal/relpath"
)

// Compare sets the tests the static model sees against the test functions
// pytest collects, so that users learn the model's blind spots. Files in
// skip (the generated files, which the model compares instead of reading)
// are left out on both sides.
func Compare(v *View, static []suite.Test, skip map[string]bool, cwd string) *finding.ModelGap {
	gap := &finding.ModelGap{Missed: []string{}, NotCollected: []string{}}
	seen := map[string]bool{}
	for _, t := range static {
		if !skip[t.Abs] {
			seen[t.Abs+"::"+t.Name] = true
		}
	}
	collected := map[string]bool{}
	for i := range v.Items {
		it := &v.Items[i]
		if !it.Python || skip[it.Path] {
			continue
		}
		key := it.Path + "::" + it.Test
		if collected[key] {
			if seen[key] {
				gap.Items++ // parametrized: one test function, another item
			}
			continue
		}
		collected[key] = true
		if seen[key] {
			gap.Agree++
			gap.Items++
		} else {
			gap.Missed = append(gap.Missed, relpath.Rel(cwd, it.Path)+"::"+it.Test)
		}
	}
	done := map[string]bool{}
	for _, t := range static {
		key := t.Abs + "::" + t.Name
		if skip[t.Abs] || collected[key] || done[key] {
			continue
		}
		done[key] = true
		gap.NotCollected = append(gap.NotCollected, relpath.Rel(cwd, t.Abs)+"::"+t.Name)
	}
	return gap
}
