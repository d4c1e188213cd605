package schema

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestFind(t *testing.T) {
	const table = "[project]\nname = \"x\"\n\n[tool.fixturegen]\nversion = 1\n"
	tests := []struct {
		name  string
		files map[string]string
		want  string // the file found, or a part of the error
		err   bool
	}{
		{"own spec", map[string]string{DefaultFile: "version = 1\n"}, DefaultFile, false},
		{"pyproject table", map[string]string{PyprojectFile: table}, PyprojectFile, false},
		{"pyproject dotted key", map[string]string{PyprojectFile: "[tool]\nfixturegen.version = 1\n"}, PyprojectFile, false},
		{"pyproject sub-table only", map[string]string{PyprojectFile: "[tool.fixturegen.deadline]\nseconds = 1\n"}, PyprojectFile, false},
		{"pyproject without the table", map[string]string{PyprojectFile: "[tool.ruff]\nline-length = 99\n# [tool.fixturegen]\n"},
			"no fixturegen.toml, and no [tool.fixturegen] table in a pyproject.toml, in /", true},
		{"pyproject without the table, own spec", map[string]string{
			PyprojectFile: "[tool.ruff]\nline-length = 99\n", DefaultFile: "version = 1\n"}, DefaultFile, false},
		{"both", map[string]string{PyprojectFile: table, DefaultFile: "version = 1\n"},
			"pyproject.toml:4:1: [tool.fixturegen] holds a fixturegen spec, and so does fixturegen.toml beside it", true},
		{"neither", nil, "run 'fixturegen init' to write a spec", true},
		{"own spec is a folder", map[string]string{DefaultFile + "/x": ""}, "fixturegen.toml: cannot read spec: it is a folder", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range tt.files {
				p := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			// The test's folder is a repository root, so the search
			// never reaches the temporary folder's parents.
			if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
			t.Chdir(dir)
			got, err := FindUp(".")
			switch {
			case tt.err && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("Find = %q, %v; want an error containing %q", got, err, tt.want)
			case !tt.err && (err != nil || got != tt.want):
				t.Errorf("Find = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// FindUp looks from the working folder upwards, skips pyproject.toml files
// without the table, takes the nearest spec, and stops at the repository
// root.
func TestFindUp(t *testing.T) {
	const table = "[tool.fixturegen]\nversion = 1\n"
	tests := []struct {
		name  string
		files map[string]string // "DIR/" makes a folder
		from  string
		want  string // the path found, or a part of the error
		err   bool
	}{
		{"in the folder", map[string]string{"repo/" + DefaultFile: "", "repo/.git/": ""}, "repo", DefaultFile, false},
		{"two folders up", map[string]string{"repo/" + DefaultFile: "", "repo/.git/": "", "repo/tests/inbox/": ""},
			"repo/tests/inbox", "../../" + DefaultFile, false},
		{"a pyproject without the table does not stop it", map[string]string{
			"repo/" + DefaultFile: "", "repo/.git/": "", "repo/tests/" + PyprojectFile: "[tool.ruff]\n", "repo/tests/inbox/": ""},
			"repo/tests/inbox", "../../" + DefaultFile, false},
		{"the nearest wins", map[string]string{
			"repo/" + DefaultFile: "", "repo/.git/": "", "repo/tests/" + PyprojectFile: table, "repo/tests/inbox/": ""},
			"repo/tests/inbox", "../" + PyprojectFile, false},
		{"a worktree's .git file is a root", map[string]string{
			DefaultFile: "", "repo/.git": "gitdir: elsewhere\n", "repo/tests/": ""},
			"repo/tests", "or any folder above it up to", true},
		{"a clone is a root", map[string]string{DefaultFile: "", "repo/.git/": "", "repo/tests/": ""},
			"repo/tests", "run 'fixturegen init' to write a spec", true},
		{"two specs in one folder above", map[string]string{
			"repo/" + DefaultFile: "", "repo/" + PyprojectFile: table, "repo/.git/": "", "repo/tests/": ""},
			"repo/tests", "../pyproject.toml:1:1: [tool.fixturegen] holds a fixturegen spec, and so does ../fixturegen.toml beside it", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			// The outermost folder is a repository root too, so no case
			// reaches the temporary folder's parents.
			if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
			for name, text := range tt.files {
				p := filepath.Join(root, filepath.FromSlash(name))
				if strings.HasSuffix(name, "/") {
					if err := os.MkdirAll(p, 0o755); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			t.Chdir(filepath.Join(root, filepath.FromSlash(tt.from)))
			got, err := FindUp(".")
			switch {
			case tt.err && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("FindUp = %q, %v; want an error containing %q", got, err, tt.want)
			case !tt.err && (err != nil || got != tt.want):
				t.Errorf("FindUp = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// A spec in pyproject.toml loads from its table, with paths relative to the
// pyproject's folder and errors at positions in the whole file.
func TestLoadPyproject(t *testing.T) {
	dir := t.TempDir()
	src := "[project]\nname = \"x\"\n\n[tool.fixturegen]\n" + strings.ReplaceAll(minimal, "\n[", "\n[tool.fixturegen.")
	p := filepath.Join(dir, PyprojectFile)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if s.File != p || s.Dir != dir || s.Paths.Conftest == "" {
		t.Errorf("unexpected spec %+v", s)
	}

	bad := strings.Replace(src, "seconds = 5", "seconds = 0", 1)
	if err := os.WriteFile(p, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	line := strings.Count(bad[:strings.Index(bad, "seconds = 0")], "\n") + 1
	_, err = Load(p)
	want := p + ":" + strconv.Itoa(line) + ":1: tool.fixturegen.deadline.seconds must be a number of seconds more than 0"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Load = %v, want an error containing %s", err, want)
	}
}
