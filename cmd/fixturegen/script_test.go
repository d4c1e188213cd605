package main

import (
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/fixturegen/fixturegen/internal/testenv"
)

func TestMain(m *testing.M) {
	testscript.Main(waitBound{m}, map[string]func(){"fixturegen": main})
}

// toySDKColdSeconds is the toy SDK's cold import cost in the scripts (see
// examples/inbox/toysdk/_cold.py).
const toySDKColdSeconds = "1.2"

// scriptParallel is how many tests marked parallel run at once when
// -test.parallel is not given. The scripts spend most of their time waiting
// on pytest's deadlines, planted delays and cold imports, not on a CPU, so
// the default of one per CPU leaves the machine idle. With the slowest
// scripts started first (see scriptSeconds), 12 at a time keep both cores
// of a 2-core machine busy to the end. More would gain little and load the
// machine further: what the scripts assert of time is "longer than the
// deadline" or a range of most of a second above it, which a loaded
// machine mostly moves upward within, but a few read a phase that starts
// after the deadline is armed (pytest's call phase, after the fixture's
// setup), which a process waiting for a CPU in between shortens: they
// allow a call a few hundredths of a second short (on a quiet machine the
// call reads 1.00 s of a 1 s deadline; with twelve busy loops, 0.98 s in
// one run of twelve).
const scriptParallel = 12

// waitBound runs the tests with -test.parallel raised to scriptParallel,
// unless the command line sets it. It wraps the test run only, so the
// test binary started as fixturegen by a script parses no test flags.
type waitBound struct{ m *testing.M }

func (w waitBound) Run() int {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set && runtime.GOMAXPROCS(0) < scriptParallel {
		if err := flag.Set("test.parallel", strconv.Itoa(scriptParallel)); err != nil {
			panic(err)
		}
	}
	return w.m.Run()
}

// TestScripts runs testscripts/*.txtar: whole workflows through the real
// fixturegen binary and real pytest. Each script starts with a fresh copy
// of examples/inbox in $WORK/inbox, $PYTHON naming the project venv's
// python (see internal/testenv) and $TOYSDK_COLD_SECONDS set to
// toySDKColdSeconds. With -update (see rules_test.go), a script whose cmp
// or cmpenv of stdout or stderr against one of its own files fails gets
// that file rewritten to what the command printed instead:
// go test ./cmd/fixturegen -run TestScripts -update, then review the diff.
// Under -short only the scripts that never name $PYTHON
// run, and no Python is set up.
func TestScripts(t *testing.T) {
	t.Parallel()
	example, err := filepath.Abs("../../examples/inbox")
	if err != nil {
		t.Fatal(err)
	}
	files, err := longestFirst("../../testscripts")
	if err != nil {
		t.Fatal(err)
	}
	python := "python-is-not-set-up-under-short"
	if testing.Short() {
		if files, err = withoutPython(files); err != nil {
			t.Fatal(err)
		}
		t.Logf("-short: running the %d scripts that need no Python", len(files))
	} else {
		python = testenv.Python(t)
	}
	testscript.Run(t, testscript.Params{
		Files:               files,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       *update,
		Setup: func(env *testscript.Env) error {
			env.Setenv("PYTHON", python)
			// The example's pytest runs must not write bytecode into the
			// copy, so "unchanged" checks see only what fixturegen wrote.
			env.Setenv("PYTHONDONTWRITEBYTECODE", "1")
			// The toy SDK's cold import only has to outlast the example's
			// 1 s deadline; a busy machine only makes it longer, so the
			// scripts read its seconds from below only. A script whose
			// timer must land inside the import (triage_timeout,
			// shield_rollback) sets a longer import of its own. 1.2 s
			// instead of the 1.5 s a person running the example sees
			// keeps the scripts that wait it out shorter.
			env.Setenv("TOYSDK_COLD_SECONDS", toySDKColdSeconds)
			return testenv.CopyTree(example, filepath.Join(env.WorkDir, "inbox"))
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"crlf":     cmdCRLF,
			"plugin":   cmdPlugin,
			"exits":    cmdExits,
			"mtime":    cmdMtime,
			"ranon":    cmdRanOn,
			"replace":  cmdReplace,
			"treehash": cmdTreehash,
		},
	})
}

