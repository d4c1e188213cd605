package suggest

import "testing"

func TestClosest(t *testing.T) {
	commands := []string{"generate", "check", "probe", "init", "scaffold", "docs", "completion", "version"}
	for _, tc := range []struct {
		word    string
		allowed []string
		want    string
	}{
		{"genrate", commands, "generate"},
		{"chekc", commands, "check"},
		{"Probe", commands, "probe"},
		{"dry_run", []string{"dry-run", "adopt"}, "dry-run"},
		{"dryrun", []string{"dry-run", "adopt"}, "dry-run"},
		{"frobnicate", commands, ""},
		{"x", commands, ""},
		{"Seconds", []string{"fixture", "seconds", "timer"}, "seconds"},
	} {
		if got := Closest(tc.word, tc.allowed); got != tc.want {
			t.Errorf("Closest(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
}
