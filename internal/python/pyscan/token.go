// Package pyscan reads Python source the way the Python tokenizer does and
// extracts the facts fixturegen's checks need: definitions with their
// decorators, parameters and base classes, calls with their literal
// arguments (those in f-string replacement fields too), simple
// assignments, imports, the names each scope binds (so that a name is
// resolved where it is used, see Module.ResolveAt) and "# fixturegen:
// ignore" comments. Decode reads a file in the encoding it declares.
//
// It runs no Python and builds no syntax tree. It is exact about what is
// code and what is not: a "signal.setitimer(" inside a string, a comment or
// a docstring is never a call, brackets and backslashes join lines as they
// do in Python, and indentation decides which class or function a statement
// belongs to. Source that Python would reject still yields the facts around
// the mistake, plus a Problem that names it; pyscan never panics.
//
// The Places function tells, without tokens, whether a byte lies in code,
// a string or a comment, with the same reading of strings, so that a
// caller can rule out a file whose words are only mentioned in prose.
package pyscan

import (
	"encoding/binary"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fixturegen/fixturegen/internal/textpos"
)

// Kind is the kind of a Token.
type Kind uint8

// Token kinds. Comments, blank lines and the insides of brackets produce
// none: they are not code.
const (
	EOF     Kind = iota
	Name         // an identifier or a keyword
	Number       // a numeric literal
	String       // a string or bytes literal, with its prefix and quotes
	Op           // an operator or delimiter
	Newline      // the end of a logical line
	Indent       // the start of a more indented block
	Dedent       // the end of a block
)

// Token is one token of Python source. Text is a slice of the source, not
// a copy, so it is valid only while the source is.
type Token struct {
	Kind Kind
	Text []byte
	Off  int // byte offset of the token's first byte
	Line int // 1-based line of the token's first byte
	// LineStart is the byte offset at which Line starts, so the column can
	// be computed when it is needed (see Lexer.Pos).
	LineStart int
}

// tok is the parser's own form of a token: the same facts as a Token in
// under half the space and without the slice, which the parser reads from
// the source. Scan handles about a thousand tokens per 4 KB module, and
// copying Tokens around cost more than reading them.
type tok struct {
	off, end  int32 // the token's bytes are src[off:end]
	line      int32
	lineStart int32
	kind      Kind
	// ch is the byte of an operator of one byte, and 0 for every other
	// token, so that the parser tells brackets, commas and dots apart
	// without reading the source.
	ch byte
	// kw tells a name apart by its bytes as written: the word's id (see
	// words) when it is a keyword or one of the soft keywords the parser
	// reads, nonASCII when it has other than ASCII bytes (its NFKC form
	// may still be a keyword), and 0 for every other name and token. The
	// parser reads most lines' first names and every call's names for
	// keywords, and compared their text each time.
	kw uint8
}

// maxSource is the largest source a Lexer reads, so that offsets fit a
// tok. Python files of 2 GiB do not exist; the rest of a larger one is
// reported and left unread.
const maxSource = math.MaxInt32

// Pos is a position in a source file. Line and Col are 1-based; Col counts
// characters (not bytes), as package textpos counts them for every
// position fixturegen shows.
type Pos struct {
	Line, Col int
}

// Problem is a piece of source the tokenizer could not read as Python.
type Problem struct {
	Pos Pos
	Msg string
}

// Lexer turns Python source into tokens, one Next call at a time.
type Lexer struct {
	src       []byte
	off       int
	line      int
	lineStart int
	opens     []opened // the open brackets, innermost last
	indents   []int    // indentation columns of the open blocks, innermost last
	dedents   int      // Dedent tokens still to emit
	bol       bool     // at the beginning of a logical line
	lineHas   bool     // the current logical line has produced a token
	done      bool
	// semicolon is set when a ";" is read; the parser clears it at each
	// logical line, and splits only the lines that hold one.
	semicolon bool
	// assign is set, and cleared, as semicolon is, when a "=" is read
	// outside brackets, or a closing bracket that closes none: only then
	// can the parser's search for the "=" that ends an assignment target
	// find one, and most lines have neither.
	assign bool
	// yields is set, and cleared, as semicolon is, when the keyword yield
	// is read: only a line that holds one can make its function a
	// generator.
	yields   bool
	Problems []Problem

	// With recordFields, the code of each replacement field of a
	// formatted string (not of one nested in another) is noted in fields,
	// so that the parser can read the calls it holds; fstrings counts the
	// formatted strings open around the current byte.
	recordFields bool
	fstrings     int
	fields       []field
	// quiet drops problems: a field's Lexer meets only what the main
	// one has reported already, and always the end of the source inside
	// the field's bracket.
	quiet bool
}

