// Package venv says which Python runs a project's tests when the user
// names none: the one fixturegen probe, check --collect and init start.
package venv

import (
	"os"
	"path/filepath"
)

// Python returns the project's .venv/bin/python when the project folder dir
// has one, else python3 from PATH.
func Python(dir string) string {
	venv := filepath.Join(dir, ".venv", "bin", "python")
	if _, err := os.Stat(venv); err == nil {
		return venv
	}
	return "python3"
}
