package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/pflag"
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
		{[]string{"frobnicate"}, exitError, "", "unknown command \"frobnicate\"\nrun"},
		{[]string{"genrate"}, exitError, "", `unknown command "genrate"; did you mean generate?`},
		{[]string{"-C", ".", "chekc"}, exitError, "", `unknown command "chekc"; did you mean check?`},
		{[]string{"--bogus"}, exitError, "", "unknown flag: --bogus\nrun"},
		{[]string{"--specs", "x", "check"}, exitError, "", "unknown flag: --specs; did you mean --spec?"},
		{[]string{"generate", "--bogus"}, exitError, "", "unknown flag: --bogus\nrun"},
		{[]string{"generate", "--dryrun"}, exitError, "", "unknown flag: --dryrun; did you mean --dry-run?"},
		{[]string{"generate", "-dry-run"}, exitError, "", "did you mean --dry-run?"},
		{[]string{"help", "genrate"}, exitError, "", `fixturegen help: unknown command "genrate"; did you mean generate?`},
		{[]string{"check", "--list_group"}, exitError, "", "unknown flag: --list_group; did you mean --list-group?"},
		{[]string{"probe", "--fromat", "json"}, exitError, "", "unknown flag: --fromat; did you mean --format?"},
		{[]string{"completion", "tcsh"}, exitError, "", `completion knows bash, zsh and fish, not "tcsh"`},
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

// TestUsageListsEveryCommand: a command appears in the usage however it
// was registered.
func TestUsageListsEveryCommand(t *testing.T) {
	var stdout bytes.Buffer
	printUsage(&stdout)
	for _, cmd := range commands {
		if !strings.Contains(stdout.String(), "\n  "+cmd.name+" ") {
			t.Errorf("fixturegen --help does not list %q", cmd.name)
		}
	}
}

// TestCommandHelp holds every command's help to one style: a synopsis, its
// own flags and the global ones in two lists, a boolean flag shown bare, a
// value shown as one placeholder in capitals, and examples.
func TestCommandHelp(t *testing.T) {
	placeholder := regexp.MustCompile(`^  (-[a-zA-Z], |    )--[a-z][a-z-]*( [A-Z][A-Z_]*)?   `)
	for _, cmd := range commands {
		t.Run(cmd.name, func(t *testing.T) {
			var stdout bytes.Buffer
			if code := run([]string{cmd.name, "--help"}, &stdout, &bytes.Buffer{}); code != exitOK {
				t.Fatalf("--help exited %d", code)
			}
			help := stdout.String()
			if !strings.HasPrefix(help, "Usage: fixturegen "+cmd.name+" [flags]") {
				t.Errorf("help does not start with the synopsis:\n%s", help)
			}
			// The version command's text belongs with the version work.
			if cmd.name != "version" && !strings.Contains(help, "\nExamples:\n  ") {
				t.Errorf("help has no examples:\n%s", help)
			}
			own, global, ok := strings.Cut(help, "\nFlags:\n")
			_ = own
			if !ok {
				t.Fatalf("help has no Flags section:\n%s", help)
			}
			ownFlags, globalFlags, ok := strings.Cut(global, "\nGlobal flags:\n")
			if !ok {
				t.Fatalf("help has no Global flags section:\n%s", help)
			}
			if strings.Contains(ownFlags, "--spec") || !strings.Contains(globalFlags, "--spec FILE") || !strings.Contains(globalFlags, "-C, --directory DIR") {
				t.Errorf("global flags are not listed apart:\n%s", help)
			}
			if !strings.Contains(ownFlags, "-h, --help ") {
				t.Errorf("-h is not among the command's flags:\n%s", help)
			}
			if strings.Contains(help, "[=") {
				t.Errorf("a flag is shown with an optional value:\n%s", help)
			}
			fs := commandFlags(cmd, &context{})
			fs.VisitAll(func(f *pflag.Flag) {
				name, _ := pflag.UnquoteUsage(f)
				if f.Value.Type() != "bool" && (name == "" || name != strings.ToUpper(name) || !strings.Contains(f.Usage, "`")) {
					t.Errorf("--%s needs a back-quoted placeholder in capitals in its usage, not %q", f.Name, name)
				}
			})
			for _, line := range strings.Split(ownFlags+globalFlags, "\n") {
				if strings.HasPrefix(line, "  -") && !placeholder.MatchString(line) {
					t.Errorf("flag line out of style: %q", line)
				}
			}
		})
	}
	var stdout bytes.Buffer
	run([]string{"generate", "--help"}, &stdout, &bytes.Buffer{})
	if !strings.Contains(stdout.String(), "\n      --adopt   ") || !strings.Contains(stdout.String(), "\n  -n, --dry-run   ") {
		t.Errorf("boolean flags are not shown bare:\n%s", stdout.String())
	}
}
