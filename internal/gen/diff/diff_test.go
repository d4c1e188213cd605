package diff

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestUnified(t *testing.T) {
	for _, tc := range []struct{ name, old, new, want string }{
		{"equal", "a\n", "a\n", ""},
		{"new file", "", "a\nb\n", "--- a/f\n+++ b/f\n@@ -0,0 +1,2 @@\n+a\n+b\n"},
		{"deleted", "a\n", "", "--- a/f\n+++ b/f\n@@ -1,1 +0,0 @@\n-a\n"},
		{"middle", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nfive\n6\n7\n8\n9\n",
			"--- a/f\n+++ b/f\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"},
		{"no newline", "a", "b", "--- a/f\n+++ b/f\n@@ -1,1 +1,1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(Unified("f", []byte(tc.old), []byte(tc.new))); got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestUnifiedApplies checks, where patch(1) is installed, that a diff with
// two distant hunks applies cleanly to the old file.
func TestUnifiedApplies(t *testing.T) {
	patch, err := exec.LookPath("patch")
	if err != nil {
		t.Skip("patch is not installed")
	}
	old, new := "", ""
	for i := range 40 {
		line := string(rune('a'+i%26)) + "\n"
		old += line
		if i == 3 || i == 30 {
			line = "changed\n"
		}
		new += line
	}
	dir := t.TempDir()
	f := filepath.Join(dir, "f")
	os.WriteFile(f, []byte(old), 0o644)
	os.WriteFile(filepath.Join(dir, "p"), Unified("f", []byte(old), []byte(new)), 0o644)
	cmd := exec.Command(patch, "-p1", "-i", "p")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("patch: %v\n%s", err, out)
	}
	if got, _ := os.ReadFile(f); string(got) != new {
		t.Errorf("patched file differs:\n%s", got)
	}
}
