package schema

import (
	"fmt"
	"strings"
)

// Error is one problem in a file (a spec, or a file fixturegen writes) at a
// position.
// Line and Col are 1-based; both are 0 when the problem has no position
// (an empty file, say), and then Error prints the file name alone.
type Error struct {
	File string
	Line int
	Col  int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// Errors is every problem found in one spec, in file order.
type Errors []*Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}
