// Package observe runs a project's fixtures once, with the project's
// Python, under a recording plugin, and returns what they did with the
// timers: fixturegen init's way of learning a hand-written deadline by
// asking the code instead of reading it.
//
// One pytest session (a Run) runs every throwaway test it is given: each
// requests one fixture, or none so that only the autouse fixtures and the
// per-test hooks of its folder run, with the environment variables the
// caller names set or unset for its setup. The plugin collects nothing of
// the project's own tests and writes nothing into the project: the
// throwaway tests live in a module that is never a file, and the plugin
// and its report in a temporary folder. Timers are emulated while the
// session runs, so that no alarm fires, and each test's body calls the
// handler installed for the timer's signal as the signal would.
package observe

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fixturegen/fixturegen/internal/python/venv"
)

// pluginModule is the name the plugin is loaded under (pytest -p).
const pluginModule = "_fixturegen_observe"

//go:embed plugin.py
var plugin []byte

// Item is one throwaway test.
type Item struct {
	ID      string `json:"id"`
	Dir     string `json:"dir"`     // its folder, slash-separated, relative to the root
	Fixture string `json:"fixture"` // the fixture it requests; "" for none
	// Env sets variables for its setup.
	Env map[string]string `json:"env"`
	// Trace records, in the project's frames, each return that follows
	// a caught exception during its setup.
	Trace bool `json:"trace"`
}

// Run is one pytest session.
type Run struct {
	Items []Item
	// Env sets variables for the whole session; the other watched
	// variables are unset.
	Env map[string]string
	// Timeout leaves pytest-timeout loaded; without it the session runs
	// with -p no:timeout.
	Timeout bool
}

// Result is what one session recorded.
type Result struct {
	// Configured is false when pytest stopped before it configured the
	// plugin (a conftest that does not import, a usage error).
	Configured    bool                   `json:"configured"`
	Session       []Event                `json:"session"`
	EnvReads      []EnvRead              `json:"env_reads"`
	Items         map[string]*ItemResult `json:"items"`
	CollectErrors []CollectError         `json:"collect_errors"`
	// TimeoutStandIn is true when the run asked for pytest-timeout, which
	// this Python lacks, and a stand-in registered under its name took
	// its place: a conftest that asks whether it is loaded hears yes.
	TimeoutStandIn bool `json:"timeout_stand_in"`
	// Output is pytest's output, for what went wrong.
	Output string `json:"-"`
}

// Event is one call of a timer's function.
type Event struct {
	Call    string  `json:"call"`    // alarm, setitimer, signal, dump_traceback_later, cancel_dump_traceback_later
	Phase   string  `json:"phase"`   // session, setup, call (before the body), after (the body) or teardown
	Fixture string  `json:"fixture"` // the fixture being set up; "" for none
	Frames  []Frame `json:"frames"`  // the project's frames, innermost first
	// Which, Seconds and Interval are setitimer's arguments (alarm's
	// seconds on ITIMER_REAL), and dump_traceback_later's seconds.
	Which    int      `json:"which"`
	Seconds  float64  `json:"seconds"`
	Interval float64  `json:"interval"`
	Handler  *Handler `json:"handler"` // signal's
	// Rejected is the exception the call raised, as the real one would,
	// for arguments it refuses ("TypeError: ..."), and Given the reprs
	// of its positional arguments then; "" for a call that went through.
	Rejected string   `json:"rejected"`
	Given    []string `json:"given"`
}

// Arms reports whether the event arms a timer, and Disarms whether it
// disarms one.
func (e *Event) Arms() bool {
	return (e.Call == "alarm" || e.Call == "setitimer") && e.Rejected == "" && e.Seconds > 0
}
func (e *Event) Disarms() bool {
	return (e.Call == "alarm" || e.Call == "setitimer") && e.Rejected == "" && e.Seconds <= 0
}

// Frame is one frame of the project's code.
type Frame struct {
	File     string `json:"file"` // relative to the root
	Line     int    `json:"line"`
	Col      int    `json:"col"` // 1-based; 0 when the Python cannot tell
	Function string `json:"function"`
}

// At returns file:line:col.
func (f Frame) At() string {
	return fmt.Sprintf("%s:%d:%d", filepath.ToSlash(f.File), f.Line, max(f.Col, 1))
}

