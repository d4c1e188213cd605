package render

// This file checks Python source at the level of its tokens, without a
// Python interpreter, so that the fuzz targets can run it millions of
// times on what render writes.
//
// checkPython enforces what a broken or injected spec value would disturb
// first: every string literal is closed and holds only valid escapes,
// brackets balance, indentation is made of spaces and every dedent returns
// to an earlier level, a block opener is followed by an indented block, and
// no character outside strings and comments is foreign to Python.
// pythonTokens lists the names and string literals, decoded, so a caller
// can also check what the code says, not only that it is well-formed.
//
// Adjacent string literals are reported one by one, as written; Python
// joins them into one value, and a caller comparing values must do the
// same (see joinStrings).
//
// It is deliberately stricter than CPython in a few places that generated
// code never needs: tabs in indentation and escape sequences that Python
// only warns about are errors.

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokenKind is the kind of a token that Tokens reports.
type tokenKind int

// The token kinds. Layout (newlines, indentation, comments) is checked but
// not reported.
const (
	nameToken   tokenKind = iota // an identifier or keyword
	stringToken                  // a string or bytes literal; Value is its decoded text
	numberToken                  // a number literal
	opToken                      // an operator or delimiter
)

// pyToken is one reported token.
type pyToken struct {
	Kind  tokenKind
	Value string // a nameToken's text, or a stringToken's decoded value
	Raw   string // the token as written, prefix and quotes included
	Line  int    // 1-based line where the token starts
	// FString marks an f-string; its Value is the literal text with the
	// replacement fields left as written.
	FString bool
}

// syntaxError is a problem at a 1-based line and column (in runes).
type syntaxError struct {
	Line, Col int
	Msg       string
}

func (e *syntaxError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// Check reports the first problem in src, or nil.
func checkPython(src []byte) error {
	_, err := pythonTokens(src)
	return err
}

// Tokens checks src and returns its tokens in order.
func pythonTokens(src []byte) ([]pyToken, error) {
	if !utf8.Valid(src) {
		return nil, &syntaxError{1, 1, "source is not valid UTF-8"}
	}
	l := &lexer{src: string(src), line: 1, col: 1, indents: []int{0}}
	if err := l.run(); err != nil {
		return nil, err
	}
	return l.toks, nil
}

type lexer struct {
	src       string
	pos       int
	line, col int
	toks      []pyToken

	indents  []int  // the indentation stack, in spaces
	brackets []rune // open brackets, innermost last
	// lastOp is the last significant token of the current logical line when
	// it was an operator, so a line ending in ":" can require a block.
	lastOp string
	// wantBlock is set after a logical line that ends in ":".
	wantBlock     bool
	wantBlockLine int
}

func (l *lexer) errorf(format string, args ...any) error {
	return &syntaxError{l.line, l.col, fmt.Sprintf(format, args...)}
}

func (l *lexer) peek(off int) byte {
	if l.pos+off < len(l.src) {
		return l.src[l.pos+off]
	}
	return 0
}

// advance moves past n bytes, keeping line and column.
func (l *lexer) advance(n int) {
	for _, r := range l.src[l.pos : l.pos+n] {
		if r == '\n' {
			l.line++
			l.col = 1
		} else {
			l.col++
		}
	}
	l.pos += n
}

func (l *lexer) run() error {
	atLineStart := true
	for {
		if atLineStart && len(l.brackets) == 0 {
			if err := l.indentation(); err != nil {
				return err
			}
			atLineStart = false
		}
		if l.pos >= len(l.src) {
			break
		}
		c := l.src[l.pos]
		switch {
		case c == '\n':
			l.advance(1)
			if len(l.brackets) == 0 {
				l.endLogicalLine()
				atLineStart = true
			}
		case c == ' ' || c == '\f':
			l.advance(1)
		case c == '\t':
			return l.errorf("tab character; generated code indents and separates with spaces")
		case c == '\r':
			if l.peek(1) != '\n' {
				return l.errorf("carriage return without a newline")
			}
			l.advance(1)
		case c == '#':
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				l.advance(1)
			}
		case c == '\\':
			if l.peek(1) == '\n' {
				l.advance(2)
				continue
			}
			if l.peek(1) == '\r' && l.peek(2) == '\n' {
				l.advance(3)
				continue
			}
			return l.errorf("backslash outside a string that does not end the line")
		case c == '"' || c == '\'':
			if err := l.str(""); err != nil {
				return err
			}
		case isNameStart(l.src[l.pos:]):
			if err := l.nameOrPrefixedString(); err != nil {
				return err
			}
		case c >= '0' && c <= '9' || c == '.' && l.peek(1) >= '0' && l.peek(1) <= '9':
			if err := l.number(); err != nil {
				return err
			}
		default:
			if err := l.operator(); err != nil {
				return err
			}
		}
	}
	if len(l.brackets) > 0 {
		return l.errorf("end of file inside %q", string(l.brackets[len(l.brackets)-1]))
	}
	l.endLogicalLine()
	if l.wantBlock {
		return &syntaxError{l.wantBlockLine, 1, "expected an indented block after the line that ends in \":\", found the end of the file"}
	}
	return nil
}

