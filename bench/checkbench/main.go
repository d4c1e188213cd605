// Checkbench makes the input of fixturegen check's benchmark and times it
// against grep. bench/check.sh runs both steps; see bench/README.md for the
// figures.
//
// Usage:
//
//	checkbench gen DIR               write a synthetic project into DIR
//	checkbench time RUNS CMD1 CMD2   run two commands RUNS times, interleaved
//
// gen writes a spec, a pytest.ini and a tests/ tree of 10,000 test modules
// of about 4 KB each in 100 packages: 5% carry the xdist group mark (half of
// them use the deadline fixture, half patch a preload module), 2% arm their
// own timer, and 3% mention signal.alarm( only in comments and strings, so
// the tokenizer, not the word search, must tell that they are clean. The
// content is pseudo-random from a fixed seed, so every run gets the same
// tree.
//
// time runs each command (split on spaces, no shell) RUNS times after one
// warm-up run, alternating them so that a noisy machine slows both alike,
// and prints each command's median wall time, the ratio of the first to the
// second, and the first command's peak resident memory, read from the
// child's resource usage (what /usr/bin/time -v reports).
package main

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

func main() {
	if len(os.Args) < 3 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "gen":
		err = gen(os.Args[2])
	case "time":
		if len(os.Args) != 5 {
			usage()
		}
		runs, convErr := strconv.Atoi(os.Args[2])
		if convErr != nil || runs < 1 {
			usage()
		}
		err = timeCommands(runs, os.Args[3], os.Args[4])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "checkbench:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: checkbench gen DIR | checkbench time RUNS CMD1 CMD2")
	os.Exit(2)
}

const (
	packages       = 100
	modulesPerPkg  = 100
	groupPercent   = 5
	timerPercent   = 2
	decoyPercent   = 3
	targetFileSize = 4000
)

const spec = `version = 1

[deadline]
fixture = "recovery_deadline"
seconds = 5
message = "recovery loop exceeded its deadline"

[preload]
fixture = "mcp_sdk"
modules = ["fakeredis", "mcp.server.lowlevel", "mcp.server.stdio", "mcp.shared.message"]

[group]
name = "mcp-sdk"

[paths]
conftest = "tests/conftest.py"
probe_plugin = "tests/alarm_probe.py"
probe_tests = "tests/test_alarm_probe.py"

[[probe.case]]
test = "test_the_reconnect_alarm_is_armed_only_after_the_sdk_is_loaded"
node = "tests/pkg000/test_mod0000.py::test_case_0"
`

func gen(dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, "tests"), 0o755); err != nil {
		return err
	}
	files := map[string]string{
		"fixturegen.toml":   spec,
		"pytest.ini":        "[pytest]\npythonpath = .\ntestpaths = tests\naddopts = -n 4 --dist loadgroup --reruns 2\n",
		"tests/conftest.py": "\"\"\"Shared fixtures.\"\"\"\n\nimport pytest\n\n\n@pytest.fixture\ndef tmp_config(tmp_path):\n    return tmp_path / \"config.toml\"\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			return err
		}
	}
	rng := rand.New(rand.NewSource(1))
	n := 0
	for p := range packages {
		pkg := filepath.Join(dir, "tests", fmt.Sprintf("pkg%03d", p))
		if err := os.MkdirAll(pkg, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(pkg, "__init__.py"), nil, 0o644); err != nil {
			return err
		}
		for range modulesPerPkg {
			// Roles are spread evenly: every 20th module is in the group,
			// every 50th (offset) arms a timer, and so on.
			role := "plain"
			switch {
			case n%(100/groupPercent) == 7:
				role = "group"
			case n%(100/timerPercent) == 3:
				role = "timer"
			case n%33 == 5:
				role = "decoy"
			}
			src := module(rng, n, role)
			name := filepath.Join(pkg, fmt.Sprintf("test_mod%04d.py", n))
			if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
				return err
			}
			n++
		}
	}
	fmt.Printf("wrote %d test modules under %s\n", n, filepath.Join(dir, "tests"))
	return nil
}

var words = strings.Fields("channel item queue client server message record reconnect backoff payload " +
	"session profile cache tool worker batch stream token handler result window limit retry")

func word(rng *rand.Rand) string { return words[rng.Intn(len(words))] }

