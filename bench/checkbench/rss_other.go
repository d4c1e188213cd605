//go:build !unix

package main

import "os"

// maxRSS is 0 where package syscall reports no peak resident set size.
func maxRSS(*os.ProcessState) int64 { return 0 }