// endLogicalLine notes whether the line just ended opens a block.
func (l *lexer) endLogicalLine() {
	if l.lastOp == ":" {
		l.wantBlock = true
		l.wantBlockLine = l.line - 1
	}
	l.lastOp = ""
}

// indentation reads the leading blanks of a physical line that starts a
// logical line and checks them against the indentation stack. Blank and
// comment-only lines do not count.
func (l *lexer) indentation() error {
	start := l.pos
	for l.pos < len(l.src) && (l.src[l.pos] == ' ' || l.src[l.pos] == '\f') {
		l.advance(1)
	}
	width := l.pos - start
	if l.pos >= len(l.src) {
		return nil
	}
	switch l.src[l.pos] {
	case '\n', '#':
		return nil
	case '\r':
		if l.peek(1) == '\n' {
			return nil
		}
	case '\t':
		return l.errorf("tab in indentation; generated code indents with spaces")
	}
	top := l.indents[len(l.indents)-1]
	switch {
	case width > top:
		if !l.wantBlock {
			return l.errorf("unexpected indent")
		}
		l.indents = append(l.indents, width)
	case l.wantBlock:
		return l.errorf("expected an indented block after line %d", l.wantBlockLine)
	case width < top:
		for len(l.indents) > 0 && l.indents[len(l.indents)-1] > width {
			l.indents = l.indents[:len(l.indents)-1]
		}
		if l.indents[len(l.indents)-1] != width {
			return l.errorf("unindent does not match any outer indentation level")
		}
	}
	l.wantBlock = false
	return nil
}

func isNameStart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r == '_' || unicode.IsLetter(r)
}

func isNameChar(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r)
}

// nameOrPrefixedString reads an identifier, or a string literal with a
// prefix such as r, b, f or rb.
func (l *lexer) nameOrPrefixedString() error {
	end := l.pos
	for end < len(l.src) {
		r, size := utf8.DecodeRuneInString(l.src[end:])
		if !isNameChar(r) {
			break
		}
		end += size
	}
	word := l.src[l.pos:end]
	if end < len(l.src) && (l.src[end] == '"' || l.src[end] == '\'') && isStringPrefix(word) {
		l.advance(len(word))
		return l.str(strings.ToLower(word))
	}
	l.toks = append(l.toks, pyToken{Kind: nameToken, Value: word, Raw: word, Line: l.line})
	l.lastOp = ""
	l.advance(len(word))
	return nil
}

func isStringPrefix(w string) bool {
	switch strings.ToLower(w) {
	case "r", "u", "b", "f", "br", "rb", "fr", "rf":
		return true
	}
	return false
}

