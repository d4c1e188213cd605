package main

import (
	"errors"
	"fmt"

	"github.com/fixturegen/fixturegen/internal/check/finding"
	"github.com/fixturegen/fixturegen/schema"
)

// problems turns an error into the problems it holds: one per spec error
// with its position, or one without a place.
func problems(name string, err error) []finding.Problem {
	var ses schema.Errors
	var se *schema.Error
	switch {
	case errors.As(err, &ses):
		var out []finding.Problem
		for _, e := range ses {
			out = append(out, finding.Problem{Path: e.File, Line: e.Line, Col: e.Col, Message: e.Msg})
		}
		return out
	case errors.As(err, &se):
		return []finding.Problem{{Path: se.File, Line: se.Line, Col: se.Col, Message: se.Msg}}
	}
	return []finding.Problem{{Message: fmt.Sprintf("fixturegen %s: %v", name, err)}}
}
