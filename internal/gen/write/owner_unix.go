//go:build unix

package write

import (
	"io/fs"
	"os"
	"syscall"
)

// keepOwner gives the new content's temporary file f the owner and group
// of the file it replaces. Root may give any; another user may give only
// a group of their own, and a file system may take neither: the file then
// keeps what it can, as cp -p keeps what it can, and the write goes on.
func keepOwner(f *os.File, old fs.FileInfo) error {
	want, ok := old.Sys().(*syscall.Stat_t)
	if !ok {
		return fail("chown")
	}
	info, err := f.Stat()
	if err != nil {
		return err
	}
	have, ok := info.Sys().(*syscall.Stat_t)
	if !ok || have.Uid == want.Uid && have.Gid == want.Gid {
		return fail("chown")
	}
	if f.Chown(int(want.Uid), int(want.Gid)) != nil && have.Gid != want.Gid {
		f.Chown(-1, int(want.Gid))
	}
	return fail("chown")
}
