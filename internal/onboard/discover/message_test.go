package discover

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/onboard/observe"
	"github.com/fixturegen/fixturegen/internal/python/pyquote"
	"github.com/fixturegen/fixturegen/internal/testenv"
)

// The spec's message says what the hand-written one said: a {seconds}
// field stands where it stated the seconds, with the format that gives the
// same text, and only there. Each sample is a message a handler raised at
// the seconds its fixture armed, recorded by the plugin in one real
// session; the message picked gives every sample's text again under
// Python's own str.format.
func TestSecondsMessage(t *testing.T) {
	type sample struct {
		seconds float64
		text    string
	}
	cases := []struct {
		samples []sample
		want    string
		changes bool
	}{
		{[]sample{{10, "Test exceeded 10 seconds"}}, "Test exceeded {seconds} seconds", false},
		{[]sample{{5, "Test timed out after 5.0s"}}, "Test timed out after {seconds:.1f}s", false},
		{[]sample{{2.5, "over 2.5 s"}}, "over {seconds} s", false},
		{[]sample{{1.5, "timed out after 1.50s"}}, "timed out after {seconds:.2f}s", false},
		{[]sample{{3, "deadline: 3"}}, "deadline: {seconds}", false},
		{[]sample{{1234567, "over 1.23457e+06 s"}}, "over {seconds:g} s", false},
		{[]sample{{2.5, "gave up at 2 s"}}, "gave up at {seconds:.0f} s", false},
		// One sample: a number equal to the seconds, with no unit after
		// it, is left as written.
		{[]sample{{10, "10 workers timed out"}}, "10 workers timed out", false},
		{[]sample{{10, "Test exceeded 110 seconds"}}, "Test exceeded 110 seconds", false},
		{[]sample{{2, "v1.2 timed out"}}, "v1.2 timed out", false},
		{[]sample{{2, "test exceeded 2.05 s"}}, "test exceeded 2.05 s", false},
		// Braces are literal text.
		{[]sample{{4, "{slow} test over 4 s"}}, "{{slow}} test over {seconds} s", false},
		// Several samples decide: the number that changes with the seconds.
		{[]sample{{10, "10 workers: over 10"}, {311, "10 workers: over 311"}}, "10 workers: over {seconds}", false},
		{[]sample{{1, "took 1 of 1 s"}, {311, "took 311 of 311 s"}}, "took {seconds} of {seconds} s", false},
		{[]sample{{1, "try 1 of 1 s"}, {311, "try 1 of 311 s"}}, "try 1 of {seconds} s", false},
		{[]sample{{3, "slow"}, {311, "slow"}}, "slow", false},
		// A message that changes in a way no field says.
		{[]sample{{1, "over 1000 ms"}, {311, "over 311000 ms"}}, "", true},
	}
	var conftest strings.Builder
	conftest.WriteString("import signal\n\nimport pytest\n")
	var items []observe.Item
	for i, tc := range cases {
		for j, s := range tc.samples {
			name := fmt.Sprintf("m%d_%d", i, j)
			fmt.Fprintf(&conftest, "\n\n@pytest.fixture\ndef %s():\n    def handler(signum, frame):\n        raise TimeoutError(%s)\n\n    signal.signal(signal.SIGALRM, handler)\n    signal.setitimer(signal.ITIMER_REAL, %s)\n    yield\n",
				name, pyquote.String(s.text), pyquote.Number(s.seconds))
			items = append(items, observe.Item{ID: name, Dir: "tests", Fixture: name})
		}
	}
	python := testenv.Python(t)
	results, err := observe.Sessions(testenv.WriteTree(t, map[string]string{"tests/conftest.py": conftest.String()}), python, nil, []observe.Run{{Items: items}})
	if err != nil {
		t.Fatal(err)
	}
	var oracle strings.Builder
	for i, tc := range cases {
		var rings []*observe.Ring
		for j := range tc.samples {
			it := results[0].Items[fmt.Sprintf("m%d_%d", i, j)]
			if it == nil || it.Rings["0"] == nil || it.Rings["0"].Templates == nil {
				t.Fatalf("%v: the run recorded no message: %+v\n%s", tc.samples, it, results[0].Output)
			}
			rings = append(rings, it.Rings["0"])
		}
		got, changes := secondsMessage(rings)
		if got != tc.want || changes != tc.changes {
			t.Errorf("%v: %q, %v; want %q, %v", tc.samples, got, changes, tc.want, tc.changes)
		}
		for _, s := range tc.samples {
			if !changes {
				// As the generated deadline passes S: an int when whole.
				fmt.Fprintf(&oracle, "s = %s\nprint(%s.format(seconds=int(s) if s == int(s) else s))\n", pyquote.Number(s.seconds), pyquote.String(got))
			}
		}
	}
	out, err := exec.Command(python, "-c", oracle.String()).Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	n := 0
	for _, tc := range cases {
		for _, s := range tc.samples {
			if tc.changes {
				continue
			}
			if lines[n] != s.text {
				t.Errorf("%q at %v s formats to %q, want %q", tc.want, s.seconds, lines[n], s.text)
			}
			n++
		}
	}
}
