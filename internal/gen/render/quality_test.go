package render_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/gen/plan"
	"github.com/fixturegen/fixturegen/internal/testenv"
	"github.com/fixturegen/fixturegen/schema"
)

// TestGeneratedCodeQuality holds the files generate writes for the example
// to the bar a careful Python project sets for its own code: `ruff format`
// leaves them unchanged, `ruff check` with its default rules finds nothing,
// and they parse under Python 3.9's grammar. The whole files (the runtime,
// the probe plugin and the probe tests) also pass `ruff check --select ALL`
// but for allIgnored, and `mypy --strict`. Besides the example's spec it
// checks variants that switch on the other template branches (timers,
// on_import and late_imports modes, autouse, no group). ruff runs with
// --isolated, so no configuration file of this repository or the user's can
// loosen it.
func TestGeneratedCodeQuality(t *testing.T) {
	t.Parallel()
	python := testenv.Python(t)
	ruff := filepath.Join(filepath.Dir(python), "ruff")
	if _, err := os.Stat(ruff); err != nil {
		t.Fatalf("no ruff beside %s (requirements-test.txt pins it): %v", python, err)
	}
	mypy := filepath.Join(filepath.Dir(python), "mypy")
	if _, err := os.Stat(mypy); err != nil {
		t.Fatalf("no mypy beside %s (requirements-test.txt pins it): %v", python, err)
	}
	example, err := filepath.Abs("../../../examples/inbox")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := os.ReadFile(filepath.Join(example, "fixturegen.toml"))
	if err != nil {
		t.Fatal(err)
	}
	noGroup := strings.Replace(string(spec), "[group]\nname = \"toy-sdk\"\n", "", 1)
	if noGroup == string(spec) {
		t.Fatal("the example spec has no [group] table to leave out")
	}
	variants := map[string]string{
		"example": string(spec),
		"defer-virtual-fail": strings.Replace(setKeys(t, string(spec),
			"timer", `"virtual"`, "on_import", `"defer"`, "late_imports", `"fail"`, "seconds", "2.5"),
			`message = "recovery loop exceeded its deadline"`, `message = "took {seconds:.1f} s {{of 2.5}}"`, 1),
		"raise-prof-off": setKeys(t, string(spec),
			"timer", `"prof"`, "on_import", `"raise"`, "late_imports", `"off"`, "seconds", "0.001"),
		"thread-autouse-env": setKeys(t, noGroup,
			"timer", `"thread"`, "autouse", "true", "seconds_env", `"SUITE_TEST_LIMIT"`,
			"raises", `"TimeoutError"`, "dump_threads", "true"),
		"auto":           setKeys(t, string(spec), "timer", `"auto"`, "seconds_env", `"SUITE_TEST_LIMIT"`),
		"module-seconds": string(spec) + "\n[deadline.module_seconds]\n\"tests/inbox/test_channel_reconnect.py\" = 3\n\"tests/**/test_*.py\" = 2.5\n",
		"shield":         string(spec) + "\n[shield]\nsignals = [\"SIGALRM\", \"SIGPROF\"]\npast_grace = \"wait\"\n",
		"shield-only":    "version = 1\n\n[shield]\nrollback = false\n\n[paths]\nconftest = \"tests/inbox/conftest.py\"\n",
		"env-list-pytest-timeout": setKeys(t, noGroup, "autouse", "true",
			"seconds_env", `["PER_TEST_TIMEOUT", "SUITE_TIMEOUT"]`, "defer_to_pytest_timeout", "true", "dump_threads", "true",
			"raises", `"Failed"`, "seconds_env_invalid", `"fallback"`),
	}
	root := t.TempDir()
	// One mypy cache for the variants of this run: the first variant
	// analyses the standard library's stubs and the others reuse that.
	// mypy reuses a module's result only when the file hashes the same as
	// the one it checked and its dependencies are unchanged, so each
	// variant's generated files are still checked as a fresh run checks
	// them; the cache is new on every run, so no earlier run counts.
	mypyCache := filepath.Join(root, "mypy-cache")
	var all []string
	for name, src := range variants {
		dir := filepath.Join(root, name)
		if err := testenv.CopyTree(example, dir); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "fixturegen.toml"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := schema.Load(filepath.Join(dir, "fixturegen.toml"))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		changes, err := plan.Make(s)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var files, whole []string
		for _, c := range changes {
			if err := os.WriteFile(c.Abs, c.New, 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, c.Path)
			all = append(all, c.Abs)
			if !c.Region {
				whole = append(whole, c.Path)
			}
		}
		// ruff runs from the project folder, as a user runs it, so that it
		// tells the project's own packages from third-party ones when it
		// sorts imports.
		format := exec.Command(ruff, append([]string{"format", "--isolated", "--no-cache", "--diff"}, files...)...)
		format.Dir = dir
		if out, err := format.CombinedOutput(); err != nil {
			t.Errorf("%s: ruff format would change the generated code (%v):\n%s", name, err, out)
		}
		check := exec.Command(ruff, append([]string{"check", "--isolated", "--no-cache", "--output-format", "concise"}, files...)...)
		check.Dir = dir
		if out, err := check.CombinedOutput(); err != nil {
			t.Errorf("%s: ruff check finds problems in the generated code (%v):\n%s", name, err, out)
		}
		strict := exec.Command(ruff, append([]string{"check", "--isolated", "--no-cache", "--output-format", "concise",
			"--select", "ALL", "--ignore", strings.Join(allIgnored, ",")}, whole...)...)
		strict.Dir = dir
		if out, err := strict.CombinedOutput(); err != nil {
			t.Errorf("%s: ruff check --select ALL finds problems in the generated files (%v):\n%s", name, err, out)
		}
		types := exec.Command(mypy, append([]string{"--strict", "--cache-dir", mypyCache}, whole...)...)
		types.Dir = dir
		if out, err := types.CombinedOutput(); err != nil {
			t.Errorf("%s: mypy --strict finds problems in the generated files (%v):\n%s", name, err, out)
		}
	}
	parse := exec.Command(python, append([]string{"-c", `
import ast, sys
for name in sys.argv[1:]:
    with open(name, "rb") as f:
        ast.parse(f.read(), name, feature_version=(3, 9))
`}, all...)...)
	if out, err := parse.CombinedOutput(); err != nil {
		t.Errorf("the generated code does not parse under Python 3.9's grammar (%v):\n%s", err, out)
	}
}