// opened is an open bracket: the byte, and where it is.
type opened struct {
	off, line, lineStart int32
	ch                   byte
}

// field is the code of a replacement field of a formatted string: the
// expression between its "{" and its "!", ":" or "}", at src[off:end],
// starting on line line, which starts at lineStart.
type field struct {
	off, end        int
	line, lineStart int
}

// NewLexer returns a Lexer over src. A UTF-8 byte order mark is skipped.
func NewLexer(src []byte) *Lexer {
	l := &Lexer{}
	l.reset(src)
	return l
}

// reset makes l a new Lexer over src, keeping its stacks' arrays.
func (l *Lexer) reset(src []byte) {
	*l = Lexer{src: src, line: 1, bol: true, opens: l.opens[:0], indents: append(l.indents[:0], 0), fields: l.fields[:0]}
	if len(src) > maxSource {
		l.src = src[:maxSource]
		l.Problems = append(l.Problems, Problem{Pos: Pos{1, 1}, Msg: "is larger than 2 GiB; read only up to there"})
	}
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		l.off, l.lineStart = 3, 3
	}
}

// Pos returns the position of a token of this lexer's source.
func (l *Lexer) Pos(t Token) Pos {
	return l.posAt(t.Off, t.Line, t.LineStart)
}

// pos is Pos for a tok.
func (l *Lexer) pos(t *tok) Pos {
	return l.posAt(int(t.off), int(t.line), int(t.lineStart))
}

// posAt is the position of the byte at off, on line, which starts at
// lineStart: the column is textpos's, in characters.
func (l *Lexer) posAt(off, line, lineStart int) Pos {
	return Pos{Line: line, Col: textpos.Col(l.src[lineStart:off], off-lineStart)}
}

func (l *Lexer) problem(off, line, lineStart int, msg string) {
	if l.quiet {
		return
	}
	l.Problems = append(l.Problems, Problem{Pos: l.posAt(off, line, lineStart), Msg: msg})
}

// mark sets t to a token of kind k from start to end.
//
// The fields are set one by one: a whole struct built on the stack and
// copied to *t is read back wider than it was written, which stalls the
// processor on every token.
func (l *Lexer) mark(t *tok, k Kind, start, end, line, lineStart int) {
	t.off = int32(start)
	t.end = int32(end)
	t.line = int32(line)
	t.lineStart = int32(lineStart)
	t.kind = k
	t.ch = 0
	t.kw = 0
	if k == Op && end-start == 1 {
		t.ch = l.src[start]
	}
}

// newline consumes one line ending ("\n", "\r\n" or "\r") at l.off.
func (l *Lexer) newline() {
	l.off = afterNewline(l.src, l.off)
	l.line++
	l.lineStart = l.off
}

// lineEnd returns the offset of the line ending at or after src[i], or
// len(src).
func lineEnd(src []byte, i int) int {
	for i < len(src) && src[i] != '\n' && src[i] != '\r' {
		i++
	}
	return i
}

// afterNewline returns the offset just past the line ending at src[i].
func afterNewline(src []byte, i int) int {
	if src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n' {
		return i + 2
	}
	return i + 1
}

// Next returns the next token; after the end of the source it returns EOF
// tokens forever.
func (l *Lexer) Next() Token {
	var t tok
	l.next(&t)
	out := Token{Kind: t.kind, Off: int(t.off), Line: int(t.line), LineStart: int(t.lineStart)}
	if t.end > t.off {
		out.Text = l.src[t.off:t.end]
	}
	return out
}

