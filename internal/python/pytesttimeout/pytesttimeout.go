// Package pytesttimeout finds pytest-timeout wherever a project sets it:
// its ini keys and addopts in each configuration file the project's pytest
// runs read, its marks in the test modules, the pytest command lines of
// CI workflows, tox, nox and Makefiles, the PYTEST_TIMEOUT and
// PYTEST_ADDOPTS variables those files set (and the process environment,
// for init), and pytest-timeout declared as a dependency. Each place has a
// position and the method it runs with, for init to write the import
// shield where the signal method runs, and for check to report each place
// the spec leaves unshielded.
//
// It follows pytest-timeout 2.4: the timeout is --timeout on the command
// line, else PYTEST_TIMEOUT, else the timeout ini key, and a test's
// timeout mark overrides them; the method is --timeout-method (or
// --timeout_method), else the timeout_method ini key, else signal where
// SIGALRM exists, and a mark's method overrides it. No environment
// variable sets the method. "-p no:timeout" turns the plugin off.
package pytesttimeout

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fixturegen/fixturegen/internal/python/pyquote"
	"github.com/fixturegen/fixturegen/internal/python/pytestcfg"
	"github.com/fixturegen/fixturegen/internal/python/pytestrun"
)

// Env is the variable pytest-timeout reads its timeout from when the
// command line sets none.
const Env = "PYTEST_TIMEOUT"

// Kind says what a Place is.
type Kind uint8

// Kinds of Place.
const (
	Ini        Kind = iota + 1 // timeout = N in a configuration file
	Addopts                    // --timeout N in a configuration file's addopts
	Mark                       // pytest.mark.timeout(N) in a Python file
	Command                    // pytest --timeout N in a command line
	Variable                   // PYTEST_TIMEOUT=N, or --timeout in PYTEST_ADDOPTS
	Dependency                 // pytest-timeout declared as a dependency
)

// Methods.
const (
	Signal = "signal"
	Thread = "thread"
)

// Place is one place a project sets pytest-timeout.
type Place struct {
	Kind Kind
	// File is the file's absolute path; "" for the environment fixturegen
	// runs in.
	File      string
	Line, Col int
	// Seconds is the timeout as written; "" for a dependency, and for a
	// value that is not a literal.
	Seconds string
	// Method is the method the tests this place times run with: the
	// place's own, else the configuration's, else signal.
	Method string
	// MethodAt says where that method is chosen; "" for pytest-timeout's
	// default.
	MethodAt string
	// What says what is written there, in a few words: "timeout = 1",
	// "pytest --timeout=1 in [testenv] of tox.ini".
	What string
}

// At is the place as path:line:col, relative to root; the environment
// is "PYTEST_TIMEOUT in the environment".
func (p Place) At(root string) string {
	if p.File == "" {
		return Env + " in the environment"
	}
	return fmt.Sprintf("%s:%d:%d", rel(root, p.File), p.Line, p.Col)
}

// Text says what the place is, for init's report and check's messages.
func (p Place) Text() string {
	method := "with the signal method, pytest-timeout's default on Linux and macOS"
	switch {
	case p.Method == Thread:
		method = "with the thread method (" + p.MethodAt + ")"
	case p.MethodAt != "":
		method = "with the signal method (" + p.MethodAt + ")"
	}
	if p.Kind == Dependency {
		return p.What + "; its timeouts run " + method
	}
	return p.What + ", " + method
}

// Found is pytest-timeout in a project.
type Found struct {
	Root   string
	Places []Place
	// Method is the method the project's configuration sets, "" for
	// pytest-timeout's default; MethodAt says where.
	Method, MethodAt string
	// Off is set when the configuration turns pytest-timeout off ("-p
	// no:timeout"): no place counts then.
	Off bool
}

// WithMethod gives p the configuration's method, or the default, when it
// sets none of its own.
func (f *Found) WithMethod(p Place) Place {
	if p.Method == "" {
		p.Method, p.MethodAt = f.Method, f.MethodAt
	}
	if p.Method == "" {
		p.Method = Signal
	}
	return p
}

