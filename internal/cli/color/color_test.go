package color

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/testenv"
)

// colorCases are environments, each with whether a pipe and a terminal get
// colour. The order of the rules is pytest's: PY_COLORS, then NO_COLOR,
// then FORCE_COLOR, then the terminal.
var colorCases = []struct {
	env            map[string]string
	pipe, terminal bool
}{
	{nil, false, true},
	{map[string]string{"TERM": "dumb"}, false, false},
	{map[string]string{"PY_COLORS": "1"}, true, true},
	{map[string]string{"PY_COLORS": "0"}, false, false},
	{map[string]string{"PY_COLORS": "yes"}, false, true},
	{map[string]string{"NO_COLOR": "1"}, false, false},
	{map[string]string{"FORCE_COLOR": "1"}, true, true},
	{map[string]string{"NO_COLOR": "1", "FORCE_COLOR": "1"}, false, false},
	{map[string]string{"PY_COLORS": "1", "NO_COLOR": "1"}, true, true},
	{map[string]string{"PY_COLORS": "0", "FORCE_COLOR": "1"}, false, false},
	{map[string]string{"PY_COLORS": "1", "TERM": "dumb"}, true, true},
	{map[string]string{"NO_COLOR": ""}, false, true},
}

func TestEnabled(t *testing.T) {
	for _, tc := range colorCases {
		getenv := func(k string) string { return tc.env[k] }
		if got := Enabled(false, getenv); got != tc.pipe {
			t.Errorf("%v, a pipe: colour %v, want %v", tc.env, got, tc.pipe)
		}
		if got := Enabled(true, getenv); got != tc.terminal {
			t.Errorf("%v, a terminal: colour %v, want %v", tc.env, got, tc.terminal)
		}
	}
}

// TestEnabledAsPytest asks pytest's own terminal writer, for a pipe, in
// each environment: fixturegen and pytest agree on colour.
func TestEnabledAsPytest(t *testing.T) {
	python := testenv.Python(t)
	for _, tc := range colorCases {
		cmd := exec.Command(python, "-c", "import sys\nfrom _pytest._io.terminalwriter import should_do_markup\nprint(should_do_markup(sys.stdout))")
		cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
		for k, v := range tc.env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("python: %v", err)
		}
		want := strings.TrimSpace(string(out)) == "True"
		if got := Enabled(false, func(k string) string { return tc.env[k] }); got != want {
			t.Errorf("%v, a pipe: fixturegen colour %v, pytest %v", tc.env, got, want)
		}
	}
}
