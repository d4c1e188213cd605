package pytestrun

import (
	"strings"
)

// makeVar is a Makefile variable's value, with its position.
type makeVar struct {
	value Word
}

// makefile reads a Makefile: each recipe line (one shell each, lines
// joined by a trailing backslash) with the file's variables expanded,
// and the PYTEST_* variables it exports.
func (p *Project) makefile(file string, src []byte) {
	rel := p.rel(file)
	vars := map[string]makeVar{}
	var env []Setting
	target := ""
	lines := strings.Split(string(src), "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], "\r")
		n := i + 1
		if strings.HasPrefix(line, "\t") {
			// A recipe line, and the lines its backslashes join to it.
			var t text
			body := line[1:]
			col := 2
			trimmed := strings.TrimLeft(body, "@-+ \t")
			col += len(body) - len(trimmed)
			body = trimmed
			for {
				p.expand(&t, body, file, n, col, vars, 0)
				if !strings.HasSuffix(body, "\\") || i+1 >= len(lines) {
					break
				}
				t.join("\n")
				i++
				n = i + 1
				body = strings.TrimRight(lines[i], "\r")
				col = 1
				if strings.HasPrefix(body, "\t") {
					body, col = body[1:], 2
				}
			}
			where := "the recipe of " + target + " in " + rel
			if target == "" {
				where = rel
			}
			p.addShell(&t, p.Root, where, env)
			continue
		}
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || trimmed[0] == '#' {
			continue
		}
		exported := false
		if rest, ok := strings.CutPrefix(trimmed, "export "); ok {
			exported, trimmed = true, strings.TrimSpace(rest)
		}
		trimmed = strings.TrimPrefix(trimmed, "override ")
		if name, value, at, ok := makeAssignment(trimmed); ok {
			col := len([]rune(line)) - len([]rune(trimmed)) + at + 1
			w := Word{Text: value, Pos: Pos{File: file, Line: n, Col: col}}
			vars[name] = makeVar{value: w}
			if exported {
				s := Setting{Name: name, Value: w, Where: rel}
				p.setting(s)
				env = append(env, s)
			}
			continue
		}
		if exported {
			// "export NAME": a variable set before.
			for _, name := range strings.Fields(trimmed) {
				if v, ok := vars[name]; ok {
					s := Setting{Name: name, Value: v.value, Where: rel}
					p.setting(s)
					env = append(env, s)
				}
			}
			continue
		}
		if colon := strings.IndexByte(trimmed, ':'); colon > 0 {
			target = strings.TrimSpace(trimmed[:colon])
			// A recipe on the rule's line, after ";".
			if semi := strings.IndexByte(trimmed[colon:], ';'); semi >= 0 {
				var t text
				body := strings.TrimLeft(trimmed[colon+semi+1:], " \t")
				p.expand(&t, body, file, n, len([]rune(line))-len([]rune(body))+1, vars, 0)
				p.addShell(&t, p.Root, "the recipe of "+target+" in "+rel, env)
			}
		}
	}
}

// makeAssignment reads "NAME = value" (or :=, ::=, ?=, +=); at is the
// byte offset of the value in s.
func makeAssignment(s string) (name, value string, at int, ok bool) {
	i := strings.IndexByte(s, '=')
	if i <= 0 {
		return "", "", 0, false
	}
	name = strings.TrimRight(s[:i], ":?+! \t")
	if name == "" || strings.ContainsAny(name, " \t:$") {
		return "", "", 0, false
	}
	rest := s[i+1:]
	value = strings.TrimLeft(rest, " \t")
	return name, value, i + 1 + len(rest) - len(value), true
}

// expand appends s, read at line:col of file, to t, with the Makefile's
// variables $(NAME) and ${NAME} replaced by their values at their own
// positions and "$$" by "$". A variable the file does not set is left as
// written.
func (p *Project) expand(t *text, s, file string, line, col int, vars map[string]makeVar, depth int) {
	for i := 0; i < len(s); {
		if s[i] != '$' || i+1 >= len(s) {
			t.add(s[i:i+1], file, line, col+len([]rune(s[:i])))
			i++
			continue
		}
		switch s[i+1] {
		case '$':
			t.add("$", file, line, col+len([]rune(s[:i])))
			i += 2
			continue
		case '(', '{':
			end := matchingClose([]byte(s), i+1)
			name := s[i+2 : max(end-1, i+2)]
			if v, ok := vars[name]; ok && depth < 10 {
				p.expand(t, v.value.Text, v.value.File, v.value.Line, v.value.Col, vars, depth+1)
			} else {
				t.add(s[i:end], file, line, col+len([]rune(s[:i])))
			}
			i = end
			continue
		}
		t.add(s[i:i+1], file, line, col+len([]rune(s[:i])))
		i++
	}
}
