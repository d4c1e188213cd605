package triage

import "github.com/fixturegen/fixturegen/internal/lazyregexp"

// lazyRegexp compiles a pattern when it is first used: only triage uses
// these, and each one would cost every command's start-up.
var lazyRegexp = lazyregexp.New
