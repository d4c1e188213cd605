package contract

import (
	"bytes"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/check/pyscan"
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
		if got := f.match([]byte(tt.src), &needleScratch{}); got != tt.want {
			t.Errorf("%s: match = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// prefilterByPasses is the prefilter as it was first written, a search per
// kind of word and a Places per kind: the reference the one-pass
// prefilter must agree with.
func prefilterByPasses(names, calls []string, data []byte) bool {
	offsets := func(words []string) []int {
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
	for _, p := range pyscan.Places(data, offsets(names)) {
		if p != pyscan.InComment {
			return true
		}
	}
	sig, tim := offsets([]string{"signal"}), offsets(calls)
	if len(calls) == 0 || len(sig) == 0 || len(tim) == 0 {
		return false
	}
	inCode := func(offs []int) bool {
		for _, p := range pyscan.Places(data, offs) {
			if p == pyscan.InCode {
				return true
			}
		}
		return false
	}
	return inCode(sig) && inCode(tim)
}

// The one-pass prefilter agrees with the reference on random sources,
// with the default names, with a fixture named like a timer call or like
// the signal module, and as a filter for names only.
func TestPrefilterAgreesWithPasses(t *testing.T) {
	sets := []struct{ names, calls []string }{
		{[]string{"recovery_deadline", "mcp_sdk"}, timerCalls},
		{[]string{"alarm", "mcp_sdk"}, timerCalls},
		{[]string{"signal", ""}, timerCalls},
		{[]string{"timeout", "carrier"}, nil},
	}
	pieces := []string{"signal", ".", "alarm", "(", "setitimer", "ALRM", "SIGPROF", "recovery_deadline", "mcp_sdk",
		"timeout", "carrier", "#", "'", "\"", "\"\"\"", "'''", "f'{", "{", "}", ":", "\n", "\r", " ", "\\", "x", "é", "NOTE = \""}
	rng := rand.New(rand.NewSource(6))
	for n := range 20000 {
		set := sets[n%len(sets)]
		f := newPrefilter(set.names, set.calls)
		var b strings.Builder
		for range rng.Intn(30) {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		data := []byte(b.String())
		want := prefilterByPasses(set.names, set.calls, data)
		if got := f.match(data, &needleScratch{}); got != want {
			t.Fatalf("names %q, calls %q: match(%q) = %v, want %v", set.names, set.calls, data, got, want)
		}
	}
}
