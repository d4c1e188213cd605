//go:build !linux

package write

// openBelow opens the folder dir, a real path at or below root that Root's
// check found, by its path, and makes the folders missing below it. These
// systems have no openat2, so a folder swapped for a link between the
// check and the write is not caught (see Root).
func openBelow(_, dir string, missing []string) (folder, error) {
	return openPath(dir, missing)
}