// Signal returns the places whose tests run pytest-timeout's signal
// method: the ones the import shield is for.
func (f *Found) Signal() []Place {
	if f == nil {
		return nil
	}
	var out []Place
	for _, p := range f.Places {
		if p.Method != Thread {
			out = append(out, p)
		}
	}
	return out
}

// Options say what Find reads.
type Options struct {
	// Getenv reads the environment fixturegen runs in, for PYTEST_TIMEOUT;
	// nil leaves it out (check reads only the project's files).
	Getenv func(string) string
	// NoMarks leaves the Python files out: check reads the marks in its
	// own scan of the tree (see Marks).
	NoMarks bool
}

// Find returns pytest-timeout's places in the project at root, whose
// pytest runs are runs (pytestrun), the first of which, primary, stands
// for the project's configuration: its method applies where a place
// sets none.
func Find(proj *pytestrun.Project, runs []pytestrun.Run, primary pytestrun.Run, opts Options) (*Found, error) {
	f := &Found{Root: proj.Root}
	if cfg := primary.Setup.Config; cfg != nil {
		t := cfg.Timers()
		if t.TimeoutOff {
			// "-p no:timeout": pytest-timeout is off for every run of
			// this configuration.
			f.Off = true
			return f, nil
		}
		if t.MethodAt != nil {
			f.Method, f.MethodAt = t.Method, at(proj.Root, cfg.File, t.MethodAt)
		}
	}
	withMethod := f.WithMethod
	// The configuration files the runs read, each once.
	seen := map[string]bool{}
	for _, r := range runs {
		c := r.Setup.Config
		if c == nil || seen[c.File] {
			continue
		}
		seen[c.File] = true
		for _, p := range configPlaces(proj.Root, c) {
			f.Places = append(f.Places, withMethod(p))
		}
	}
	if opts.Getenv != nil {
		if v := opts.Getenv(Env); v != "" && !isZero(v) {
			f.Places = append(f.Places, withMethod(Place{Kind: Variable, Seconds: v, What: Env + "=" + v}))
		}
	}
	for _, c := range proj.Commands {
		if p, ok := commandPlace(proj.Root, c); ok {
			f.Places = append(f.Places, withMethod(p))
		}
	}
	for _, s := range proj.Settings {
		for _, p := range settingPlaces(s) {
			f.Places = append(f.Places, withMethod(p))
		}
	}
	if !opts.NoMarks {
		marks, err := findMarks(proj.Root, primary.Setup.Config)
		if err != nil {
			return nil, err
		}
		for _, p := range marks {
			f.Places = append(f.Places, withMethod(p))
		}
	}
	deps := dependencies(proj)
	for _, p := range deps {
		f.Places = append(f.Places, withMethod(p))
	}
	return f, nil
}

// configPlaces are the timeout settings of one configuration file.
func configPlaces(root string, c *pytestcfg.Config) []Place {
	t := c.Timers()
	if t.TimeoutOff || t.TimeoutAt == nil || t.Timeout == 0 {
		return nil
	}
	p := Place{File: c.File, Line: t.TimeoutAt.Line, Col: t.TimeoutAt.Col, Seconds: pyquote.Number(t.Timeout)}
	if strings.HasPrefix(t.TimeoutAt.Text, "--timeout") {
		p.Kind, p.What = Addopts, "--timeout "+p.Seconds+" in addopts"
	} else {
		p.Kind, p.What = Ini, "timeout = "+p.Seconds
	}
	return []Place{p}
}

// options reads pytest-timeout's options among a command line's
// arguments: the last --timeout and --timeout-method win, as on pytest's
// command line, and "-p no:timeout" turns it off.
type options struct {
	timeout, method *pytestrun.Word
	seconds, name   string
	off             bool
}

func readOptions(args []pytestrun.Word) options {
	var o options
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, value, inline := strings.Cut(a.Text, "=")
		if !inline && i+1 < len(args) && (name == "--timeout" || name == "--timeout-method" || name == "--timeout_method" || name == "-p") {
			value = args[i+1].Text
			i++
		}
		switch {
		case name == "--timeout":
			w := a
			o.timeout, o.seconds = &w, value
		case name == "--timeout-method" || name == "--timeout_method":
			w := a
			o.method, o.name = &w, value
		case name == "-p" && value == "no:timeout", a.Text == "-pno:timeout":
			o.off = true
		}
	}
	return o
}

