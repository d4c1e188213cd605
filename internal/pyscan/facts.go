package pyscan

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Module is what Scan learns about one Python source file.
type Module struct {
	Defs     []Def    // functions and classes, in source order
	Calls    []Call   // calls of dotted names, in source order
	Assigns  []Assign // names assigned at module or class level
	Imports  []Import
	Problems []Problem // what Python would reject, in source order

	bound map[string]string // name bound by an import → what it names
}

// DefKind tells a function from a class.
type DefKind uint8

// Kinds of Def.
const (
	Function DefKind = iota + 1
	Class
)

// Def is a def or class statement.
type Def struct {
	Kind       DefKind
	Name       string
	Pos        Pos // of the name
	Params     []Param
	Decorators []Decorator
	// Parent is the index in Module.Defs of the def or class whose body
	// holds this one, or -1 at module level.
	Parent int
}

// Param is one parameter of a function. Star parameters (*args,
// **kwargs) and keyword-only markers are left out: they name no fixture.
type Param struct {
	Name string
	Pos  Pos
}

// Decorator is one "@..." line of a Def.
type Decorator struct {
	// Name is the decorator's dotted name as written, without its call
	// arguments: "pytest.fixture" for both @pytest.fixture and
	// @pytest.fixture(autouse=True). It is "" for other expressions.
	Name string
	Pos  Pos
	// Call is the index in Module.Calls of the decorator's own call, or
	// -1 when it is not called.
	Call int
}

// Call is a call of a dotted name, such as signal.setitimer(...) or
// pytest.mark.usefixtures(...). Calls of other expressions (f()(x),
// "".join(x)) are not recorded; calls nested in the arguments are recorded
// on their own.
type Call struct {
	Callee string // the dotted name as written
	Pos    Pos    // of the callee's first name
	Args   []Arg
	// Scope is the index in Module.Defs of the innermost def or class
	// whose body holds the call, or -1 at module level.
	Scope int
	// Decorates is the index in Module.Defs of the def or class whose
	// decorators hold the call, or -1.
	Decorates int
	// Target is the name the call's statement assigns, when it is a
	// simple assignment ("pytestmark = [...]", "x += f()"); "" otherwise.
	Target string
}

// ArgKind is the kind of a call argument's value.
type ArgKind uint8

// Kinds of Arg. Only literal strings, dotted names and numbers are read;
// anything else is ArgOther.
const (
	ArgOther  ArgKind = iota
	ArgString         // a string literal (or adjacent ones); Value is its text
	ArgName           // a dotted name, True, False or None; Value as written
	ArgNumber         // a number literal; Value as written
)

// Arg is one argument of a Call.
type Arg struct {
	Keyword string // "" for a positional argument
	Kind    ArgKind
	Value   string
	Pos     Pos // of the value
}

// Assign is a name bound by an assignment at module or class level.
type Assign struct {
	Name  string
	Pos   Pos
	Scope int // as in Call.Scope
}

// Import is one name bound by an import statement.
type Import struct {
	Module string // "signal", "unittest.mock"; relative imports keep their dots
	Name   string // the imported name of a from-import; "" for a plain import
	Bound  string // the name the statement binds in its scope
	Pos    Pos
	Scope  int // as in Call.Scope
}

// Resolve rewrites a dotted name through the module's imports, so that
// "sig.setitimer" after "import signal as sig" and "setitimer" after "from
// signal import setitimer" both become "signal.setitimer". A name that no
// import binds is returned as it is. Imports in every scope count, which is
// exact for the way test code imports.
func (m *Module) Resolve(dotted string) string {
	head, rest, _ := strings.Cut(dotted, ".")
	full, ok := m.bound[head]
	if !ok || full == head {
		// Most names are bound by a plain import of themselves ("import
		// json"): the name is already resolved, and needs no new string.
		return dotted
	}
	if rest == "" {
		return full
	}
	return full + "." + rest
}