// str reads a string literal whose (lower-cased) prefix has been consumed.
func (l *lexer) str(prefix string) error {
	startLine, startPos := l.line, l.pos-len(prefix)
	raw := strings.ContainsRune(prefix, 'r')
	isBytes := strings.ContainsRune(prefix, 'b')
	isF := strings.ContainsRune(prefix, 'f')
	quote := l.src[l.pos : l.pos+1]
	if strings.HasPrefix(l.src[l.pos:], strings.Repeat(quote, 3)) {
		quote = strings.Repeat(quote, 3)
	}
	l.advance(len(quote))
	var val strings.Builder
	depth := 0 // open replacement fields of an f-string
	for {
		if l.pos >= len(l.src) {
			return &syntaxError{startLine, 1, "string literal that starts on this line is never closed"}
		}
		if depth == 0 && strings.HasPrefix(l.src[l.pos:], quote) {
			l.advance(len(quote))
			break
		}
		r, size := utf8.DecodeRuneInString(l.src[l.pos:])
		switch {
		case r == '\n' && len(quote) == 1:
			return &syntaxError{startLine, 1, "string literal is not closed before the end of its line"}
		case r == '\\':
			if err := l.escape(&val, raw, isBytes, depth == 0); err != nil {
				return err
			}
			continue
		case isBytes && r >= 0x80:
			return l.errorf("bytes literal holds the non-ASCII character %q", r)
		case isF && depth > 0 && strings.HasPrefix(l.src[l.pos:], quote[:1]):
			// Before Python 3.12 a replacement field cannot reuse the
			// quote of its f-string.
			return l.errorf("f-string replacement field reuses the string's quote %s", quote[:1])
		case isF && r == '{':
			if depth == 0 && l.peek(1) == '{' {
				val.WriteString("{{")
				l.advance(2)
				continue
			}
			depth++
		case isF && r == '}':
			if depth == 0 {
				if l.peek(1) != '}' {
					return l.errorf("single \"}\" in an f-string; write \"}}\"")
				}
				val.WriteString("}}")
				l.advance(2)
				continue
			}
			depth--
		case r == 0:
			return l.errorf("NUL character in a string literal")
		}
		val.WriteRune(r)
		l.advance(size)
	}
	l.toks = append(l.toks, pyToken{
		Kind: stringToken, Value: val.String(), Raw: l.src[startPos:l.pos], Line: startLine, FString: isF,
	})
	l.lastOp = ""
	return nil
}

// escape reads one backslash sequence inside a string and appends what it
// stands for to val. In a raw string, or inside an f-string's replacement
// field, the backslash and the next character are kept as they are.
func (l *lexer) escape(val *strings.Builder, raw, isBytes, decode bool) error {
	next := l.peek(1)
	if next == 0 {
		return l.errorf("backslash at the end of the file")
	}
	if raw || !decode {
		r, size := utf8.DecodeRuneInString(l.src[l.pos+1:])
		val.WriteByte('\\')
		val.WriteRune(r)
		l.advance(1 + size)
		return nil
	}
	simple := map[byte]string{
		'\n': "", '\\': `\`, '\'': "'", '"': `"`, 'a': "\a", 'b': "\b", 'f': "\f",
		'n': "\n", 'r': "\r", 't': "\t", 'v': "\v",
	}
	if s, ok := simple[next]; ok {
		val.WriteString(s)
		l.advance(2)
		return nil
	}
	hex := func(n int) (rune, error) {
		digits := l.src[min(l.pos+2, len(l.src)):min(l.pos+2+n, len(l.src))]
		v, err := strconv.ParseUint(digits, 16, 32)
		if len(digits) != n || err != nil {
			return 0, l.errorf("\\%c escape needs %d hex digits", next, n)
		}
		return rune(v), nil
	}
	switch {
	case next >= '0' && next <= '7':
		n := 1
		for n < 3 && l.peek(1+n) >= '0' && l.peek(1+n) <= '7' {
			n++
		}
		v, _ := strconv.ParseUint(l.src[l.pos+1:l.pos+1+n], 8, 32)
		val.WriteRune(rune(v))
		l.advance(1 + n)
		return nil
	case next == 'x':
		r, err := hex(2)
		if err != nil {
			return err
		}
		val.WriteRune(r)
		l.advance(4)
		return nil
	case !isBytes && (next == 'u' || next == 'U'):
		n := 4
		if next == 'U' {
			n = 8
		}
		r, err := hex(n)
		if err != nil {
			return err
		}
		if r > unicode.MaxRune {
			return l.errorf("\\U escape beyond U+10FFFF")
		}
		val.WriteRune(r)
		l.advance(2 + n)
		return nil
	case !isBytes && next == 'N':
		end := strings.IndexByte(l.src[l.pos:], '}')
		if l.peek(2) != '{' || end < 0 || strings.ContainsRune(l.src[l.pos:l.pos+end], '\n') {
			return l.errorf("\\N escape needs a {NAME}")
		}
		val.WriteString(l.src[l.pos : l.pos+end+1])
		l.advance(end + 1)
		return nil
	}
	return l.errorf("invalid escape sequence \\%c", next)
}