// next reads the next token into t.
func (l *Lexer) next(t *tok) {
	for {
		if l.dedents > 0 {
			l.dedents--
			l.mark(t, Dedent, l.off, l.off, l.line, l.lineStart)
			return
		}
		if l.done {
			l.mark(t, EOF, l.off, l.off, l.line, l.lineStart)
			return
		}
		if l.bol && len(l.opens) == 0 {
			if l.indentation(t) {
				return
			}
			if l.dedents > 0 || l.done {
				continue
			}
		}
		// Blanks between tokens are skipped here rather than by another
		// turn of the loop: they change none of the state checked above.
		src, i := l.src, l.off
		for i < len(src) && class[src[i]] == cBlank {
			i++
		}
		l.off = i
		if l.off >= len(l.src) {
			l.end(t)
			return
		}
		start, line, ls := l.off, l.line, l.lineStart
		kind, kw := Op, uint8(0)
		switch class[l.src[l.off]] {
		case cName:
			kind, kw = l.name()
		case cOp:
			l.op()
		case cQuote:
			kind = String
			l.skipString(false)
		case cDigit:
			kind = Number
			l.number()
		case cDot:
			if l.off+1 < len(l.src) && isDigit(l.src[l.off+1]) {
				kind = Number
				l.number()
			} else {
				l.op()
			}
		case cBackslash:
			// A backslash joins the next line to this one, except at the
			// very end of the file.
			next := l.off + 1
			if next < len(l.src) && (l.src[next] == '\n' || l.src[next] == '\r') {
				l.off = next
				l.newline()
				continue
			}
			if next >= len(l.src) {
				l.off = next
				continue
			}
			l.problem(l.off, l.line, l.lineStart, "unexpected character after line continuation character")
			l.off++
		case cHash:
			l.off = lineEnd(src, i)
			continue
		case cNewline:
			l.newline()
			if len(l.opens) > 0 {
				continue
			}
			l.bol = true
			if !l.lineHas {
				continue
			}
			l.lineHas = false
			l.mark(t, Newline, start, l.off, line, ls)
			return
		}
		l.lineHas = true // the line's code, which Newline, Indent and Dedent are not
		l.mark(t, kind, start, l.off, line, ls)
		t.kw = kw
		return
	}
}

// Classes of the byte that starts a token, for next's dispatch.
const (
	cOp        = iota // an operator or delimiter, or a byte no token starts with
	cBlank            // space, tab, form feed
	cBackslash        // a line continuation
	cHash             // a comment
	cNewline          // \n or \r
	cName             // a letter, "_" or a byte of a non-ASCII character
	cDigit
	cDot // a number or the operator "."
	cQuote
)

var class = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			t[c] = cBlank
		case c == '\\':
			t[c] = cBackslash
		case c == '#':
			t[c] = cHash
		case c == '\n' || c == '\r':
			t[c] = cNewline
		case nameBytes[c] && !isDigit(byte(c)):
			t[c] = cName
		case isDigit(byte(c)):
			t[c] = cDigit
		case c == '.':
			t[c] = cDot
		case c == '"' || c == '\'':
			t[c] = cQuote
		}
	}
	return t
}()

// end emits the Newline that closes the last logical line, then the Dedent
// tokens that close every open block, then EOF.
func (l *Lexer) end(t *tok) {
	if n := len(l.opens); n > 0 && !l.quiet {
		// Python names the innermost bracket still open, where it is; a
		// field's Lexer always ends inside the field's bracket.
		o := l.opens[n-1]
		l.problem(int(o.off), int(o.line), int(o.lineStart), "'"+string(o.ch)+"' was never closed")
	}
	l.done = true
	l.dedents = len(l.indents) - 1
	l.indents = l.indents[:1]
	if l.lineHas {
		l.lineHas = false
		l.mark(t, Newline, l.off, l.off, l.line, l.lineStart)
		return
	}
	l.next(t)
}

// indentation measures the indentation of the line at l.off. It skips lines
// that hold only blanks or a comment, as Python does, and sets t to an
// Indent token (and returns true) when the line is more indented than the
// block it is in; a less indented line queues Dedent tokens.
func (l *Lexer) indentation(t *tok) bool {
	// The offset, line and line start live in locals while blank and
	// comment lines are skipped, and are stored once.
	src := l.src
	i, line, ls := l.off, l.line, l.lineStart
	for {
		col := 0
		start := i
		// Indentation is spaces, read eight at a time; a tab or form
		// feed, and the last bytes of the source, are left to the loop
		// below.
		for i+8 <= len(src) {
			w := binary.LittleEndian.Uint64(src[i:]) ^ spaces8
			if w != 0 {
				n := bits.TrailingZeros64(w) / 8
				i += n
				col += n
				break
			}
			i += 8
			col += 8
		}
	measure:
		for i < len(src) {
			switch src[i] {
			case ' ':
				col++
			case '\t':
				col = (col/8 + 1) * 8
			case '\f':
				col = 0
			default:
				break measure
			}
			i++
		}
		if i >= len(src) {
			l.off, l.line, l.lineStart = i, line, ls
			return false
		}
		c := src[i]
		if c == '#' {
			i = lineEnd(src, i)
			if i >= len(src) {
				l.off, l.line, l.lineStart = i, line, ls
				continue
			}
			c = src[i]
		}
		// A line that starts with a continuation belongs to no block of
		// its own; its indentation is that of the joined line.
		if c == '\\' && i+1 < len(src) && (src[i+1] == '\n' || src[i+1] == '\r') {
			i++
			c = src[i]
		}
		if c == '\n' || c == '\r' {
			i = afterNewline(src, i)
			line++
			ls = i
			continue
		}
		l.off, l.line, l.lineStart = i, line, ls
		l.bol = false
		top := l.indents[len(l.indents)-1]
		switch {
		case col > top:
			l.indents = append(l.indents, col)
			l.lineHas = false
			l.mark(t, Indent, start, l.off, l.line, l.lineStart)
			return true
		case col < top:
			for len(l.indents) > 1 && l.indents[len(l.indents)-1] > col {
				l.indents = l.indents[:len(l.indents)-1]
				l.dedents++
			}
			if l.indents[len(l.indents)-1] != col {
				l.problem(l.off, l.line, l.lineStart, "unindent does not match any outer indentation level")
			}
		}
		return false
	}
}

