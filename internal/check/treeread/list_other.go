//go:build !linux

package treeread

import "os"

// listDir appends a folder's entries to entries, read with os.ReadDir; the
// descriptor is always -1.
func (w *walker) listDir(dir string, keep bool, entries []entry) ([]entry, int, error) {
	des, err := os.ReadDir(dir)
	for _, e := range des {
		entries = append(entries, entry{e.Name(), e.Type()})
	}
	return entries, -1, err
}

func closeFD(int) {}
