package pyscan

// Line is one logical line of code: a simple statement, or the header of
// a compound one, as Python's tokenizer ends it.
type Line struct {
	Toks  []Token // its tokens, without Newline, Indent and Dedent
	Level int     // its indentation: the blocks it lies in, 0 at module level
	End   Token   // the Newline that ends it
}

// Lines reads the rest of the source as logical lines, for a reader that
// needs statements and blocks beside Scan's facts; Pos still gives each
// token's position.
func (l *Lexer) Lines() []Line {
	var out []Line
	var cur Line
	for t := l.Next(); t.Kind != EOF; t = l.Next() {
		switch t.Kind {
		case Indent:
			cur.Level++
		case Dedent:
			cur.Level--
		case Newline:
			if len(cur.Toks) > 0 {
				cur.End = t
				out = append(out, cur)
			}
			cur = Line{Level: cur.Level}
		default:
			cur.Toks = append(cur.Toks, t)
		}
	}
	return out
}
