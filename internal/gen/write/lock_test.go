package write

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Of goroutines that take turns through the lock, no two ever hold it at
// once, and each gets it.
func TestLockTakesTurns(t *testing.T) {
	dir := t.TempDir()
	var (
		mu      sync.Mutex
		holders int
		most    int
		wg      sync.WaitGroup
	)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				l, err := AcquireLock(dir, dir, nil)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				holders++
				most = max(most, holders)
				mu.Unlock()
				time.Sleep(100 * time.Microsecond)
				mu.Lock()
				holders--
				mu.Unlock()
				l.Unlock()
			}
		}()
	}
	wg.Wait()
	if most != 1 {
		t.Errorf("%d holders held the lock at once", most)
	}
	if _, err := os.Lstat(filepath.Join(dir, LockName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock file is left after every holder let go: %v", err)
	}
}

// A lock held longer than LockWait gives up with a sentence that names the
// lock file and its holder, after saying once that it waits.
func TestLockHeldTooLong(t *testing.T) {
	dir := t.TempDir()
	held, err := AcquireLock(dir, "proj", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Unlock()
	defer func(w, n time.Duration) { LockWait, lockNote = w, n }(LockWait, lockNote)
	LockWait, lockNote = 300*time.Millisecond, 50*time.Millisecond
	var notes []string
	_, err = AcquireLock(dir, "proj", func(s string) { notes = append(notes, s) })
	var le *LockError
	if !errors.As(err, &le) || le.Waited < LockWait {
		t.Fatalf("AcquireLock of a held lock = %v, want a *LockError after %v", err, LockWait)
	}
	want := "another fixturegen (pid " + strconv.Itoa(os.Getpid()) + ") has held " + filepath.Join("proj", LockName) + " for 0s, so this run wrote nothing; wait for it to finish, or, if no fixturegen is running, remove that file and run again"
	if err.Error() != want {
		t.Errorf("message:\n%s\nwant:\n%s", err, want)
	}
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "waiting for another fixturegen (pid ") {
		t.Errorf("notes while waiting: %q, want one", notes)
	}
}

// A lock file that a killed run left behind: where flock serves, the next
// run takes it over; elsewhere, the message names the file and the dead
// holder.
func TestLockLeftBehind(t *testing.T) {
	dir := t.TempDir()
	// A process id that no process has: above the largest Linux allows.
	if err := os.WriteFile(filepath.Join(dir, LockName), []byte("4194305\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := AcquireLock(dir, dir, nil)
	if flockable {
		if err != nil {
			t.Fatalf("a lock file no process holds was not taken over: %v", err)
		}
		l.Unlock()
		return
	}
	var le *LockError
	if !errors.As(err, &le) || !le.Stale || !strings.Contains(err.Error(), "which no longer runs; remove that file") {
		t.Fatalf("AcquireLock over a dead holder's file = %v, want a stale *LockError", err)
	}
}
