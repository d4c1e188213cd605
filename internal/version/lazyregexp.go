package version

import (
	"regexp"
	"sync"
)

// lazyRegexp compiles pattern when it is first used, not when the program
// starts: most commands never use it, and each one costs every start-up.
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}
