package pyscan

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/testenv"
)

// syntaxCases are sources with one syntax error that the tokenizer can
// see. CPython's compile is the oracle for the position and the message
// (py_compile prints the same); a conftest with `compute(1, 2` left open
// at line 7 is reported at 7:17, where the bracket is, not at the end of
// the file.
var syntaxCases = []string{
	"a = 1\nb = 2\nc = 3\nd = 4\ne = 5\nf = 6\nresult = compute(1, 2\n\n\ndef g():\n    pass\n",
	"x = f(a, [1, 2\n",
	"x = {1: (2,\n",
	"x = [1, 2\ny = 3\n",
	"x = (\n\n\n",
	"é = f(1, 2\n",
	"s = 'é'; t = ('ü', [\n",
	"x = f(1, 2",
	"x = (1]\n",
	"x = (1,\n]\n",
	"x = [\n1)\n",
	"x = 1)\n",
	"x = 1\n}\n",
	"s = \"abc\nt = 1\n",
	"s = 'abc",
	"x = f(1,\n  \"abc\n",
	"s = \"\"\"abc\nt = 1\n",
	"s = '''abc\nt = 1",
	"s = '''abc\nt = 1\n\n\n",
	"if x:\n        a()\n    b()\n",
}

// TestSyntaxErrorsAsCPython compares the tokenizer's first problem in
// each case with CPython's SyntaxError: the same line, column and message.
// For a bad dedent, CPython's column is the end of the line and ruff's is
// 1; check points at the statement, so only the line is compared.
func TestSyntaxErrorsAsCPython(t *testing.T) {
	python := testenv.Python(t)
	const script = `
import json, sys
for src in json.load(sys.stdin):
    try:
        compile(src, "case.py", "exec")
        print(json.dumps(None))
    except SyntaxError as e:
        print(json.dumps([e.lineno, e.offset, e.msg, type(e).__name__]))
`
	in, _ := json.Marshal(syntaxCases)
	cmd := exec.Command(python, "-c", script)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(syntaxCases) {
		t.Fatalf("python answered %d cases of %d:\n%s", len(lines), len(syntaxCases), out)
	}
	for i, src := range syntaxCases {
		var want []any
		if err := json.Unmarshal([]byte(lines[i]), &want); err != nil || want == nil {
			t.Errorf("%q: CPython compiles it (%s); the case is no syntax error", src, lines[i])
			continue
		}
		m := Scan([]byte(src))
		if len(m.Problems) == 0 {
			t.Errorf("%q: no problem; CPython: %v", src, want)
			continue
		}
		p := m.Problems[0]
		wantLine, wantCol, wantMsg := int(want[0].(float64)), int(want[1].(float64)), want[2].(string)
		got := fmt.Sprintf("%d:%d %s", p.Pos.Line, p.Pos.Col, p.Msg)
		expect := fmt.Sprintf("%d:%d %s", wantLine, wantCol, wantMsg)
		if want[3] == "IndentationError" {
			got = fmt.Sprintf("%d %s", p.Pos.Line, p.Msg)
			expect = fmt.Sprintf("%d %s", wantLine, wantMsg)
		}
		if got != expect {
			t.Errorf("%q:\n got %s\nwant %s (CPython)", src, got, expect)
		}
	}
}