func (l *lexer) number() error {
	start := l.pos
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		isExpSign := (c == '+' || c == '-') && l.pos > start && (l.src[l.pos-1] == 'e' || l.src[l.pos-1] == 'E') &&
			!strings.HasPrefix(strings.ToLower(l.src[start:]), "0x")
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' || c == '_' || isExpSign) {
			break
		}
		l.advance(1)
	}
	l.toks = append(l.toks, pyToken{Kind: numberToken, Value: l.src[start:l.pos], Raw: l.src[start:l.pos], Line: l.line})
	text := strings.ReplaceAll(l.src[start:l.pos], "_", "")
	text = strings.TrimSuffix(strings.TrimSuffix(text, "j"), "J")
	if _, err := strconv.ParseFloat(text, 64); err != nil {
		if _, err := strconv.ParseInt(text, 0, 64); err != nil && !isBigInt(text) {
			return &syntaxError{l.line, l.col - (l.pos - start), fmt.Sprintf("malformed number %q", l.src[start:l.pos])}
		}
	}
	l.lastOp = ""
	return nil
}

func isBigInt(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// operators lists Python's operators and delimiters, longest first.
var operators = []string{
	"**=", "//=", ">>=", "<<=", "...", "->", ":=",
	"**", "//", ">>", "<<", "<=", ">=", "==", "!=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=",
	"+", "-", "*", "/", "%", "@", "&", "|", "^", "~", "<", ">", "(", ")", "[", "]", "{", "}",
	",", ":", ".", ";", "=",
}

var closing = map[string]rune{")": '(', "]": '[', "}": '{'}

func (l *lexer) operator() error {
	for _, op := range operators {
		if !strings.HasPrefix(l.src[l.pos:], op) {
			continue
		}
		switch op {
		case "(", "[", "{":
			l.brackets = append(l.brackets, rune(op[0]))
		case ")", "]", "}":
			if len(l.brackets) == 0 || l.brackets[len(l.brackets)-1] != closing[op] {
				return l.errorf("unmatched %q", op)
			}
			l.brackets = l.brackets[:len(l.brackets)-1]
		}
		l.toks = append(l.toks, pyToken{Kind: opToken, Value: op, Raw: op, Line: l.line})
		l.lastOp = op
		l.advance(len(op))
		return nil
	}
	r, _ := utf8.DecodeRuneInString(l.src[l.pos:])
	return l.errorf("character %q cannot appear outside a string or comment", r)
}

// Join returns toks with each run of adjacent plain string literals merged
// into one stringToken token, as Python concatenates them. A run that holds an
// f-string is merged too and marked FString.
func joinStrings(toks []pyToken) []pyToken {
	var out []pyToken
	for _, tok := range toks {
		if n := len(out); n > 0 && tok.Kind == stringToken && out[n-1].Kind == stringToken {
			prev := &out[n-1]
			prev.Value += tok.Value
			prev.Raw += " " + tok.Raw
			prev.FString = prev.FString || tok.FString
			continue
		}
		out = append(out, tok)
	}
	return out
}
