package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestRunExitCodes(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{nil, exitError, "Usage:", ""},
		{[]string{"--help"}, exitOK, "Commands:", ""},
		{[]string{"help", "generate"}, exitOK, "Usage: fixturegen generate", ""},
		{[]string{"generate", "--help"}, exitOK, "--dry-run", ""},
		{[]string{"frobnicate"}, exitError, "", `unknown command "frobnicate"`},
		{[]string{"--bogus"}, exitError, "", "unknown flag: --bogus"},
		{[]string{"generate", "--bogus"}, exitError, "", "unknown flag: --bogus"},
		{[]string{"generate", "extra"}, exitError, "", `generate takes no arguments, got "extra"`},
		{[]string{"-C", "/nonexistent/dir", "generate"}, exitError, "", "-C /nonexistent/dir: no such file or directory"},
		{[]string{"version"}, exitOK, "fixturegen ", ""},
		{[]string{"triage"}, exitError, "", "triage needs at least one FILE"},
		{[]string{"triage", "/nonexistent/job.log"}, exitError, "", "fixturegen triage: cannot read input: /nonexistent/job.log: no such file or directory"},
		{[]string{"triage", "--label", "a", "x.log", "y.log"}, exitError, "", "give one --label per FILE: 1 labels for 2 files"},
		{[]string{"triage", "--format", "xml", "x.log"}, exitError, "", "--format must be text, json or github"},
		{[]string{"triage", "../../internal/triage/testdata/token.log"}, exitFindings, "poisoned worker gw1 in attempt", ""},
		{[]string{"triage", "../../internal/triage/testdata/red.log", "../../internal/triage/testdata/red.xml"}, exitFindings, "poisoned worker gw1 in attempt", ""},
		{[]string{"triage", "--format", "json", "../../internal/triage/testdata/red.xml"}, exitFindings, `"kind": "poisoned-worker"`, ""},
		{[]string{"triage", "../../internal/triage/testdata/replay/.pytest-replay-gw1.txt"}, exitOK, "not this failure class", ""},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(tc.args, &stdout, &stderr); code != tc.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tc.code, stderr.String())
			}
			if !strings.Contains(stdout.String(), tc.stdout) {
				t.Errorf("stdout lacks %q:\n%s", tc.stdout, stdout.String())
			}
			if !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, stderr.String())
			}
		})
	}
}

// TestUsageListsEveryCommand guards the fixed order of printUsage: a new
// command must be added there, or users would never see it.
func TestUsageListsEveryCommand(t *testing.T) {
	var stdout bytes.Buffer
	printUsage(&stdout)
	for _, cmd := range commands {
		if !strings.Contains(stdout.String(), "\n  "+cmd.name+" ") {
			t.Errorf("fixturegen --help does not list %q", cmd.name)
		}
	}
}