// Scan tokenizes src and extracts its facts.
func Scan(src []byte) *Module {
	// One copy of the source as a string lets every name and string the
	// facts keep be a substring of it, instead of an allocation of its own.
	p := &parser{lx: NewLexer(src), m: &Module{}, text: string(src)}
	// Every call has a "(" and every argument a "(" or ",", so counting
	// them sizes the slices once instead of growing them call by call.
	parens := bytes.Count(src, []byte("("))
	p.m.Calls = make([]Call, 0, parens)
	p.args = make([]Arg, 0, parens+bytes.Count(src, []byte(",")))
	p.toks = make([]Token, 0, 64)
	p.run()
	p.m.Problems = p.lx.Problems
	for _, im := range p.m.Imports {
		if p.m.bound == nil {
			p.m.bound = map[string]string{}
		}
		switch {
		case strings.HasSuffix(im.Module, "."):
			p.m.bound[im.Bound] = im.Module + im.Name // from . import x
		case im.Name != "":
			p.m.bound[im.Bound] = im.Module + "." + im.Name
		default:
			p.m.bound[im.Bound] = im.Module
			if head, _, _ := strings.Cut(im.Module, "."); head == im.Bound {
				p.m.bound[im.Bound] = head
			}
		}
	}
	return p.m
}

type scope struct {
	def  int // index in Module.Defs
	body int // indentation level of the body
}

type parser struct {
	lx     *Lexer
	text   string // the source
	args   []Arg  // the backing array of every Call.Args
	m      *Module
	level  int // indentation level: Indent tokens minus Dedent tokens
	scopes []scope
	toks   []Token
	// The decorators read so far for the next def or class, and the
	// indices of the calls in their lines.
	decorators []Decorator
	decoCalls  []int
}

func (p *parser) run() {
	for {
		t := p.lx.Next()
		switch t.Kind {
		case EOF:
			return
		case Indent:
			p.level++
			continue
		case Dedent:
			p.level--
			continue
		}
		p.toks = p.toks[:0]
		for t.Kind != Newline && t.Kind != EOF {
			p.toks = append(p.toks, t)
			t = p.lx.Next()
		}
		for len(p.scopes) > 0 && p.scopes[len(p.scopes)-1].body > p.level {
			p.scopes = p.scopes[:len(p.scopes)-1]
		}
		p.statement(p.toks)
		if t.Kind == EOF {
			return
		}
	}
}

// str returns a token's text as a substring of the source.
func (p *parser) str(t Token) string { return p.text[t.Off : t.Off+len(t.Text)] }

func (p *parser) scope() int {
	if len(p.scopes) == 0 {
		return -1
	}
	return p.scopes[len(p.scopes)-1].def
}

// inFunction reports whether statements at the current point run in a
// function body, where assignments bind local names.
func (p *parser) inFunction() bool {
	s := p.scope()
	return s >= 0 && p.m.Defs[s].Kind == Function
}

func (p *parser) statement(toks []Token) {
	if len(toks) == 0 {
		return
	}
	switch {
	case isOp(toks[0], "@"):
		p.decorator(toks)
		return
	case isName(toks[0], "def"):
		p.def(toks, 0, Function)
	case isName(toks[0], "async") && len(toks) > 1 && isName(toks[1], "def"):
		p.def(toks, 1, Function)
	case isName(toks[0], "class"):
		p.def(toks, 0, Class)
	default:
		p.dropDecorators()
		for len(toks) > 0 {
			end := indexOp(toks, ";")
			if end < 0 {
				end = len(toks)
			}
			p.simple(toks[:end])
			toks = toks[min(end+1, len(toks)):]
		}
	}
}

// dropDecorators forgets decorators not followed by a def or class, which
// only a syntax error leaves behind.
func (p *parser) dropDecorators() {
	p.decorators, p.decoCalls = nil, nil
}

