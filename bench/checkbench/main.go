// Checkbench writes the synthetic project that bench/trees.sh times
// fixturegen check on, beside grep; see bench/README.md for the figures.
//
// Usage:
//
//	checkbench gen DIR   write a synthetic project into DIR
//
// gen writes a spec, a pytest.ini and a tests/ tree of 10,000 test modules
// of about 4 KB each in 100 packages: 5% carry the xdist group mark (half of
// them use the deadline fixture, half patch a preload module), 2% arm their
// own timer, and 3% mention signal.alarm( only in comments and strings, so
// the tokenizer, not the word search, must tell that they are clean. The
// content is pseudo-random from a fixed seed, so every run gets the same
// tree.
package main

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	if len(os.Args) != 3 || os.Args[1] != "gen" {
		fmt.Fprintln(os.Stderr, "usage: checkbench gen DIR")
		os.Exit(2)
	}
	if err := gen(os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "checkbench:", err)
		os.Exit(1)
	}
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
