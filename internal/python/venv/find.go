package venv

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// The places a project's own tools keep the Python its tests run under, in
// the order Python looks through them: the first that holds an interpreter
// wins. Each is what the tool itself would run:
//
//  1. the active virtual environment, $VIRTUAL_ENV;
//  2. uv's project environment, $UV_PROJECT_ENVIRONMENT;
//  3. .venv/ in the project folder (uv's and Poetry's in-project default);
//  4. venv/ in the project folder;
//  5. the interpreter PDM recorded in .pdm-python;
//  6. Poetry's environment, as `poetry env info --path` names it, for a
//     pyproject.toml with [tool.poetry];
//  7. hatch's default environment, as `hatch env find` names it, for a
//     pyproject.toml with [tool.hatch] or a hatch.toml;
//  8. tox's environments, .tox/*/, the py* ones first, by name;
//  9. python3 from PATH.
//
// A tool's command runs only when the project names the tool and it is on
// PATH, with a few seconds to answer.

// toolWait bounds how long Poetry or hatch may take to name their
// environment.
const toolWait = 20 * time.Second

// find returns the project's interpreter, or "" when none of the places
// holds one. getenv reads the environment; look runs a tool and returns
// its standard output.
func find(dir string, getenv func(string) string, look func(name string, args ...string) string) string {
	uv := getenv("UV_PROJECT_ENVIRONMENT")
	if uv != "" && !filepath.IsAbs(uv) {
		uv = filepath.Join(dir, uv)
	}
	for _, env := range []string{getenv("VIRTUAL_ENV"), uv, filepath.Join(dir, ".venv"), filepath.Join(dir, "venv")} {
		if p := inEnv(env); p != "" {
			return p
		}
	}
	if data, err := os.ReadFile(filepath.Join(dir, ".pdm-python")); err == nil {
		if p := strings.TrimSpace(string(data)); p != "" && isFile(p) {
			return p
		}
	}
	pyproject, _ := os.ReadFile(filepath.Join(dir, "pyproject.toml"))
	if hasTable(pyproject, "tool.poetry") {
		if p := inEnv(firstLine(look("poetry", "env", "info", "--path"))); p != "" {
			return p
		}
	}
	if hasTable(pyproject, "tool.hatch") || isFile(filepath.Join(dir, "hatch.toml")) {
		if p := inEnv(firstLine(look("hatch", "env", "find"))); p != "" {
			return p
		}
	}
	envs, _ := filepath.Glob(filepath.Join(dir, ".tox", "*"))
	sort.SliceStable(envs, func(i, j int) bool {
		return strings.HasPrefix(filepath.Base(envs[i]), "py") && !strings.HasPrefix(filepath.Base(envs[j]), "py")
	})
	for _, env := range envs {
		if p := inEnv(env); p != "" {
			return p
		}
	}
	return ""
}

// inEnv returns the interpreter of the virtual environment at env, or "".
func inEnv(env string) string {
	if env == "" {
		return ""
	}
	for _, p := range []string{filepath.Join(env, "bin", "python"), filepath.Join(env, "Scripts", "python.exe")} {
		if isFile(p) {
			return p
		}
	}
	return ""
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// hasTable reports whether a TOML document has the table name, or one
// below it, as a header of its own line.
func hasTable(doc []byte, name string) bool {
	for line := range strings.Lines(string(doc)) {
		line = strings.TrimSpace(line)
		if line == "["+name+"]" || strings.HasPrefix(line, "["+name+".") {
			return true
		}
	}
	return false
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(line)
}

// runTool runs a tool in dir when it is on PATH and returns its standard
// output, or "" when it is missing, fails or takes too long.
func runTool(dir string) func(name string, args ...string) string {
	return func(name string, args ...string) string {
		exe, err := exec.LookPath(name)
		if err != nil {
			return ""
		}
		ctx, cancel := context.WithTimeout(context.Background(), toolWait)
		defer cancel()
		cmd := exec.CommandContext(ctx, exe, args...)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			return ""
		}
		return string(out)
	}
}
