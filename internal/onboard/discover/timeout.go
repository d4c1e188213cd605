package discover

import (
	"fmt"
	"path/filepath"

	"github.com/fixturegen/fixturegen/internal/python/pyquote"
	"github.com/fixturegen/fixturegen/internal/python/pytestcfg"
)

// TimeoutEnv is the environment variable pytest-timeout reads its timeout
// from when neither the command line nor the configuration sets one.
const TimeoutEnv = "PYTEST_TIMEOUT"

// Timeout is pytest-timeout as a project's pytest runs it with the signal
// method, whose handler raises in the main thread wherever it is, a first
// import included: what the import shield is for.
type Timeout struct {
	Seconds float64
	// At is where the timeout is set: path:line:col in the pytest
	// configuration, or TimeoutEnv's name.
	At string
	// MethodAt is where the signal method is chosen, "" when it is
	// pytest-timeout's default (signal, where SIGALRM exists).
	MethodAt string
}

// Text says what was found, for init's report.
func (t *Timeout) Text() string {
	method := "its default method on Linux and macOS"
	if t.MethodAt != "" {
		method = "set at " + t.MethodAt
	}
	return fmt.Sprintf("%s: pytest-timeout, %s s, with the signal method (%s)", t.At, pyquote.Number(t.Seconds), method)
}

// FindTimeout returns pytest-timeout's settings in the project at root
// when its pytest runs pytest-timeout with the signal method, nil
// otherwise. env reads the environment (os.Getenv): PYTEST_TIMEOUT counts
// when the configuration sets no timeout, as pytest-timeout reads it.
func FindTimeout(root string, env func(string) string) (*Timeout, error) {
	cfg, err := pytestcfg.Find(root)
	if err != nil || cfg == nil {
		return nil, err
	}
	timers := cfg.Timers()
	t := &Timeout{Seconds: timers.Timeout}
	if timers.TimeoutAt != nil {
		t.At = position(root, cfg.File, timers.TimeoutAt)
	} else if v := env(TimeoutEnv); v != "" {
		timers.Timeout = pytestcfg.ParseSeconds(v)
		t.Seconds, t.At = timers.Timeout, TimeoutEnv+" in the environment"
	}
	if !timers.SignalMethod() {
		return nil, nil
	}
	if timers.MethodAt != nil {
		t.MethodAt = position(root, cfg.File, timers.MethodAt)
	}
	return t, nil
}

// position is where arg sits in the configuration file, relative to root.
func position(root, file string, arg *pytestcfg.Arg) string {
	rel, err := filepath.Rel(root, file)
	if err != nil {
		rel = file
	}
	return fmt.Sprintf("%s:%d:%d", filepath.ToSlash(rel), arg.Line, arg.Col)
}
