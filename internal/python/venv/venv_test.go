package venv

import (
	"os"
	"slices"
	"testing"
)

// The inner pytest gets the caller's environment but the options of the
// user's own runs and the dropped names, with the plugin's folder first
// on PYTHONPATH.
func TestEnv(t *testing.T) {
	environ := []string{"HOME=/h", "PYTEST_ADDOPTS=-n 2", "PYTEST_XDIST_WORKER=gw0", "PYTHONPATH=/src", "LIMIT=3", "PATH=/bin"}
	drop := func(name string) bool { return name == "LIMIT" }
	if got, want := Env(environ, "/plugin", drop), []string{"HOME=/h", "PATH=/bin", "PYTHONPATH=/plugin" + string(os.PathListSeparator) + "/src"}; !slices.Equal(got, want) {
		t.Errorf("with a plugin: %q, want %q", got, want)
	}
	if got, want := Env(environ, "", drop), []string{"HOME=/h", "PYTHONPATH=/src", "PATH=/bin"}; !slices.Equal(got, want) {
		t.Errorf("without: %q, want %q", got, want)
	}
}