// spaces8 is eight spaces read as one little-endian word.
const spaces8 = 0x2020202020202020

// nameBytes marks the bytes that can continue a name: ASCII letters,
// digits, "_", and every byte of a non-ASCII character (Python allows
// non-ASCII letters in names).
var nameBytes = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
	}
	return t
}()

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// name reads an identifier, and returns Name and its word id (see tok.kw),
// or a string prefix and the string it starts, and returns String.
func (l *Lexer) name() (Kind, uint8) {
	start := l.off
	src, i := l.src, l.off
	for i < len(src) && src[i] < utf8.RuneSelf && nameBytes[src[i]] {
		i++
	}
	ascii := i >= len(src) || src[i] < utf8.RuneSelf
	for i < len(src) && nameBytes[src[i]] {
		i++
	}
	l.off = i
	if l.off < len(l.src) && (l.src[l.off] == '"' || l.src[l.off] == '\'') {
		if fmt, ok := stringPrefix(l.src[start:l.off]); ok {
			l.skipString(fmt)
			return String, 0
		}
	}
	if !ascii {
		return Name, nonASCII
	}
	kw := wordID(src[start:i])
	l.yields = l.yields || kw == kwYield
	return Name, kw
}

// stringPrefix reports whether p is a string prefix (r, b, u, f, t and
// their combinations, in any case) and whether it makes a formatted string,
// whose replacement fields hold code.
func stringPrefix(p []byte) (formatted, ok bool) {
	if len(p) > 2 {
		return false, false
	}
	var lower [2]byte
	for i, c := range p {
		lower[i] = c | 0x20
	}
	switch string(lower[:len(p)]) {
	case "", "r", "u", "b", "br", "rb":
		return false, true
	case "f", "t", "fr", "rf", "tr", "rt":
		return true, true
	}
	return false, false
}

// number reads a number literal: its name bytes and dots, and the sign of
// a decimal exponent.
func (l *Lexer) number() {
	src, start := l.src, l.off
	hex := len(src) > start+1 && src[start] == '0' && (src[start+1]|0x20 == 'x')
	i := start
	for i < len(src) && (nameBytes[src[i]] || src[i] == '.' ||
		(src[i] == '+' || src[i] == '-') && !hex && i > start && src[i-1]|0x20 == 'e') {
		i++
	}
	l.off = i
}

// skipString moves past the string literal whose opening quote is at l.off.
// An unterminated string is a Problem; a one-line string then ends at the
// end of its line, a triple-quoted one at the end of the file.
func (l *Lexer) skipString(formatted bool) {
	if formatted {
		l.fstrings++
		l.skipStringBody(true)
		l.fstrings--
		return
	}
	l.skipStringBody(false)
}

