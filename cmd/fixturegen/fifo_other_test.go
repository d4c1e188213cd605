//go:build !unix

package main

import "errors"

// mkfifo fails where the system has no FIFOs; the rows that need one fail
// with it there.
func mkfifo(string) error { return errors.New("no FIFOs on this system") }
