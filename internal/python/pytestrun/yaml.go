package pytestrun

import (
	"strings"
)

// A reader of the YAML that CI files are written in, as far as finding
// the commands and environment of their jobs needs: block mappings and
// sequences by indentation, plain, quoted, literal (|) and folded (>)
// scalars with the position of each of their characters, and flow
// sequences and mappings of scalars ([a, b], {k: v}). Anchors are
// dropped, aliases and tags read as plain text. It never fails: what it
// cannot read it reads as a scalar or leaves out, and a CI file it
// misreads only hides a command from fixturegen, as a file it does not
// know would.

type ykind uint8

const (
	yScalar ykind = iota + 1
	yMap
	ySeq
)

type ynode struct {
	kind ykind
	Pos
	val   text // a scalar's value
	keys  []Word
	vals  []*ynode
	items []*ynode
}

// get returns the value of key in a mapping, or nil.
func (n *ynode) get(key string) *ynode {
	if n == nil || n.kind != yMap {
		return nil
	}
	for i, k := range n.keys {
		if k.Text == key {
			return n.vals[i]
		}
	}
	return nil
}

// str is a scalar's value, "" for anything else.
func (n *ynode) str() string {
	if n == nil || n.kind != yScalar {
		return ""
	}
	return string(n.val.b)
}

// scalars returns a scalar, or the scalars of a sequence (nested ones
// flattened, as GitLab flattens !reference lists).
func (n *ynode) scalars() []*ynode {
	switch {
	case n == nil:
		return nil
	case n.kind == yScalar:
		return []*ynode{n}
	case n.kind == ySeq:
		var out []*ynode
		for _, it := range n.items {
			out = append(out, it.scalars()...)
		}
		return out
	}
	return nil
}

type yline struct {
	num    int
	raw    string
	indent int // the byte offset where the line's content starts
}

type yparser struct {
	file  string
	lines []yline
	i     int
}

// parseYAML reads the first document of src.
func parseYAML(file string, src []byte) *ynode {
	p := &yparser{file: file}
	for n, l := range strings.Split(string(src), "\n") {
		l = strings.TrimRight(l, "\r")
		if n == 0 {
			l = strings.TrimPrefix(l, "\uFEFF")
		}
		p.lines = append(p.lines, yline{num: n + 1, raw: l, indent: len(l) - len(strings.TrimLeft(l, " "))})
	}
	p.skip()
	if p.i < len(p.lines) && strings.HasPrefix(p.lines[p.i].raw, "---") {
		p.i++
	}
	return p.node(0)
}

// content is the line's text from its indentation on.
func (l *yline) content() string { return l.raw[l.indent:] }

// skip moves past blank lines, comment lines and directives.
func (p *yparser) skip() {
	for p.i < len(p.lines) {
		c := strings.TrimSpace(p.lines[p.i].content())
		if c != "" && c[0] != '#' && !(p.lines[p.i].indent == 0 && c[0] == '%') {
			return
		}
		p.i++
	}
}

// node reads the block node that starts at the next content line, when
// that line is indented at least min.
func (p *yparser) node(min int) *ynode {
	p.skip()
	if p.i >= len(p.lines) {
		return nil
	}
	l := &p.lines[p.i]
	if l.indent < min || strings.HasPrefix(l.raw, "---") || strings.HasPrefix(l.raw, "...") {
		return nil
	}
	c := l.content()
	switch {
	case c == "-" || strings.HasPrefix(c, "- "):
		return p.seq(l.indent)
	case keyEnd(c) >= 0:
		return p.mapping(l.indent)
	}
	return p.plain(l.indent-1, l.indent, c)
}

