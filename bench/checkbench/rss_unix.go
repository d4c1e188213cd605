//go:build unix

package main

import (
	"os"
	"syscall"
)

// maxRSS is the peak resident set size of a finished process, in KiB on
// Linux (bytes on macOS).
func maxRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return int64(ru.Maxrss)
	}
	return 0
}
