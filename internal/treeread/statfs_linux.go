package treeread

import "syscall"

// ShortReadIsEOF reports whether the folder open as fd lies on a file
// system whose regular files never return fewer bytes than asked for
// before their end: those that read through the page cache
// (filemap_read) or, for tmpfs, an equivalent loop, where only a fatal
// signal cuts a read short. FUSE, network and 9p file systems may return
// short reads anywhere, and overlayfs passes on whatever the file system
// below it does, so they are read until a read returns nothing.
func ShortReadIsEOF(fd int) bool {
	var st syscall.Statfs_t
	if err := syscall.Fstatfs(fd, &st); err != nil {
		return false
	}
	switch uint32(st.Type) {
	case 0xEF53, // ext2, ext3, ext4
		0x58465342, // xfs
		0x9123683E, // btrfs
		0x01021994, // tmpfs
		0xF2F52010: // f2fs
		return true
	}
	return false
}
