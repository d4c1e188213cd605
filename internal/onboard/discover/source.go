package discover

import (
	"github.com/fixturegen/fixturegen/internal/python/pyscan"
)

// source is a conftest read twice: pyscan's facts (definitions, calls,
// imports) and its logical lines, whose tokens the readers of values walk
// where the facts stop (an argument that is a call, an assignment's value,
// a raise statement).
type source struct {
	file string
	// root is the folder file is relative to, where the modules a
	// from-import names are looked up; "" to follow no import.
	root string
	// modules are the modules read for from-imports, by the folder they
	// were looked up from and the name, shared by every source read from
	// one conftest, so each is read once (nil: not found).
	modules map[string]*source
	src     []byte
	m       *pyscan.Module
	lx      *pyscan.Lexer
	lines   []line
}

// line is one logical line of code.
type line struct {
	toks []pyscan.Token
	// scope is the index in m.Defs of the innermost def or class whose
	// body holds the line, or -1 at module level. A def's own header line
	// belongs to the scope around it.
	scope int
}

func newSource(file string, src []byte) *source {
	s := &source{file: file, src: src, m: pyscan.Scan(src), lx: pyscan.NewLexer(src)}
	defAt := map[int]int{} // line of a def's name → its index
	for i, d := range s.m.Defs {
		defAt[d.Pos.Line] = i
	}
	type open struct{ level, def int }
	var stack []open
	level := 0
	var cur []pyscan.Token
	for t := s.lx.Next(); ; t = s.lx.Next() {
		switch t.Kind {
		case pyscan.Indent:
			level++
			continue
		case pyscan.Dedent:
			level--
			continue
		case pyscan.Newline, pyscan.EOF:
			if len(cur) > 0 {
				for len(stack) > 0 && stack[len(stack)-1].level >= level {
					stack = stack[:len(stack)-1]
				}
				scope := -1
				if len(stack) > 0 {
					scope = stack[len(stack)-1].def
				}
				s.lines = append(s.lines, line{toks: cur, scope: scope})
				if name := defName(cur); name != nil {
					if i, ok := defAt[name.Line]; ok && s.m.Defs[i].Name == string(name.Text) {
						stack = append(stack, open{level, i})
					}
				}
			}
			cur = nil
			if t.Kind == pyscan.EOF {
				return s
			}
			continue
		}
		cur = append(cur, t)
	}
}

// defName returns the name token of a def, async def or class header.
func defName(toks []pyscan.Token) *pyscan.Token {
	i := 0
	if i < len(toks) && text(toks[i]) == "async" {
		i++
	}
	if i+1 < len(toks) && (text(toks[i]) == "def" || text(toks[i]) == "class") && toks[i+1].Kind == pyscan.Name {
		return &toks[i+1]
	}
	return nil
}

func text(t pyscan.Token) string { return string(t.Text) }

func (s *source) pos(t pyscan.Token) pyscan.Pos { return s.lx.Pos(t) }

func (s *source) at(t pyscan.Token) string { return at(s.file, s.pos(t)) }

// tokenAt finds the token at p and returns its line and its index there.
func (s *source) tokenAt(p pyscan.Pos) (*line, int) {
	for li := range s.lines {
		l := &s.lines[li]
		if l.toks[0].Line > p.Line {
			break
		}
		for i, t := range l.toks {
			if t.Line == p.Line && s.pos(t) == p {
				return l, i
			}
		}
	}
	return nil, -1
}

// within reports whether scope is def or lies inside it.
func (s *source) within(scope, def int) bool {
	return s.m.Inside(scope, def)
}

// callArgs returns the arguments of the call whose callee starts at p,
// each as its tokens with a keyword (if any) split off.
func (s *source) callArgs(p pyscan.Pos) []arg {
	return splitArgs(s.callInner(p))
}

// callInner returns the tokens between the parentheses of the call whose
// callee starts at p.
func (s *source) callInner(p pyscan.Pos) []pyscan.Token {
	l, i := s.tokenAt(p)
	if l == nil {
		return nil
	}
	toks := l.toks
	for i < len(toks) && text(toks[i]) != "(" {
		i++
	}
	if i == len(toks) {
		return nil
	}
	return toks[i+1 : matching(toks, i)]
}

// arg is one argument of a call.
type arg struct {
	keyword string
	toks    []pyscan.Token
}

func splitArgs(toks []pyscan.Token) []arg {
	var out []arg
	for _, seg := range split(toks, ",") {
		if len(seg) == 0 {
			continue
		}
		a := arg{toks: seg}
		if len(seg) > 2 && seg[0].Kind == pyscan.Name && text(seg[1]) == "=" {
			a.keyword, a.toks = text(seg[0]), seg[2:]
		}
		out = append(out, a)
	}
	return out
}

// split cuts toks at each op (or keyword, such as or) outside brackets.
func split(toks []pyscan.Token, op string) [][]pyscan.Token {
	var out [][]pyscan.Token
	depth, start := 0, 0
	for i, t := range toks {
		if t.Kind != pyscan.Op && t.Kind != pyscan.Name {
			continue
		}
		switch text(t) {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case op:
			if depth == 0 {
				out = append(out, toks[start:i])
				start = i + 1
			}
		}
	}
	return append(out, toks[start:])
}

// matching returns the index of the bracket that closes toks[open], or
// len(toks).
func matching(toks []pyscan.Token, open int) int {
	depth := 0
	for i := open; i < len(toks); i++ {
		if toks[i].Kind != pyscan.Op {
			continue
		}
		switch text(toks[i]) {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return len(toks)
}

// dotted reads a dotted name at toks[0] and returns it with the number of
// tokens it took.
func dotted(toks []pyscan.Token) (string, int) {
	if len(toks) == 0 || toks[0].Kind != pyscan.Name {
		return "", 0
	}
	name := text(toks[0])
	n := 1
	for n+1 < len(toks) && text(toks[n]) == "." && toks[n+1].Kind == pyscan.Name {
		name += "." + text(toks[n+1])
		n += 2
	}
	return name, n
}

// assignment returns the value of the last "name = value" statement in
// scope before the line of before (every one in scope when before is 0),
// or nil.
func (s *source) assignment(name string, scope int, before int) []pyscan.Token {
	var value []pyscan.Token
	for _, l := range s.lines {
		if l.scope != scope || before > 0 && l.toks[0].Line >= before {
			continue
		}
		toks := l.toks
		if len(toks) > 2 && toks[0].Kind == pyscan.Name && text(toks[0]) == name {
			op := 1
			if text(toks[1]) == ":" { // an annotated assignment
				op = indexOp(toks, "=")
			}
			if op > 0 && text(toks[op]) == "=" {
				value = toks[op+1:]
			}
		}
	}
	return value
}

func indexOp(toks []pyscan.Token, op string) int {
	for i, t := range toks {
		if t.Kind == pyscan.Op && text(t) == op {
			return i
		}
	}
	return -1
}
