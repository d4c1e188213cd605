// Package shell writes the command lines fixturegen prints for its users
// to paste into a POSIX shell.
package shell

import "strings"

// Quote quotes s for a POSIX shell when it needs it.
func Quote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+=:,@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
