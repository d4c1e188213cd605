package specedit

import (
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/schema"
)

const spec = `#:schema ./fixturegen.schema.json
# The contract; see README.md.
version = 1

[deadline]
fixture = "recovery_deadline"
seconds = 1   # one second

[preload]
fixture = "toy_sdk"
modules = [
  "toyredis",  # the fake redis
]

[group]
name = "toy-sdk"

[paths]
conftest = "tests/conftest.py"
probe_plugin = "tests/alarm_probe.py"
probe_tests = "tests/test_alarm.py"
`

var newCase = schema.Case{Test: "test_new_probe", Node: "tests/test_new.py::test_new"}

const newBlock = "\n[[probe.case]]\ntest = \"test_new_probe\"\nnode = \"tests/test_new.py::test_new\"\n"

func TestAppendCase(t *testing.T) {
	const oldCase = "\n[[probe.case]]\ntest = \"test_old\"\nnode = \"tests/test_x.py::test_a\"\narmed_delay = 2 # two\n"
	tests := []struct {
		name, file, src, want string
	}{
		{"first case", "fixturegen.toml", spec, spec + newBlock},
		{"after the last case", "fixturegen.toml", spec + oldCase, spec + oldCase + newBlock},
		{"before trailing comments", "fixturegen.toml", spec + oldCase + "\n# [[probe.case]] to come\n",
			spec + oldCase + newBlock + "\n# [[probe.case]] to come\n"},
		{"no final newline", "fixturegen.toml", strings.TrimSuffix(spec, "\n"), spec + newBlock},
		{"pyproject, before other tools",
			"pyproject.toml",
			"[project]\nname = \"x\"\n\n" + pyproject(spec) + "\n[tool.ruff]\nline-length = 99\n",
			"[project]\nname = \"x\"\n\n" + pyproject(spec) + pyproject(newBlock) + "\n[tool.ruff]\nline-length = 99\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := schema.ParseTable([]byte(tt.src), tt.file, "/project", schema.TablePrefix(tt.file))
			if err != nil {
				t.Fatal(err)
			}
			out, got, err := AppendCase(s, []byte(tt.src), newCase)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", out, tt.want)
			}
			if n := len(got.Probe.Cases); n == 0 || got.Probe.Cases[n-1] != newCase {
				t.Errorf("the returned spec lacks the case: %+v", got.Probe.Cases)
			}
		})
	}
}

func TestAppendCaseRefuses(t *testing.T) {
	tests := []struct {
		name, file, src, want string
	}{
		{"inline array", "fixturegen.toml",
			spec + "\n[probe]\ncase = [{ test = \"test_old\", node = \"tests/test_x.py::test_a\" }]\n",
			"line 24 writes probe.case as an inline array"},
		{"dotted keys under [tool]", "pyproject.toml",
			`[tool]
fixturegen.version = 1
fixturegen.deadline = { fixture = "d", seconds = 1 }
fixturegen.preload = { fixture = "p", modules = [] }
fixturegen.group.name = "g"
fixturegen.paths = { conftest = "tests/conftest.py", probe_plugin = "tests/alarm_probe.py", probe_tests = "tests/test_alarm.py" }
other = 1
`,
			"a key of another table follows the spec's last value"},
		{"a repeated test name", "fixturegen.toml",
			spec + "\n[[probe.case]]\ntest = \"test_new_probe\"\nnode = \"tests/test_x.py::test_a\"\n",
			"the edited spec does not load"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := schema.ParseTable([]byte(tt.src), tt.file, "/project", schema.TablePrefix(tt.file))
			if err != nil {
				t.Fatalf("test bug: %v", err)
			}
			_, _, err = AppendCase(s, []byte(tt.src), newCase)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "by hand:\n\n[[") {
				t.Errorf("AppendCase = %v, want an error containing %q and the lines to add", err, tt.want)
			}
		})
	}
}

// pyproject moves the headers of a spec text under [tool.fixturegen].
func pyproject(src string) string {
	src = strings.ReplaceAll(src, "\n[[", "\n[[tool.fixturegen.")
	src = strings.ReplaceAll(src, "\n[", "\n[tool.fixturegen.")
	src = strings.ReplaceAll(src, "[tool.fixturegen.[tool.fixturegen.", "[[tool.fixturegen.")
	return strings.Replace(src, "version = 1", "[tool.fixturegen]\nversion = 1", 1)
}