// allIgnored are the rules of `ruff check --select ALL` that the generated
// whole files do not follow, each for a reason docs/hardening.md gives.
var allIgnored = []string{
	"COM812", // the formatter decides trailing commas (ruff's own advice)
	"CPY001", // the files are generated, with no copyright notice of their own
	"E501",   // test names, node ids and messages come from the spec, at any length
	"INP001", // test folders are often not packages, and pytest needs none
	"S101",   // the probe tests assert, as pytest tests do
	"S603",   // the probe tests run pytest with arguments of their own
	"SLF001", // the loadgroup guard repairs a pytest item's private id
}

// setKeys sets each key (pairs of key and TOML value) on its own line in
// the spec's [deadline] table, replacing the line if the key is there.
func setKeys(t *testing.T, spec string, kv ...string) string {
	t.Helper()
	for i := 0; i+1 < len(kv); i += 2 {
		line := kv[i] + " = " + kv[i+1]
		re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(kv[i]) + ` = .*$`)
		if re.MatchString(spec) {
			spec = re.ReplaceAllLiteralString(spec, line)
			continue
		}
		if !strings.Contains(spec, "[deadline]\n") {
			t.Fatal("the example spec has no [deadline] table")
		}
		spec = strings.Replace(spec, "[deadline]\n", "[deadline]\n"+line+"\n", 1)
	}
	return spec
}
