package contract

import (
	"bytes"
	"math/rand"
	"slices"
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

func TestMatcherFindsEveryOccurrence(t *testing.T) {
	m := newMatcher(words([]string{"alarm", "setitimer", "ALRM"}))
	got := m.hits([]byte("alarm setitimer SIGALRM alarm"), nil)
	if len(got) != 4 {
		t.Errorf("hits = %v, want 4 offsets", got)
	}
}

// The pair search and the byte search find what a plain search finds,
// wherever the words sit and however often their bytes occur.
func TestMatcherAgreesWithPlainSearch(t *testing.T) {
	ws := []string{"recovery_deadline", "mcp_sdk", "signal", "alarm", "ALRM", "xdist_group", "kk", "k"}
	m := newMatcher(words(ws))
	rng := rand.New(rand.NewSource(1))
	alphabet := []byte("kmcp_sdrecovyalnigALRMx \n")
	for n := range 2000 {
		data := make([]byte, rng.Intn(200))
		for i := range data {
			data[i] = alphabet[rng.Intn(len(alphabet))]
		}
		for range rng.Intn(4) {
			w := ws[rng.Intn(len(ws))]
			if len(w) <= len(data) {
				copy(data[rng.Intn(len(data)-len(w)+1):], w)
			}
		}
		var want []int
		for _, w := range ws {
			for i := range data {
				if bytes.HasPrefix(data[i:], []byte(w)) {
					want = append(want, i)
				}
			}
		}
		slices.Sort(want)
		got := m.hits(data, nil)
		slices.Sort(got)
		byByte := m.byteHits(data, nil)
		slices.Sort(byByte)
		if !slices.Equal(got, want) || !slices.Equal(byByte, want) {
			t.Fatalf("case %d %q: hits %v, byte hits %v, want %v", n, data, got, byByte, want)
		}
	}
}

func TestIndexPair(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for range 20000 {
		// Mostly c, so that a pair is rare and found in any block.
		s := make([]byte, rng.Intn(300))
		for i := range s {
			s[i] = "abcccccccc"[rng.Intn(10)]
		}
		d := 1 + rng.Intn(20)
		want := -1
		for i := 0; i+d < len(s); i++ {
			if s[i] == 'a' && s[i+d] == 'b' {
				want = i
				break
			}
		}
		if got := indexPair(s, 'a', 'b', d); got != want {
			t.Fatalf("indexPair(%q, a, b, %d) = %d, want %d", s, d, got, want)
		}
	}
}
