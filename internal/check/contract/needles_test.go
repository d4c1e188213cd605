package contract

import (
	"testing"
)

func TestPrefilter(t *testing.T) {
	f := newPrefilter([]string{"recovery_deadline", "mcp_sdk"}, timerCalls)
	tests := []struct {
		name string
		src  string
		want bool
	}{
		{"nothing", "def test_x():\n    assert 1\n", false},
		{"fixture parameter", "def test_x(recovery_deadline):\n    pass\n", true},
		{"fixture in usefixtures string", "pytestmark = pytest.mark.usefixtures('mcp_sdk')\n", true},
		{"fixture only in a comment", "# use recovery_deadline here\nx = 1\n", false},
		{"timer call", "import signal\nsignal.setitimer(signal.ITIMER_REAL, 1)\n", true},
		{"imported timer", "from signal import alarm\nalarm(1)\n", true},
		{"SIGPROF handler", "import signal\nsignal.signal(signal.SIGPROF, h)\n", true},
		{"timer only in a string", "import signal\nHINT = 'signal.setitimer(1)'\n", false},
		{"timer only in a comment", "x = 1  # signal.alarm(1)\n", false},
		{"timer word without the signal module", "def test_alarm_clock():\n    pass\n", false},
		{"rare byte at the very start and end", "mcp_sdk", true},
	}
	for _, tt := range tests {
		if got := f.match([]byte(tt.src)); got != tt.want {
			t.Errorf("%s: match = %v, want %v", tt.name, got, tt.want)
		}
	}
}
