package main

import (
	"bytes"
	"cmp"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
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
		{"fixturegen generate --d", "--diff --directory --dry-run"},
		{"fixturegen check --v", "--verbose"},
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

// TestCompletionOffersWhatIsAccepted: at every place, each shell's script
// offers exactly the flags fixturegen accepts there. What is accepted is
// asked of run itself: each offered flag must parse (with --help, so
// nothing runs), and the offered set must equal the flags the help lists,
// before a command (--version among them) and after each command (no
// --version: "fixturegen check --version" is refused).
func TestCompletionOffersWhatIsAccepted(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal("bash is needed to test its completion script")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "fixturegen.bash")
	if err := os.WriteFile(script, []byte(completionScript(t, "bash")), 0o644); err != nil {
		t.Fatal(err)
	}
	zsh, fish := completionScript(t, "zsh"), completionScript(t, "fish")
	places := []string{""}
	for _, cmd := range commands {
		places = append(places, cmd.name)
	}
	for _, place := range places {
		t.Run("at "+cmp.Or(place, "the top"), func(t *testing.T) {
			listed := helpFlags(t, place)
			// bash: what TAB offers after "fixturegen [CMD] -".
			line := "fixturegen " + place + " -"
			prog := "source " + script + "\nCOMP_WORDS=(" + line + ")\nCOMP_CWORD=$((${#COMP_WORDS[@]} - 1))\n_fixturegen\necho \"${COMPREPLY[*]}\"\n"
			out, err := exec.Command(bash, "-c", prog).CombinedOutput()
			if err != nil {
				t.Fatalf("bash: %v\n%s", err, out)
			}
			offered := map[string][]string{
				"bash": strings.Fields(string(out)),
				"zsh":  zshFlags(zsh, place),
				"fish": fishFlags(fish, place),
			}
			for shell, words := range offered {
				slices.Sort(words)
				if strings.Join(words, " ") != strings.Join(listed, " ") {
					t.Errorf("%s offers %v, and fixturegen %s --help lists %v", shell, words, place, listed)
				}
			}
			for _, word := range offered["bash"] {
				if !accepted(place, word) {
					t.Errorf("completion offers %s, which fixturegen %s refuses", word, place)
				}
			}
		})
	}
}

// helpFlags lists the flags that fixturegen [CMD] --help shows, long and
// short, sorted.
func helpFlags(t *testing.T, cmd string) []string {
	t.Helper()
	var stdout bytes.Buffer
	args := []string{"--help"}
	if cmd != "" {
		args = []string{cmd, "--help"}
	}
	if code := run(args, &stdout, &bytes.Buffer{}); code != exitOK {
		t.Fatalf("%v exited %d", args, code)
	}
	var words []string
	in := false
	for _, line := range strings.Split(stdout.String(), "\n") {
		switch {
		case line == "Flags:" || line == "Global flags:":
			in = true
			continue
		case strings.TrimSpace(line) == "":
			in = false
		}
		if !in {
			continue
		}
		for _, f := range strings.Fields(line) {
			f = strings.TrimSuffix(f, ",")
			if strings.HasPrefix(f, "-") {
				words = append(words, f)
			} else {
				break
			}
		}
	}
	slices.Sort(words)
	return words
}

// accepted reports whether fixturegen [CMD] parses flag: run with --help,
// so that nothing else runs, and with a value after a flag that needs one.
func accepted(cmd, flag string) bool {
	try := func(value ...string) (int, string) {
		args := append([]string{"--help", flag}, value...)
		if cmd != "" {
			args = append([]string{cmd}, args...)
		}
		var stderr bytes.Buffer
		code := run(args, &bytes.Buffer{}, &stderr)
		return code, stderr.String()
	}
	code, stderr := try()
	if strings.Contains(stderr, "flag needs an argument") {
		code, _ = try("x")
	}
	return code == exitOK
}

// zshFlags lists the flags the zsh script offers before a command (cmd
// "") or after cmd.
func zshFlags(script, cmd string) []string {
	var block string
	if cmd == "" {
		start := strings.Index(script, "global_flags=(")
		block = script[start : start+strings.Index(script[start:], "\n\t)")]
	} else {
		start := strings.Index(script, "\n\t\t"+cmd+")\n")
		block = script[start : start+strings.Index(script[start:], ";;")]
	}
	var words []string
	for _, m := range zshSpec.FindAllStringSubmatch(block, -1) {
		if m[1] != "" {
			words = append(words, strings.Split(m[1], ",")...)
		} else {
			words = append(words, m[2])
		}
	}
	return words
}

// zshSpec is one flag of an _arguments list: {-C,--directory} or '--spec.
var zshSpec = regexp.MustCompile(`\{(-[^}]+)\}|'(--[a-z-]+)\[`)

// fishFlags lists the flags the fish script offers before a command (cmd
// "") or after cmd.
func fishFlags(script, cmd string) []string {
	cond := "'__fish_use_subcommand'"
	if cmd != "" {
		cond = "'__fish_seen_subcommand_from " + cmd + "'"
	}
	var words []string
	for _, line := range strings.Split(script, "\n") {
		if !strings.Contains(line, "-n "+cond+" -l ") {
			continue
		}
		f := strings.Fields(line)
		for i := 0; i+1 < len(f); i++ {
			switch f[i] {
			case "-l":
				words = append(words, "--"+f[i+1])
			case "-s":
				words = append(words, "-"+f[i+1])
			}
		}
	}
	return words
}
