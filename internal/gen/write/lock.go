package write

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// LockName is the file that a command holds in the spec's folder while it
// reads the project's generated files and writes them: two generate runs on
// one spec (two editors' save hooks, a pre-commit hook and a shell) take
// turns, as git's commands take turns on index.lock. The file exists only
// while a command holds it; it holds the holder's process id, for the
// message of a command that waits too long.
const LockName = ".fixturegen.lock"

// LockWait is how long Lock waits for another command to let go before it
// gives up. A generate takes milliseconds; a command that holds the lock
// for this long is stuck, or another command's lock was left behind.
var LockWait = 30 * time.Second

// lockNote is how long Lock waits before it says, once, that it waits.
var lockNote = 2 * time.Second

// Lock is the lock of one spec's folder (see LockName).
type Lock struct {
	f    *os.File
	path string
}

// LockError is a lock that Lock did not get.
type LockError struct {
	Path   string        // the lock file, as the user reaches it
	Holder string        // what the lock file says of its holder: "pid 123"; "" when it says nothing
	Waited time.Duration // how long Lock waited; 0 when the lock could not be made at all
	Stale  bool          // the holder is a process that no longer runs (where that can be told)
	Err    error         // why the lock file could not be made, when it could not
}

func (e *LockError) Error() string {
	holder := holderName(e.Holder)
	switch {
	case e.Err != nil:
		cause, fix := (&OSError{Path: e.Path, What: "create", Place: filepath.Dir(e.Path), Err: e.Err}).explain()
		msg := fmt.Sprintf("%s: cannot create fixturegen's lock file, which a run holds while it writes so that two runs on one spec take turns: %s", e.Path, cause)
		if fix != "" {
			msg += "; " + fix
		}
		return msg
	case e.Stale:
		return fmt.Sprintf("%s was left by %s, which no longer runs; remove that file and run again", e.Path, holder)
	default:
		return fmt.Sprintf("%s has held %s for %s, so this run wrote nothing; wait for it to finish, or, if no fixturegen is running, remove that file and run again",
			holder, e.Path, e.Waited.Round(time.Second))
	}
}

func (e *LockError) Unwrap() error { return e.Err }

// holderName names the command that holds a lock whose file says holder.
func holderName(holder string) string {
	if holder == "" {
		return "another fixturegen"
	}
	return "another fixturegen (" + holder + ")"
}

// AcquireLock takes the lock of the folder dir (the spec's folder), shown
// to the user as display, waiting up to LockWait for a command that holds
// it. notify, when not nil, is called once with a sentence when the wait
// lasts longer than a moment.
func AcquireLock(dir, display string, notify func(string)) (*Lock, error) {
	path := filepath.Join(dir, LockName)
	shown := filepath.Join(display, LockName)
	start := time.Now()
	pause := 5 * time.Millisecond
	noted := false
	for {
		l, stale, err := tryLock(path)
		if err != nil {
			return nil, &LockError{Path: shown, Err: err}
		}
		if l != nil {
			return l, nil
		}
		waited := time.Since(start)
		holder := ""
		if pid := lockPid(path); pid > 0 {
			holder = "pid " + strconv.Itoa(pid)
		}
		if stale {
			return nil, &LockError{Path: shown, Holder: holder, Stale: true}
		}
		if waited >= LockWait {
			return nil, &LockError{Path: shown, Holder: holder, Waited: waited}
		}
		if !noted && waited >= lockNote && notify != nil {
			noted = true
			notify(fmt.Sprintf("waiting for %s, which holds %s while it writes", holderName(holder), shown))
		}
		time.Sleep(pause)
		pause = min(2*pause, 100*time.Millisecond)
	}
}

// lockPid reads the process id the lock file at path names, or 0.
func lockPid(path string) int {
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlock|noFollow, 0)
	if err != nil {
		return 0
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, 64))
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return 0
	}
	return max(pid, 0)
}

// stamp writes this process's id into the lock file f, for the message of
// a command that waits for it.
func stamp(f *os.File) error {
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err := f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return err
}

// Unlock lets go of the lock and removes its file.
func (l *Lock) Unlock() {
	if l != nil {
		l.unlock()
	}
}

// lockedFile reports whether f, just locked, is still the file at path: a
// holder removes the file before it lets go, so a command that waited on
// the old file must make a new one.
func lockedFile(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Lstat(path)
	if err != nil {
		return false
	}
	return os.SameFile(a, b)
}
