//go:build unix

package main

import (
	"syscall"
	"testing"
)

// mkfifo makes a named pipe at p, for the rows about files that block a
// reader.
func mkfifo(_ *testing.T, p string) error {
	return syscall.Mkfifo(p, 0o644)
}