// Handler is a signal's handler.
type Handler struct {
	// Kind is function, method, object (an instance with __call__),
	// default, ignore or other.
	Kind string `json:"kind"`
	Name string `json:"name"` // its qualified name; the class's for an object
	File string `json:"file"` // "" outside the project
	// Line is the first line of its code (of its first decorator).
	Line     int    `json:"line"`
	Function string `json:"function"` // its code's name
}

// Same reports whether h and o are one handler.
func (h *Handler) Same(o *Handler) bool {
	return h != nil && o != nil && h.Kind == o.Kind && h.Name == o.Name && h.File == o.File && h.Line == o.Line
}

// EnvRead is one read of a watched environment variable.
type EnvRead struct {
	Name  string `json:"name"`
	Item  string `json:"item"` // "" outside the throwaway tests
	Phase string `json:"phase"`
}

// ItemResult is what one throwaway test recorded.
type ItemResult struct {
	Events []Event `json:"events"`
	// Armed holds, by timer (ITIMER_REAL is "0"), the seconds left when
	// the body ran.
	Armed map[string]float64 `json:"armed"`
	// Rings holds, by timer, what its signal's handler did.
	Rings      map[string]*Ring `json:"rings"`
	SetupError *Error           `json:"setup_error"`
	// Handled are the returns that followed a caught exception, when
	// the item traced its setup.
	Handled []Return         `json:"handled"`
	Timeout *TimeoutSettings `json:"timeout"`
}

// Ring is the handler of a timer's signal, called as the signal would.
type Ring struct {
	Signal   int       `json:"signal"`
	Handler  *Handler  `json:"handler"`
	Dumps    []Dump    `json:"dumps"`
	Outcomes []Outcome `json:"outcomes"` // one per call; it is called twice unless it returns
	// Seconds is what the timer was armed for, and Templates the spec
	// messages that give the first outcome's message at those seconds,
	// when it raised: Python's own str.format tried each format spec of a
	// {seconds} field against the text (see _templates in plugin.py).
	Seconds   float64    `json:"seconds"`
	Templates *Templates `json:"templates"`
}

// Templates are spec messages, simplest first, the message as raised
// last. Unit keeps only those whose fields a unit of seconds follows.
type Templates struct {
	Any  []string `json:"any"`
	Unit []string `json:"unit"`
}

// Dump is a faulthandler.dump_traceback call of the handler.
type Dump struct {
	AllThreads bool    `json:"all_threads"`
	Frames     []Frame `json:"frames"`
}

// Outcome is what one call of a handler did.
type Outcome struct {
	Kind string `json:"kind"` // raised, exit or returned
	// Outcome is fail, skip, xfail or exit for the exception of
	// pytest.fail, pytest.skip, pytest.xfail or pytest.exit; "" else.
	Outcome string  `json:"outcome"`
	Module  string  `json:"module"` // the exception's class
	Type    string  `json:"type"`
	Message string  `json:"message"`
	Pytrace *bool   `json:"pytrace"` // pytest.fail's
	Code    int     `json:"code"`    // os._exit's
	Frames  []Frame `json:"frames"`
}

// Error is an exception that ended a setup.
type Error struct {
	Type    string  `json:"type"`
	Message string  `json:"message"`
	Frames  []Frame `json:"frames"`
}

// Return is a return that followed a caught exception.
type Return struct {
	File  string   `json:"file"`
	Line  int      `json:"line"`
	Value *float64 `json:"value"` // nil when it returned no number
}

// TimeoutSettings says whether pytest-timeout was loaded for a test.
type TimeoutSettings struct {
	Loaded bool `json:"loaded"`
}

// CollectError is a collector that failed, such as a conftest that does
// not import.
type CollectError struct {
	Node  string `json:"node"`
	Error string `json:"error"`
}

// SetupReads reports whether the item read the variable name while its
// setup ran.
func (r *Result) SetupReads(item, name string) bool {
	return slices.ContainsFunc(r.EnvReads, func(e EnvRead) bool { return e.Item == item && e.Name == name && e.Phase == "setup" })
}