func (l *Lexer) skipStringBody(formatted bool) {
	q := l.src[l.off]
	triple := l.off+2 < len(l.src) && l.src[l.off+1] == q && l.src[l.off+2] == q
	open, line, ls := l.off, l.line, l.lineStart
	if triple {
		l.off += 3
	} else {
		l.off++
	}
	for {
		// Most of a string is bytes that need no thought, skipped in a loop
		// that keeps its offset in a register.
		src, i := l.src, l.off
		for i < len(src) && !stringStop[src[i]] {
			i++
		}
		l.off = i
		if i >= len(src) {
			break
		}
		c := src[i]
		switch {
		case c == '\\' && formatted && l.off+1 < len(l.src) && (l.src[l.off+1] == '{' || l.src[l.off+1] == '}'):
			// A backslash escapes no brace of a formatted string, raw or
			// not: f"\\{x}" is a backslash and a field.
			l.off++
		case c == '\\':
			l.off++
			if l.off < len(l.src) {
				if l.src[l.off] == '\n' || l.src[l.off] == '\r' {
					l.newline()
				} else {
					l.off++
				}
			}
		case c == q:
			if !triple {
				l.off++
				return
			}
			if l.off+2 < len(l.src) && l.src[l.off+1] == q && l.src[l.off+2] == q {
				l.off += 3
				return
			}
			l.off++
		case c == '\n' || c == '\r':
			if !triple {
				l.problem(open, line, ls, "unterminated string literal (detected at line "+strconv.Itoa(l.line)+")")
				return
			}
			l.newline()
		case c == '{' && formatted:
			if l.off+1 < len(l.src) && l.src[l.off+1] == '{' {
				l.off += 2
				continue
			}
			l.off++
			l.skipField(q, triple)
		default:
			l.off++
		}
	}
	// Python counts the line of the source's last character, the line
	// break that ends the source included.
	last := l.line
	if n := len(l.src); n > 0 && (l.src[n-1] == '\n' || l.src[n-1] == '\r') {
		last--
	}
	what := "string literal"
	if triple {
		what = "triple-quoted string literal"
	}
	l.problem(open, line, ls, "unterminated "+what+" (detected at line "+strconv.Itoa(last)+")")
}

// stringStop marks the bytes skipString must look at: quotes, backslashes,
// line endings and the braces of formatted strings.
var stringStop = func() (t [256]bool) {
	for _, c := range []byte("\\'\"\n\r{") {
		t[c] = true
	}
	return t
}()

// skipField moves past a replacement field of a formatted string, from just
// after its "{" to just after its "}". The field is code, so it may hold
// brackets, strings and (since Python 3.12, PEP 701) line breaks and
// strings in the same quotes as the formatted string; its format spec,
// after a top-level ":", is text that may hold nested fields.
func (l *Lexer) skipField(q byte, triple bool) {
	depth := 0
	start, line, lineStart := l.off, l.line, l.lineStart
	note := func() {
		if l.recordFields && l.fstrings == 1 && l.off > start {
			l.fields = append(l.fields, field{start, l.off, line, lineStart})
		}
	}
	for l.off < len(l.src) {
		c := l.src[l.off]
		switch {
		case c == '\'' || c == '"':
			// A quote inside the field opens a nested string, even the
			// quote of the enclosing string: before Python 3.12 no valid
			// code had one there, and since then it is a nested string.
			l.skipString(l.prefixFormatted())
		case c == '#':
			l.off = lineEnd(l.src, l.off) // a comment, allowed in a multi-line field since 3.12
		case c == '\n' || c == '\r':
			l.newline()
		case c == '(' || c == '[' || c == '{':
			depth++
			l.off++
		case c == ')' || c == ']':
			depth = max(depth-1, 0)
			l.off++
		case c == '}':
			if depth == 0 {
				note()
				l.off++
				return
			}
			depth--
			l.off++
		case c == '!' && depth == 0 && l.off+1 < len(l.src) && l.src[l.off+1] != '=':
			note() // a conversion, "!r": the expression ends here
			start = len(l.src)
			l.off++
		case c == ':' && depth == 0:
			note()
			l.off++
			l.skipFormatSpec(q, triple)
			return
		default:
			l.off++
		}
	}
}

// prefixFormatted reports whether the string whose quote is at l.off has a
// prefix that makes it formatted.
func (l *Lexer) prefixFormatted() bool {
	i := l.off
	for i > 0 && nameBytes[l.src[i-1]] && l.off-i < 2 {
		i--
	}
	f, ok := stringPrefix(l.src[i:l.off])
	return ok && f
}

// skipFormatSpec moves past a format spec up to and including the "}" that
// closes its field.
func (l *Lexer) skipFormatSpec(q byte, triple bool) {
	for l.off < len(l.src) {
		c := l.src[l.off]
		switch {
		case c == '}':
			l.off++
			return
		case c == '{':
			l.off++
			l.skipField(q, triple)
		case c == q && !triple:
			return
		case c == '\n' || c == '\r':
			if !triple {
				return
			}
			l.newline()
		default:
			l.off++
		}
	}
}

