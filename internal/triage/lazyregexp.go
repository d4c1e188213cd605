package triage

import (
	"regexp"
	"sync"
)

// lazyRegexp compiles pattern when it is first used, not when the program
// starts: only triage uses these, and each one costs every command's
// start-up.
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}