func (p *parser) decorator(toks []Token) {
	d := Decorator{Pos: p.lx.Pos(toks[min(1, len(toks)-1)]), Call: -1}
	end := 1
	if name, n := p.chain(toks, 1); n > 0 {
		end = 1 + n
		if end == len(toks) || isOp(toks[end], "(") {
			d.Name = name
		}
	}
	first := len(p.m.Calls)
	p.calls(toks[1:], p.scope(), "")
	for i := first; i < len(p.m.Calls); i++ {
		p.decoCalls = append(p.decoCalls, i)
	}
	if d.Name != "" && end < len(toks) && first < len(p.m.Calls) && p.m.Calls[first].Pos == d.Pos {
		d.Call = first
	}
	p.decorators = append(p.decorators, d)
}

// def reads a def (at toks[at]) or class statement header.
func (p *parser) def(toks []Token, at int, kind DefKind) {
	outer := p.scope()
	if at+1 >= len(toks) || toks[at+1].Kind != Name {
		p.dropDecorators()
		p.calls(toks, outer, "")
		return
	}
	name := toks[at+1]
	d := Def{Kind: kind, Name: p.str(name), Pos: p.lx.Pos(name), Parent: outer, Decorators: p.decorators}
	idx := len(p.m.Defs)
	for _, c := range p.decoCalls {
		p.m.Calls[c].Decorates = idx
	}
	p.dropDecorators()
	rest := toks[at+2:]
	if len(rest) > 0 && isOp(rest[0], "(") {
		close := matching(rest, 0)
		inner := rest[1:close]
		if kind == Function {
			d.Params = p.params(inner)
		}
		p.calls(inner, outer, "")
		rest = rest[min(close+1, len(rest)):]
	}
	p.m.Defs = append(p.m.Defs, d)
	colon := indexOp(rest, ":")
	if colon < 0 {
		p.calls(rest, outer, "")
		return
	}
	p.calls(rest[:colon], outer, "") // a return annotation
	if body := rest[colon+1:]; len(body) > 0 {
		p.calls(body, idx, "")
		return
	}
	p.scopes = append(p.scopes, scope{def: idx, body: p.level + 1})
}

func (p *parser) params(toks []Token) []Param {
	var params []Param
	for _, seg := range split(toks) {
		if len(seg) == 0 || seg[0].Kind != Name {
			continue // *args, **kwargs, a bare * or /
		}
		params = append(params, Param{Name: p.str(seg[0]), Pos: p.lx.Pos(seg[0])})
	}
	return params
}

// simple reads a statement that is not a def, class or decorator.
func (p *parser) simple(toks []Token) {
	if len(toks) == 0 {
		return
	}
	if isName(toks[0], "import") || isName(toks[0], "from") {
		p.importStmt(toks)
		return
	}
	target := ""
	i := 0
	for i+1 < len(toks) && toks[i].Kind == Name && !isKeyword(toks[i].Text) {
		op := toks[i+1]
		isAssign := isOp(op, "=") || op.Kind == Op && len(op.Text) >= 2 && op.Text[len(op.Text)-1] == '=' && !isOp(op, "==") && !isOp(op, "!=") && !isOp(op, "<=") && !isOp(op, ">=")
		annotated := isOp(op, ":") && i == 0
		if !isAssign && !annotated {
			break
		}
		if target == "" {
			target = p.str(toks[i])
		}
		if !p.inFunction() {
			p.m.Assigns = append(p.m.Assigns, Assign{Name: p.str(toks[i]), Pos: p.lx.Pos(toks[i]), Scope: p.scope()})
		}
		if annotated {
			break
		}
		i += 2
	}
	p.calls(toks, p.scope(), target)
}