// seq reads a block sequence whose dashes are at column indent.
func (p *yparser) seq(indent int) *ynode {
	l := &p.lines[p.i]
	n := &ynode{kind: ySeq, Pos: p.pos(l, l.indent)}
	for {
		p.skip()
		if p.i >= len(p.lines) {
			return n
		}
		l := &p.lines[p.i]
		c := l.content()
		if l.indent != indent || !(c == "-" || strings.HasPrefix(c, "- ")) {
			return n
		}
		rest := strings.TrimLeft(c[1:], " ")
		// An anchor or a tag before the item is dropped.
		for rest != "" && (rest[0] == '&' || rest[0] == '!') {
			sp := strings.IndexAny(rest, " \t")
			if sp < 0 {
				rest = ""
				break
			}
			rest = strings.TrimLeft(rest[sp:], " \t")
		}
		if rest == "" || rest[0] == '#' {
			p.i++
			n.items = append(n.items, p.node(indent+1))
			continue
		}
		// The item starts on the dash's line: read it as if the line
		// began where it does.
		l.indent = len(l.raw) - len(rest)
		n.items = append(n.items, p.node(l.indent))
	}
}

// mapping reads a block mapping whose keys are at column indent.
func (p *yparser) mapping(indent int) *ynode {
	l := &p.lines[p.i]
	n := &ynode{kind: yMap, Pos: p.pos(l, l.indent)}
	for {
		p.skip()
		if p.i >= len(p.lines) {
			return n
		}
		l := &p.lines[p.i]
		c := l.content()
		end := keyEnd(c)
		if l.indent != indent || end < 0 || c == "-" || strings.HasPrefix(c, "- ") {
			return n
		}
		key := Word{Text: unquoteKey(strings.TrimSpace(c[:end])), Pos: p.pos(l, l.indent)}
		restAt := l.indent + end + 1
		rest := l.raw[restAt:]
		trimmed := strings.TrimLeft(rest, " \t")
		restAt += len(rest) - len(trimmed)
		// Anchors and tags before the value are dropped.
		for strings.HasPrefix(trimmed, "&") || strings.HasPrefix(trimmed, "!") {
			sp := strings.IndexAny(trimmed, " \t")
			if sp < 0 {
				trimmed, restAt = "", len(l.raw)
				break
			}
			skipped := trimmed[sp:]
			t2 := strings.TrimLeft(skipped, " \t")
			restAt += sp + len(skipped) - len(t2)
			trimmed = t2
		}
		var v *ynode
		switch {
		case trimmed == "" || trimmed[0] == '#':
			p.i++
			p.skip()
			switch {
			case p.i < len(p.lines) && p.lines[p.i].indent > indent:
				v = p.node(indent + 1)
			case p.i < len(p.lines) && p.lines[p.i].indent == indent && (p.lines[p.i].content() == "-" || strings.HasPrefix(p.lines[p.i].content(), "- ")):
				v = p.seq(indent)
			default:
				v = &ynode{kind: yScalar, Pos: key.Pos}
			}
		case trimmed[0] == '|' || trimmed[0] == '>':
			p.i++
			v = p.block(indent, trimmed[0] == '>', strings.Contains(stripComment(trimmed), "-"), p.pos(l, restAt))
		case trimmed[0] == '[' || trimmed[0] == '{':
			v = p.flow(restAt)
		default:
			v = p.plain(indent, restAt, trimmed)
		}
		n.keys = append(n.keys, key)
		n.vals = append(n.vals, v)
	}
}

// keyEnd returns the index of the colon that ends a mapping key at the
// start of c, or -1 when c is not "key: ..." (a colon followed by a blank
// or the line's end, outside quotes and brackets).
func keyEnd(c string) int {
	if c == "" || c[0] == '#' || c[0] == '[' || c[0] == '{' || c[0] == '|' || c[0] == '>' {
		return -1
	}
	i := 0
	if c[0] == '"' || c[0] == '\'' {
		q := c[0]
		for i = 1; i < len(c); i++ {
			if c[i] == '\\' && q == '"' {
				i++
				continue
			}
			if c[i] == q {
				break
			}
		}
		i++
		if i < len(c) && c[i] == ':' && (i+1 == len(c) || c[i+1] == ' ' || c[i+1] == '\t') {
			return i
		}
		return -1
	}
	for ; i < len(c); i++ {
		switch c[i] {
		case ':':
			if i+1 == len(c) || c[i+1] == ' ' || c[i+1] == '\t' {
				return i
			}
		case '#':
			if i > 0 && (c[i-1] == ' ' || c[i-1] == '\t') {
				return -1
			}
		}
	}
	return -1
}

