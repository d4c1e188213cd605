package main

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fixturegen/fixturegen/internal/gen/write"
	"github.com/fixturegen/fixturegen/internal/testenv"
)

// killTargets are the files generate writes in the example.
var killTargets = []string{
	"tests/inbox/conftest.py",
	"tests/inbox/alarm_probe.py",
	"tests/inbox/test_channel_reconnect_alarm.py",
}

// TestGenerateSurvivesKill starts the real fixturegen generate again and
// again and kills it with SIGKILL at a random moment, which no cleanup code
// can intercept. After every kill each target must hold exactly its old
// content or exactly its new content, and any other new entry in the
// target folders must be a temporary file of one of the targets
// (".NAME.fixturegen-DIGITS"). The next complete generate must then write
// the new content everywhere and leave no temporary file.
//
// The conftest carries a few megabytes of the user's code outside the
// region, so a write takes long enough for kills to land inside it; the
// test insists that some did, or it would prove nothing.
func TestGenerateSurvivesKill(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a few hundred processes")
	}
	example, err := filepath.Abs("../../examples/inbox")
	if err != nil {
		t.Fatal(err)
	}
	bin := fixturegenBinary(t)

	dir := t.TempDir()
	if err := testenv.CopyTree(example, dir); err != nil {
		t.Fatal(err)
	}
	conftest := filepath.Join(dir, killTargets[0])
	user, err := os.ReadFile(conftest)
	if err != nil {
		t.Fatal(err)
	}
	padding := strings.Repeat("# The user's own code, kept byte for byte by every generate.\n", 64<<10)
	writeFile(t, conftest, string(user)+"\n"+padding)

	oldSpec := badSpec
	// The new spec changes every target: the region's seconds, the probe
	// plugin's record and the probe tests' case name.
	newSpec := strings.NewReplacer(
		"seconds = 1\n", "seconds = 3\n",
		"message = \"toysdk.shared.message\"\n", "message = \"toysdk.shared.message\"\ntoyredis = \"toyredis\"\n",
		`test = "test_the_channel`, `test = "test_again_the_channel`,
	).Replace(badSpec)
	generate := func() {
		t.Helper()
		out, err := exec.Command(bin, "-C", dir, "generate").CombinedOutput()
		if err != nil {
			t.Fatalf("generate: %v\n%s", err, out)
		}
	}
	contents := func() [][]byte {
		var cs [][]byte
		for _, name := range killTargets {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			cs = append(cs, b)
		}
		return cs
	}
	writeFile(t, filepath.Join(dir, "fixturegen.toml"), newSpec)
	generate()
	newContent := contents()
	writeFile(t, filepath.Join(dir, "fixturegen.toml"), oldSpec)
	generate()
	oldContent := contents()
	for i := range killTargets {
		if bytes.Equal(oldContent[i], newContent[i]) {
			t.Fatalf("%s is the same under both specs; the test needs every target to change", killTargets[i])
		}
	}
	baseline := entries(t, dir)

	// Time one whole run, to spread the kills over it.
	writeFile(t, filepath.Join(dir, "fixturegen.toml"), newSpec)
	start := time.Now()
	generate()
	whole := time.Since(start)

	rng := rand.New(rand.NewPCG(3, 2026))
	window := newKillWindow(whole * 5 / 4)
	var kills, midWrite, mixed int
	for kills < 300 && (kills < 60 || midWrite < 5) {
		restore(t, dir, oldContent)
		writeFile(t, filepath.Join(dir, "fixturegen.toml"), newSpec)
		cmd := exec.Command(bin, "-C", dir, "generate")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		delay := window.pick(rng)
		time.Sleep(delay)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		kills++

		now := contents()
		var states []string
		for i, name := range killTargets {
			switch {
			case bytes.Equal(now[i], oldContent[i]):
				states = append(states, "old")
			case bytes.Equal(now[i], newContent[i]):
				states = append(states, "new")
			default:
				t.Fatalf("kill %d: %s is neither its old nor its new content (%d bytes)", kills, name, len(now[i]))
			}
		}
		s := strings.Join(states, " ")
		both := strings.Contains(s, "old") && strings.Contains(s, "new")
		if both {
			mixed++
		}
		temps := extra(t, dir, baseline)
		switch {
		case len(temps) > 0 || both:
			// The kill landed inside the writes: the range stays.
		case strings.Contains(s, "old"):
			window.early(delay)
		default:
			window.late(delay)
		}
		if len(temps) == 0 {
			continue
		}
		midWrite++
		// The next generate finishes the job and removes what was left.
		generate()
		for i, name := range killTargets {
			if !bytes.Equal(contents()[i], newContent[i]) {
				t.Fatalf("kill %d: after a complete generate %s is not its new content", kills, name)
			}
		}
		if left := extra(t, dir, baseline); len(left) > 0 {
			t.Fatalf("kill %d left %v; the next generate left %v", kills, temps, left)
		}
	}
	generate()
	if _, err := os.Lstat(filepath.Join(dir, write.LockName)); err == nil {
		t.Fatalf("a complete generate left the lock file %s", write.LockName)
	}
	if midWrite < 5 {
		t.Fatalf("only %d of %d kills landed inside a write (a whole run takes %v); the test proves nothing", midWrite, kills, whole)
	}
	t.Logf("%d kills over runs of %v: %d left temporary files, %d left old and new files side by side", kills, whole, midWrite, mixed)
}

