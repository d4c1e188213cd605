// Package lazyregexp compiles a regular expression when it is first used,
// not when the program starts: most commands never use a given one, and
// each compiled at start-up costs every command.
package lazyregexp

import (
	"regexp"
	"sync"
)

// New returns a function that compiles pattern on its first call and
// returns the same *regexp.Regexp on every call.
func New(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}
