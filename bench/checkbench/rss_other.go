//go:build !unix

package main

import "os"

// maxRSS is 0 where os.ProcessState carries no peak resident set size:
// the benchmark's memory figure is meaningful on Unix systems only.
func maxRSS(*os.ProcessState) int64 { return 0 }
