package treeread

import (
	"bytes"
	"io/fs"
	"os"
	"slices"
	"strings"
	"syscall"
	"unsafe"
)

// listDir appends a folder's entries to entries, read with getdents64 into
// the walker's buffer: a test tree is mostly files whose type the listing
// gives, so, unlike os.ReadDir, it makes no object per entry, and the
// folder it opens can be handed on instead of being opened a second time.
func (w *walker) listDir(dir string, keep bool, entries []entry) ([]entry, int, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, -1, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	if w.buf == nil {
		w.buf = make([]byte, 32<<10)
	}
	for {
		n, err := syscall.ReadDirent(fd, w.buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			syscall.Close(fd)
			return sortEntries(entries), -1, &os.PathError{Op: "readdirent", Path: dir, Err: err}
		}
		if n <= 0 {
			break
		}
		entries = parseDirents(dir, w.buf[:n], entries)
	}
	if !keep {
		syscall.Close(fd)
		fd = -1
	}
	return sortEntries(entries), fd, nil
}

// The layout of struct linux_dirent64, the same on every architecture.
const (
	direntReclen = unsafe.Offsetof(syscall.Dirent{}.Reclen)
	direntType   = unsafe.Offsetof(syscall.Dirent{}.Type)
	direntName   = unsafe.Offsetof(syscall.Dirent{}.Name)
)

// parseDirents appends the entries in buf, a getdents64 result, to out.
func parseDirents(dir string, buf []byte, out []entry) []entry {
	for len(buf) > int(direntName) {
		reclen := int(*(*uint16)(unsafe.Pointer(&buf[direntReclen])))
		if reclen <= int(direntName) || reclen > len(buf) {
			break // a malformed record: keep what was read
		}
		rec := buf[:reclen]
		buf = buf[reclen:]
		name := rec[direntName:]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		if len(name) == 0 || string(name) == "." || string(name) == ".." {
			continue
		}
		e := entry{name: string(name)}
		switch rec[direntType] {
		case syscall.DT_DIR:
			e.typ = fs.ModeDir
		case syscall.DT_LNK:
			e.typ = fs.ModeSymlink
		case syscall.DT_REG:
			e.typ = 0
		case syscall.DT_UNKNOWN:
			// Some file systems do not say; ask, as os.ReadDir does.
			info, err := os.Lstat(dir + "/" + e.name)
			if err != nil {
				continue // gone since the listing, as os.ReadDir skips it
			}
			e.typ = info.Mode().Type()
		default:
			e.typ = fs.ModeIrregular
		}
		out = append(out, e)
	}
	return out
}

func sortEntries(entries []entry) []entry {
	slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(a.name, b.name) })
	return entries
}

func closeFD(fd int) {
	if fd >= 0 {
		syscall.Close(fd)
	}
}
