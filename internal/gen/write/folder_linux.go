package write

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// useOpenat2 selects the descriptor-based folders; tests clear it to run
// the fallback that systems without openat2 use.
var useOpenat2 = true

// beneath is how every folder below the root is opened: beneath the folder
// the descriptor names, with no link on the way (the path is a real path
// that Root's check found, so a link on it was put there since).
const beneath = unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS

// openBelow opens the folder dir, a real path at or below root, and makes
// and opens the folders missing below it, each relative to the one
// before. It falls back to openPath where the kernel has no openat2 (before
// Linux 5.6, or a sandbox that refuses it).
func openBelow(root, dir string, missing []string) (folder, error) {
	if !useOpenat2 {
		return openPath(dir, missing)
	}
	rootFD, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: root, Err: err}
	}
	defer unix.Close(rootFD)
	rel, err := filepath.Rel(root, dir)
	if err != nil {
		return nil, err
	}
	fd, err := openat2Folder(rootFD, rel)
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) {
		return openPath(dir, missing)
	}
	if err != nil {
		return nil, changed(dir, err)
	}
	path := dir
	for _, name := range missing {
		path = filepath.Join(path, name)
		if err := unix.Mkdirat(fd, name, 0o755); err != nil && !errors.Is(err, unix.EEXIST) {
			unix.Close(fd)
			return nil, &fs.PathError{Op: "mkdir", Path: path, Err: err}
		}
		next, err := openat2Folder(fd, name)
		unix.Close(fd)
		if err != nil {
			return nil, changed(path, err)
		}
		fd = next
	}
	return &fdFolder{fd: fd, dir: path}, nil
}

// openat2Folder opens the folder name below dirFD under the rule beneath,
// again when the kernel asks for a retry (it does when a rename elsewhere
// races the lookup).
func openat2Folder(dirFD int, name string) (int, error) {
	how := unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC | unix.O_NOFOLLOW,
		Resolve: beneath,
	}
	for {
		fd, err := unix.Openat2(dirFD, name, &how)
		if err != unix.EAGAIN && err != unix.EINTR {
			return fd, err
		}
	}
}

// errChanged is why a folder that the check found did not open under the
// rule beneath.
var errChanged = errors.New("the folder changed since fixturegen checked it (a link or a file took its place); nothing was written there, so check the project's links and run again")

// changed explains an open that the rule beneath refused: the check found
// a real folder there, with no link on its way, so the tree changed under
// fixturegen. (O_NOFOLLOW with O_DIRECTORY refuses a link in the last
// place with ENOTDIR.)
func changed(path string, err error) error {
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EXDEV) || errors.Is(err, unix.ENOTDIR) {
		return &fs.PathError{Op: "open", Path: path, Err: errChanged}
	}
	return &fs.PathError{Op: "open", Path: path, Err: err}
}

// fdFolder is a folder held by its descriptor.
type fdFolder struct {
	fd  int
	dir string // its path, for messages
}

func (d *fdFolder) path() string { return d.dir }

func (d *fdFolder) err(op, name string, err error) error {
	return &fs.PathError{Op: op, Path: filepath.Join(d.dir, name), Err: err}
}

func (d *fdFolder) lstat(name string) (fs.FileMode, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return 0, d.err("lstat", name, err)
	}
	mode := fs.FileMode(st.Mode & 0o777)
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		mode |= fs.ModeDir
	case unix.S_IFLNK:
		mode |= fs.ModeSymlink
	case unix.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		mode |= fs.ModeSocket
	case unix.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		mode |= fs.ModeDevice
	}
	return mode, nil
}

func (d *fdFolder) open(name string, flag int, perm fs.FileMode) (*os.File, error) {
	fd, err := unix.Openat(d.fd, name, flag|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, uint32(perm.Perm()))
	if err != nil {
		return nil, d.err("open", name, err)
	}
	// A file opened without blocking reads and writes without it too; the
	// regular files fixturegen uses never block, and Go's poller would
	// treat the descriptor differently, so clear the flag.
	if err := unix.SetNonblock(fd, false); err != nil {
		unix.Close(fd)
		return nil, d.err("open", name, err)
	}
	return os.NewFile(uintptr(fd), filepath.Join(d.dir, name)), nil
}

func (d *fdFolder) rename(from, to string) error {
	if err := unix.Renameat(d.fd, from, d.fd, to); err != nil {
		return &os.LinkError{Op: "rename", Old: filepath.Join(d.dir, from), New: filepath.Join(d.dir, to), Err: err}
	}
	return nil
}

func (d *fdFolder) link(from, to string) error {
	if err := unix.Linkat(d.fd, from, d.fd, to, 0); err != nil {
		return &os.LinkError{Op: "link", Old: filepath.Join(d.dir, from), New: filepath.Join(d.dir, to), Err: err}
	}
	return nil
}

func (d *fdFolder) remove(name string) error {
	if err := unix.Unlinkat(d.fd, name, 0); err != nil {
		return d.err("remove", name, err)
	}
	return nil
}

func (d *fdFolder) names() ([]string, error) {
	fd, err := unix.Openat(d.fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, d.err("open", ".", err)
	}
	f := os.NewFile(uintptr(fd), d.dir)
	defer f.Close()
	return f.Readdirnames(-1)
}

func (d *fdFolder) close() { unix.Close(d.fd) }
