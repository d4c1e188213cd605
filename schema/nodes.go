package schema

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// CheckCaseFiles reports, at the position of each [[probe.case]]'s node
// key, every case whose node names a test file that does not exist.
// generate stops on these: it would write probe tests that can only fail.
// (check reports them as findings instead, so Load does not.)
func CheckCaseFiles(s *Spec) error {
	var errs Errors
	for i, c := range s.Probe.Cases {
		file, _, _ := strings.Cut(c.Node, "::")
		if _, err := os.Stat(filepath.Join(s.Dir, filepath.FromSlash(file))); err == nil {
			continue
		}
		sp := s.Positions[fmt.Sprintf("probe.case[%d].node", i)]
		errs = append(errs, &Error{File: s.File, Line: sp.Line, Col: sp.Col, Msg: fmt.Sprintf(
			"probe case %s runs %s, but %s does not exist (relative to the spec's folder); point node at an existing test file",
			c.Test, c.Node, file)})
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}
