package schema

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/fixturegen/fixturegen/internal/textpos"
)

// Span is where one key path sits in a TOML document.
//
// Line and Col (1-based, Col in characters, as package textpos counts
// them) are the position of the key, of the
// array element, or of the '[' of a table header. Start and End are the byte
// offsets [Start, End) of the value: a string with its quotes, an array from
// '[' to its matching ']', an inline table from '{' to '}'. For a table made
// by a header they cover the header itself ("[deadline]"); for a table that
// only exists because a dotted key or a deeper header implies it, they cover
// the key-value pair or header that first implied it.
type Span struct {
	Line, Col  int
	Start, End int
}

// maxLocateDepth bounds how deeply Locate follows nested arrays and inline
// tables, so that hostile input cannot exhaust the stack. A spec nests three
// levels at most.
const maxLocateDepth = 200

// Locate finds every key of a TOML document and returns its Span by key path.
//
// Paths join keys with dots and add "[i]" for the i-th element (0-based) of an
// array or of an array of tables: "deadline.seconds", "preload.modules[2]",
// "probe.case[1].planted_delay.module". A key that is not a bare key
// (A-Z a-z 0-9 _ -) is written quoted with Go/TOML escapes, as in
// `probe.record."mcp.server:stdio"`. The array of tables itself
// ("probe.case") points at its first [[probe.case]] header.
//
// Locate scans the text itself because the TOML decoder keeps no positions.
// It is exact only for documents that the decoder accepts; on anything else
// it returns what it could find, and it never panics.
func Locate(src []byte) map[string]Span {
	spans, _ := locate(src)
	return spans
}

// locate is Locate that also returns the byte offset of a value nested
// deeper than maxLocateDepth, or -1 when there is none.
func locate(src []byte) (map[string]Span, int) {
	l := &locator{
		tooDeep:  -1,
		src:      src,
		out:      map[string]Span{},
		implicit: map[string]bool{},
		arrays:   map[string]int{},
		lines:    textpos.NewIndex(src),
	}
	l.document()
	return l.out, l.tooDeep
}

type locator struct {
	src   []byte
	pos   int
	lines *textpos.Index

	out map[string]Span
	// implicit marks tables whose span came from a dotted key or a deeper
	// header; an explicit header for the same table replaces it.
	implicit map[string]bool
	// arrays counts the elements so far of each array of tables, by path.
	arrays map[string]int
	// stop ends the scan early, when nesting is deeper than maxLocateDepth;
	// tooDeep is then the offset of the value that went too deep.
	stop    bool
	tooDeep int
}

func (l *locator) span(keyAt, start, end int) Span {
	line, col := l.lines.LineCol(keyAt)
	return Span{Line: line, Col: col, Start: start, End: end}
}

func (l *locator) set(path string, sp Span) {
	l.out[path] = sp
	delete(l.implicit, path)
}

func (l *locator) setImplicit(path string, sp Span) {
	if _, ok := l.out[path]; !ok {
		l.out[path] = sp
		l.implicit[path] = true
	}
}

func (l *locator) setHeader(path string, sp Span) {
	if _, ok := l.out[path]; !ok || l.implicit[path] {
		l.set(path, sp)
	}
}

func (l *locator) eof() bool { return l.pos >= len(l.src) }

func (l *locator) peek() byte {
	if l.eof() {
		return 0
	}
	return l.src[l.pos]
}

func (l *locator) has(s string) bool {
	return strings.HasPrefix(string(l.src[min(l.pos, len(l.src)):min(l.pos+len(s), len(l.src))]), s)
}

// accept moves past s when the text at the current position starts with it.
func (l *locator) accept(s string) bool {
	if !l.has(s) {
		return false
	}
	l.pos += len(s)
	return true
}

// skipSpace skips spaces and tabs (and a stray '\r'), and, when newlines is
// set, line breaks and comments too.
func (l *locator) skipSpace(newlines bool) {
	for !l.eof() {
		switch c := l.src[l.pos]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' && newlines:
			l.pos++
		case c == '#' && newlines:
			l.skipComment()
		default:
			return
		}
	}
}

