package pytestcfg

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/internal/relpath"
	"github.com/fixturegen/fixturegen/internal/textpos"
	"github.com/fixturegen/fixturegen/schema"
)

// INIKey is one key of an INI file's section, with the lines of its
// value, each at its position.
type INIKey struct {
	Section string
	Name    Arg
	Lines   []Arg
}

// INIProblem is a line an INI reader stops on, at its position.
type INIProblem struct {
	Section   string // the section the line is in; "" before the first
	Line, Col int
	Msg       string
	Header    bool // a section header that does not end in ]
}

// INI reads an INI file as pytest's iniconfig and Python's configparser
// read pytest.ini, tox.ini and setup.cfg: "[section]" headers, "key =
// value" or "key: value", indented lines continuing a value, lines
// starting with # or ; as comments, and a # later on a line part of the
// value. It returns every key, in file order, the sections it met, and
// the lines it could not read, for the caller to decide which stop it.
func INI(src []byte) (keys []INIKey, sections map[string]bool, problems []INIProblem) {
	text := strings.TrimPrefix(string(src), "\uFEFF")
	sections = map[string]bool{}
	section, open := "", false // open: the last key may take continuation lines
	for i, line := range strings.Split(text, "\n") {
		n := i + 1
		line = strings.TrimRight(line, " \t\r")
		trimmed := strings.TrimLeft(line, " \t")
		if trimmed == "" || trimmed[0] == '#' || trimmed[0] == ';' {
			continue
		}
		switch {
		case line[0] == '[':
			open = false
			head := line
			if j := strings.IndexAny(head, "#;"); j >= 0 {
				head = strings.TrimRight(head[:j], " \t")
			}
			if !strings.HasSuffix(head, "]") {
				problems = append(problems, INIProblem{Section: section, Line: n, Col: textpos.Col([]byte(line), len(head)), Msg: "a section header must end in ]", Header: true})
				continue
			}
			section = head[1 : len(head)-1]
			sections[section] = true
		case line[0] == ' ' || line[0] == '\t':
			if open {
				k := &keys[len(keys)-1]
				k.Lines = append(k.Lines, Arg{Text: trimmed, Line: n, Col: textpos.Col([]byte(line), len(line)-len(trimmed))})
			}
		default:
			sep := strings.IndexAny(line, "=:")
			if sep < 0 {
				open = false
				problems = append(problems, INIProblem{Section: section, Line: n, Col: 1, Msg: fmt.Sprintf("expected \"key = value\", not %q", line)})
				continue
			}
			k := INIKey{Section: section, Name: Arg{Text: strings.TrimSpace(line[:sep]), Line: n, Col: 1}}
			if value := strings.TrimLeft(line[sep+1:], " \t"); value != "" {
				k.Lines = append(k.Lines, Arg{Text: value, Line: n, Col: textpos.Col([]byte(line), len(line)-len(value))})
			}
			keys = append(keys, k)
			open = true
		}
	}
	return keys, sections, problems
}

// ini reads section from an INI file into c's options; it reports
// whether the section exists. A malformed header, or a line of the
// section that is no key, stops pytest, and so is an error.
func (c *Config) ini(src []byte, section string) (bool, error) {
	keys, sections, problems := INI(src)
	for _, p := range problems {
		if p.Header || p.Section == section {
			return false, &schema.Error{File: relpath.FromWD(c.File), Line: p.Line, Col: p.Col, Msg: p.Msg}
		}
	}
	for _, k := range keys {
		if k.Section != section || !slices.Contains(read, k.Name.Text) {
			continue
		}
		c.Options[k.Name.Text] = shlexSplit(k.Lines)
	}
	return sections[section], nil
}