func unquoteKey(k string) string {
	if len(k) >= 2 && (k[0] == '"' || k[0] == '\'') && k[len(k)-1] == k[0] {
		return k[1 : len(k)-1]
	}
	return k
}

// pos is the position of byte off of line l.
func (p *yparser) pos(l *yline, off int) Pos {
	return Pos{File: p.file, Line: l.num, Col: charCol(l.raw, off)}
}

// charCol is the 1-based column, in characters, of byte off of s.
func charCol(s string, off int) int {
	col := 1
	for i := 0; i < off && i < len(s); i++ {
		if s[i] < 0x80 || s[i] >= 0xC0 {
			col++
		}
	}
	return col
}

// block reads a literal (|) or folded (>) scalar below a key at column
// indent; the current line is the first of its content. strip drops the
// final line break ("|-"); otherwise one is kept.
func (p *yparser) block(indent int, folded, strip bool, at Pos) *ynode {
	n := &ynode{kind: yScalar, Pos: at}
	blockIndent := -1
	first := true
	blanks := 0
	for p.i < len(p.lines) {
		l := &p.lines[p.i]
		if strings.TrimSpace(l.raw) == "" {
			blanks++
			p.i++
			continue
		}
		if l.indent <= indent {
			break
		}
		if blockIndent < 0 {
			blockIndent = l.indent
			n.Pos = p.pos(l, blockIndent)
		}
		if l.indent < blockIndent {
			break
		}
		if !first {
			switch {
			case !folded:
				n.val.join(strings.Repeat("\n", blanks+1))
			case blanks > 0:
				n.val.join(strings.Repeat("\n", blanks))
			default:
				n.val.join(" ")
			}
		}
		blanks = 0
		first = false
		n.val.add(l.raw[blockIndent:], p.file, l.num, charCol(l.raw, blockIndent))
		p.i++
	}
	if !strip {
		n.val.join("\n")
	}
	return n
}

// plain reads a scalar that starts at byte at of the current line, with
// s its text there: plain (continued on the lines indented more than
// indent), single- or double-quoted.
func (p *yparser) plain(indent, at int, s string) *ynode {
	l := &p.lines[p.i]
	n := &ynode{kind: yScalar, Pos: p.pos(l, at)}
	if s != "" && (s[0] == '"' || s[0] == '\'') {
		p.quoted(n, l, at)
		return n
	}
	n.val.add(stripComment(s), p.file, l.num, charCol(l.raw, at))
	p.i++
	for p.i < len(p.lines) {
		l := &p.lines[p.i]
		c := strings.TrimSpace(l.raw)
		if c == "" || c[0] == '#' || l.indent <= indent || keyEnd(l.content()) >= 0 || strings.HasPrefix(l.content(), "- ") {
			break
		}
		n.val.join(" ")
		n.val.add(stripComment(l.content()), p.file, l.num, charCol(l.raw, l.indent))
		p.i++
	}
	return n
}

// quoted reads a quoted scalar starting at byte at of line l, across
// lines if it has to.
func (p *yparser) quoted(n *ynode, l *yline, at int) {
	q := l.raw[at]
	i := at + 1
	for {
		raw := l.raw
		escapedBreak := false
		for ; i < len(raw); i++ {
			c := raw[i]
			switch {
			case q == '"' && c == '\\' && i+1 == len(raw):
				// An escaped line break: the lines join without a blank.
				escapedBreak = true
			case q == '\'' && c == '\'' && i+1 < len(raw) && raw[i+1] == '\'':
				n.val.add("'", p.file, l.num, charCol(raw, i))
				i++
			case c == q:
				p.i++
				return
			case q == '"' && c == '\\' && i+1 < len(raw):
				i++
				e := raw[i]
				switch e {
				case 'n':
					e = '\n'
				case 't':
					e = '\t'
				}
				n.val.add(string(e), p.file, l.num, charCol(raw, i-1))
			default:
				n.val.add(raw[i:i+1], p.file, l.num, charCol(raw, i))
			}
		}
		// The scalar goes on to the next line, folded into a blank.
		p.i++
		if p.i >= len(p.lines) {
			return
		}
		l = &p.lines[p.i]
		if !escapedBreak {
			n.val.join(" ")
		}
		i = len(l.raw) - len(strings.TrimLeft(l.raw, " \t"))
	}
}

