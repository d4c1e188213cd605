// Package diff prints unified diffs of the small files fixturegen owns,
// with go-internal's diff (the one testscript prints), under git's a/ and
// b/ names so that patch -p1 and git apply take them.
package diff

import (
	"bytes"

	godiff "github.com/rogpeppe/go-internal/diff"
)

// Unified returns the unified diff from old to new of the file name, with
// "--- a/name" and "+++ b/name" headers, or nil when they are equal.
func Unified(name string, old, new []byte) []byte {
	d := godiff.Diff("a/"+name, old, "b/"+name, new)
	// go-internal starts with a "diff a/name b/name" line of its own; the
	// unified format starts at "---".
	if _, rest, ok := bytes.Cut(d, []byte("\n")); ok && bytes.HasPrefix(d, []byte("diff ")) {
		return rest
	}
	return d
}
