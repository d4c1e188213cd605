// Package probe runs tests under the recording probe plugin in a fresh
// interpreter and reads its report: the state of the recorded modules at
// each arming of the alarm, and every module whose first import started
// while the alarm was armed.
//
// It is the engine of fixturegen probe: which nodes to run, whether the
// generated files are fresh enough to probe, the run itself, --fix, and
// the report in its formats. The plugin is the same one the generated
// probe tests load (package render makes both), written to a folder of its
// own so a stale or missing copy in the project cannot skew the result.
package probe

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fixturegen/fixturegen/internal/gen/render"
	"github.com/fixturegen/fixturegen/internal/python/venv"
	"github.com/fixturegen/fixturegen/internal/timerexc"
	"github.com/fixturegen/fixturegen/schema"
)

// pluginModule is the name the plugin is loaded under (pytest -p).
const pluginModule = "_fixturegen_probe"

// progressModule is the name the progress plugin is loaded under.
const progressModule = "_fixturegen_progress"

// progressPlugin reports each test's result as it arrives.
//
//go:embed progress.py
var progressPlugin []byte

// Report is what one probe run found.
type Report struct {
	Nodes []string // the node ids run
	Code  int      // the inner pytest's exit code
	// Armed holds the recorded state at each arming, keyed as in
	// spec.Probe.Record; ArmedNodes the test that armed it.
	Armed      []map[string]bool
	ArmedNodes []string
	// Late is every outermost first import under the alarm that loaded
	// its module, or that a timer's exception ended (Import.Timer says
	// which): either way the module is what the preload takes out of the
	// timer's window. Failed is every one that raised anything else (a
	// missing optional module, a mock.patch target's prefix), which
	// preloading cannot help.
	Late   []Import
	Failed []FailedImport
	// NotImportable are late modules no fresh interpreter imports (one a
	// test writes and imports itself): ToPreload leaves them out.
	NotImportable []string
	// Optional are late modules the project imports only where their
	// package may be missing: ToPreload leaves them out too, since the
	// preload would make them mandatory.
	Optional []Optional
	// Output is the inner run's stdout and stderr, for diagnosis.
	Stdout, Stderr string
	// Results holds each test's result in the order they arrived, and
	// CollectErrors the collectors that failed.
	Results       []Result
	CollectErrors []CollectError
	// Interrupted is the signal that stopped the run, or nil.
	Interrupted os.Signal
}

// Import is one first import under the alarm.
type Import struct {
	Node    string  `json:"node"`
	Module  string  `json:"module"`
	Seconds float64 `json:"seconds"`
	// Timer is set when a timer's exception ended the import: the timer,
	// as timerexc names it, or "SIGALRM handler" (the signal's) when only
	// the traceback says a timer's handler raised it. Error and Message
	// are the exception's class name and text.
	Timer   string `json:"timer,omitempty"`
	Error   string `json:"error,omitempty"`
	Message string `json:"message,omitempty"`
}

// FailedImport is one first import attempt under the alarm that raised
// something no timer raises.
type FailedImport struct {
	Node    string  `json:"node"`
	Module  string  `json:"module"`
	Error   string  `json:"error"` // the exception's class name
	Message string  `json:"message,omitempty"`
	Seconds float64 `json:"seconds"`
}

// attempt is one first import attempt under the alarm that raised, as the
// plugin reports it; classify tells a timer's from any other.
type attempt struct {
	FailedImport
	// Handler names the timer signal whose handler raised it, when the
	// plugin found that handler's frame in the traceback.
	Handler string `json:"handler"`
}

// OK reports whether the contract held: the inner run passed, the alarm
// was armed, every record was true at every arming and nothing was
// imported late.
func (r *Report) OK() bool {
	if r.Code != 0 || len(r.Armed) == 0 || len(r.Late) > 0 {
		return false
	}
	return !slices.ContainsFunc(r.Armed, func(rec map[string]bool) bool {
		return slices.Contains(slices.Collect(maps.Values(rec)), false)
	})
}

