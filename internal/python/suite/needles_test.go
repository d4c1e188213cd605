package suite

import (
	"bytes"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/python/pyscan"
)

func TestPrefilter(t *testing.T) {
	f := newPrefilter([]string{"recovery_deadline", "mcp_sdk"}, nil, ruleCalls, &testPatterns{funcs: namePatterns([]string{"test", "check_*"})})
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
		if got := f.match([]byte(tt.src), &needleScratch{}); got != tt.want {
			t.Errorf("%s: match = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// A mark word counts in code and in strings, but one with a space, which
// only an import spells, counts in code alone.
func TestPrefilterMarkWords(t *testing.T) {
	f := newPrefilter(nil, []string{"mark.timeout", "mark as"}, nil, &testPatterns{})
	for src, want := range map[string]bool{
		"from pytest import mark as m\n":                           true,
		"@pytest.mark.timeout(5)\ndef test_x():\n    pass\n":       true,
		"MARK = 'pytest.mark.timeout'\n":                           true,
		"def f():\n    \"\"\"The mailbox to mark as read.\"\"\"\n": false,
		"x = f'{y} mark as {z}'\n":                                 false,
		"# mark as done\nx = 1\n":                                  false,
	} {
		if got := f.match([]byte(src), &needleScratch{}); got != want {
			t.Errorf("%q: match = %v, want %v", src, got, want)
		}
	}
}

// occurrences returns, in order, every offset in data where one of words
// starts.
func occurrences(words []string, data []byte) []int {
	var offs []int
	for _, w := range words {
		for i := range data {
			if w != "" && bytes.HasPrefix(data[i:], []byte(w)) {
				offs = append(offs, i)
			}
		}
	}
	slices.Sort(offs)
	return offs
}

// prefilterByPasses is the prefilter as it was first written, a search per
// kind of word and a Places per kind: the reference the one-pass
// prefilter must agree with.
func prefilterByPasses(names, calls []string, data []byte) bool {
	offsets := func(words []string) []int { return occurrences(words, data) }
	for _, p := range pyscan.Places(data, offsets(names)) {
		if p != pyscan.InComment {
			return true
		}
	}
	sig, tim := offsets([]string{"signal"}), offsets(calls)
	if len(calls) == 0 || len(sig) == 0 || len(tim) == 0 {
		return false
	}
	in := func(offs []int, where func(pyscan.Place) bool) bool {
		return slices.ContainsFunc(pyscan.Places(data, offs), where)
	}
	// The signal module may be named in a string (import_module("signal")),
	// a timer call counts in code only.
	return in(sig, func(p pyscan.Place) bool { return p != pyscan.InComment }) &&
		in(tim, func(p pyscan.Place) bool { return p == pyscan.InCode })
}

// The one-pass prefilter agrees with the reference on random sources,
// with the default names, with a name like a timer call or like the
// signal module, and as a filter for names only; each set's names are
// marks in one source and fixture names in the next, whose reference is
// fixtureWords given every place the names occur.
func TestPrefilterAgreesWithPasses(t *testing.T) {
	sets := []struct{ names, calls []string }{
		{[]string{"recovery_deadline", "mcp_sdk"}, ruleCalls},
		{[]string{"alarm", "mcp_sdk"}, ruleCalls},
		{[]string{"signal", ""}, ruleCalls},
		{[]string{"timeout", "carrier"}, nil},
	}
	pieces := []string{"signal", ".", "alarm", "(", "setitimer", "ALRM", "SIGPROF", "recovery_deadline", "mcp_sdk",
		"timeout", "carrier", "#", "'", "\"", "\"\"\"", "'''", "f'{", "{", "}", ":", "\n", "\r", " ", "\\", "x", "é", "NOTE = \""}
	pats := &testPatterns{funcs: namePatterns([]string{"test"})}
	rng := rand.New(rand.NewSource(6))
	for n := range 20000 {
		set := sets[n%len(sets)]
		var b strings.Builder
		for range rng.Intn(30) {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		data := []byte(b.String())
		f := newPrefilter(nil, set.names, set.calls, pats)
		want := prefilterByPasses(set.names, set.calls, data)
		if n%2 == 1 {
			f = newPrefilter(set.names, nil, set.calls, pats)
			want = newFixtureWords(set.names, pats).match(data, occurrences(set.names, data)) ||
				prefilterByPasses(nil, set.calls, data)
		}
		if got := f.match(data, &needleScratch{}); got != want {
			t.Fatalf("names %q (fixtures: %v), calls %q: match(%q) = %v, want %v", set.names, n%2 == 1, set.calls, data, got, want)
		}
	}
}
