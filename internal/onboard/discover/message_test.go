package discover

import (
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/testenv"
)

// The spec's message says what the hand-written one said: a {seconds}
// field stands where it stated the seconds, with the format that gives the
// same text, and only there.
func TestSecondsMessage(t *testing.T) {
	for _, tc := range []struct {
		samples []Sample
		want    string
		changes bool
	}{
		{[]Sample{{10, "Test exceeded 10 seconds"}}, "Test exceeded {seconds} seconds", false},
		{[]Sample{{5, "Test timed out after 5.0s"}}, "Test timed out after {seconds:.1f}s", false},
		{[]Sample{{2.5, "over 2.5 s"}}, "over {seconds} s", false},
		{[]Sample{{1.5, "timed out after 1.50s"}}, "timed out after {seconds:.2f}s", false},
		{[]Sample{{3, "deadline: 3"}}, "deadline: {seconds}", false},
		// One sample: a number equal to the seconds, with no unit after
		// it, is left as written.
		{[]Sample{{10, "10 workers timed out"}}, "10 workers timed out", false},
		{[]Sample{{10, "Test exceeded 110 seconds"}}, "Test exceeded 110 seconds", false},
		{[]Sample{{2, "v1.2 timed out"}}, "v1.2 timed out", false},
		{[]Sample{{2, "test exceeded 2.05 s"}}, "test exceeded 2.05 s", false},
		// Braces are literal text.
		{[]Sample{{4, "{slow} test over 4 s"}}, "{{slow}} test over {seconds} s", false},
		// Several samples decide: the number that changes with the seconds.
		{[]Sample{{10, "10 workers: over 10"}, {311, "10 workers: over 311"}}, "10 workers: over {seconds}", false},
		{[]Sample{{1, "took 1 of 1 s"}, {311, "took 311 of 311 s"}}, "took {seconds} of {seconds} s", false},
		{[]Sample{{1, "try 1 of 1 s"}, {311, "try 1 of 311 s"}}, "try 1 of {seconds} s", false},
		{[]Sample{{3, "slow"}, {311, "slow"}}, "slow", false},
		// A message that changes in a way no field says.
		{[]Sample{{1, "over 1000 ms"}, {311, "over 311000 ms"}}, "over 1000 ms", true},
	} {
		got, changes := SecondsMessage(tc.samples)
		if got != tc.want || changes != tc.changes {
			t.Errorf("%v: %q, %v; want %q, %v", tc.samples, got, changes, tc.want, tc.changes)
		}
		if !changes {
			for _, s := range tc.samples {
				if text, ok := FormatMessage(got, s.Seconds); !ok || text != s.Text {
					t.Errorf("%q at %v s formats to %q, want %q", got, s.Seconds, text, s.Text)
				}
			}
		}
	}
}

// formatSeconds formats as Python's format() does.
func TestFormatSeconds(t *testing.T) {
	for _, tc := range []struct {
		seconds float64
		spec    string
		want    string
	}{
		{10, "", "10"}, {2.5, "", "2.5"}, {0.1, "", "0.1"}, {1234567.5, "", "1234567.5"}, {1e-5, "", "1e-05"},
		{3, ":g", "3"}, {2.5, ":g", "2.5"}, {1234567, ":g", "1.23457e+06"},
		{5, ":.1f", "5.0"}, {1.25, ":.1f", "1.2"}, {2, ":.0f", "2"}, {2.5, ":.0f", "2"},
		{2, ":x", ""},
	} {
		if got := formatSeconds(tc.seconds, tc.spec); got != tc.want {
			t.Errorf("format(%v, %q) = %q, want %q", tc.seconds, tc.spec, got, tc.want)
		}
	}
}

// formatSeconds agrees with Python's own format(), S passed as the
// generated deadline passes it.
func TestFormatSecondsAgreesWithPython(t *testing.T) {
	python := testenv.Python(t)
	values := []float64{0.001, 0.1, 0.25, 1, 1.5, 2.05, 3.0000001, 10, 59.999, 120, 1234567, 1234567.5, 1e-5, 1e16}
	specs := append([]string{}, formatSpecs...)
	var script strings.Builder
	script.WriteString("for v in [")
	for _, v := range values {
		script.WriteString(strconv.FormatFloat(v, 'g', -1, 64) + ",")
	}
	script.WriteString("]:\n    s = int(v) if v == int(v) else v\n")
	for _, spec := range specs {
		fmt.Fprintf(&script, "    print(repr(format(s, %q)))\n", strings.TrimPrefix(spec, ":"))
	}
	out, err := exec.Command(python, "-c", script.String()).Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for i, v := range values {
		for j, spec := range specs {
			want := strings.Trim(lines[i*len(specs)+j], "'")
			if got := formatSeconds(v, spec); got != want {
				t.Errorf("format(%v, %q) = %q, Python says %q", v, spec, got, want)
			}
		}
	}
}
