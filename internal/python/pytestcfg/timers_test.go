package pytestcfg

import (
	"fmt"
	"testing"
)

func TestTimers(t *testing.T) {
	tests := []struct {
		name, file, content string
		timeout             float64
		method              string
		signal              bool
		fault               float64
		exit                bool
		at                  string // TimeoutAt as line:col, "" for none
	}{
		{"ini keys", "pytest.ini", "[pytest]\ntimeout = 2\ntimeout_method = signal\n", 2, "signal", true, 0, false, "2:11"},
		{"default method", "pytest.ini", "[pytest]\ntimeout = 0.5\n", 0.5, "", true, 0, false, "2:11"},
		{"thread method", "tox.ini", "[pytest]\ntimeout = 5\ntimeout_method = thread\n", 5, "thread", false, 0, false, "2:11"},
		{"addopts", "pytest.ini", "[pytest]\naddopts = -n 2 --timeout 3 --timeout-method=signal\n", 3, "signal", true, 0, false, "2:16"},
		{"addopts overrides the key", "pytest.ini", "[pytest]\ntimeout = 9\naddopts = --timeout=1\n", 1, "", true, 0, false, "3:11"},
		{"turned off", "pytest.ini", "[pytest]\ntimeout = 2\naddopts = -p no:timeout\n", 2, "", false, 0, false, "2:11"},
		{"zero is none", "pytest.ini", "[pytest]\ntimeout = 0\n", 0, "", false, 0, false, "2:11"},
		{"none", "pytest.ini", "[pytest]\naddopts = -x\n", 0, "", false, 0, false, ""},
		{"pyproject", "pyproject.toml", "[tool.pytest.ini_options]\ntimeout = 4\nfaulthandler_timeout = 3\nfaulthandler_exit_on_timeout = true\n", 4, "", true, 3, true, "2:11"},
		{"faulthandler only", "setup.cfg", "[tool:pytest]\nfaulthandler_timeout = 10\n", 0, "", false, 10, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, tt.file, tt.content)
			c, err := Plain(dir)
			if err != nil || c == nil {
				t.Fatalf("Find: %v, %v", c, err)
			}
			got := c.Timers()
			if got.Timeout != tt.timeout || got.Method != tt.method || got.SignalMethod() != tt.signal || got.Faulthandler != tt.fault || got.FaulthandlerExit != tt.exit {
				t.Errorf("got %+v (signal %v)", got, got.SignalMethod())
			}
			at := ""
			if got.TimeoutAt != nil {
				at = fmt.Sprintf("%d:%d", got.TimeoutAt.Line, got.TimeoutAt.Col)
			}
			if at != tt.at {
				t.Errorf("timeout at %s, want %s", at, tt.at)
			}
		})
	}
}