func (l *locator) skipComment() {
	for !l.eof() && l.src[l.pos] != '\n' {
		l.pos++
	}
}

// skipLine moves past the end of the current line.
func (l *locator) skipLine() {
	l.skipComment()
	if !l.eof() {
		l.pos++
	}
}

func (l *locator) document() {
	if bytes.HasPrefix(l.src, []byte("\ufeff")) {
		l.pos = len("\ufeff") // a byte order mark
	}
	table := ""
	for !l.stop {
		l.skipSpace(true)
		if l.eof() {
			return
		}
		if l.peek() == '[' {
			if t, ok := l.header(); ok {
				table = t
			}
		} else {
			l.keyValue(table, 0)
		}
		l.skipLine()
	}
}

// header reads a [table] or [[array.of.tables]] line and returns the path of
// the table that the following key-value pairs belong to.
func (l *locator) header() (string, bool) {
	start := l.pos
	array := l.has("[[")
	closing := "]"
	if array {
		closing = "]]"
	}
	l.pos += len(closing)
	keys, ok := l.key()
	if !ok {
		return "", false
	}
	l.skipSpace(false)
	if !l.accept(closing) {
		return "", false
	}
	sp := l.span(start, start, l.pos)
	path := ""
	for i, k := range keys {
		path = JoinKey(path, k)
		last := i == len(keys)-1
		switch {
		case last && array:
			n := l.arrays[path]
			l.arrays[path] = n + 1
			l.setHeader(path, sp)
			path = indexKey(path, n)
			l.set(path, sp)
		case last:
			l.setHeader(path, sp)
		default:
			// A header inside an array of tables extends its last element.
			if n, ok := l.arrays[path]; ok {
				path = indexKey(path, n-1)
			}
			l.setImplicit(path, sp)
		}
	}
	return path, true
}

// key reads a possibly dotted key, with spaces allowed around the dots,
// and returns its parts.
func (l *locator) key() ([]string, bool) {
	var keys []string
	for {
		l.skipSpace(false)
		name, ok := l.keyName()
		if !ok {
			return nil, false
		}
		keys = append(keys, name)
		l.skipSpace(false)
		if !l.accept(".") {
			return keys, true
		}
	}
}

func (l *locator) keyName() (string, bool) {
	start, quote := l.pos, l.peek()
	if quote == '"' || quote == '\'' {
		if !l.quoted(quote, false) {
			return "", false
		}
		name := string(l.src[start+1 : l.pos-1])
		if quote == '"' {
			name = unescapeBasic(name)
		}
		return name, true
	}
	for !l.eof() && strings.IndexByte(bareKeyChars, l.src[l.pos]) >= 0 {
		l.pos++
	}
	return string(l.src[start:l.pos]), l.pos > start
}

// keyValue reads one key = value pair that belongs to the table at path.
func (l *locator) keyValue(table string, depth int) {
	start := l.pos
	keys, ok := l.key()
	if !ok {
		return
	}
	l.skipSpace(false)
	if !l.accept("=") {
		return
	}
	l.skipSpace(false)
	path := table
	for _, k := range keys {
		path = JoinKey(path, k)
	}
	vs, ve, ok := l.value(path, depth)
	if !ok {
		return
	}
	l.set(path, l.span(start, vs, ve))
	parent := table
	for _, k := range keys[:len(keys)-1] {
		parent = JoinKey(parent, k)
		l.setImplicit(parent, l.span(start, start, ve))
	}
}

