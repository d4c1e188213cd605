package contract

import (
	"testing"
)

func TestPrefilter(t *testing.T) {
	f := newPrefilter([]string{"recovery_deadline", "mcp_sdk"}, nil, timerCalls, &testPatterns{funcs: namePatterns([]string{"test", "check_*"})})
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
		{"rare byte at the very start", "mcp_sdk = 1\n", false},
		{"rare byte at the very end, in an unclosed parameter list", "def test_x(mcp_sdk", true},
		{"keyword argument", "def test_x():\n    wait(recovery_deadline=1)\n", false},
		{"attribute", "def test_x(self):\n    self.recovery_deadline = 1\n", false},
		{"part of a longer name", "def test_x(my_recovery_deadline, recovery_deadline_s):\n    pass\n", false},
		{"parameter of a helper", "def wait(recovery_deadline=None):\n    pass\n", false},
		{"parameter of a helper where fixtures are defined", "@pytest.fixture\ndef helper(recovery_deadline):\n    pass\n", true},
		{"parameter of a test named by python_functions", "def check_x(recovery_deadline):\n    pass\n", true},
		{"parameter of a unittest test", "class T(unittest.TestCase):\n    def test_x(self, recovery_deadline=None):\n        pass\n", true},
		{"parameter on a later line", "def test_x(\n    self,  # (\n    a=')',\n    recovery_deadline=1,\n):\n    pass\n", true},
		{"keyword argument in a parameter's default", "def helper(a=f(recovery_deadline=1)):\n    pass\ndef test_x(a=f(recovery_deadline=1)):\n    pass\n", true},
		{"keyword argument after a test's header", "def test_x(a=')'):\n    wait(recovery_deadline=1)\n", false},
		{"fixture's def", "@pytest.fixture\ndef recovery_deadline():\n    pass\n", true},
		{"fixture's def after a line continuation", "@pytest.fixture\ndef \\\n    recovery_deadline():\n    pass\n", true},
		{"def of the name without fixtures", "def recovery_deadline():\n    pass\n", false},
		{"fixture named in a string", "@pytest.fixture(name='recovery_deadline')\ndef d():\n    pass\n", true},
		{"string holding more than the name", "@pytest.fixture\ndef d():\n    print('recovery_deadline expired')\n", false},
		{"string of the name without fixtures", "def test_x(o):\n    getattr(o, 'recovery_deadline')\n", false},
	}
	for _, tt := range tests {
		if got := f.match([]byte(tt.src)); got != tt.want {
			t.Errorf("%s: match = %v, want %v", tt.name, got, tt.want)
		}
	}
}
