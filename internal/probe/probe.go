// Package probe runs tests under the recording probe plugin in a fresh
// interpreter and reads its report: the state of the recorded modules at
// each arming of the alarm, and every module whose first import started
// while the alarm was armed.
//
// It is the engine of fixturegen probe. The plugin is the same one the
// generated probe tests load (package render makes both), written to a
// folder of its own so a stale or missing copy in the project cannot skew
// the result.
package probe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/fixturegen/fixturegen/internal/render"
	"github.com/fixturegen/fixturegen/schema"
)

// pluginModule is the name the plugin is loaded under (pytest -p).
const pluginModule = "_fixturegen_probe"

// Report is what one probe run found.
type Report struct {
	Nodes []string // the node ids run
	Code  int      // the inner pytest's exit code
	// Armed holds the recorded state at each arming, keyed as in
	// spec.Probe.Record; ArmedNodes the test that armed it.
	Armed      []map[string]bool
	ArmedNodes []string
	// Late is every outermost first import that started under the alarm.
	Late []Import
	// Output is the inner run's stdout and stderr, for diagnosis.
	Stdout, Stderr string
}

// Import is one first import under the alarm.
type Import struct {
	Node    string  `json:"node"`
	Module  string  `json:"module"`
	Seconds float64 `json:"seconds"`
}

// OK reports whether the contract held: the inner run passed, the alarm
// was armed, every record was true at every arming and nothing was
// imported late.
func (r *Report) OK() bool {
	if r.Code != 0 || len(r.Armed) == 0 || len(r.Late) > 0 {
		return false
	}
	for _, rec := range r.Armed {
		for _, ok := range rec {
			if !ok {
				return false
			}
		}
	}
	return true
}

// LateModules returns the late modules in the order first seen, once each.
func (r *Report) LateModules() []string {
	var out []string
	seen := map[string]bool{}
	for _, imp := range r.Late {
		if !seen[imp.Module] {
			seen[imp.Module] = true
			out = append(out, imp.Module)
		}
	}
	return out
}

// DefaultPython is the interpreter used when none is named: the project's
// .venv if it has one, else python3 from PATH.
func DefaultPython(spec *schema.Spec) string {
	venv := filepath.Join(spec.Dir, ".venv", "bin", "python")
	if _, err := os.Stat(venv); err == nil {
		return venv
	}
	return "python3"
}

// Run runs nodes in one inner pytest, cold, from the spec's folder, with
// the probe plugin and no planted delays. PYTEST_ADDOPTS, the ini addopts
// and pytest-timeout do not reach the inner run, as in the generated probe
// tests.
func Run(spec *schema.Spec, python string, nodes []string) (*Report, error) {
	plugin, err := render.ProbePlugin(spec)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "fixturegen-probe-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, pluginModule+".py"), plugin, 0o644); err != nil {
		return nil, err
	}

	args := []string{"-m", "pytest", "-p", pluginModule, "-o", "addopts=", "-p", "no:cacheprovider", "-p", "no:timeout", "-q"}
	cmd := exec.Command(python, append(args, nodes...)...)
	cmd.Dir = spec.Dir
	cmd.Env = probeEnv(os.Environ(), dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	if _, ok := runErr.(*exec.ExitError); runErr != nil && !ok {
		return nil, fmt.Errorf("cannot run %s: %w", python, runErr)
	}
	r := &Report{Nodes: nodes, Code: cmd.ProcessState.ExitCode(), Stdout: stdout.String(), Stderr: stderr.String()}
	if err := r.parse(); err != nil {
		return r, err
	}
	return r, nil
}

// probeEnv is the inner run's environment: the caller's, without the
// options meant for the outer run, with the plugin's folder on PYTHONPATH
// and the plugin asked for its detailed report.
func probeEnv(environ []string, pluginDir string) []string {
	var env []string
	pythonPath := pluginDir
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		switch {
		case name == "PYTEST_ADDOPTS" || name == "PYTEST_TIMEOUT" || strings.HasPrefix(name, "PYTEST_XDIST"),
			name == "PLANTED_DELAY" || name == "PLANTED_DELAY_MODULE" || name == "ARMED_DELAY":
			continue
		case name == "PYTHONPATH":
			if value != "" {
				pythonPath += string(os.PathListSeparator) + value
			}
			continue
		}
		env = append(env, kv)
	}
	return append(env, "PYTHONPATH="+pythonPath, "FIXTUREGEN_PROBE_IMPORTS=1")
}

// parse reads the plugin's JSON line from the inner run's output.
func (r *Report) parse() error {
	for _, line := range strings.Split(r.Stdout, "\n") {
		if !strings.HasPrefix(line, `{"code"`) {
			continue
		}
		var doc struct {
			Code       int               `json:"code"`
			Armed      []map[string]bool `json:"armed"`
			ArmedNodes []string          `json:"armed_nodes"`
			Imports    []Import          `json:"imports"`
		}
		if err := json.Unmarshal([]byte(line), &doc); err != nil {
			return fmt.Errorf("the probe's report does not parse (%v): %s", err, line)
		}
		r.Code, r.Armed, r.ArmedNodes, r.Late = doc.Code, doc.Armed, doc.ArmedNodes, doc.Imports
		return nil
	}
	return fmt.Errorf("the inner pytest run exited %d and printed no probe report; its output:\n%s%s",
		r.Code, r.Stdout, r.Stderr)
}