// Reads reports whether anything read the variable name.
func (r *Result) Reads(name string) bool {
	return slices.ContainsFunc(r.EnvReads, func(e EnvRead) bool { return e.Name == name })
}

// Sessions runs the runs at once, each in a pytest of its own started by
// python in the folder root, and returns their results in order. watch
// names the environment variables the runs set: each is unset unless a
// run or an item sets it.
func Sessions(root, python string, watch []string, runs []Run) ([]*Result, error) {
	dir, err := os.MkdirTemp("", "fixturegen-init-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, pluginModule+".py"), plugin, 0o644); err != nil {
		return nil, err
	}
	out := make([]*Result, len(runs))
	errs := make([]error, len(runs))
	var wg sync.WaitGroup
	for i, run := range runs {
		wg.Go(func() { out[i], errs[i] = session(root, python, dir, strconv.Itoa(i), watch, run) })
	}
	wg.Wait()
	// The sessions run the same Python on the same project: one reason
	// they all failed is said once.
	var distinct []error
	for _, err := range errs {
		if err != nil && !slices.ContainsFunc(distinct, func(d error) bool { return d.Error() == err.Error() }) {
			distinct = append(distinct, err)
		}
	}
	return out, errors.Join(distinct...)
}

// session runs one pytest.
func session(root, python, dir, name string, watch []string, run Run) (*Result, error) {
	report := filepath.Join(dir, "report-"+name+".json")
	config := filepath.Join(dir, "config-"+name+".json")
	data, err := json.Marshal(map[string]any{"root": root, "out": report, "watch_env": watch, "items": run.Items, "timeout": run.Timeout})
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(config, data, 0o644); err != nil {
		return nil, err
	}
	args := []string{"-m", "pytest", "-p", pluginModule, "-o", "addopts=", "-p", "no:cacheprovider", "-p", "no:randomly", "-q", "--no-header", "-rN",
		// One conftest that does not import must not keep the others'
		// fixtures from running.
		"--continue-on-collection-errors"}
	if !run.Timeout {
		args = append(args, "-p", "no:timeout")
	}
	// pytest is given the folder that holds every throwaway test's: it
	// imports a conftest below it while it collects, where one that fails
	// to import is an error of its folder alone, not of the session.
	if len(run.Items) > 0 {
		top := run.Items[0].Dir
		for _, it := range run.Items[1:] {
			for top != "." && it.Dir != top && !strings.HasPrefix(it.Dir, top+"/") {
				top = path.Dir(top)
			}
		}
		args = append(args, top)
	}
	cmd := exec.Command(python, args...)
	cmd.Dir = root
	// The project's environment (venv.Env), without the watched
	// variables but those the run sets.
	cmd.Env = venv.Env(os.Environ(), dir, func(name string) bool { return slices.Contains(watch, name) })
	for name, value := range run.Env {
		cmd.Env = append(cmd.Env, name+"="+value)
	}
	cmd.Env = append(cmd.Env, "FIXTUREGEN_OBSERVE="+config, "PYTHONDONTWRITEBYTECODE=1")
	var output bytes.Buffer
	cmd.Stdout, cmd.Stderr = &output, &output
	cmd.WaitDelay = 2 * time.Second
	runErr := cmd.Run()
	var exit *exec.ExitError
	if runErr != nil && !errors.As(runErr, &exit) && !errors.Is(runErr, exec.ErrWaitDelay) {
		return nil, fmt.Errorf("cannot run %s: %w; name the Python that runs the project's tests with --python", python, runErr)
	}
	r := &Result{}
	if doc, err := os.ReadFile(report); err == nil {
		if err := json.Unmarshal(doc, r); err != nil {
			return nil, fmt.Errorf("the recording plugin's report does not parse: %v (a fault of fixturegen's, not the project's: please report it)", err)
		}
	} else if exit == nil {
		return nil, fmt.Errorf("%s ran pytest, which wrote no report (name the Python that runs the project's tests with --python); its output:\n%s", python, output.String())
	}
	if !r.Configured && strings.Contains(output.String(), "No module named pytest") {
		return nil, fmt.Errorf("%s has no pytest: name the Python that runs the project's tests with --python", python)
	}
	r.Output = output.String()
	return r, nil
}