// scriptSeconds is how long each of the slowest scripts takes when it runs
// alone on a 2-core machine, in seconds, as bash bench/testscripts.sh
// prints them. Their time is mostly a chain of real waits, so they start
// first: started last, one of them would set the package's time alone.
// Scripts not listed take under 6 s and follow in name order. The figures
// only order the scripts; a stale one costs time, never a result.
var scriptSeconds = map[string]float64{
	"adopt_timeout_hasplugin_absent":      49.2,
	"adopt_timeout_module_seconds":        37.5,
	"adopt_timeout_pytest_fail_fallback":  33.8,
	"adopt_timeout_rearmed_message":       27.2,
	"late_import_xdist":                   32.1,
	"probe_fix_failed_imports":            29.7,
	"generate_deadline":                   27.1,
	"adopt_timeout_module_handler":        27.4,
	"adopt_timeout_helper_pytest_timeout": 24.6,
	"adopt_timeout_hasattr_guard":         24.1,
	"init_timeout_elsewhere":              24.5,
	"adopt_timeout_alarm_int":             23.9,
	"adopt_timeout_setitimer_env":         23.9,
	"shield_pytest_timeout":               23.0,
	"plugin_pairings":                     26.0,
	"plugin_pytest_timeout":               23.0,
	"shield_rollback":                     22.9,
	"adopt_timeout_interval_faulthandler": 22.8,
	"probe_fix":                           20.7,
	"shield_warnings":                     21.7,
	"adopt_timeout_observed_shapes":       19.0,
	"generate_per_test_timeout":           18.5,
	"init_timeout_config":                 18.0,
	"generate_red_raise":                  17.1,
	"platform_no_sigalrm":                 15.8,
	"probe_src_layout":                    15.8,
	"probe_tests":                         14.9,
	"generate_message_seconds":            14.2,
	"triage_roundtrip":                    14.7,
	"triage_green_slow":                   13.8,
	"triage_timeout":                      12.4,
	"generate_crlf":                       11.1,
	"probe_cli":                           9.4,
	"scaffold_module":                     8.5,
	"shield_own_alarm":                    8.2,
	"docs_region":                         7.8,
	"platform_no_sigalrm_imports":         7.8,
	"generate_loadgroup":                  7.4,
	"pyproject_spec":                      6.7,
	"generate_exclude":                    6.7,
	"generate_import_modes":               6.7,
	"generate_green":                      6.7,
	"init_handwritten":                    6.7,
	"platform_no_sigalrm_thread":          6.6,
}

// longestFirst returns the scripts in dir, those of scriptSeconds first,
// slowest first, then the rest in name order. Subtests marked parallel
// start in the order they were created, so this is the order they start
// in. A name in scriptSeconds with no script is an error, so the table
// cannot silently stop ordering a renamed script.
func longestFirst(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		return nil, err
	}
	found := map[string]bool{}
	for _, f := range files {
		found[strings.TrimSuffix(filepath.Base(f), ".txtar")] = true
	}
	for name := range scriptSeconds {
		if !found[name] {
			return nil, fmt.Errorf("scriptSeconds names %s, and %s has no %s.txtar", name, dir, name)
		}
	}
	sort.SliceStable(files, func(i, j int) bool {
		a := scriptSeconds[strings.TrimSuffix(filepath.Base(files[i]), ".txtar")]
		b := scriptSeconds[strings.TrimSuffix(filepath.Base(files[j]), ".txtar")]
		return a > b
	})
	return files, nil
}

// withoutPython returns the scripts of files that never name $PYTHON: the
// ones that run neither pytest nor anything else of the test venv.
func withoutPython(files []string) ([]string, error) {
	var keep []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		if !strings.Contains(string(data), "$PYTHON") {
			keep = append(keep, f)
		}
	}
	return keep, nil
}