// LateModules returns the late modules in the order first seen, once each.
func (r *Report) LateModules() []string {
	return unique(r.Late, func(imp Import) string { return imp.Module })
}

// ToPreload returns the late modules that --fix adds to preload: those
// not in it yet. A late module already in the list was imported under a
// timer its preload fixture does not precede, and listing it again would
// change nothing.
func (r *Report) ToPreload(preloaded []string) []string {
	return slices.DeleteFunc(r.LateModules(), func(m string) bool {
		return slices.Contains(preloaded, m) || slices.Contains(r.NotImportable, m) ||
			slices.ContainsFunc(r.Optional, func(o Optional) bool { return o.Module == m })
	})
}

// Broken returns the nodes that passed in before and failed, or were
// not run, in after: what a fix must never do.
func Broken(before, after *Report) []string {
	outcome := map[string]string{}
	for _, r := range after.Results {
		outcome[r.Node] = r.Outcome
	}
	var out []string
	for _, r := range before.Results {
		if r.Outcome == "passed" && outcome[r.Node] != "passed" {
			out = append(out, r.Node)
		}
	}
	if len(out) == 0 && before.Code == 0 && after.Code != 0 {
		out = append(out, "the run")
	}
	return out
}

// Options are how a caller follows and stops a probe run.
type Options struct {
	// Progress, when set, is called with each test's result as it
	// arrives, from one goroutine.
	Progress func(Result)
	// Stop, when it delivers a signal, interrupts the run: the signal is
	// forwarded to the inner pytest's process group, and after Grace the
	// group is killed.
	Stop  <-chan os.Signal
	Grace time.Duration
}

// Result is one test's outcome in the inner run, as pytest reported it.
type Result struct {
	Node    string  `json:"node"`
	Outcome string  `json:"outcome"` // passed, failed, skipped or error
	Seconds float64 `json:"seconds"` // setup, call and teardown
	// Message is the first line of what a test that failed or errored
	// raised, as pytest reports it.
	Message string `json:"message,omitempty"`
}

// CollectError is a collector that failed, with pytest's message.
type CollectError struct {
	Node    string `json:"collect_error"`
	Message string `json:"message"`
}