// stripComment drops a " #" comment from a plain scalar's line.
func stripComment(s string) string {
	for i := 1; i < len(s); i++ {
		if s[i] == '#' && (s[i-1] == ' ' || s[i-1] == '\t') {
			return strings.TrimRight(s[:i], " \t")
		}
	}
	return strings.TrimRight(s, " \t")
}

// flow reads a flow sequence or mapping starting at byte at of the
// current line, across lines until its brackets close.
func (p *yparser) flow(at int) *ynode {
	l := &p.lines[p.i]
	var t text
	start := p.pos(l, at)
	depth := 0
	i := at
	for {
		raw := l.raw
		var quote byte
		for ; i < len(raw); i++ {
			c := raw[i]
			if quote != 0 {
				if c == quote {
					quote = 0
				}
			} else {
				switch c {
				case '"', '\'':
					quote = c
				case '[', '{':
					depth++
				case ']', '}':
					depth--
				case '#':
					if i > 0 && (raw[i-1] == ' ' || raw[i-1] == '\t') {
						i = len(raw)
						continue
					}
				}
			}
			t.add(raw[i:i+1], p.file, l.num, charCol(raw, i))
			if depth == 0 {
				p.i++
				return flowNode(&t, start)
			}
		}
		p.i++
		if p.i >= len(p.lines) {
			return flowNode(&t, start)
		}
		l = &p.lines[p.i]
		t.join(" ")
		i = 0
	}
}

// flowNode splits a flow collection's text into its scalar items (and a
// mapping's keys), at the commas of its first level.
func flowNode(t *text, at Pos) *ynode {
	b := t.b
	if len(b) < 2 {
		return &ynode{kind: yScalar, Pos: at}
	}
	isMap := b[0] == '{'
	n := &ynode{kind: ySeq, Pos: at}
	if isMap {
		n.kind = yMap
	}
	depth := 0
	var quote byte
	start := 1
	item := func(end int) {
		// Trim the blanks around the item.
		s, e := start, end
		for s < e && (b[s] == ' ' || b[s] == '\t') {
			s++
		}
		for e > s && (b[e-1] == ' ' || b[e-1] == '\t') {
			e--
		}
		if s == e {
			return
		}
		val := &ynode{kind: yScalar, Pos: t.pos[s]}
		ks, ke := s, s
		if isMap {
			k := strings.Index(string(b[s:e]), ":")
			if k < 0 {
				return
			}
			ke = s + k
			s += k + 1
			for s < e && (b[s] == ' ' || b[s] == '\t') {
				s++
			}
			val.Pos = t.pos[min(s, len(t.pos)-1)]
		}
		if s < e && (b[s] == '"' || b[s] == '\'') && b[e-1] == b[s] && e-s >= 2 {
			s, e = s+1, e-1
		}
		val.val = text{b: append([]byte{}, b[s:e]...), pos: append([]Pos{}, t.pos[s:e]...)}
		if isMap {
			n.keys = append(n.keys, Word{Text: unquoteKey(strings.TrimSpace(string(b[ks:ke]))), Pos: t.pos[ks]})
			n.vals = append(n.vals, val)
		} else {
			n.items = append(n.items, val)
		}
	}
	for i := 1; i < len(b)-1; i++ {
		c := b[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
		case c == ',' && depth == 0:
			item(i)
			start = i + 1
		}
	}
	item(len(b) - 1)
	return n
}
