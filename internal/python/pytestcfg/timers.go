package pytestcfg

import (
	"strconv"
	"strings"
)

// Timers are the timers a project's pytest configuration sets for each
// test: pytest-timeout's, and pytest's own faulthandler_timeout.
type Timers struct {
	// Timeout is pytest-timeout's timeout in seconds, 0 when none is set;
	// TimeoutAt is where (the ini key or the --timeout in addopts).
	Timeout   float64
	TimeoutAt *Arg
	// Method is pytest-timeout's method as configured, "" when not set
	// (pytest-timeout then uses signal where SIGALRM exists); MethodAt
	// is where.
	Method   string
	MethodAt *Arg
	// TimeoutOff is set by "-p no:timeout", which turns pytest-timeout off.
	TimeoutOff bool
	// Faulthandler is faulthandler_timeout in seconds, 0 when not set;
	// FaulthandlerExit is faulthandler_exit_on_timeout, which makes it end
	// the process instead of only dumping the stacks.
	Faulthandler     float64
	FaulthandlerAt   *Arg
	FaulthandlerExit bool
}

// SignalMethod reports whether pytest-timeout runs with its signal method,
// which raises in the main thread wherever it is: configured so, or by
// default on a platform with SIGALRM.
func (t Timers) SignalMethod() bool {
	return t.Timeout > 0 && !t.TimeoutOff && (t.Method == "" || t.Method == "signal")
}

// Timers reads the timers of the configuration: the ini keys, then
// addopts, where a later option overrides an earlier one as on pytest's
// command line.
func (c *Config) Timers() Timers {
	var t Timers
	if v, at := c.value("timeout"); at != nil {
		t.Timeout, t.TimeoutAt = ParseSeconds(v), at
	}
	if v, at := c.value("timeout_method"); at != nil {
		t.Method, t.MethodAt = v, at
	}
	if v, at := c.value("faulthandler_timeout"); at != nil {
		t.Faulthandler, t.FaulthandlerAt = ParseSeconds(v), at
	}
	if v, at := c.value("faulthandler_exit_on_timeout"); at != nil {
		t.FaulthandlerExit = strings.EqualFold(v, "true") || v == "1"
	}
	c.eachOption(func(a *Arg, name, value string, inline bool) bool {
		switch {
		case name == "--timeout":
			t.Timeout, t.TimeoutAt = ParseSeconds(value), a
		case name == "--timeout-method" || name == "--timeout_method":
			t.Method, t.MethodAt = value, a
		case a.Text == "-p" && value == "no:timeout", a.Text == "-pno:timeout":
			t.TimeoutOff = true
		default:
			return false
		}
		return !inline && a.Text != "-pno:timeout"
	})
	return t
}

// value is an ini key's value, as one string, and where it is; nil when
// the key is not set.
func (c *Config) value(key string) (string, *Arg) {
	args, ok := c.Options[key]
	if !ok || len(args) == 0 {
		return "", nil
	}
	at := args[0]
	var texts []string
	for _, a := range args {
		texts = append(texts, a.Text)
	}
	return strings.Join(texts, " "), &at
}

// ParseSeconds reads a number of seconds as pytest-timeout and pytest do; 0
// when it is not one.
func ParseSeconds(text string) float64 {
	f, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
	if err != nil || f < 0 {
		return 0
	}
	return f
}
