//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package write

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes the lock file at path with flock, without waiting. The
// system lets go of a flock when its process ends, however it ends, so a
// lock file that a killed command left behind is taken over, never stale.
func tryLock(path string) (l *Lock, stale bool, err error) {
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|nonBlock|noFollow, 0o644)
		if err != nil {
			return nil, false, err
		}
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, false, nil
		}
		if err != nil {
			f.Close()
			return nil, false, &os.PathError{Op: "flock", Path: path, Err: err}
		}
		// The holder before removed the file as it let go: the lock is
		// the file now at path, if any.
		if !lockedFile(f, path) {
			f.Close()
			continue
		}
		if err := stamp(f); err != nil {
			f.Close()
			return nil, false, err
		}
		return &Lock{f: f, path: path}, false, nil
	}
}

// unlock removes the lock file, then lets go of it by closing it: a
// command that opened the file and waits on it finds, once it has it, that
// the file is no longer at path (lockedFile), and tries again.
func (l *Lock) unlock() {
	os.Remove(l.path)
	l.f.Close()
}

// flockable: the system lets go of the lock when its holder ends.
const flockable = true
