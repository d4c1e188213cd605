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
			"no fixturegen.toml in", true},
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
			t.Chdir(dir)
			got, err := Find(".")
			switch {
			case tt.err && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("Find = %q, %v; want an error containing %q", got, err, tt.want)
			case !tt.err && (err != nil || got != tt.want):
				t.Errorf("Find = %q, %v; want %q", got, err, tt.want)
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
