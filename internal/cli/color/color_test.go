package color

import (
	"os"
	"testing"
)

func TestEnabled(t *testing.T) {
	for _, tc := range []struct {
		name     string
		terminal bool
		env      map[string]string
		want     bool
	}{
		{"terminal", true, nil, true},
		{"pipe", false, nil, false},
		{"dumb terminal", true, map[string]string{"TERM": "dumb"}, false},
		{"NO_COLOR on a terminal", true, map[string]string{"NO_COLOR": "1"}, false},
		{"empty NO_COLOR is unset", true, map[string]string{"NO_COLOR": ""}, true},
		{"FORCE_COLOR on a pipe", false, map[string]string{"FORCE_COLOR": "1"}, true},
		{"FORCE_COLOR on a dumb terminal", true, map[string]string{"FORCE_COLOR": "1", "TERM": "dumb"}, true},
		{"empty FORCE_COLOR is unset", false, map[string]string{"FORCE_COLOR": ""}, false},
		{"NO_COLOR beats FORCE_COLOR", false, map[string]string{"FORCE_COLOR": "1", "NO_COLOR": "1"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Enabled(tc.terminal, func(k string) string { return tc.env[k] }); got != tc.want {
				t.Errorf("Enabled = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestIsTerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if IsTerminal(w) {
		t.Error("a pipe is not a terminal")
	}
	f, err := os.Create(t.TempDir() + "/out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(f) {
		t.Error("a regular file is not a terminal")
	}
}

func TestPaint(t *testing.T) {
	off, on := Painter{}, Painter{On: true}
	if got := off.Paint(Red, "x"); got != "x" {
		t.Errorf("off: %q", got)
	}
	if got := on.Paint(Red, "x"); got != "\x1b[31mx\x1b[0m" {
		t.Errorf("on: %q", got)
	}
	diff := "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-old\n+new\n same\n"
	if got := off.Diff(diff); got != diff {
		t.Errorf("off diff changed: %q", got)
	}
	want := "\x1b[1m--- a/f\x1b[0m\n\x1b[1m+++ b/f\x1b[0m\n\x1b[36m@@ -1 +1 @@\x1b[0m\n\x1b[31m-old\x1b[0m\n\x1b[32m+new\x1b[0m\n same\n"
	if got := on.Diff(diff); got != want {
		t.Errorf("on diff:\n%q\nwant\n%q", got, want)
	}
}
