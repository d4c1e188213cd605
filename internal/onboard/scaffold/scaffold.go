// Package scaffold plans a new test module that uses the alarm the way the
// contract asks: the group mark, both fixtures through usefixtures, and one
// example test that passes as created.
//
// New plans the module and does no I/O; Create is fixturegen scaffold,
// which writes it with write.New so that an existing file is never
// replaced, and with --probe adds its probe case to the spec.
package scaffold

import (
	"cmp"
	"fmt"
	"path"
	"strings"

	"github.com/fixturegen/fixturegen/internal/gen/render"
	"github.com/fixturegen/fixturegen/internal/python/pyquote"
	"github.com/fixturegen/fixturegen/schema"
)

// Module is a planned test module.
type Module struct {
	Path    string // slash-separated, relative to the spec's folder
	Test    string // the example test's function name
	Content []byte
}

// Error is a path that cannot hold a new alarm-using module; the message
// says why and what would work.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// timers names each timer's clock for the module's docstring.
var timers = map[string]string{
	schema.TimerReal:    "real time",
	schema.TimerVirtual: "user CPU time",
	schema.TimerProf:    "CPU time",
	schema.TimerThread:  "real time",
	schema.TimerAuto:    "real time",
}

// New plans the module at rel, a slash-separated path relative to the
// spec's folder.
func New(spec *schema.Spec, rel string) (*Module, error) {
	if err := checkPath(spec, rel); err != nil {
		return nil, err
	}
	name := testName(rel)
	m := &Module{Path: rel, Test: "test_" + name + "_within_the_deadline"}
	title := cmp.Or(strings.ReplaceAll(name, "_", " "), "Tests")
	content, err := render.ScaffoldModule(map[string]any{
		"Title":    strings.ToUpper(title[:1]) + title[1:],
		"Deadline": spec.Deadline.Fixture,
		"Preload":  spec.Preload.Fixture,
		"Seconds":  render.Seconds(spec.Deadline.Seconds),
		"Timer":    timers[spec.Deadline.Timer],
		"Group":    spec.Group.Name,
		"Modules":  spec.Preload.Modules,
		"Inline":   inline(spec.Preload.Modules),
		"Test":     m.Test,
	})
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", rel, err)
	}
	m.Content = content
	return m, nil
}

// inline reports whether PRELOADED holds one module and fits on one line
// of ruff format's 88 columns, where ruff format writes it whole: the
// trailing comma of a one-element tuple does not keep it open, as the
// comma after each of several modules does.
func inline(modules []string) bool {
	return len(modules) == 1 && len("PRELOADED = ("+pyquote.String(modules[0])+",)") <= 88
}

// ProbeCase is the probe case that runs the module's example test cold and
// checks that every recorded module is loaded when its alarm is armed.
func (m *Module) ProbeCase() schema.Case {
	return schema.Case{
		Test: "test_" + testName(m.Path) + "_alarm_is_armed_only_after_the_preload",
		Node: m.Path + "::" + m.Test,
	}
}

// testName is the module's name without pytest's test_ prefix or _test
// suffix: "payment_retry" for test_payment_retry.py.
func testName(rel string) string {
	stem := strings.TrimSuffix(path.Base(rel), ".py")
	if name, ok := strings.CutPrefix(stem, "test_"); ok {
		return name
	}
	return strings.TrimSuffix(stem, "_test")
}

// checkPath refuses a path that pytest would not collect, that the
// generated fixtures do not reach, or that fixturegen writes itself.
func checkPath(spec *schema.Spec, rel string) error {
	if rel == ".." || strings.HasPrefix(rel, "../") || path.IsAbs(rel) {
		return &Error{fmt.Sprintf("%s is outside the spec's folder %s; scaffold modules of the project the spec describes", rel, spec.Dir)}
	}
	base := path.Base(rel)
	stem, ok := strings.CutSuffix(base, ".py")
	if !ok {
		return &Error{fmt.Sprintf("%s does not end in .py; a test module is a Python file", rel)}
	}
	if !strings.HasPrefix(stem, "test_") && !strings.HasSuffix(stem, "_test") {
		return &Error{fmt.Sprintf("%s is not named test_*.py or *_test.py, so pytest would not collect it", rel)}
	}
	if !schema.IsIdentifier(stem) {
		return &Error{fmt.Sprintf("%s is not named after a Python identifier, so it cannot be imported as a module", rel)}
	}
	if dir := path.Dir(spec.Paths.Conftest); dir != "." && !strings.HasPrefix(rel, dir+"/") {
		return &Error{fmt.Sprintf("%s is not below %s/, and pytest gives the fixtures of %s only to tests below its folder; put the module there",
			rel, dir, spec.Paths.Conftest)}
	}
	for _, own := range []string{spec.Paths.ProbePlugin, spec.Paths.ProbeTests} {
		if own != "" && strings.EqualFold(own, rel) {
			return &Error{fmt.Sprintf("%s is a file fixturegen generates from the spec, not a place for a new module", rel)}
		}
	}
	return nil
}
