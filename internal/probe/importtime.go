package probe

import (
	"bufio"
	"cmp"
	"fmt"
	"os/exec"
	"slices"
	"strconv"
	"strings"

	"github.com/fixturegen/fixturegen/schema"
)

// ImportTime is one preload module's cold import, measured alone in a
// fresh interpreter.
type ImportTime struct {
	Module  string  `json:"module"`
	Seconds float64 `json:"seconds"`
	// DeadlineShare is Seconds as a share of the deadline.
	DeadlineShare float64 `json:"deadline_share"`
	// Heaviest names the costliest module the import pulled in (by its own
	// time), to say where the time goes; "" when it is Module itself.
	Heaviest        string  `json:"heaviest,omitempty"`
	HeaviestSeconds float64 `json:"heaviest_seconds,omitempty"`
}

// marker separates the interpreter's start-up imports from the measured one
// in -X importtime's output.
const marker = "fixturegen-importtime-start"

// ImportTimes measures each preload module's cold import with
// python -X importtime, from the spec's folder with pytest's import path
// for the probe cases (see ImportPath), and returns them slowest first.
func ImportTimes(spec *schema.Spec, python string) ([]ImportTime, error) {
	path, err := ImportPath(spec, CaseNodes(spec))
	if err != nil {
		return nil, err
	}
	var times []ImportTime
	for _, module := range spec.Preload.Modules {
		code := fmt.Sprintf("import json, sys; sys.path[:0] = json.loads(sys.argv[1]); sys.stderr.write(%q + '\\n'); import %s", marker, module)
		cmd := exec.Command(python, "-X", "importtime", "-c", code, path)
		cmd.Dir = spec.Dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			return nil, importError(module, python, spec.Dir, string(out))
		}
		t, err := parseImportTime(module, string(out))
		if err != nil {
			return nil, err
		}
		t.DeadlineShare = t.Seconds / spec.Deadline.Seconds
		times = append(times, t)
	}
	slices.SortStableFunc(times, func(a, b ImportTime) int { return cmp.Compare(b.Seconds, a.Seconds) })
	return times, nil
}

// parseImportTime reads lines "import time: self [us] | cumulative | name"
// after the marker. The top-level entries (names without indentation) add
// up to the whole import's cost.
func parseImportTime(module, out string) (ImportTime, error) {
	t := ImportTime{Module: module}
	started := false
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if line == marker {
			started = true
			continue
		}
		rest, ok := strings.CutPrefix(line, "import time:")
		if !started || !ok {
			continue
		}
		fields := strings.SplitN(rest, "|", 3)
		if len(fields) != 3 {
			continue
		}
		self, err1 := strconv.Atoi(strings.TrimSpace(fields[0]))
		cumulative, err2 := strconv.Atoi(strings.TrimSpace(fields[1]))
		if err1 != nil || err2 != nil {
			continue // the header line
		}
		name := strings.TrimPrefix(fields[2], " ")
		if !strings.HasPrefix(name, " ") {
			t.Seconds += float64(cumulative) / 1e6
		}
		if s := float64(self) / 1e6; s > t.HeaviestSeconds {
			t.Heaviest, t.HeaviestSeconds = strings.TrimSpace(name), s
		}
	}
	if !started {
		return t, fmt.Errorf("python -X importtime printed no import times for %s", module)
	}
	if t.Heaviest == module {
		t.Heaviest = ""
	}
	return t, nil
}

// importError says why module did not import, in one line first: the
// module, the Python and the exception, as the traceback's last line
// gives it. The traceback follows, without -X importtime's lines, unless
// it says no more than that line: the module itself not found.
func importError(module, python, dir, out string) error {
	trace := slices.DeleteFunc(strings.Split(strings.TrimRight(out, "\n"), "\n"), func(line string) bool {
		return line == marker || strings.HasPrefix(line, "import time:")
	})
	last := "it exited with no traceback"
	if len(trace) > 0 {
		last = trace[len(trace)-1]
	}
	msg := fmt.Sprintf("cannot import %s with %s (started in %s): %s", module, python, dir, last)
	missing, named := strings.CutPrefix(last, "ModuleNotFoundError: No module named '")
	missing, quoted := strings.CutSuffix(missing, "'")
	if named && quoted && under(module, missing) || len(trace) <= 1 {
		return fmt.Errorf("%s", msg)
	}
	return fmt.Errorf("%s\n%s", msg, strings.Join(trace, "\n"))
}