// Run runs nodes in one inner pytest, cold, from the spec's folder, with
// the probe plugin and no planted delays; no nodes runs what pytest
// collects by itself (testpaths, or the rootdir). PYTEST_ADDOPTS and the
// ini addopts do not reach the inner run, as in the generated probe tests,
// but for the options that say how pytest imports the tests (see
// pytestView). For a spec with a deadline, pytest-timeout is left out; for
// one that holds only the shield, the run is under pytest-timeout as the
// project configures it, since that is the timer it probes. Its temporary
// folder is removed however the run ends.
func Run(spec *schema.Spec, python string, nodes []string, opts Options) (*Report, error) {
	shieldOnly := !spec.HasDeadline()
	view, err := viewFor(spec, nodes, shieldOnly)
	if err != nil {
		return nil, err
	}
	plugin, err := render.ProbePlugin(spec)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "fixturegen-probe-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	for module, src := range map[string][]byte{pluginModule: plugin, progressModule: progressPlugin} {
		if err := os.WriteFile(filepath.Join(dir, module+".py"), src, 0o644); err != nil {
			return nil, err
		}
	}

	args := []string{"-m", "pytest", "-p", pluginModule, "-p", progressModule, "-o", "addopts=", "-p", "no:cacheprovider"}
	if !shieldOnly {
		args = append(args, "-p", "no:timeout")
	}
	args = append(append(args, view.kept...), "-q")
	cmd := exec.Command(python, append(args, nodes...)...)
	cmd.Dir = spec.Dir
	// The progress lines come through a pipe of their own, the inner
	// run's file descriptor 3.
	progressR, progressW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer progressR.Close()
	cmd.ExtraFiles = []*os.File{progressW}
	// The environment is venv.Env's, with the plugin asked for its
	// detailed report; PYTEST_TIMEOUT stays for a run under pytest-timeout.
	cmd.Env = append(venv.Env(os.Environ(), dir, func(name string) bool {
		return name == "PYTEST_TIMEOUT" && !shieldOnly || name == "PLANTED_DELAY" || name == "PLANTED_DELAY_MODULE" || name == "ARMED_DELAY"
	}), "FIXTUREGEN_PROBE_IMPORTS=1", "FIXTUREGEN_PROGRESS_FD=3")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// A process the inner run left behind holding its output open must
	// not keep fixturegen waiting.
	cmd.WaitDelay = 2 * time.Second
	ownGroup(cmd)
	err = cmd.Start()
	progressW.Close()
	if err != nil {
		return nil, fmt.Errorf("cannot run %s: %w", python, err)
	}

	r := &Report{Nodes: nodes}
	var log progressLog
	read := make(chan struct{})
	go func() {
		defer close(read)
		log.read(progressR, opts.Progress)
	}()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	var runErr error
	select {
	case runErr = <-exited:
	case sig := <-opts.Stop:
		r.Interrupted = sig
		signalGroup(cmd, sig)
		select {
		case runErr = <-exited:
		case <-time.After(opts.Grace):
			signalGroup(cmd, os.Kill)
			runErr = <-exited
		}
		// Whatever the inner run started in its group goes too.
		signalGroup(cmd, os.Kill)
	}
	// The pipe ends when every holder of its write end has exited; do not
	// wait long for one that has not.
	select {
	case <-read:
	case <-time.After(time.Second):
	}
	r.Code, r.Stdout, r.Stderr = cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
	r.Results, r.CollectErrors = log.snapshot()
	if _, ok := runErr.(*exec.ExitError); runErr != nil && !ok && !errors.Is(runErr, exec.ErrWaitDelay) {
		return nil, fmt.Errorf("cannot run %s: %w", python, runErr)
	}
	if r.Interrupted != nil || r.NotCollected() != nil {
		return r, nil
	}
	return r, r.parse(Names(spec))
}

// progressLog collects the progress plugin's lines while the run goes on.
type progressLog struct {
	mu      sync.Mutex
	results []Result
	errs    []CollectError
}

// read reads the lines until the pipe closes, calling progress with each
// result.
func (l *progressLog) read(from io.Reader, progress func(Result)) {
	sc := bufio.NewScanner(from)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		// A line is a Result or a CollectError; both have a message.
		var doc struct {
			Result
			Collector *string `json:"collect_error"`
		}
		if json.Unmarshal(sc.Bytes(), &doc) != nil {
			continue
		}
		l.mu.Lock()
		if doc.Collector != nil {
			l.errs = append(l.errs, CollectError{Node: *doc.Collector, Message: doc.Message})
		} else {
			l.results = append(l.results, doc.Result)
		}
		l.mu.Unlock()
		if progress != nil && doc.Collector == nil {
			progress(doc.Result)
		}
	}
}

func (l *progressLog) snapshot() ([]Result, []CollectError) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.results), slices.Clone(l.errs)
}

// NotCollected describes, when some of the nodes did not collect, which
// ones and pytest's own message; nil otherwise. pytest exits 4 (a usage
// error) when a node id names nothing, and reports a collector that fails
// (a syntax error, an import error) through the progress plugin.
func (r *Report) NotCollected() *NotCollected {
	msg := slices.DeleteFunc(strings.Split(r.Stderr, "\n"), func(line string) bool {
		return !strings.HasPrefix(line, "ERROR: ") && !strings.HasPrefix(line, "(no match")
	})
	var files []string
	for _, ce := range r.CollectErrors {
		files = append(files, ce.Node)
		msg = append(msg, pytestLines(ce.Message)...)
	}
	// Exit 4 is any usage error; only these two messages say a node id
	// matched nothing.
	notFound := r.Code == 4 && (strings.Contains(r.Stderr, "ERROR: not found: ") || strings.Contains(r.Stderr, "ERROR: found no collectors for "))
	if !notFound && len(r.CollectErrors) == 0 {
		return nil
	}
	if len(msg) == 0 {
		msg = append(msg, strings.TrimSpace(r.Stdout+r.Stderr))
	}
	nc := &NotCollected{Message: strings.Join(msg, "\n")}
	for _, node := range r.Nodes {
		file, _, _ := strings.Cut(node, "::")
		if strings.Contains(r.Stderr, node+"\n") || strings.Contains(r.Stderr, "/"+node) ||
			slices.Contains(files, file) || slices.Contains(files, node) {
			nc.Nodes = append(nc.Nodes, node)
		}
	}
	if len(nc.Nodes) == 0 {
		nc.Nodes = r.Nodes
	}
	return nc
}

