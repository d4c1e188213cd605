package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/testenv"
)

// badInputs is the bad-input table of docs/hardening.md: each row is a
// project (a copy of examples/inbox) spoiled in one way, and the message
// `fixturegen generate` must print for it. Every row exits 2 and leaves
// every file of the project as it was. Keep the table in the doc in step
// with this one.
// badSpec is the spec every row starts from: the example's contract, laid
// out so that the positions in the messages below stay put when the
// example's own spec changes.
const badSpec = `version = 1

[deadline]
fixture = "recovery_deadline"
seconds = 1
timer = "real"
message = "recovery loop exceeded its deadline"
on_import = "exclude"
late_imports = "warn"

[preload]
fixture = "toy_sdk"
modules = ["toyredis", "toysdk.server.lowlevel", "toysdk.server.stdio", "toysdk.shared.message"]

[group]
name = "toy-sdk"

[paths]
conftest = "tests/inbox/conftest.py"
probe_plugin = "tests/inbox/alarm_probe.py"
probe_tests = "tests/inbox/test_channel_reconnect_alarm.py"

[probe.record]
stdio = "toysdk.server:stdio"
message = "toysdk.shared.message"

[[probe.case]]
test = "test_the_channel_reconnect_alarm_is_armed_only_after_the_sdk_is_loaded"
node = "tests/inbox/test_channel_reconnect.py::test_pending_items"
`

