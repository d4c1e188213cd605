package discover

import (
	"github.com/fixturegen/fixturegen/internal/python/pyscan"
)

// source is a conftest read twice: pyscan's facts (definitions, calls,
// imports) and its logical lines, for the notes on a fixture's shape (an
// early yield, an except clause around the yield).
type source struct {
	file  string
	m     *pyscan.Module
	lx    *pyscan.Lexer
	lines []line
}

// line is one logical line of code, with scope, the index in m.Defs of
// the innermost def or class whose body holds it, or -1 at module level.
// A def's own header line belongs to the scope around it.
type line struct {
	pyscan.Line
	scope int
}

func newSource(file string, src []byte, m *pyscan.Module) *source {
	s := &source{file: file, m: m, lx: pyscan.NewLexer(src)}
	defAt := map[pyscan.Pos]int{} // a def's name → its index
	for i, d := range m.Defs {
		defAt[d.Pos] = i
	}
	type open struct{ level, def int }
	var stack []open
	for _, l := range s.lx.Lines() {
		for len(stack) > 0 && stack[len(stack)-1].level >= l.Level {
			stack = stack[:len(stack)-1]
		}
		scope := -1
		if len(stack) > 0 {
			scope = stack[len(stack)-1].def
		}
		s.lines = append(s.lines, line{l, scope})
		for _, t := range l.Toks[:min(len(l.Toks), 3)] { // [async] def NAME, class NAME
			if i, ok := defAt[s.lx.Pos(t)]; ok {
				stack = append(stack, open{l.Level, i})
				break
			}
		}
	}
	return s
}

func text(t pyscan.Token) string { return string(t.Text) }

func (s *source) pos(t pyscan.Token) pyscan.Pos { return s.lx.Pos(t) }

func (s *source) at(t pyscan.Token) string { return at(s.file, s.pos(t)) }