// module writes one test module of about targetFileSize bytes.
func module(rng *rand.Rand, n int, role string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\"\"\"Tests for the %s %s (module %d).\n\nThey check the %s against a fake %s.\n\"\"\"\n\n", word(rng), word(rng), n, word(rng), word(rng))
	b.WriteString("import json\nimport os\n\nimport pytest\n")
	switch role {
	case "group":
		b.WriteString("\npytestmark = pytest.mark.xdist_group(\"mcp-sdk\")\n")
		if n/20%2 == 0 {
			b.WriteString("pytestmark = [pytestmark, pytest.mark.usefixtures(\"mcp_sdk\", \"recovery_deadline\")]\n")
		}
	case "timer":
		b.WriteString("import signal\n")
	case "decoy":
		b.WriteString("\n# Do not call signal.alarm( here: use the recovery_deadline fixture.\nHINT = \"signal.setitimer(signal.ITIMER_REAL, 5) is what the fixture does\"\n")
	}
	b.WriteString("\n\n")
	for i := 0; b.Len() < targetFileSize-400; i++ {
		fmt.Fprintf(&b, "def test_case_%d(tmp_path):\n", i)
		fmt.Fprintf(&b, "    \"\"\"The %s keeps its %s after a %s.\"\"\"\n", word(rng), word(rng), word(rng))
		fmt.Fprintf(&b, "    %s = {\"%s\": %d, \"%s\": [%d, %d]}\n", word(rng), word(rng), rng.Intn(1000), word(rng), rng.Intn(100), rng.Intn(100))
		fmt.Fprintf(&b, "    path = tmp_path / \"%s.json\"\n", word(rng))
		fmt.Fprintf(&b, "    path.write_text(json.dumps(%s))  # the %s under test\n", "{\"k\": 1}", word(rng))
		fmt.Fprintf(&b, "    assert json.loads(path.read_text())[\"k\"] == 1, f\"{path} lost its %s\"\n", word(rng))
		fmt.Fprintf(&b, "    assert os.path.exists(path)\n\n\n")
	}
	switch role {
	case "group":
		if n/20%2 == 1 {
			b.WriteString("def test_patched(monkeypatch):\n    monkeypatch.setattr(\"mcp.server.stdio.stdio_server\", lambda: None)\n")
		} else {
			b.WriteString("def test_under_deadline():\n    assert True\n")
		}
	case "timer":
		b.WriteString("def test_with_its_own_alarm():\n    signal.setitimer(signal.ITIMER_REAL, 5)\n    try:\n        assert True\n    finally:\n        signal.setitimer(signal.ITIMER_REAL, 0)\n")
	}
	return b.String()
}

// timeCommands runs two commands alternately and prints their medians.
func timeCommands(runs int, a, b string) error {
	cmds := []string{a, b}
	times := [][]time.Duration{nil, nil}
	var peak int64
	codes := []int{0, 0}
	for i := -1; i < runs; i++ { // run -1 is the warm-up
		for j, c := range cmds {
			d, rss, code, err := runOnce(c)
			if err != nil {
				return err
			}
			if i < 0 {
				continue
			}
			times[j] = append(times[j], d)
			codes[j] = code
			if j == 0 {
				peak = max(peak, rss)
			}
		}
	}
	med := []time.Duration{median(times[0]), median(times[1])}
	for j, c := range cmds {
		fmt.Printf("%-60s median %7.1f ms over %d runs (exit %d)\n", c, ms(med[j]), runs, codes[j])
	}
	ratio := float64(med[0]) / float64(med[1])
	fmt.Printf("ratio (first / second): %.2f\n", ratio)
	fmt.Printf("peak RSS of the first: %.1f MiB\n", float64(peak)/1024)
	verdict := func(ok bool) string {
		if ok {
			return "met"
		}
		return "NOT met"
	}
	fmt.Printf("targets: ratio <= 1.00 %s; peak RSS < 64 MiB %s\n", verdict(ratio <= 1.0), verdict(peak < 64*1024))
	return nil
}

func runOnce(command string) (time.Duration, int64, int, error) {
	args := strings.Fields(command)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout, cmd.Stderr = nil, nil // discarded, as a CI log would not slow them
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
		if code > 1 {
			return 0, 0, 0, fmt.Errorf("%s: exit %d", command, code)
		}
	} else if err != nil {
		return 0, 0, 0, fmt.Errorf("%s: %w", command, err)
	}
	return d, maxRSS(cmd.ProcessState), code, nil
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