// NotCollected is the nodes that did not collect and pytest's message.
type NotCollected struct {
	Nodes   []string
	Message string
}

// pytestLines keeps the "E " lines of a collection error, the part pytest
// shows as the error itself, or the whole text when there are none.
func pytestLines(text string) []string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if e := slices.DeleteFunc(slices.Clone(lines), func(l string) bool { return !strings.HasPrefix(l, "E ") }); len(e) > 0 {
		return e
	}
	return lines
}

// parse reads the plugin's JSON line from the inner run's output; names
// are the spec's names of its deadline's failure, for classify.
func (r *Report) parse(names timerexc.Names) error {
	for _, line := range strings.Split(r.Stdout, "\n") {
		if !strings.HasPrefix(line, `{"code"`) {
			continue
		}
		var doc struct {
			Code       int               `json:"code"`
			Armed      []map[string]bool `json:"armed"`
			ArmedNodes []string          `json:"armed_nodes"`
			Imports    []Import          `json:"imports"`
			Failed     []attempt         `json:"failed"`
		}
		if err := json.Unmarshal([]byte(line), &doc); err != nil {
			return fmt.Errorf("the probe's report does not parse (%v): %s", err, line)
		}
		r.Code, r.Armed, r.ArmedNodes, r.Late = doc.Code, doc.Armed, doc.ArmedNodes, doc.Imports
		r.classify(doc.Failed, names)
		return nil
	}
	return fmt.Errorf("the inner pytest run exited %d and printed no probe report; its output:\n%s%s",
		r.Code, r.Stdout, r.Stderr)
}

// Names are what spec says of its deadline's failure, for telling its
// exception from others; none for a spec without a deadline.
func Names(spec *schema.Spec) timerexc.Names {
	if !spec.HasDeadline() {
		return timerexc.Names{}
	}
	return timerexc.Names{Exception: spec.Deadline.Exception(), Message: spec.Deadline.Message}
}

// classify sorts the import attempts that raised by their cause: one a
// timer's exception ended (its names, or the handler's frame in its
// traceback) is a late import, since preloading the module takes it out
// of the timer's window; any other (ImportError and its subclasses, as
// mock.patch's probing of a dotted path raises, or a module that raises
// on its own) is a failed attempt, which loaded nothing to preload. The
// late imports stay in the order their tests ran.
func (r *Report) classify(attempts []attempt, names timerexc.Names) {
	for _, a := range attempts {
		timer := string(timerexc.Of(a.Error, a.Message, names))
		if timer == "" && a.Handler != "" {
			timer = a.Handler + " handler"
		}
		if timer == "" {
			r.Failed = append(r.Failed, a.FailedImport)
			continue
		}
		r.Late = append(r.Late, Import{Node: a.Node, Module: a.Module, Seconds: a.Seconds, Timer: timer, Error: a.Error, Message: a.Message})
	}
	order := map[string]int{}
	for i, res := range r.Results {
		if _, ok := order[res.Node]; !ok {
			order[res.Node] = i
		}
	}
	for i, node := range r.ArmedNodes {
		if _, ok := order[node]; !ok {
			order[node] = len(r.Results) + i
		}
	}
	rank := func(node string) int {
		if i, ok := order[node]; ok {
			return i
		}
		return len(order) // outside a test: after them
	}
	slices.SortStableFunc(r.Late, func(a, b Import) int { return rank(a.Node) - rank(b.Node) })
}