// value reads the value at the current position, recording the keys and
// elements inside it, and returns its byte span.
func (l *locator) value(path string, depth int) (int, int, bool) {
	if depth > maxLocateDepth {
		l.stop = true
		l.tooDeep = l.pos
		return 0, 0, false
	}
	start := l.pos
	var ok bool
	switch {
	case l.peek() == '"' || l.peek() == '\'':
		ok = l.quoted(l.peek(), l.has(`"""`) || l.has(`'''`))
	case l.peek() == '[':
		ok = l.array(path, depth)
	case l.peek() == '{':
		ok = l.items('}', func() { l.keyValue(path, depth+1) }) // an inline table
	default:
		// Numbers, booleans and dates end at the first character that
		// cannot be part of them; a date-time may contain one space.
		for !l.eof() && !strings.ContainsRune(",]}#\r\n", rune(l.src[l.pos])) {
			l.pos++
		}
		end := l.pos
		for end > start && (l.src[end-1] == ' ' || l.src[end-1] == '\t') {
			end--
		}
		return start, end, end > start
	}
	return start, l.pos, ok
}

// quoted reads a string that quote opens and closes: a basic string
// ('"'), where a backslash escapes the next byte, or a literal one. A
// one-line string ends at its line. A multi-line string opens and closes
// with three quotes, and up to two quotes may sit just before the closing
// delimiter, so it ends at the last three quotes of the run that closes it.
func (l *locator) quoted(quote byte, multiline bool) bool {
	delim := string(quote)
	if multiline {
		delim = strings.Repeat(delim, 3)
	}
	l.pos += len(delim)
	for !l.eof() {
		switch c := l.src[l.pos]; {
		case c == '\\' && quote == '"':
			l.pos += 2
		case l.has(delim):
			l.pos += len(delim)
			for multiline && l.peek() == quote {
				l.pos++
			}
			return true
		case c == '\n' && !multiline:
			return false
		default:
			l.pos++
		}
	}
	l.pos = min(l.pos, len(l.src))
	return false
}

func (l *locator) array(path string, depth int) bool {
	i := 0
	return l.items(']', func() {
		at := l.pos
		elem := indexKey(path, i)
		if vs, ve, ok := l.value(elem, depth+1); ok {
			l.set(elem, l.span(at, vs, ve))
			i++
		}
	})
}

// items reads the comma-separated items of an array or an inline table,
// each with item, up to closing. TOML 1.1 lets inline tables span lines and
// hold comments, as arrays do, so line breaks are skipped like spaces.
func (l *locator) items(closing byte, item func()) bool {
	l.pos++
	for !l.stop {
		l.skipSpace(true)
		switch l.peek() {
		case 0:
			return false
		case closing:
			l.pos++
			return true
		case ',':
			l.pos++
			continue
		}
		at := l.pos
		item()
		if l.pos == at {
			l.pos++
		}
	}
	return false
}

// bareKeyChars are the characters a bare TOML key is made of.
const bareKeyChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"

// JoinKey appends one key to a Locate path, quoting it unless it is a bare
// key.
func JoinKey(path, key string) string {
	k := key
	if key == "" || strings.TrimLeft(key, bareKeyChars) != "" {
		k = QuoteTOML(key)
	}
	if path == "" {
		return k
	}
	return path + "." + k
}

func indexKey(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}

// The escapes of a TOML basic string: those of one character, and those
// followed by so many hex digits.
var (
	basicEscapes = map[byte]byte{'b': '\b', 't': '\t', 'n': '\n', 'f': '\f', 'r': '\r', 'e': 0x1b, '"': '"', '\\': '\\'}
	hexEscapes   = map[byte]int{'x': 2, 'u': 4, 'U': 8}
)

// unescapeBasic decodes the escapes of a TOML basic string (the text between
// the quotes). The decoder has already rejected bad escapes; anything odd is
// kept as written.
func unescapeBasic(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		if e, ok := basicEscapes[s[i]]; ok {
			b.WriteByte(e)
			continue
		}
		if n := hexEscapes[s[i]]; n > 0 && i+n < len(s) {
			if r, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32); err == nil {
				b.WriteRune(rune(r))
				i += n
				continue
			}
		}
		b.WriteByte('\\')
		b.WriteByte(s[i])
	}
	return b.String()
}
