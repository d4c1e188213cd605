package discover

import (
	"os"
	"path/filepath"
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
	files, err := pytestFiles(root)
	if err != nil {
		return nil, err
	}
	return findRearms(root, dir, files)
}

func findRearms(root, dir string, files []string) ([]Rearm, error) {
	var out []Rearm
	for _, rel := range files {
		if !isTestFile(rel) || !below(rel, dir) {
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return nil, err
		}
		if !hasName(src, "alarm") && !hasName(src, "setitimer") {
			continue
		}
		out = append(out, rearms(rel, pyscan.Scan(src))...)
	}
	return out, nil
}

// rearms reads the re-arming fixtures of one test module.
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
	var defs []int
	for name, def := range fixtures(m) {
		r := Rearm{Module: rel, Fixture: name, At: at(rel, m.Defs[def].Pos), WholeModule: moduleWide[name]}
		own, arms := false, false
		for _, call := range m.Calls {
			if call.Scope < 0 || !m.Inside(call.Scope, def) {
				continue
			}
			switch m.Resolve(call.Callee) {
			case "signal.signal":
				own = true
			case "signal.alarm":
				if n, ok := numberArg(call, 0); ok && n > 0 && !arms {
					arms, r.Seconds, r.SecondsAt = true, n, at(rel, call.Pos)
				} else if !ok && !arms {
					arms, r.SecondsAt = true, at(rel, call.Pos)
				}
			case "signal.setitimer":
				if len(call.Args) == 0 || call.Args[0].Kind != pyscan.ArgName || m.Resolve(call.Args[0].Value) != "signal.ITIMER_REAL" {
					continue
				}
				if n, ok := numberArg(call, 1); ok && n > 0 && !arms {
					arms, r.Seconds, r.SecondsAt = true, n, at(rel, call.Pos)
				} else if !ok && !arms {
					arms, r.SecondsAt = true, at(rel, call.Pos)
				}
			}
		}
		if !arms || own {
			continue
		}
		for _, dec := range m.Defs[def].Decorators {
			if dec.Call < 0 {
				continue
			}
			for _, a := range m.Calls[dec.Call].Args {
				if a.Keyword == "autouse" && a.Kind == pyscan.ArgName && a.Value == "True" {
					r.WholeModule = true
				}
			}
		}
		out = append(out, r)
		defs = append(defs, def)
	}
	// fixtures is a map; the report has the source's order.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && defs[j] < defs[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
			defs[j], defs[j-1] = defs[j-1], defs[j]
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
	files, err := pytestFiles(root)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, rel := range files {
		if !isTestFile(rel) || !below(rel, dir) {
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return nil, err
		}
		if !hasName(src, "alarm") && !hasName(src, "setitimer") {
			continue
		}
		m := pyscan.Scan(src)
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
	}
	return out, nil
}
