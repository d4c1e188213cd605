package pytestcfg

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func args(as []Arg) string {
	var out []string
	for _, a := range as {
		out = append(out, fmt.Sprintf("%d:%d %s", a.Line, a.Col, a.Text))
	}
	return strings.Join(out, " | ")
}

func TestFindFollowsPytestsOrder(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string // the file found, "" for none
	}{
		{"pytest.ini without a section still counts", map[string]string{"pytest.ini": "", "tox.ini": "[pytest]\naddopts = -x\n"}, "pytest.ini"},
		{"tox.ini without [pytest] does not", map[string]string{"tox.ini": "[tox]\nenvlist = py3\n", "setup.cfg": "[tool:pytest]\naddopts = -x\n"}, "setup.cfg"},
		{"pyproject with ini_options", map[string]string{"pyproject.toml": "[tool.pytest.ini_options]\naddopts = \"-x\"\n", "tox.ini": "[pytest]\n"}, "pyproject.toml"},
		{"pyproject without pytest table", map[string]string{"pyproject.toml": "[tool.black]\nline-length = 88\n", "tox.ini": "[pytest]\n"}, "tox.ini"},
		{"setup.cfg with [pytest] only does not count", map[string]string{"setup.cfg": "[pytest]\naddopts = -x\n"}, ""},
		{"pytest.toml comes first", map[string]string{"pytest.toml": "[pytest]\n", "pytest.ini": "[pytest]\n"}, "pytest.toml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for name, content := range tt.files {
				write(t, root, name, content)
			}
			sub := filepath.Join(root, "a", "b")
			os.MkdirAll(sub, 0o755)
			c, err := Plain(sub)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if c != nil {
				got = filepath.Base(c.File)
				if c.Dir != root {
					t.Errorf("Dir = %s, want %s", c.Dir, root)
				}
			}
			if got != tt.want {
				t.Errorf("found %q, want %q", got, tt.want)
			}
		})
	}
}

func TestINIValuesAndPositions(t *testing.T) {
	root := t.TempDir()
	write(t, root, "tox.ini", `[tox]
addopts = ignored
[pytest]
# a comment
addopts = -n 2 --reruns 2
    --dist=loadgroup  "-k a b" # not a comment
pythonpath: . src
`)
	c, err := Plain(root)
	if err != nil {
		t.Fatal(err)
	}
	want := `5:11 -n | 5:14 2 | 5:16 --reruns | 5:25 2 | 6:5 --dist=loadgroup | 6:23 -k a b | 6:32 # | 6:34 not | 6:38 a | 6:40 comment`
	if got := args(c.Options["addopts"]); got != want {
		t.Errorf("addopts:\n got %s\nwant %s", got, want)
	}
	if got := args(c.Options["pythonpath"]); got != "7:13 . | 7:15 src" {
		t.Errorf("pythonpath = %s", got)
	}
}

func TestTOMLValuesAndPositions(t *testing.T) {
	root := t.TempDir()
	write(t, root, "pyproject.toml", `[project]
name = "x"

[tool.pytest.ini_options]
addopts = "-n auto --dist load"
pythonpath = ["src", "."]
`)
	c, err := Plain(root)
	if err != nil {
		t.Fatal(err)
	}
	if got := args(c.Options["addopts"]); got != "5:12 -n | 5:15 auto | 5:20 --dist | 5:27 load" {
		t.Errorf("addopts = %s", got)
	}
	if got := args(c.Options["pythonpath"]); got != "6:15 src | 6:22 ." {
		t.Errorf("pythonpath = %s", got)
	}
	x := c.Xdist()
	if x.Workers == nil || x.Workers.Col != 12 || x.Dist == nil || x.Mode != "load" {
		t.Errorf("Xdist = %+v", x)
	}
}

func TestXdist(t *testing.T) {
	tests := []struct {
		addopts string
		workers bool
		mode    string
		off     bool
	}{
		{"-n 2 --dist loadgroup", true, "loadgroup", false},
		{"-n2 --dist=loadgroup", true, "loadgroup", false},
		{"--numprocesses=auto", true, "", false},
		{"-n 4 -n 0", false, "", false},
		{"-n 0 --numprocesses 3", true, "", false},
		{"--dist loadgroup --dist load -n 2", true, "load", false},
		{"-x --reruns 2", false, "", false},
		{"-p no:xdist -n 2", true, "", true},
	}
	for _, tt := range tests {
		c := &Config{Options: map[string][]Arg{"addopts": shlexSplit([]Arg{{Text: tt.addopts, Line: 1, Col: 1}})}}
		x := c.Xdist()
		if (x.Workers != nil) != tt.workers || x.Mode != tt.mode || x.Disabled != tt.off {
			t.Errorf("%q: workers %v mode %q disabled %v; want %v %q %v", tt.addopts, x.Workers != nil, x.Mode, x.Disabled, tt.workers, tt.mode, tt.off)
		}
	}
}

func TestBadFilesAreErrors(t *testing.T) {
	// Errors name the file relative to the working folder, with the line
	// and column, like every other message.
	for _, tc := range []struct{ name, content, want string }{
		{"pyproject.toml", "[project]\n[tool.pytest.ini_options\n", "../pyproject.toml:2:25: invalid TOML: "},
		{"pytest.ini", "[pytest]\nnot a key\n", `../pytest.ini:2:1: expected "key = value", not "not a key"`},
		{"tox.ini", "[pytest\n", "../tox.ini:1:8: a section header must end in ]"},
	} {
		root := t.TempDir()
		write(t, root, tc.name, tc.content)
		if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
		t.Chdir(filepath.Join(root, "sub"))
		_, err := Plain(".")
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: Find = %v, want an error starting %q", tc.name, err, tc.want)
		}
	}
}

func TestSplitArgs(t *testing.T) {
	got := strings.Join(SplitArgs(`--import-mode=importlib  -p 'no:cache provider' "a\"b" c\ d`), "|")
	if want := `--import-mode=importlib|-p|no:cache provider|a"b|c d`; got != want {
		t.Errorf("SplitArgs = %s, want %s", got, want)
	}
}
