// Package pytesttimeout finds pytest-timeout where pytest reads it: its
// ini keys and addopts in the configuration file pytest picks for the
// project (pytestcfg), its marks in the test modules, and pytest-timeout
// declared as a dependency, each with its position and the method it
// runs with. It also finds the declarations of pytest-import-shield, the
// plugin that shields pytest-timeout's signal method wherever it is
// installed, and tells which declarations of pytest-timeout have it in
// the same dependency set.
//
// It follows pytest-timeout 2.4: the timeout is --timeout on the command
// line, else PYTEST_TIMEOUT, else the timeout ini key, and a test's
// timeout mark overrides them; the method is --timeout-method (or
// --timeout_method), else the timeout_method ini key, else signal where
// SIGALRM exists, and a mark's method overrides it. "-p no:timeout"
// turns the plugin off.
package pytesttimeout

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/internal/python/pyquote"
	"github.com/fixturegen/fixturegen/internal/python/pytestcfg"
	"github.com/fixturegen/fixturegen/internal/relpath"
)

// Kind says what a Place is.
type Kind uint8

// Kinds of Place.
const (
	Ini        Kind = iota + 1 // timeout = N in a configuration file
	Addopts                    // --timeout N in a configuration file's addopts
	Mark                       // pytest.mark.timeout(N) in a Python file
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
	// File is the file's absolute path.
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
	// "pytest-timeout, a declared test dependency (in requirements.txt)".
	What string
	// Set is the dependency set a Dependency is declared in.
	Set Set
}

// At is the place as path:line:col, relative to root.
func (p Place) At(root string) string {
	return fmt.Sprintf("%s:%d:%d", relpath.Slash(root, p.File), p.Line, p.Col)
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
	Places []Place
	// Plugin are the declarations of pytest-import-shield.
	Plugin []Place
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
	p.Method = cmp.Or(p.Method, Signal)
	return p
}

// Unshielded returns the declarations of pytest-timeout whose dependency
// set does not declare pytest-import-shield, in file order.
func (f *Found) Unshielded() []Place {
	return slices.DeleteFunc(slices.Clone(f.Places), func(p Place) bool { return p.Kind != Dependency || f.Shielded(p) })
}

// Shielded reports whether the plugin protects the tests place times:
// for a declaration, the plugin is declared in its set; for a setting or
// a mark, the plugin is declared and every set that declares
// pytest-timeout declares it too.
func (f *Found) Shielded(p Place) bool {
	if p.Kind == Dependency {
		return slices.ContainsFunc(f.Plugin, func(q Place) bool { return q.Set == p.Set })
	}
	return len(f.Plugin) > 0 && len(f.Unshielded()) == 0
}

// Options say what Find reads.
type Options struct {
	// NoMarks leaves the Python files out: check reads the marks in its
	// own scan of the tree (see Marks).
	NoMarks bool
}

// Find returns pytest-timeout's places in the project at root, whose
// tests run reads (pytestcfg.Project): its configuration's method
// applies where a place sets none.
func Find(root string, run pytestcfg.Run, opts Options) (*Found, error) {
	f := &Found{}
	cfg := run.Config()
	if cfg != nil {
		t := cfg.Timers()
		if t.TimeoutOff {
			f.Off = true
			return f, nil
		}
		if t.MethodAt != nil {
			f.Method, f.MethodAt = t.Method, fmt.Sprintf("%s:%d:%d", relpath.Slash(root, cfg.File), t.MethodAt.Line, t.MethodAt.Col)
		}
		if t.TimeoutAt != nil && t.Timeout != 0 {
			p := Place{File: cfg.File, Line: t.TimeoutAt.Line, Col: t.TimeoutAt.Col, Seconds: pyquote.Number(t.Timeout)}
			if strings.HasPrefix(t.TimeoutAt.Text, "--timeout") {
				p.Kind, p.What = Addopts, "--timeout "+p.Seconds+" in addopts"
			} else {
				p.Kind, p.What = Ini, "timeout = "+p.Seconds
			}
			f.Places = append(f.Places, p)
		}
	}
	if !opts.NoMarks {
		marks, err := findMarks(root, cfg)
		if err != nil {
			return nil, err
		}
		f.Places = append(f.Places, marks...)
	}
	for _, d := range Declarations(root) {
		p := Place{Kind: Dependency, File: d.File, Line: d.Line, Col: d.Col, Set: d.Set}
		if d.Name == Plugin {
			p.What = Plugin + ", declared in " + d.Set.Where(root)
			f.Plugin = append(f.Plugin, p)
		} else {
			p.What = "pytest-timeout, a declared test dependency (in " + d.Set.Where(root) + ")"
			f.Places = append(f.Places, p)
		}
	}
	for i, p := range f.Places {
		f.Places[i] = f.WithMethod(p)
	}
	return f, nil
}

// Sort puts places in file order.
func Sort(places []Place) {
	slices.SortStableFunc(places, func(a, b Place) int {
		return cmp.Or(strings.Compare(a.File, b.File), a.Line-b.Line, a.Col-b.Col)
	})
}
