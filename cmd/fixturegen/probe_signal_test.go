//go:build unix

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fixturegen/fixturegen/internal/testenv"
)

// slowTest records its pid and process group, then sleeps far longer than
// the test waits; with IGNORE_SIGNALS it ignores Ctrl-C and SIGTERM, so
// only a kill stops it.
const slowTest = `import os
import signal
import time


def test_sleeps():
    if os.environ.get("IGNORE_SIGNALS"):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    with open(os.environ["SLOW_PIDFILE"], "w") as f:
        f.write(f"{os.getpid()} {os.getpgid(0)}")
    time.sleep(300)
`

// TestProbeInterrupted sends SIGINT or SIGTERM to a running fixturegen
// probe by its pid while the inner pytest sleeps in a test. fixturegen must
// pass the signal on to the inner run's process group (or kill it after
// the grace period when it ignores the signal), exit 130 or 143, list the
// test that finished before, and leave no process running and nothing in
// its temporary folder.
func TestProbeInterrupted(t *testing.T) {
	t.Parallel()
	python := testenv.Python(t)
	example, err := filepath.Abs("../../examples/inbox")
	if err != nil {
		t.Fatal(err)
	}
	bin := fixturegenBinary(t)
	for _, tc := range []struct {
		name   string
		sig    syscall.Signal
		ignore bool
		code   int
	}{
		{"SIGINT", syscall.SIGINT, false, 130},
		{"SIGTERM", syscall.SIGTERM, false, 143},
		{"SIGTERM ignored, then killed", syscall.SIGTERM, true, 143},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if err := testenv.CopyTree(example, dir); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(dir, "tests", "test_slow.py"), slowTest)
			tmp := t.TempDir()
			pidfile := filepath.Join(t.TempDir(), "pid")

			cmd := exec.Command(bin, "-C", dir, "probe", "--python", python,
				"tests/inbox/test_channel_reconnect.py::test_subscriber", "tests/test_slow.py::test_sleeps")
			cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "SLOW_PIDFILE="+pidfile, "PYTHONDONTWRITEBYTECODE=1")
			if tc.ignore {
				cmd.Env = append(cmd.Env, "IGNORE_SIGNALS=1")
			}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()

			// Wait until the slow test runs, so the signal lands inside
			// the inner pytest.
			var pid, pgid int
			for deadline := time.Now().Add(2 * time.Minute); ; {
				if b, err := os.ReadFile(pidfile); err == nil {
					if f := strings.Fields(string(b)); len(f) == 2 {
						pid, _ = strconv.Atoi(f[0])
						pgid, _ = strconv.Atoi(f[1])
						break
					}
				}
				if time.Now().After(deadline) {
					t.Fatalf("the slow test never started; stderr:\n%s", stderr.String())
				}
				time.Sleep(50 * time.Millisecond)
			}
			if pgid == syscall.Getpgrp() {
				t.Fatalf("the inner pytest runs in fixturegen's process group %d, not a group of its own", pgid)
			}
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(time.Minute):
				t.Fatalf("fixturegen still runs a minute after %s; stderr:\n%s", tc.name, stderr.String())
			}
			if got := cmd.ProcessState.ExitCode(); got != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", got, tc.code, stderr.String())
			}
			want := "interrupted by " + strings.Fields(tc.name)[0] + "; finished before it:\n  passed "
			if !strings.Contains(stderr.String(), want) || !strings.Contains(stderr.String(), "tests/inbox/test_channel_reconnect.py::test_subscriber\n") {
				t.Errorf("stderr does not list what finished (%q):\n%s", want, stderr.String())
			}
			// Nothing is left running: not the inner pytest, not its group.
			if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
				t.Errorf("the inner pytest (pid %d) still exists: %v", pid, err)
			}
			if err := syscall.Kill(-pgid, 0); !errors.Is(err, syscall.ESRCH) {
				t.Errorf("the inner pytest's process group %d still has processes: %v", pgid, err)
			}
			// Nothing is left in the temporary folder.
			if left, _ := os.ReadDir(tmp); len(left) > 0 {
				var names []string
				for _, e := range left {
					names = append(names, e.Name())
				}
				t.Errorf("left in the temporary folder: %v", names)
			}
		})
	}
}
