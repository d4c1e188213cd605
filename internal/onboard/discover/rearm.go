package discover

import (
	"bytes"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/python/suite"
)

// Rearm is a fixture of a test module that arms the timer again for that
// module's tests, with no handler of its own: it relies on the suite's
// handler, and says "this module gets N seconds", which is what
// deadline.module_seconds says in a spec.
type Rearm struct {
	Module  string // the test module, relative to the folder searched
	Fixture string
	At      string // path:line:col of the fixture's name
	// Seconds is the number the fixture arms the timer for; 0 when it is
	// not a number literal (SecondsAt then says where the call is).
	Seconds   float64
	SecondsAt string
	// WholeModule is true when every test of the module runs under the
	// fixture: it is autouse, or the module's pytestmark uses it.
	WholeModule bool
}

// FindRearms lists the re-arming fixtures of the test modules below dir
// (relative to root, "." for all), in path order. A fixture that installs
// a handler of its own is not one: it is a deadline of its own.
func FindRearms(root, dir string) ([]Rearm, error) {
	t, err := readTree(root)
	if err != nil {
		return nil, err
	}
	return t.rearms(dir)
}

func (t *tree) rearms(dir string) ([]Rearm, error) {
	var out []Rearm
	err := t.timed(dir, func(rel string, m *pyscan.Module) { out = append(out, rearms(rel, m)...) })
	return out, err
}

// timed calls fn with each test module below dir that names a timer, the
// only ones that can arm one.
func (t *tree) timed(dir string, fn func(rel string, m *pyscan.Module)) error {
	for _, rel := range t.tests(dir) {
		src, err := t.read(rel)
		if err != nil {
			return err
		}
		if bytes.Contains(src, []byte("alarm")) || bytes.Contains(src, []byte("setitimer")) {
			m, _ := t.module(rel)
			fn(rel, m)
		}
	}
	return nil
}

// rearms reads the re-arming fixtures of one test module, in source order.
func rearms(rel string, m *pyscan.Module) []Rearm {
	moduleWide := map[string]bool{}
	for _, call := range m.Calls {
		if call.Scope >= 0 || m.Resolve(call.Callee) != "pytest.mark.usefixtures" {
			continue
		}
		for _, a := range call.Args {
			if a.Kind == pyscan.ArgString {
				moduleWide[a.Value] = true
			}
		}
	}
	var out []Rearm
	for _, def := range slices.Sorted(maps.Values(m.Fixtures())) {
		name := m.FixtureName(def)
		autouse, _ := m.FixtureArg(def, "autouse")
		r := Rearm{Module: rel, Fixture: name, At: at(rel, m.Defs[def].Pos), WholeModule: moduleWide[name] || autouse.Value == "True"}
		own, arms := false, false
		for _, call := range m.Calls {
			if call.Scope < 0 || !m.Inside(call.Scope, def) {
				continue
			}
			seconds := 0 // the argument that holds them
			switch m.Resolve(call.Callee) {
			case "signal.signal":
				own = true
				continue
			case "signal.setitimer":
				if len(call.Args) == 0 || call.Args[0].Kind != pyscan.ArgName || m.Resolve(call.Args[0].Value) != "signal.ITIMER_REAL" {
					continue
				}
				seconds = 1
			case "signal.alarm":
			default:
				continue
			}
			if n, ok := numberArg(call, seconds); !arms && (!ok || n > 0) {
				arms, r.Seconds, r.SecondsAt = true, n, at(rel, call.Pos)
			}
		}
		if arms && !own {
			out = append(out, r)
		}
	}
	return out
}

// numberArg returns the positional argument i of call as a number, when
// it is a number literal.
func numberArg(call pyscan.Call, i int) (float64, bool) {
	if i >= len(call.Args) || call.Args[i].Keyword != "" || call.Args[i].Kind != pyscan.ArgNumber {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(call.Args[i].Value, "_", ""), 64)
	return f, err == nil
}

// ArmsWithoutHandler returns where the test modules below dir (relative
// to root, "." for all) arm a timer in a module that installs no handler
// of its own: code that relies on a handler the suite installs for the
// whole process, at path:line:col.
func ArmsWithoutHandler(root, dir string) ([]string, error) {
	t, err := readTree(root)
	if err != nil {
		return nil, err
	}
	var out []string
	err = t.timed(dir, func(rel string, m *pyscan.Module) {
		var arms []string
		own := false
		for _, call := range m.Calls {
			if what, ok := suite.ArmsTimer(m, call); ok && strings.HasPrefix(what, "signal.signal") {
				own = true
			}
			if _, ok := armingCall(m, call); ok {
				arms = append(arms, at(rel, call.Pos))
			}
		}
		if !own {
			out = append(out, arms...)
		}
	})
	return out, err
}
