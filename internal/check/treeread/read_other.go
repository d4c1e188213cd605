//go:build !unix

package treeread

// ReadFile reads the file at path into buf, growing it as needed.
func ReadFile(path string, buf []byte) ([]byte, error) {
	return readPlain(path, buf)
}

// readFileAt opens path: folders are not opened where this file builds.
func readFileAt(_ int, _, path string, buf []byte) ([]byte, error) {
	return readPlain(path, buf)
}

// closeDir closes a folder the walk opened; none is opened here.
func closeDir(int) {}
