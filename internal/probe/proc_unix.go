//go:build unix

package probe

import (
	"os"
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, so a signal reaches
// the inner pytest and everything it started, and a Ctrl-C at the terminal
// reaches fixturegen alone, which forwards it.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends sig to cmd's process group; os.Kill kills it.
func signalGroup(cmd *exec.Cmd, sig os.Signal) {
	if s, ok := sig.(syscall.Signal); ok && cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, s)
	}
}
