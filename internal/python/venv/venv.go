// Package venv says which Python runs a project's tests when the user
// names none, the one fixturegen probe, check --collect and init start,
// and the environment they start it in.
package venv

import (
	"os"
	"runtime"
	"strings"
)

// Python returns the interpreter the project in folder dir runs its tests
// under, found as its own tools find it (see find for the order), else
// python3 from PATH.
func Python(dir string) string {
	if p := find(dir, os.Getenv, runTool(dir)); p != "" {
		return p
	}
	if runtime.GOOS == "windows" {
		return "python"
	}
	return "python3"
}

// Env returns the environment of a pytest that fixturegen starts inside a
// command of its own: environ without the options meant for the user's
// own runs (PYTEST_ADDOPTS, pytest-xdist's variables) and without the
// variables drop names, with pluginDir, the folder of fixturegen's plugin,
// first on PYTHONPATH ("" for none).
func Env(environ []string, pluginDir string, drop func(name string) bool) []string {
	var env []string
	pythonPath := pluginDir
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		switch {
		case name == "PYTEST_ADDOPTS" || strings.HasPrefix(name, "PYTEST_XDIST") || drop(name):
		case name == "PYTHONPATH" && pluginDir != "":
			if value != "" {
				pythonPath += string(os.PathListSeparator) + value
			}
		default:
			env = append(env, kv)
		}
	}
	if pluginDir != "" {
		env = append(env, "PYTHONPATH="+pythonPath)
	}
	return env
}