func (p *parser) importStmt(toks []Token) {
	s := p.scope()
	if isName(toks[0], "import") {
		for _, seg := range split(toks[1:]) {
			mod, n := p.dottedModule(seg)
			if n == 0 {
				continue
			}
			bound, _, _ := strings.Cut(mod, ".")
			if n+1 < len(seg) && isName(seg[n], "as") && seg[n+1].Kind == Name {
				bound = p.str(seg[n+1])
			}
			p.m.Imports = append(p.m.Imports, Import{Module: mod, Bound: bound, Pos: p.lx.Pos(seg[0]), Scope: s})
		}
		return
	}
	// from MODULE import NAMES
	rest := toks[1:]
	mod, n := p.dottedModule(rest)
	if n == 0 || n >= len(rest) || !isName(rest[n], "import") {
		return
	}
	names := rest[n+1:]
	if len(names) > 0 && isOp(names[0], "(") {
		names = names[1:matching(names, 0)]
	}
	for _, seg := range split(names) {
		if len(seg) == 0 || seg[0].Kind != Name {
			continue // "*" binds nothing that can be named here
		}
		name := p.str(seg[0])
		bound := name
		if len(seg) > 2 && isName(seg[1], "as") && seg[2].Kind == Name {
			bound = p.str(seg[2])
		}
		p.m.Imports = append(p.m.Imports, Import{Module: mod, Name: name, Bound: bound, Pos: p.lx.Pos(seg[0]), Scope: s})
	}
}

// dottedModule reads a module name, with the leading dots of a relative
// import, and returns it with the number of tokens it took.
func (p *parser) dottedModule(toks []Token) (string, int) {
	var b strings.Builder
	i := 0
	for i < len(toks) && toks[i].Kind == Op && (isOp(toks[i], ".") || isOp(toks[i], "...")) {
		b.Write(toks[i].Text)
		i++
	}
	name, n := "", 0
	if i < len(toks) && !isKeyword(toks[i].Text) {
		name, n = p.chain(toks, i)
	}
	b.WriteString(name)
	if b.Len() == 0 {
		return "", 0
	}
	return b.String(), i + n
}

// calls records every call of a dotted name in toks.
func (p *parser) calls(toks []Token, scope int, target string) {
	for k := 0; k < len(toks); k++ {
		t := toks[k]
		if t.Kind != Name || isKeyword(t.Text) || k > 0 && isOp(toks[k-1], ".") {
			continue
		}
		name, n := p.chain(toks, k)
		open := k + n
		if open >= len(toks) || !isOp(toks[open], "(") {
			k = open - 1
			continue
		}
		close := matching(toks, open)
		c := Call{Callee: name, Pos: p.lx.Pos(t), Scope: scope, Decorates: -1, Target: target}
		// The arguments of all calls share one array; each call's Args
		// is its part of it.
		start := len(p.args)
		p.eachArg(toks[open+1:close], func(seg []Token) {
			p.args = append(p.args, p.arg(seg))
		})
		c.Args = p.args[start:len(p.args):len(p.args)]
		p.m.Calls = append(p.m.Calls, c)
		k = open // the arguments may hold calls of their own
	}
}

func (p *parser) arg(seg []Token) Arg {
	var a Arg
	if len(seg) > 2 && seg[0].Kind == Name && isOp(seg[1], "=") {
		a.Keyword = p.str(seg[0])
		seg = seg[2:]
	}
	a.Pos = p.lx.Pos(seg[0])
	switch {
	case seg[0].Kind == String:
		var b strings.Builder
		for _, t := range seg {
			s, ok := stringValue(p.str(t))
			if t.Kind != String || !ok {
				return a
			}
			b.WriteString(s)
		}
		a.Kind, a.Value = ArgString, b.String()
	case len(seg) == 1 && seg[0].Kind == Number:
		a.Kind, a.Value = ArgNumber, p.str(seg[0])
	case seg[0].Kind == Name:
		if name, n := p.chain(seg, 0); n == len(seg) {
			a.Kind, a.Value = ArgName, name
		}
	}
	return a
}

// stringValue returns the text of a string literal token, or false for a
// formatted string, whose text is known only when it runs.
func stringValue(tok string) (string, bool) {
	i := 0
	raw := false
	for i < len(tok) && tok[i] != '"' && tok[i] != '\'' {
		switch tok[i] | 0x20 {
		case 'f', 't':
			return "", false
		case 'r':
			raw = true
		}
		i++
	}
	body := tok[i:]
	q := 1
	if len(body) >= 6 && body[1] == body[0] && body[2] == body[0] {
		q = 3
	}
	if len(body) < 2*q {
		return "", false // unterminated
	}
	body = body[q : len(body)-q]
	if raw {
		return body, true
	}
	return unescape(body), true
}

