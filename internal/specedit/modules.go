package specedit

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/fixturegen/fixturegen/schema"
)

// AppendModules returns the text of spec (src, as read from spec.File) with
// modules added at the end of [preload].modules, and the spec that text
// loads as. Only the array's text changes: a multi-line array gets one line
// per module, indented like its last element, and a one-line array grows
// on its line.
func AppendModules(spec *schema.Spec, src []byte, modules []string) ([]byte, *schema.Spec, error) {
	key := strings.Join(append(schema.TablePrefix(spec.File), "preload", "modules"), ".")
	quoted := make([]string, len(modules))
	for i, m := range modules {
		quoted[i] = schema.QuoteTOML(m)
	}
	byHand := func(why string) error {
		return fmt.Errorf("cannot add %s to %s in %s: %s; add them by hand", strings.Join(quoted, ", "), key, spec.File, why)
	}
	sp, ok := schema.Locate(src)[key]
	if !ok || sp.End <= sp.Start || src[sp.Start] != '[' || src[sp.End-1] != ']' {
		return nil, nil, byHand("its value is not an array written as [...]")
	}
	array := src[sp.Start:sp.End]
	var edited []byte
	if bytes.IndexByte(array, '\n') < 0 {
		edited = appendInline(array, quoted)
	} else {
		edited = appendLines(array, quoted)
	}
	out := append(append(append([]byte{}, src[:sp.Start]...), edited...), src[sp.End:]...)

	want := *spec
	want.Preload.Modules = append(append([]string{}, spec.Preload.Modules...), modules...)
	if spec.Probe.RecordDefaulted {
		want.Probe.Record = schema.DefaultRecord(want.Preload.Modules)
	}
	return reload(out, &want, "the new modules", byHand)
}

// appendInline turns ["a"] into ["a", "b"] and [] into ["b"].
func appendInline(array []byte, quoted []string) []byte {
	inner := bytes.TrimRight(array[:len(array)-1], " \t")
	sep := ", "
	if trimmed := bytes.TrimSpace(inner[1:]); len(trimmed) == 0 || bytes.HasSuffix(trimmed, []byte(",")) {
		sep = ""
		if len(trimmed) > 0 {
			sep = " "
		}
	}
	return []byte(string(inner) + sep + strings.Join(quoted, ", ") + "]")
}

// appendLines adds one line per module before the closing bracket of a
// multi-line array, after a comma on the last element if it has none.
func appendLines(array []byte, quoted []string) []byte {
	closing := bytes.LastIndexByte(array, '\n') // the line that holds ']'
	body := array[:closing]
	indent := "  "
	lastLine := body[bytes.LastIndexByte(body, '\n')+1:]
	if trimmed := bytes.TrimLeft(lastLine, " \t"); len(trimmed) > 0 && trimmed[0] != '[' {
		indent = string(lastLine[:len(lastLine)-len(trimmed)])
	}
	var out bytes.Buffer
	out.Write(withTrailingComma(body))
	for _, q := range quoted {
		out.WriteString("\n" + indent + q + ",")
	}
	out.Write(array[closing:])
	return out.Bytes()
}

// withTrailingComma adds a comma after the last value of a multi-line array
// body, before any comment on its line, unless it has one or has no value.
func withTrailingComma(body []byte) []byte {
	lineStart := bytes.LastIndexByte(body, '\n') + 1
	line := body[lineStart:]
	code := line
	if i := commentStart(line); i >= 0 {
		code = line[:i]
	}
	trimmed := bytes.TrimRight(code, " \t")
	if len(bytes.TrimSpace(trimmed)) == 0 || bytes.HasSuffix(trimmed, []byte(",")) || bytes.HasSuffix(trimmed, []byte("[")) {
		return body
	}
	cut := lineStart + len(trimmed)
	return append(append(append([]byte{}, body[:cut]...), ','), body[cut:]...)
}

// commentStart returns the index of a '#' that starts a comment on line,
// outside any string, or -1.
func commentStart(line []byte) int {
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0 && c == '\\' && quote == '"':
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		case quote == 0 && c == '#':
			return i
		}
	}
	return -1
}
