package discover

import (
	"github.com/fixturegen/fixturegen/internal/python/pyscan"
)

// source is a conftest read twice: pyscan's facts (definitions, calls,
// imports) and its logical lines, for the notes on a fixture's shape (an
// early yield, an except clause around the yield).
type source struct {
	file  string
	src   []byte
	m     *pyscan.Module
	lx    *pyscan.Lexer
	lines []line
}

// line is one logical line of code.
type line struct {
	toks []pyscan.Token
	// scope is the index in m.Defs of the innermost def or class whose
	// body holds the line, or -1 at module level. A def's own header line
	// belongs to the scope around it.
	scope int
}

func newSource(file string, src []byte, m *pyscan.Module) *source {
	s := &source{file: file, src: src, m: m, lx: pyscan.NewLexer(src)}
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