// cmdMtime prints each file's modification time in nanoseconds, so a script
// can save them and compare after a second run.
func cmdMtime(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: mtime FILE...")
	}
	for _, name := range args {
		info, err := os.Stat(ts.MkAbs(name))
		ts.Check(err)
		fmt.Fprintf(ts.Stdout(), "%s %d\n", name, info.ModTime().UnixNano())
	}
}

// cmdRanOn reads pytest -v output with pytest-xdist and sets the
// environment variable VAR to the worker that ran NODE first, from its
// "[gwN] [ 50%] OUTCOME NODE" line, so a script can check that a report
// names the worker the log shows. A loadgroup suffix on the logged id is
// ignored.
func cmdRanOn(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: ranon LOG NODE VAR")
	}
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	for _, line := range strings.Split(string(data), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 3 || !strings.HasPrefix(fields[0], "[gw") {
			continue
		}
		node := fields[len(fields)-1]
		if at := strings.LastIndexByte(node, '@'); at >= 0 {
			node = node[:at]
		}
		if node == args[1] {
			ts.Setenv(args[2], strings.Trim(fields[0], "[]"))
			return
		}
	}
	ts.Fatalf("ranon: no [gwN] line runs %s in %s", args[1], args[0])
}

// cmdReplace replaces every literal OLD with NEW in FILE; it fails when OLD
// does not occur, so a script cannot silently edit nothing. "\n" in OLD or
// NEW stands for a newline.
func cmdReplace(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: replace FILE OLD NEW")
	}
	file := ts.MkAbs(args[0])
	data, err := os.ReadFile(file)
	ts.Check(err)
	oldText := strings.ReplaceAll(args[1], `\n`, "\n")
	newText := strings.ReplaceAll(args[2], `\n`, "\n")
	if !strings.Contains(string(data), oldText) {
		ts.Fatalf("replace: %q does not occur in %s", args[1], args[0])
	}
	ts.Check(os.WriteFile(file, []byte(strings.ReplaceAll(string(data), oldText, newText)), 0o644))
}

// cmdCRLF gives each FILE "\r\n" line endings, as git's autocrlf gives a
// Windows checkout; with -check it changes nothing and fails unless every
// line of each FILE ends in "\r\n" (the last may have no line ending).
func cmdCRLF(ts *testscript.TestScript, neg bool, args []string) {
	check := len(args) > 0 && args[0] == "-check"
	if check {
		args = args[1:]
	}
	if neg || len(args) == 0 {
		ts.Fatalf("usage: crlf [-check] FILE...")
	}
	for _, name := range args {
		file := ts.MkAbs(name)
		data, err := os.ReadFile(file)
		ts.Check(err)
		lf := strings.ReplaceAll(string(data), "\r\n", "\n")
		if check {
			if n := strings.Count(lf, "\n"); n != strings.Count(string(data), "\r\n") || n == 0 {
				ts.Fatalf("%s: %d of its %d line endings are \\r\\n", name, strings.Count(string(data), "\r\n"), n)
			}
			continue
		}
		ts.Check(os.WriteFile(file, []byte(strings.ReplaceAll(lf, "\n", "\r\n")), 0o644))
	}
}

// cmdExits runs a program, as exec does, and requires its exit status to
// be CODE: "exits 2 fixturegen generate". Its output is kept for stdout
// and stderr to inspect.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE PROGRAM [ARG...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("%s: %v", args[1], err)
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}

// cmdTreehash prints one SHA-256 over the description of everything
// below each DIR (see describeTree). A script saves it and compares after
// a command, to show that the command changed nothing there.
func cmdTreehash(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: treehash DIR...")
	}
	for _, name := range args {
		desc, err := describeTree(ts.MkAbs(name))
		ts.Check(err)
		fmt.Fprintf(ts.Stdout(), "%s: %d entries, sha256 %x\n", name, strings.Count(desc, "\n")+1, sha256.Sum256([]byte(desc)))
	}
}