var badInputs = []struct {
	name  string
	spoil func(t *testing.T, dir string) // spoils the project after a good generate
	args  []string                       // after the global flags; default: generate
	want  string                         // a regexp for stderr
	skip  func() string                  // a reason to skip the row, or ""
}{
	{name: "malformed TOML", spoil: editSpec("[group]\n", "[group\n"),
		want: `^fixturegen.toml:15:7: invalid TOML: expected '.' or ']' to end table name, but got '\\n' instead\n$`},
	{name: "unknown key", spoil: editSpec("seconds = 1\n", "seconds = 1\nsecnds = 1\n"),
		want: `^fixturegen.toml:6:1: unknown key "secnds" in \[deadline\]; did you mean "seconds"\?`},
	{name: "wrong-case key", spoil: editSpec("seconds = 1\n", "Seconds = 1\n"),
		want: `^fixturegen.toml:5:1: unknown key "Seconds" in \[deadline\]; did you mean "seconds"\?\n$`}, // alone: it is the missing seconds
	{name: "wrong type", spoil: editSpec("seconds = 1\n", "seconds = \"1\"\n"),
		want: `^fixturegen.toml:5:1: deadline.seconds must be a number, not a string`},
	{name: "missing version", spoil: editSpec("version = 1\n", ""),
		want: `^fixturegen.toml:1:1: missing required key version; add version = 1`},
	{name: "unsupported version", spoil: editSpec("version = 1\n", "version = 2\n"),
		want: `^fixturegen.toml:1:1: unsupported spec version 2; this fixturegen reads version 1\n$`},
	{name: "keyword fixture name", spoil: editSpec(`fixture = "recovery_deadline"`, `fixture = "class"`),
		want: `^fixturegen.toml:4:1: deadline.fixture must be a Python identifier, not "class": it is a Python keyword`},
	{name: "same name for both fixtures", spoil: editSpec(`fixture = "toy_sdk"`, `fixture = "recovery_deadline"`),
		want: `^fixturegen.toml:12:1: preload.fixture must differ from deadline.fixture; both are "recovery_deadline"`},
	{name: "invalid module name", spoil: editSpec(`"toyredis",`, `"toy-redis", "a..b", "1st",`),
		want: `(?m)^fixturegen.toml:13:12: preload.modules\[0\] must be a dotted module name, not "toy-redis": part "toy-redis" contains '-'.*\n` +
			`fixturegen.toml:13:25: preload.modules\[1\] must be a dotted module name, not "a..b": it has an empty part.*\n` +
			`fixturegen.toml:13:33: preload.modules\[2\] must be a dotted module name, not "1st": part "1st" starts with a digit`},
	{name: "duplicate module", spoil: editSpec(`"toyredis",`, `"toyredis", "toyredis",`),
		want: `^fixturegen.toml:13:24: preload.modules\[1\] repeats module "toyredis", already listed as preload.modules\[0\] on line 13`},
	{name: "negative seconds", spoil: editSpec("seconds = 1\n", "seconds = -1\n"),
		want: `^fixturegen.toml:5:1: deadline.seconds must be a number of seconds more than 0 and at most 86400 \(a day\), not -1`},
	{name: "zero seconds", spoil: editSpec("seconds = 1\n", "seconds = 0\n"),
		want: `^fixturegen.toml:5:1: deadline.seconds must be a number of seconds more than 0 .*, not 0\n`},
	{name: "NaN seconds", spoil: editSpec("seconds = 1\n", "seconds = nan\n"),
		want: `^fixturegen.toml:5:1: deadline.seconds must be a number of seconds more than 0 .*, not nan\n`},
	{name: "infinite seconds", spoil: editSpec("seconds = 1\n", "seconds = inf\n"),
		want: `^fixturegen.toml:5:1: deadline.seconds must be a number of seconds more than 0 .*, not inf\n`},
	{name: "huge seconds", spoil: editSpec("seconds = 1\n", "seconds = 1e300\n"),
		want: `^fixturegen.toml:5:1: deadline.seconds must be a number of seconds more than 0 and at most 86400 \(a day\), not 1e300`},
	{name: "unknown timer", spoil: editSpec(`timer = "real"`, `timer = "wall"`),
		want: `^fixturegen.toml:6:1: deadline.timer must be one of "real", "virtual", "prof", "thread", "auto", not "wall"`},
	{name: "unknown on_import mode", spoil: editSpec(`on_import = "exclude"`, `on_import = "ignore"`),
		want: `^fixturegen.toml:8:1: deadline.on_import must be one of "exclude", "defer", "raise", not "ignore"`},
	{name: "unknown late_imports mode", spoil: editSpec(`late_imports = "warn"`, `late_imports = "loud"`),
		want: `^fixturegen.toml:9:1: deadline.late_imports must be one of "off", "warn", "fail", not "loud"`},
	{name: "path outside the project", spoil: editSpec(`conftest = "tests/inbox/conftest.py"`, `conftest = "../conftest.py"`),
		want: `^fixturegen.toml:19:1: paths.conftest must be a relative path inside the spec's folder, not "../conftest.py": it leads outside the spec's folder`},
	{name: "absolute path", spoil: editSpec(`conftest = "tests/inbox/conftest.py"`, `conftest = "/tmp/conftest.py"`),
		want: `^fixturegen.toml:19:1: paths.conftest must be a relative path inside the spec's folder, not "/tmp/conftest.py": it is absolute`},
	{name: "target is a folder", spoil: func(t *testing.T, dir string) {
		replaceWith(t, dir, "tests/inbox/alarm_probe.py", func(p string) error { return os.Mkdir(p, 0o755) })
	}, want: `^tests/inbox/alarm_probe.py: is a folder; fixturegen writes a file here, so point the spec at a file path\n$`},
	{name: "target is a FIFO (unreadable, even as root)", spoil: func(t *testing.T, dir string) {
		replaceWith(t, dir, "tests/inbox/conftest.py", mkfifo)
	}, want: `^tests/inbox/conftest.py: is not a regular file\n$`},
	{name: "a folder link that leads outside", spoil: func(t *testing.T, dir string) {
		symlink(t, t.TempDir(), filepath.Join(dir, "tests/inbox/out"))
		editSpec(`probe_plugin = "tests/inbox/alarm_probe.py"`, `probe_plugin = "tests/inbox/out/alarm_probe.py"`)(t, dir)
	}, want: `^tests/inbox/out/alarm_probe.py: tests/inbox/out is a link to /\S+, outside the project's folder /\S+; fixturegen reads and writes only inside it, so remove the link or point the spec at another path\n$`},
	{name: "a link to an outside file in a target's place", spoil: func(t *testing.T, dir string) {
		outside := filepath.Join(t.TempDir(), "conftest.py")
		writeFile(t, outside, "x = 1\n")
		replaceWith(t, dir, "tests/inbox/conftest.py", func(p string) error { return os.Symlink(outside, p) })
	}, want: `^tests/inbox/conftest.py: is a link to /\S+/conftest.py; fixturegen never writes through a link nor replaces one, so put the file itself here or point the spec at another path\n$`},
	{name: "a link to /dev/null in a target's place", spoil: func(t *testing.T, dir string) {
		replaceWith(t, dir, "tests/inbox/alarm_probe.py", func(p string) error { return os.Symlink("/dev/null", p) })
	}, want: `^tests/inbox/alarm_probe.py: is a link to /dev/null; fixturegen never writes through a link nor replaces one`},
	{name: "a link loop on a target's way", spoil: func(t *testing.T, dir string) {
		symlink(t, "loop", filepath.Join(dir, "tests/inbox/loop"))
		editSpec(`probe_tests = "tests/inbox/test_channel_reconnect_alarm.py"`, `probe_tests = "tests/inbox/loop/test_alarm.py"`)(t, dir)
	}, want: `^tests/inbox/loop/test_alarm.py: tests/inbox/loop is a link to loop, which does not resolve \(it loops, or leads to nothing\); fixturegen follows no such link, so remove it or point the spec at another path\n$`},
	{name: "target unreadable by its mode", spoil: func(t *testing.T, dir string) {
		chmod(t, filepath.Join(dir, "tests/inbox/conftest.py"), 0o000)
	}, want: `^tests/inbox/conftest.py: .*permission denied`, skip: func() string {
		if os.Geteuid() == 0 {
			return "root reads a file whatever its mode; the FIFO and folder rows cover an unreadable target"
		}
		return ""
	}},
	{name: "read-only target", spoil: func(t *testing.T, dir string) {
		chmod(t, filepath.Join(dir, "tests/inbox/conftest.py"), 0o444)
	}, want: `^tests/inbox/conftest.py: is read-only; make it writable \(chmod u\+w\) so fixturegen can update it\n$`},
	{name: "conftest markers duplicated", spoil: editFile("tests/inbox/conftest.py", "\n# fixturegen:end\n", "\n# fixturegen:end\n\n# fixturegen:begin\n# fixturegen:end\n"),
		want: `^tests/inbox/conftest.py:\d+:1: a second fixturegen region; the first starts on line \d+, and a conftest holds one; fix the markers by hand`},
	{name: "conftest markers nested", spoil: editFile("tests/inbox/conftest.py", "\n_fixturegen, _fixturegen_pytest = _fixturegen_load()\n", "\n# fixturegen:begin\n_fixturegen, _fixturegen_pytest = _fixturegen_load()\n"),
		want: `^tests/inbox/conftest.py:\d+:1: a second "# fixturegen:begin" marker before the region that starts on line \d+ ends; fix the markers by hand`},
	{name: "conftest with only a begin marker", spoil: editFile("tests/inbox/conftest.py", "\n# fixturegen:end\n", "\n"),
		want: `^tests/inbox/conftest.py:\d+:1: "# fixturegen:begin" marker without a matching "# fixturegen:end" marker after it`},
	{name: "conftest with only an end marker", spoil: func(t *testing.T, dir string) {
		file := filepath.Join(dir, "tests/inbox/conftest.py")
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(src), "\n")
		for i, l := range lines {
			if strings.HasPrefix(l, "# fixturegen:begin") {
				lines[i] = ""
			}
		}
		writeFile(t, file, strings.Join(lines, ""))
	}, want: `^tests/inbox/conftest.py:\d+:1: "# fixturegen:end" marker without a matching "# fixturegen:begin" marker before it`},
	{name: "conftest not UTF-8", spoil: editFile("tests/inbox/conftest.py", "toyredis.FakeRedis.", "toyredis.FakeRedis\xff."),
		want: `^tests/inbox/conftest.py:10:1: is not UTF-8; fixturegen edits only UTF-8 Python files`},
	{name: "empty spec", spoil: func(t *testing.T, dir string) { writeFile(t, filepath.Join(dir, "fixturegen.toml"), "") },
		want: `^fixturegen.toml: spec is empty; it needs at least version = 1\n$`},
	{name: "blank spec", spoil: func(t *testing.T, dir string) {
		writeFile(t, filepath.Join(dir, "fixturegen.toml"), "\n  \n# only a comment\n")
	},
		want: `^fixturegen.toml: spec is empty; it needs at least version = 1\n$`},
	{name: "spec is a folder", args: []string{"--spec", "tests", "generate"},
		want: `^tests: cannot read spec: it is a folder, not a file\n$`},
	{name: "spec is a FIFO", spoil: func(t *testing.T, dir string) {
		if err := mkfifo(filepath.Join(dir, "spec.fifo")); err != nil {
			t.Fatal(err)
		}
	}, args: []string{"--spec", "spec.fifo", "generate"},
		want: `^spec.fifo: cannot read spec: it is not a regular file\n$`},
	{name: "spec is missing", args: []string{"--spec", "nowhere.toml", "generate"},
		want: `^nowhere.toml: cannot read spec: no such file or directory\n$`},
}

