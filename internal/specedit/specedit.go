// Package specedit edits a spec's TOML text in place, keeping every
// comment, blank line and key order the user wrote.
//
// Re-encoding the decoded spec would lose all of that, so edits are made at
// byte offsets that schema.Locate finds, and every edit is checked by
// loading the result again: an edit that would change anything but what it
// means to is refused, and the caller gets the lines to add by hand.
package specedit

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/fixturegen/fixturegen/schema"
)

// AppendCase returns the text of spec (src, as read from spec.File) with a
// [[probe.case]] table for c added after the last value of the spec, and
// the spec that text loads as.
//
// In a pyproject.toml the table is [[tool.fixturegen.probe.case]], placed
// after the spec's last value, so the tables of other tools that follow it
// stay where they are.
func AppendCase(spec *schema.Spec, src []byte, c schema.Case) ([]byte, *schema.Spec, error) {
	prefix := schema.TablePrefix(spec.File)
	table := strings.Join(append(append([]string{}, prefix...), "probe", "case"), ".")
	block := "[[" + table + "]]\n" +
		"test = " + schema.QuoteTOML(c.Test) + "\n" +
		"node = " + schema.QuoteTOML(c.Node) + "\n"
	byHand := func(why string) error {
		return fmt.Errorf("cannot add the probe case to %s: %s; add these lines to it by hand:\n\n%s", spec.File, why, block)
	}

	spans := schema.Locate(src)
	if sp, ok := spans[table]; ok && !bytes.HasPrefix(src[sp.Start:], []byte("[[")) {
		return nil, nil, byHand(fmt.Sprintf("line %d writes %s as an inline array, and fixturegen adds [[%s]] tables only", sp.Line, table, table))
	}
	at, err := insertionPoint(src, spans, strings.Join(prefix, "."))
	if err != nil {
		return nil, nil, byHand(err.Error())
	}

	var out bytes.Buffer
	out.Write(src[:at])
	if at > 0 && src[at-1] != '\n' {
		out.WriteByte('\n')
	}
	out.WriteByte('\n')
	out.WriteString(block)
	out.Write(src[at:])

	want := *spec
	want.Probe.Cases = append(append([]schema.Case{}, spec.Probe.Cases...), c)
	return reload(out.Bytes(), &want, "the new case", byHand)
}

// reload returns src, the edited text of want's file, and the spec it
// loads as, which must hold want's values: an edit means what (the new
// case) and nothing more. It refuses anything else with byHand.
func reload(src []byte, want *schema.Spec, what string, byHand func(why string) error) ([]byte, *schema.Spec, error) {
	got, err := schema.ParseTable(src, want.File, want.Dir, schema.TablePrefix(want.File))
	if err != nil {
		return nil, nil, byHand(fmt.Sprintf("the edited spec does not load (%v)", err))
	}
	if !got.SameValues(want) {
		return nil, nil, byHand("the edited spec would mean more than " + what)
	}
	return src, got, nil
}

// insertionPoint returns the offset just after the line that holds the
// spec table's last value (prefix "" is the whole document). What follows
// it must be blank lines, comments and then a table header or the end of
// the file; anything else would fall into the new table.
func insertionPoint(src []byte, spans map[string]schema.Span, prefix string) (int, error) {
	end := -1
	for key, sp := range spans {
		if prefix == "" || key == prefix || strings.HasPrefix(key, prefix+".") {
			end = max(end, sp.End)
		}
	}
	if end < 0 {
		return 0, fmt.Errorf("it holds no spec table")
	}
	at := len(src)
	if i := bytes.IndexByte(src[end:], '\n'); i >= 0 {
		at = end + i + 1
	}
	for line := range bytes.Lines(src[at:]) {
		text := bytes.TrimLeft(line, " \t\r\n")
		switch {
		case len(text) == 0 || text[0] == '#':
		case text[0] == '[':
			return at, nil
		default:
			return 0, fmt.Errorf("a key of another table follows the spec's last value")
		}
	}
	return at, nil
}