// unescape decodes the escape sequences of a non-raw string body. Unknown
// escapes keep their backslash, as in Python.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case '\n':
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		case '\\', '\'', '"':
			b.WriteByte(s[i])
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'x', 'u', 'U':
			width := map[byte]int{'x': 2, 'u': 4, 'U': 8}[s[i]]
			if i+width < len(s) {
				if v, err := strconv.ParseUint(s[i+1:i+1+width], 16, 32); err == nil && utf8.ValidRune(rune(v)) {
					b.WriteRune(rune(v))
					i += width
					continue
				}
			}
			b.WriteByte('\\')
			b.WriteByte(s[i])
		default:
			b.WriteByte('\\')
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// chain reads a dotted name (NAME(.NAME)*) starting at toks[i] and returns
// it with the number of tokens it took; 0 when toks[i] is not a name.
func (p *parser) chain(toks []Token, i int) (string, int) {
	if i >= len(toks) || toks[i].Kind != Name {
		return "", 0
	}
	j := i
	for j+2 < len(toks) && isOp(toks[j+1], ".") && toks[j+2].Kind == Name {
		j += 2
	}
	first, last := toks[i], toks[j]
	if end := last.Off + len(last.Text); end-first.Off == sumLen(toks[i:j+1]) {
		// Written without spaces, as dotted names almost always are:
		// the name is a substring of the source.
		return p.text[first.Off:end], j - i + 1
	}
	var b strings.Builder
	for k := i; k <= j; k++ {
		b.Write(toks[k].Text)
	}
	return b.String(), j - i + 1
}

// matching returns the index of the bracket that closes toks[open], or
// len(toks) when it is not closed.
func matching(toks []Token, open int) int {
	depth := 0
	for i := open; i < len(toks); i++ {
		if toks[i].Kind != Op || len(toks[i].Text) != 1 {
			continue
		}
		switch toks[i].Text[0] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return len(toks)
}

// eachArg calls f with each non-empty part of toks between the commas
// outside brackets, without allocating.
func (p *parser) eachArg(toks []Token, f func([]Token)) {
	depth, start := 0, 0
	for i, t := range toks {
		if t.Kind != Op || len(t.Text) != 1 {
			continue
		}
		switch t.Text[0] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				if i > start {
					f(toks[start:i])
				}
				start = i + 1
			}
		}
	}
	if len(toks) > start {
		f(toks[start:])
	}
}

// split splits toks at the commas outside brackets.
func split(toks []Token) [][]Token {
	var segs [][]Token
	depth, start := 0, 0
	for i, t := range toks {
		if t.Kind != Op || len(t.Text) != 1 {
			continue
		}
		switch t.Text[0] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				segs = append(segs, toks[start:i])
				start = i + 1
			}
		}
	}
	return append(segs, toks[start:])
}

// indexOp returns the index of the first op token text outside brackets, or -1.
func indexOp(toks []Token, text string) int {
	depth := 0
	for i, t := range toks {
		if t.Kind != Op {
			continue
		}
		if depth == 0 && string(t.Text) == text {
			return i
		}
		if len(t.Text) == 1 {
			switch t.Text[0] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			}
		}
	}
	return -1
}

func isOp(t Token, text string) bool   { return t.Kind == Op && string(t.Text) == text }
func isName(t Token, text string) bool { return t.Kind == Name && string(t.Text) == text }

// isKeyword reports whether b is one of Python's hard keywords: none of
// them is a callable or assignable name.
func isKeyword(b []byte) bool {
	switch string(b) {
	case "False", "None", "True", "and", "as", "assert", "async", "await",
		"break", "class", "continue", "def", "del", "elif", "else", "except",
		"finally", "for", "from", "global", "if", "import", "in", "is",
		"lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try",
		"while", "with", "yield":
		return true
	}
	return false
}

func sumLen(toks []Token) int {
	n := 0
	for _, t := range toks {
		n += len(t.Text)
	}
	return n
}