// TestBadInputs runs each row of badInputs through run, the whole command
// line as main sees it, in its own copy of the example, generated from
// badSpec and then spoiled as the row says. It checks the exit
// code, the message, and that the project tree is unchanged: the same
// entries, and every file with the same bytes, mode and modification time.
func TestBadInputs(t *testing.T) {
	example, err := filepath.Abs("../../examples/inbox")
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range badInputs {
		t.Run(strings.ReplaceAll(row.name, " ", "_"), func(t *testing.T) {
			if row.skip != nil {
				if reason := row.skip(); reason != "" {
					t.Skip(reason)
				}
			}
			dir := t.TempDir()
			if err := testenv.CopyTree(example, dir); err != nil {
				t.Fatal(err)
			}
			t.Chdir(dir)
			writeFile(t, "fixturegen.toml", badSpec)
			var out bytes.Buffer
			if code := run([]string{"generate"}, &out, &out); code != exitOK {
				t.Fatalf("generate from badSpec: exit %d\n%s", code, &out)
			}
			if row.spoil != nil {
				row.spoil(t, dir)
			}
			before := snapshot(t, dir)
			args := row.args
			if args == nil {
				args = []string{"generate"}
			}
			var stdout, stderr bytes.Buffer
			code := run(args, &stdout, &stderr)
			if code != exitError {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitError, &stdout, &stderr)
			}
			if !regexp.MustCompile(row.want).MatchString(stderr.String()) {
				t.Errorf("stderr does not match %s:\n%s", row.want, &stderr)
			}
			if stdout.Len() > 0 {
				t.Errorf("stdout is not empty:\n%s", &stdout)
			}
			if after := snapshot(t, dir); after != before {
				t.Errorf("the project changed:\nbefore:\n%s\nafter:\n%s", before, after)
			}
		})
	}
}