// killWindow is the range of delays after a generate starts within which
// the test kills it. A start on a loaded machine can take longer than the
// whole timed run, and the writes are a small part of a run, so kills
// spread over a fixed range can all miss them. The range narrows toward
// the writes instead: a kill that found nothing written moves its start
// halfway up to that delay, one that found everything written moves its
// end halfway down. When noise closes the range, it opens again whole.
type killWindow struct {
	full, lo, hi time.Duration
}

func newKillWindow(full time.Duration) *killWindow {
	return &killWindow{full: full, hi: full}
}

// pick returns a delay drawn evenly from the range.
func (w *killWindow) pick(rng *rand.Rand) time.Duration {
	return w.lo + time.Duration(rng.Int64N(int64(w.hi-w.lo)+1))
}

// early records a kill at delay d that came before any write.
func (w *killWindow) early(d time.Duration) {
	w.lo += (d - w.lo) / 2
	w.reopen()
}

// late records a kill at delay d that came after every write.
func (w *killWindow) late(d time.Duration) {
	w.hi -= (w.hi - d) / 2
	w.reopen()
}

func (w *killWindow) reopen() {
	if w.hi-w.lo < w.full/20 {
		w.lo, w.hi = 0, w.full
	}
}

// restore puts the old content back and removes every temporary file, so
// each kill starts from the same state.
func restore(t *testing.T, dir string, content [][]byte) {
	t.Helper()
	for i, name := range killTargets {
		writeFile(t, filepath.Join(dir, name), string(content[i]))
		folder := filepath.Dir(filepath.Join(dir, name))
		es, err := os.ReadDir(folder)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			if write.IsTemp(e.Name(), filepath.Base(name)) {
				os.Remove(filepath.Join(folder, e.Name()))
			}
		}
	}
}

// entries lists every path under dir.
func entries(t *testing.T, dir string) map[string]bool {
	t.Helper()
	all := map[string]bool{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		all[rel] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// extra returns the paths under dir that baseline lacks, and fails the test
// if any of them is not a temporary file of a target, beside that target.
func extra(t *testing.T, dir string, baseline map[string]bool) []string {
	t.Helper()
	var found []string
	for p := range entries(t, dir) {
		if baseline[p] {
			continue
		}
		// The lock a killed run held: no process holds it any more, and
		// the next run takes it over and removes it.
		if p == write.LockName {
			continue
		}
		ok := false
		for _, target := range killTargets {
			if filepath.Dir(p) == filepath.Dir(target) && write.IsTemp(filepath.Base(p), filepath.Base(target)) {
				ok = true
			}
		}
		if !ok {
			t.Fatalf("a killed generate left %s, which is not a temporary file of any target", p)
		}
		found = append(found, p)
	}
	return found
}

// fixturegenBinary returns a path that runs fixturegen: the test binary is
// fixturegen when called by that name (see TestMain).
func fixturegenBinary(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "fixturegen")
	if err := os.Symlink(self, bin); err != nil {
		t.Fatal(err)
	}
	return bin
}
