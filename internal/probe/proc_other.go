//go:build !unix

package probe

import (
	"os"
	"os/exec"
)

// Without process groups, the signal goes to the inner pytest alone.

func ownGroup(cmd *exec.Cmd) {}

func signalGroup(cmd *exec.Cmd, sig os.Signal) {
	if cmd.Process != nil {
		cmd.Process.Signal(sig)
	}
}