// snapshot describes every entry under dir (see describeTree), failing t
// when the tree cannot be walked.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	desc, err := describeTree(dir)
	if err != nil {
		t.Fatal(err)
	}
	return desc
}

// describeTree describes every entry under dir without following links:
// its path, type and mode, a link's text, and for a regular file the
// SHA-256 of its bytes and its modification time. Two descriptions are
// equal when nothing below dir changed.
func describeTree(dir string) (string, error) {
	var lines []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		line := fmt.Sprintf("%s %v", rel, info.Mode())
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			line += " -> " + target
		case info.Mode().IsRegular():
			f, err := os.Open(path)
			if err == nil {
				h := sha256.New()
				_, err = io.Copy(h, f)
				f.Close()
				line += fmt.Sprintf(" %x", h.Sum(nil))
			}
			if err != nil {
				// Unreadable by its mode: its mode and time still count.
				line += " unreadable"
			}
			line += fmt.Sprintf(" %d", info.ModTime().UnixNano())
		}
		lines = append(lines, line)
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n"), err
}

// editSpec returns a spoil func that replaces old with new in the spec.
func editSpec(old, new string) func(*testing.T, string) {
	return editFile("fixturegen.toml", old, new)
}

// editFile returns a spoil func that replaces the one occurrence of old
// with new in the project file name.
func editFile(name, old, new string) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		t.Helper()
		file := filepath.Join(dir, name)
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(src), old); n != 1 {
			t.Fatalf("%q occurs %d times in %s, want once", old, n, name)
		}
		writeFile(t, file, strings.Replace(string(src), old, new, 1))
	}
}

// replaceWith removes the project file name and makes something else there.
func replaceWith(t *testing.T, dir, name string, make func(string) error) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := make(p); err != nil {
		t.Fatal(err)
	}
}

// symlink makes the link name holding target, or skips the test where the
// system makes no links.
func symlink(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Symlink(target, name); err != nil {
		t.Skip("no symbolic links here:", err)
	}
}

func writeFile(t *testing.T, file, content string) {
	t.Helper()
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// chmod changes a file's mode and restores a writable one at the end, so
// that the test's temporary folder can be removed.
func chmod(t *testing.T, file string, mode fs.FileMode) {
	t.Helper()
	if err := os.Chmod(file, mode); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(file, 0o644) })
}
