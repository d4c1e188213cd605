//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd)

package write

import (
	"errors"
	"io/fs"
	"os"
	"runtime"
	"syscall"
)

// tryLock creates the lock file at path, which fails while another command
// holds it. Without flock, a command that was killed leaves its lock file
// behind: when the process it names no longer runs, the lock is stale.
func tryLock(path string) (l *Lock, stale bool, err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL|noFollow, 0o644)
	if errors.Is(err, fs.ErrExist) {
		pid := lockPid(path)
		return nil, pid > 0 && !running(pid), nil
	}
	if err != nil {
		return nil, false, err
	}
	if err := stamp(f); err != nil {
		f.Close()
		os.Remove(path)
		return nil, false, err
	}
	return &Lock{f: f, path: path}, false, nil
}

// unlock closes the lock file, then removes it (a file that is open
// cannot be removed on Windows).
func (l *Lock) unlock() {
	l.f.Close()
	os.Remove(l.path)
}

// running reports whether the process pid exists.
func running(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false // Windows: no such process
	}
	defer p.Release()
	if runtime.GOOS == "windows" {
		return true
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, os.ErrPermission)
}

// flockable: the system lets go of the lock when its holder ends.
const flockable = false