// commandPlace is the --timeout of a command line; its method is the
// command line's own, else PYTEST_ADDOPTS's in its environment.
func commandPlace(root string, c pytestrun.Command) (Place, bool) {
	var args []pytestrun.Word
	for _, s := range c.Env {
		if s.Name == "PYTEST_ADDOPTS" {
			args = addoptsWords(s)
		}
	}
	env := readOptions(args)
	o := readOptions(c.Args)
	if o.off || env.off || o.timeout == nil || isZero(o.seconds) {
		return Place{}, false
	}
	p := Place{Kind: Command, File: o.timeout.File, Line: o.timeout.Line, Col: o.timeout.Col, Seconds: literal(o.seconds),
		What: c.String() + " in " + c.Where}
	switch {
	case o.method != nil:
		p.Method, p.MethodAt = o.name, fmt.Sprintf("%s:%d:%d", rel(root, o.method.File), o.method.Line, o.method.Col)
	case env.method != nil:
		p.Method, p.MethodAt = env.name, fmt.Sprintf("%s:%d:%d", rel(root, env.method.File), env.method.Line, env.method.Col)
	}
	return p, true
}

// settingPlaces are the timeouts a PYTEST_TIMEOUT or PYTEST_ADDOPTS
// setting gives.
func settingPlaces(s pytestrun.Setting) []Place {
	switch s.Name {
	case Env:
		if s.Value.Text == "" || isZero(s.Value.Text) {
			return nil
		}
		return []Place{{Kind: Variable, File: s.Value.File, Line: s.Value.Line, Col: s.Value.Col, Seconds: literal(s.Value.Text),
			What: Env + "=" + s.Value.Text + " in " + s.Where}}
	case "PYTEST_ADDOPTS":
		o := readOptions(addoptsWords(s))
		if o.off || o.timeout == nil || isZero(o.seconds) {
			return nil
		}
		p := Place{Kind: Variable, File: o.timeout.File, Line: o.timeout.Line, Col: o.timeout.Col, Seconds: literal(o.seconds),
			What: "PYTEST_ADDOPTS=" + strconv.Quote(s.Value.Text) + " in " + s.Where}
		if o.method != nil {
			p.Method = o.name
			p.MethodAt = fmt.Sprintf("%s:%d:%d", filepath.ToSlash(filepath.Base(o.method.File)), o.method.Line, o.method.Col)
		}
		return []Place{p}
	}
	return nil
}

// addoptsWords splits PYTEST_ADDOPTS's value as pytest does (shlex), each
// word at its position when the value is written plainly.
func addoptsWords(s pytestrun.Setting) []pytestrun.Word {
	var out []pytestrun.Word
	for _, a := range pytestcfg.SplitLine(s.Value.Text, s.Value.Line, s.Value.Col) {
		out = append(out, pytestrun.Word{Text: a.Text, Pos: pytestrun.Pos{File: s.Value.File, Line: a.Line, Col: a.Col}})
	}
	return out
}

// literal is seconds as written when they are a number, "" otherwise.
func literal(s string) string {
	if _, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err != nil {
		return ""
	}
	return strings.TrimSpace(s)
}

// isZero reports whether a timeout's text is a number pytest-timeout
// reads as "no timeout".
func isZero(s string) bool {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return err == nil && f <= 0
}

func at(root, file string, a *pytestcfg.Arg) string {
	return fmt.Sprintf("%s:%d:%d", rel(root, file), a.Line, a.Col)
}

func rel(root, file string) string {
	r, err := filepath.Rel(root, file)
	if err != nil || strings.HasPrefix(r, "..") {
		return filepath.ToSlash(file)
	}
	return filepath.ToSlash(r)
}

// Sort puts places in file order, the environment first.
func Sort(places []Place) {
	slices.SortStableFunc(places, func(a, b Place) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Col - b.Col
	})
}
