package venv

import (
	"os"
	"path/filepath"
	"testing"
)

// mkPython makes an interpreter's file in the virtual environment env.
func mkPython(t *testing.T, env string) string {
	t.Helper()
	p := filepath.Join(env, "bin", "python")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func write(t *testing.T, p, text string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Each place a project's tools keep its Python is found, and the earlier
// place wins where several hold one.
func TestFind(t *testing.T) {
	noTools := func(string, ...string) string { return "" }
	env := func(vars map[string]string) func(string) string {
		return func(name string) string { return vars[name] }
	}
	t.Run("nothing", func(t *testing.T) {
		if got := find(t.TempDir(), env(nil), noTools); got != "" {
			t.Errorf("got %q, want none", got)
		}
	})
	t.Run("the active environment first", func(t *testing.T) {
		dir, active := t.TempDir(), t.TempDir()
		want := mkPython(t, active)
		mkPython(t, filepath.Join(dir, ".venv"))
		if got := find(dir, env(map[string]string{"VIRTUAL_ENV": active}), noTools); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	})
	t.Run("uv's named environment", func(t *testing.T) {
		dir := t.TempDir()
		want := mkPython(t, filepath.Join(dir, "envs", "uv"))
		mkPython(t, filepath.Join(dir, ".venv"))
		if got := find(dir, env(map[string]string{"UV_PROJECT_ENVIRONMENT": "envs/uv"}), noTools); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	})
	t.Run(".venv before venv", func(t *testing.T) {
		dir := t.TempDir()
		mkPython(t, filepath.Join(dir, "venv"))
		want := mkPython(t, filepath.Join(dir, ".venv"))
		if got := find(dir, env(nil), noTools); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	})
	t.Run("venv", func(t *testing.T) {
		dir := t.TempDir()
		want := mkPython(t, filepath.Join(dir, "venv"))
		if got := find(dir, env(nil), noTools); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	})
	t.Run("PDM's recorded interpreter", func(t *testing.T) {
		dir := t.TempDir()
		want := mkPython(t, t.TempDir())
		write(t, filepath.Join(dir, ".pdm-python"), want+"\n")
		if got := find(dir, env(nil), noTools); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	})
	for _, tool := range []struct{ name, file, text string }{
		{"poetry", "pyproject.toml", "[tool.poetry]\nname = \"x\"\n"},
		{"hatch", "pyproject.toml", "[tool.hatch.envs.default]\n"},
		{"hatch", "hatch.toml", "[envs.default]\n"},
	} {
		t.Run(tool.name+" names its environment in "+tool.file, func(t *testing.T) {
			dir, venv := t.TempDir(), t.TempDir()
			want := mkPython(t, venv)
			write(t, filepath.Join(dir, tool.file), tool.text)
			var asked []string
			look := func(name string, args ...string) string {
				asked = append(asked, name)
				if name == tool.name {
					return venv + "\n"
				}
				return ""
			}
			if got := find(dir, env(nil), look); got != want {
				t.Errorf("got %q, want %q (asked %q)", got, want, asked)
			}
		})
	}
	t.Run("no tool is asked about a project that does not name it", func(t *testing.T) {
		dir := t.TempDir()
		write(t, filepath.Join(dir, "pyproject.toml"), "[project]\nname = \"x\"\n")
		look := func(name string, _ ...string) string {
			t.Errorf("asked %s", name)
			return ""
		}
		find(dir, env(nil), look)
	})
	t.Run("tox's py environments first", func(t *testing.T) {
		dir := t.TempDir()
		mkPython(t, filepath.Join(dir, ".tox", "lint"))
		want := mkPython(t, filepath.Join(dir, ".tox", "py312"))
		if got := find(dir, env(nil), noTools); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	})
}