// opLen returns the length of the operator at the start of rest: three
// or two bytes for the longer operators, so that the "=" of "==" or "+=" is
// never taken for an assignment, else one.
func opLen(rest []byte) int {
	if len(rest) >= 3 {
		switch string(rest[:3]) {
		case "**=", "//=", ">>=", "<<=", "...":
			return 3
		}
	}
	if len(rest) >= 2 {
		switch a, b := rest[0], rest[1]; {
		case b == '=' && strings.IndexByte("=!<>:+-*/%&|^@", a) >= 0,
			a == b && strings.IndexByte("*/<>", a) >= 0,
			a == '-' && b == '>':
			return 2
		}
	}
	return 1
}

// op reads an operator or delimiter, or a character no token starts with.
func (l *Lexer) op() {
	start, line, ls := l.off, l.line, l.lineStart
	rest := l.src[l.off:]
	c, n := rest[0], 1
	switch {
	case c == '(' || c == '[' || c == '{':
		l.opens = append(l.opens, opened{off: int32(start), line: int32(line), lineStart: int32(ls), ch: c})
	case c == ')' || c == ']' || c == '}':
		if len(l.opens) == 0 {
			l.assign = true
			l.problem(start, line, ls, "unmatched '"+string(c)+"'")
		} else {
			l.close(c, start, line, ls)
		}
	case c == ';':
		l.semicolon = true
	case c >= utf8.RuneSelf:
		_, n = utf8.DecodeRune(rest)
	case c != ',':
		if n = opLen(rest); n == 1 && c == '=' {
			l.assign = l.assign || len(l.opens) == 0
		}
	}
	l.off += n
}

// close pops the bracket that c, at start, closes, and reports a pair
// that does not match as Python does.
func (l *Lexer) close(c byte, start, line, ls int) {
	n := len(l.opens)
	o := l.opens[n-1]
	l.opens = l.opens[:n-1]
	if want := ")]}"[strings.IndexByte("([{", o.ch)]; c != want {
		msg := "closing parenthesis '" + string(c) + "' does not match opening parenthesis '" + string(o.ch) + "'"
		if int(o.line) != line {
			msg += " on line " + strconv.Itoa(int(o.line))
		}
		l.problem(start, line, ls, msg)
	}
}

// Ids of the words a Name token's kw names: Python's hard keywords, then
// the soft keywords the parser reads. nonASCII marks a name with other
// than ASCII bytes.
const (
	kwFalse uint8 = iota + 1
	kwNone
	kwTrue
	kwAnd
	kwAs
	kwAssert
	kwAsync
	kwAwait
	kwBreak
	kwClass
	kwContinue
	kwDef
	kwDel
	kwElif
	kwElse
	kwExcept
	kwFinally
	kwFor
	kwFrom
	kwGlobal
	kwIf
	kwImport
	kwIn
	kwIs
	kwLambda
	kwNonlocal
	kwNot
	kwOr
	kwPass
	kwRaise
	kwReturn
	kwTry
	kwWhile
	kwWith
	kwYield
	// kwLastHard is the last hard keyword: the soft ones follow.
	kwLastHard = kwYield
	kwMatch    = kwLastHard + 1
	kwCase     = kwLastHard + 2

	nonASCII uint8 = 255
)

// words are the words of the kw ids, in their order (TestWords checks
// that they are the keywords isKeyword knows, then "match" and "case").
var words = strings.Fields("False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case")

// wordPairs[n][a%64] has bit b%64 set when a word of n bytes starts with
// the bytes a and b: a name whose bit is not set is no word, and most
// names are told so without a string compare. wordsOfLen[n] are the ids
// of the words of n bytes, which a name that passes is compared with.
var wordPairs, wordsOfLen = func() (t [9][64]uint64, ids [9][]uint8) {
	for i, w := range words {
		t[len(w)][w[0]%64] |= 1 << (w[1] % 64)
		ids[len(w)] = append(ids[len(w)], uint8(i+1))
	}
	return t, ids
}()

// wordID returns the id of the word s, or 0 when s is none.
func wordID[T string | []byte](s T) uint8 {
	if len(s) < 2 || len(s) > 8 || wordPairs[len(s)][s[0]%64]&(1<<(s[1]%64)) == 0 {
		return 0 // most names, such as "self"
	}
	for _, id := range wordsOfLen[len(s)] {
		if words[id-1] == string(s) {
			return id
		}
	}
	return 0
}
