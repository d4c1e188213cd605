package pytext

import (
	"regexp"
	"testing"
)

func TestPatternMatchesWhatPythonFormats(t *testing.T) {
	for _, c := range []struct {
		format string
		fields map[string]string
		text   string // as Python's str.format fills format
		want   []string
	}{
		{DeadlineFormat, map[string]string{"seconds": Number},
			"recovery loop exceeded its deadline (2.5 s, real time)",
			[]string{"recovery loop exceeded its deadline", "2.5", "real time"}},
		{InterruptedFormat, map[string]string{"module": Module},
			"[fixturegen:import-interrupted module=mcp.server]", []string{"mcp.server"}},
		{LateImportFormat, map[string]string{"modules": `(.+?)`},
			"tests/a.py::t[x] imported a.b (1.20 s), c (0.01 s) for the first time while recovery_deadline was armed",
			[]string{"tests/a.py::t[x]", "a.b (1.20 s), c (0.01 s)", "recovery_deadline"}},
		{LateModuleFormat, map[string]string{"module": Module, "seconds": Number}, "a.b (1.20 s)", []string{"a.b", "1.20"}},
		{GraceFormat, map[string]string{"module": Module, "grace": Number},
			"importing mcp.server took longer than import_grace (30 s)", []string{"mcp.server", "30"}},
	} {
		re := regexp.MustCompile("^" + Pattern(c.format, c.fields) + "$")
		got := re.FindStringSubmatch(c.text)
		if got == nil {
			t.Errorf("%s: %q does not match %q", c.format, re, c.text)
			continue
		}
		for i, w := range c.want {
			if got[i+1] != w {
				t.Errorf("%s: group %d = %q, want %q", c.format, i+1, got[i+1], w)
			}
		}
	}
}

func TestNeedleIsTheLongestLiteral(t *testing.T) {
	for format, want := range map[string]string{
		LateImportFormat:  " for the first time while ",
		InterruptedFormat: "[fixturegen:import-interrupted module=",
		DeadlineFormat:    " s, ",
		"plain":           "plain",
	} {
		if got := Needle(format); got != want {
			t.Errorf("Needle(%q) = %q, want %q", format, got, want)
		}
	}
}
