package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func completionScript(t *testing.T, shell string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"completion", shell}, &stdout, &stderr); code != exitOK {
		t.Fatalf("completion %s exited %d: %s", shell, code, stderr.String())
	}
	return stdout.String()
}

// TestCompletionBash parses the bash script with bash -n, then loads it
// and calls its function as bash does on TAB, with COMP_WORDS and
// COMP_CWORD set, to see what each line completes to.
func TestCompletionBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal("bash is needed to test its completion script")
	}
	script := filepath.Join(t.TempDir(), "fixturegen.bash")
	if err := os.WriteFile(script, []byte(completionScript(t, "bash")), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bash, "-n", script).CombinedOutput(); err != nil {
		t.Fatalf("bash -n: %v\n%s", err, out)
	}
	dir := t.TempDir()
	for _, name := range []string{"fixturegen.toml", "pyproject.toml", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "tests"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		line string // the words typed; the last one is being completed
		want string
	}{
		{"fixturegen ge", "generate"},
		{"fixturegen c", "check completion"},
		{"fixturegen -C tests ge", "generate"},
		{"fixturegen --spec fixturegen.toml pro", "probe"},
		{"fixturegen generate --d", "--directory --dry-run"},
		{"fixturegen generate --ad", "--adopt"},
		{"fixturegen check --format ''", "text json github"},
		{"fixturegen probe --format ''", "text json"},
		{"fixturegen check --spec ''", "tests fixturegen.toml pyproject.toml"},
		{"fixturegen -C ''", "tests"},
		{"fixturegen completion ''", "bash zsh fish"},
		{"fixturegen --", "--directory --help --spec --version"},
	} {
		t.Run(tc.line, func(t *testing.T) {
			prog := "source " + script + "\nCOMP_WORDS=(" + tc.line + ")\nCOMP_CWORD=$((${#COMP_WORDS[@]} - 1))\n_fixturegen\necho \"${COMPREPLY[*]}\"\n"
			cmd := exec.Command(bash, "-c", prog)
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("bash: %v\n%s", err, out)
			}
			if got := strings.TrimSpace(string(out)); got != tc.want {
				t.Errorf("completes to %q, want %q", got, tc.want)
			}
		})
	}
}

// TestCompletionCoversTheTable: every command and every flag reaches each
// shell's script, since the scripts are made from the command table and
// the flag sets.
func TestCompletionCoversTheTable(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish"} {
		script := completionScript(t, shell)
		for _, cmd := range commands {
			if !strings.Contains(script, cmd.name) {
				t.Errorf("%s: no command %s", shell, cmd.name)
			}
			commandFlags(cmd, &context{}).VisitAll(func(f *pflag.Flag) {
				if !strings.Contains(script, "-"+f.Name) && !strings.Contains(script, "-l "+f.Name) {
					t.Errorf("%s: no flag --%s of %s", shell, f.Name, cmd.name)
				}
			})
		}
		if !strings.Contains(script, "text json github") {
			t.Errorf("%s: no --format values", shell)
		}
	}
}

// TestCompletionZshFish parses the zsh and fish scripts with their shells,
// where installed, and asks fish what a line completes to.
func TestCompletionZshFish(t *testing.T) {
	for _, shell := range []string{"zsh", "fish"} {
		t.Run(shell, func(t *testing.T) {
			path, err := exec.LookPath(shell)
			if err != nil {
				t.Skipf("%s is not installed", shell)
			}
			script := filepath.Join(t.TempDir(), "fixturegen."+shell)
			if err := os.WriteFile(script, []byte(completionScript(t, shell)), 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command(path, "-n", script).CombinedOutput(); err != nil {
				t.Fatalf("%s -n: %v\n%s", shell, err, out)
			}
			if shell != "fish" {
				return
			}
			for line, want := range map[string]string{
				"fixturegen ge":               "generate",
				"fixturegen check --format ":  "github json text",
				"fixturegen probe --format ":  "json text",
				"fixturegen generate --dry-r": "--dry-run",
			} {
				out, err := exec.Command(path, "-c", "source "+script+"; complete -C '"+line+"'").CombinedOutput()
				if err != nil {
					t.Fatalf("fish: %v\n%s", err, out)
				}
				var got []string
				for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
					got = append(got, strings.SplitN(l, "\t", 2)[0])
				}
				if strings.Join(got, " ") != want {
					t.Errorf("fish completes %q to %q, want %q", line, strings.Join(got, " "), want)
				}
			}
		})
	}
}
