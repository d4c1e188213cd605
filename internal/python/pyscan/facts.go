package pyscan

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Module is what Scan learns about one Python source file.
type Module struct {
	Defs    []Def    // functions and classes, in source order
	Calls   []Call   // calls of dotted names, in source order
	Assigns []Assign // names assigned at module or class level
	Imports []Import
	// StarImports are the "from MODULE import *" statements; their Name
	// is "*" and their Bound "".
	StarImports []Import
	Problems    []Problem // what Python would reject, in source order
	// Suppressions are the "# fixturegen: ignore" comments, in line
	// order.
	Suppressions []Suppression

	bound map[string]string // name bound by an import → what it names
	binds bindIndex         // every name bound but parameters, for ResolveAt
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
	// Bases are a class's base classes that are dotted names, as written
	// ("unittest.TestCase"); other expressions and keywords are left out.
	Bases []string
	// Yields is true for a function whose own body holds a yield (or
	// yield from), which makes it a generator: a fixture that yields
	// hands the test its value and runs on after it.
	Yields bool
	// Raises is true for a function whose own body holds a raise
	// statement: a signal handler without one returns to the code it
	// interrupted, unless a call in it raises.
	Raises bool
	// HasCalls is true for a function whose own body holds a call of a
	// name, kept by the Scanner's filter or not; a body that holds none
	// (a counter, pass) calls nothing that could raise. A NoCalls
	// Scanner leaves it false.
	HasCalls bool
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

// Call is a call of a dotted name, such as signal.setitimer(...),
// pytest.mark.usefixtures(...) or (signal.alarm)(5). Calls of other
// expressions (f()(x), "".join(x)) are not recorded; calls nested in the
// arguments are recorded on their own, and so are the calls in the
// replacement fields of formatted strings, after the other calls of their
// logical line.
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
	// ArgLambda is a lambda; Value is "call" when its body holds a call
	// (or any parenthesis), "" when it holds none and so can raise no
	// exception of its own making beyond an expression's.
	ArgLambda
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
	// Literal is set when the value is a list or tuple of string
	// literals, such as "collect_ignore = ['setup.py']"; Strings holds
	// them.
	Literal bool
	Strings []string
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
// import binds is returned as it is. Imports in every scope count, and
// other bindings not at all: ResolveAt looks a name up where it is used.
func (m *Module) Resolve(dotted string) string {
	head, _, _ := strings.Cut(dotted, ".")
	full, ok := m.bound[head]
	if !ok || full == head {
		// Most names are bound by a plain import of themselves ("import
		// json"): the name is already resolved, and needs no new string.
		return dotted
	}
	return full + dotted[len(head):] // and the rest of the name
}

// Scan tokenizes src and extracts its facts.
func Scan(src []byte) *Module {
	var s Scanner
	return s.Scan(src)
}

// Scanner scans one module after another, reusing the memory it works in,
// so that scanning many modules allocates little more than the facts they
// keep. The zero Scanner is ready to use; it is not safe for concurrent
// use.
type Scanner struct {
	// NoCalls leaves the calls out of the facts: Module.Calls is empty
	// and no decorator has a Call. Reading a module only for its defs,
	// classes, bases and imports then costs about two thirds of a Scan.
	NoCalls bool
	// Keep, when set, leaves out the calls its caller never reads, and
	// their arguments (calls nested in those are still found).
	Keep *CallFilter

	lx Lexer
	p  parser
	// work holds the arrays the facts of the last module were gathered
	// in, for the next module's.
	work Module
	// bindWork is indexBindings's working memory.
	bindWork []int32
}

// CallFilter says which calls a Scanner keeps: every call in a decorator,
// every call in a statement that assigns a name of Targets first
// ("pytestmark = [...]"), every call of a bare name (an import may bind it
// to anything), and the calls of dotted names whose last name is in Last
// (resolving a dotted name through the imports keeps its last name).
type CallFilter struct {
	Last    map[string]bool
	Targets map[string]bool
}

// keepsLast reports whether the CallFilter keeps a call outside a
// decorator, in a statement that assigns target first, whose callee's last
// name is the token last, bare when it is the only name (a dotted name's
// last name is what follows its last dot). calls asks it before it reads
// the callee whole: most calls are not kept, and BenchmarkScanLibTest took
// 2% less CPU time once their names were no longer read (medians of 10
// runs each).
func (p *parser) keepsLast(last *tok, bare bool, target string) bool {
	if bare {
		return true
	}
	if last.kw == nonASCII {
		if p.keep.Last[p.str(last)] {
			return true
		}
	} else if p.keep.Last[string(p.src[last.off:last.end])] {
		// The name is looked up as it is in the source: only a name
		// that is kept is copied out of it.
		return true
	}
	return target != "" && p.keep.Targets[target]
}

// keptText holds the names and literals a module's facts keep, copied
// out of the source one after the other into chunks of the module's own.
// A copy of the whole source, which they were substrings of, was four
// tenths of the bytes Scan allocated; they are about a tenth of it.
// Strings cut from a strings.Builder's bytes share them without a copy,
// and the Builder never writes over bytes it has written: a chunk that is
// full is left to the strings cut from it, and a new one started.
type keptText struct {
	b strings.Builder
	// chunk is the size of the next chunk. Scan's first chunk fits, as a
	// rule, the text kept of a module of n bytes, n/4 (the modules check
	// tokenizes on CPython's Lib/test keep a fifth to a quarter of their
	// bytes); a module that keeps more goes on in chunks of half that size.
	chunk int
}

// copy returns a string of the bytes of p.
func (k *keptText) copy(p []byte) string {
	if len(p) == 0 {
		return ""
	}
	if k.b.Cap()-k.b.Len() < len(p) {
		n := max(k.chunk, len(p))
		k.chunk = max(k.chunk/2, 64)
		k.b = strings.Builder{}
		k.b.Grow(n)
	}
	start := k.b.Len()
	k.b.Write(p)
	return k.b.String()[start:]
}

// Scan tokenizes src and extracts its facts, as the function Scan does.
// The Module shares no memory with the Scanner or with src: the names and
// strings the facts keep are copied out of the source (see keptText).
func (s *Scanner) Scan(src []byte) *Module {
	s.lx.reset(src)
	// The facts are gathered in the Scanner's arrays, kept from one module
	// to the next, and copied into arrays of the module's own, each of
	// its exact size, once they stop growing: growing the module's own
	// arrays by appending allocated about twice what they end up holding,
	// and copied all of it on the way.
	p := &s.p
	*p = parser{lx: &s.lx, src: src, kept: keptText{chunk: max(len(src)/4, 64)}, m: &s.work, noCalls: s.NoCalls, keep: s.Keep,
		scopes: p.scopes[:0], toks: p.toks[:0], decoCalls: p.decoCalls[:0],
		ftoks: p.ftoks[:0], subs: p.subs[:0],
		args: p.args[:0], paramBuf: p.paramBuf[:0], decos: p.decos[:0], baseBuf: p.baseBuf[:0],
		bindBuf: p.bindBuf[:0], stars: p.stars[:0]}
	p.lx.recordFields = !s.NoCalls
	p.run()
	w := p.m
	m := &Module{Defs: take(&w.Defs), Calls: take(&w.Calls), Assigns: take(&w.Assigns), Imports: take(&w.Imports),
		StarImports: take(&p.stars), Problems: p.lx.Problems}
	binds := take(&p.bindBuf)
	// Each call's arguments, each def's parameters, decorators and bases
	// lie in the parser's arrays one after the other, in the order of the
	// calls and defs; they are sliced out of the module's arrays.
	args, params, decos, bases := take(&p.args), take(&p.paramBuf), take(&p.decos), take(&p.baseBuf)
	p.src, p.kept = nil, keptText{} // the source and the module's text are not the Scanner's to keep
	var ao, po, do, bo int
	for i := range m.Calls {
		carve(&m.Calls[i].Args, args, &ao)
	}
	for i := range m.Defs {
		d := &m.Defs[i]
		carve(&d.Bases, bases, &bo)
		carve(&d.Params, params, &po)
		carve(&d.Decorators, decos, &do)
	}
	s.lx = Lexer{opens: s.lx.opens[:0], indents: s.lx.indents[:0], fields: s.lx.fields[:0]} // the source is not the Scanner's to keep
	var targets []string
	if len(m.Imports) > 0 {
		m.bound = make(map[string]string, len(m.Imports))
		targets = make([]string, len(m.Imports))
	}
	for i, im := range m.Imports {
		target := im.Module
		switch head, _, _ := strings.Cut(im.Module, "."); {
		case strings.HasSuffix(im.Module, "."):
			target += im.Name // from . import x
		case im.Name != "":
			target += "." + im.Name
		case head == im.Bound:
			target = head
		}
		m.bound[im.Bound] = target
		targets[i] = target
	}
	m.indexBindings(binds, targets, &s.bindWork)
	m.Suppressions = suppressions(src)
	return m
}

// take returns a copy of the facts gathered in *buf for a module to keep,
// in an array of their exact size (nil when there are none), and clears
// *buf of what it held: its strings are the module's, and the garbage
// collector, which reads every pointer of the arrays at each cycle, then
// finds none to follow.
func take[T any](buf *[]T) []T {
	s := *buf
	*buf = s[:0]
	if len(s) == 0 {
		return nil
	}
	out := append(make([]T, 0, len(s)), s...)
	clear(s)
	return out
}

// carve points *part, a run of one of the parser's arrays, at the same
// run of all, the module's copy of that array; the run starts at *off,
// which carve moves past it.
func carve[T any](part *[]T, all []T, off *int) {
	if *part != nil {
		n := len(*part)
		*part = all[*off : *off+n : *off+n]
		*off += n
	}
}

type scope struct {
	def  int // index in Module.Defs
	body int // indentation level of the body
}

type parser struct {
	lx   *Lexer
	src  []byte // the source
	kept keptText
	m    *Module
	// noCalls and keep are the Scanner's NoCalls and Keep; inDecorator is
	// set while the calls of a decorator are read.
	noCalls     bool
	keep        *CallFilter
	inDecorator bool
	// args, paramBuf and decos hold every call's arguments and every
	// def's parameters and decorators, one after the other.
	args     []Arg
	paramBuf []Param
	decos    []Decorator
	// decoStart is where the decorators read so far for the next def or
	// class start in decos; decoCalls are the indices of the calls in
	// their lines.
	decoStart int
	decoCalls []int
	level     int // indentation level: Indent tokens minus Dedent tokens
	scopes    []scope
	toks      []tok
	// bindBuf holds the names assignments bind, in every scope; stars the star
	// imports; ftoks the tokens of one replacement field.
	bindBuf []binding
	stars   []Import
	ftoks   []tok
	baseBuf []string // every class's bases, one after the other
	subs    []Lexer  // fieldCalls' Lexers, one per level of nesting
}

func (p *parser) run() {
	for {
		p.toks = p.toks[:0]
		p.lx.semicolon, p.lx.assign, p.lx.yields = false, false, false
		k := p.push()
		switch k {
		case EOF:
			return
		case Indent:
			p.level++
			continue
		case Dedent:
			p.level--
			continue
		}
		for k != Newline && k != EOF {
			k = p.push()
		}
		p.toks = p.toks[:len(p.toks)-1] // the Newline or EOF
		for len(p.scopes) > 0 && p.scopes[len(p.scopes)-1].body > p.level {
			p.scopes = p.scopes[:len(p.scopes)-1]
		}
		scope := p.scope()
		p.statement(p.toks)
		if len(p.lx.fields) > 0 {
			p.fieldCalls(p.lx.fields, scope)
			p.lx.fields = p.lx.fields[:0]
		}
		if k == EOF {
			return
		}
	}
}

// fieldCalls records the calls in the replacement fields of the
// formatted strings of a statement in scope: the fields are code, read
// with a Lexer of their own as if inside brackets, fields of formatted
// strings nested in them included.
func (p *parser) fieldCalls(fields []field, scope int) {
	// One Lexer per level of nesting, kept by the parser: a field's
	// Lexer reads no indentation (it is inside brackets), and its
	// problems are those of the string, which the main Lexer reported.
	depth := len(p.subs)
	p.subs = slices.Grow(p.subs, 1)[:depth+1] // the Lexer of an earlier field, with its arrays, if any
	defer func() {
		p.subs[depth].src = nil // the source is not the Scanner's to keep
		p.subs = p.subs[:depth]
	}()
	for _, f := range fields {
		sub := &p.subs[depth]
		*sub = Lexer{src: p.lx.src[:f.end], off: f.off, line: f.line, lineStart: f.lineStart,
			opens: append(sub.opens[:0], opened{ch: '{'}), indents: append(sub.indents[:0], 0), recordFields: true, quiet: true, fields: sub.fields[:0]}
		toks := p.ftoks[:0]
		for {
			toks = append(toks, tok{})
			t := &toks[len(toks)-1]
			sub.next(t)
			if k := t.kind; k != Name && k != Op && k != String && k != Number {
				toks = toks[:len(toks)-1] // no code: Newline, Indent, Dedent or EOF
				if k == EOF {
					break
				}
			}
		}
		p.ftoks = toks[:0]
		p.calls(toks, scope, "")
		if sub.yields {
			p.markYield(toks, scope)
		}
		if len(sub.fields) > 0 {
			p.fieldCalls(sub.fields, scope)
		}
	}
}

// push reads the next token into a new place at the end of p.toks and
// returns its kind. The lexer writes the token where it stays: a token
// built elsewhere and copied in was read back wider than it was written,
// which stalled the processor on every token.
func (p *parser) push() Kind {
	if len(p.toks) == cap(p.toks) {
		p.toks = slices.Grow(p.toks, 1)
	}
	p.toks = p.toks[:len(p.toks)+1]
	t := &p.toks[len(p.toks)-1]
	p.lx.next(t)
	return t.kind
}

// str returns a token's text as a substring of the source. A name with
// other than ASCII letters is in Unicode's NFKC form, as Python reads it:
// "µ" (the micro sign) and "μ" (mu) are one name.
func (p *parser) str(t *tok) string {
	if t.kw == nonASCII {
		return norm.NFKC.String(string(p.src[t.off:t.end]))
	}
	return p.kept.copy(p.src[t.off:t.end])
}

// isOp reports whether t is the operator text; one of one byte is told by
// the token alone.
func (p *parser) isOp(t *tok, text string) bool {
	if len(text) == 1 {
		return t.ch == text[0]
	}
	return t.kind == Op && string(p.src[t.off:t.end]) == text
}

// isWord reports whether t is the name of the word kw (see words), as
// written.
func (p *parser) isWord(t *tok, kw uint8) bool { return t.kind == Name && t.kw == kw }

// keyword reports whether the name t is a hard keyword, in its NFKC form,
// as isKeyword(p.str(t)) does.
func (p *parser) keyword(t *tok) bool {
	if t.kw == nonASCII {
		return isKeyword(p.str(t))
	}
	return t.kw != 0 && t.kw <= kwLastHard
}

func (p *parser) scope() int {
	if len(p.scopes) == 0 {
		return -1
	}
	return p.scopes[len(p.scopes)-1].def
}

// inFunction reports whether the code of scope (as in Call.Scope) runs
// in a function body, where assignments bind local names.
func (p *parser) inFunction(scope int) bool {
	return scope >= 0 && p.m.Defs[scope].Kind == Function
}

func (p *parser) statement(toks []tok) {
	if len(toks) == 0 {
		return
	}
	switch {
	case p.isOp(&toks[0], "@"):
		p.decorator(toks)
		return
	case p.isWord(&toks[0], kwDef):
		p.def(toks, 0, Function)
	case p.isWord(&toks[0], kwAsync) && len(toks) > 1 && p.isWord(&toks[1], kwDef):
		p.def(toks, 1, Function)
	case p.isWord(&toks[0], kwClass):
		p.def(toks, 0, Class)
	default:
		p.dropDecorators()
		if p.lx.yields {
			p.markYield(toks, p.scope())
		}
		if header, body, ok := p.compoundLine(toks); ok {
			// "if x: import signal", "try: y = 1": the body on the
			// header's line is a statement of the same scope.
			p.calls(header, p.scope(), "")
			p.statement(body)
			return
		}
		if !p.lx.semicolon {
			p.simple(toks) // the usual line: one statement
			return
		}
		for len(toks) > 0 {
			end := indexOp(toks, ';')
			if end < 0 {
				end = len(toks)
			}
			p.simple(toks[:end])
			toks = toks[min(end+1, len(toks)):]
		}
	}
}

// compoundLine splits the line of a compound statement (if, while, for,
// try, with, match and their clauses) whose body follows its header's
// colon on the same line.
func (p *parser) compoundLine(toks []tok) (header, body []tok, ok bool) {
	first := &toks[0]
	if first.kind != Name {
		return nil, nil, false
	}
	kw := first.kw
	if kw == nonASCII {
		kw = wordID(p.str(first)) // as Python reads it, in NFKC form
	}
	switch kw {
	case kwIf, kwElif, kwElse, kwWhile, kwFor, kwTry, kwExcept, kwFinally, kwWith, kwAsync:
	case kwMatch, kwCase:
		// Soft keywords: "case = 1" and "match.group()" are names.
		if len(toks) < 2 || toks[1].kind == Op && (toks[1].ch == '=' || toks[1].ch == '.' || toks[1].ch == ':' || toks[1].ch == ',' || toks[1].ch == ')' || p.src[toks[1].end-1] == '=') {
			return nil, nil, false
		}
	default:
		return nil, nil, false
	}
	colon := indexOp(toks, ':')
	if colon < 0 || colon+1 >= len(toks) {
		return nil, nil, false
	}
	return toks[:colon], toks[colon+1:], true
}

// dropDecorators forgets decorators not followed by a def or class, which
// only a syntax error leaves behind.
func (p *parser) dropDecorators() {
	p.decos, p.decoCalls = p.decos[:p.decoStart], p.decoCalls[:0]
}

func (p *parser) decorator(toks []tok) {
	d := Decorator{Pos: p.lx.pos(&toks[min(1, len(toks)-1)]), Call: -1}
	end := 1
	if name, n := p.chain(toks, 1); n > 0 {
		end = 1 + n
		// The name alone, or the name called once: "@a(b)(c)" is
		// another expression.
		if end == len(toks) || p.isOp(&toks[end], "(") && p.matching(toks, end) == len(toks)-1 {
			d.Name = name
		}
	}
	first := len(p.m.Calls)
	p.inDecorator = true
	p.calls(toks[1:], p.scope(), "")
	p.inDecorator = false
	for i := first; i < len(p.m.Calls); i++ {
		p.decoCalls = append(p.decoCalls, i)
	}
	if d.Name != "" && end < len(toks) && first < len(p.m.Calls) && p.m.Calls[first].Pos == d.Pos {
		d.Call = first
	}
	p.decos = append(p.decos, d)
}

// def reads a def (at toks[at]) or class statement header.
func (p *parser) def(toks []tok, at int, kind DefKind) {
	outer := p.scope()
	if at+1 >= len(toks) || toks[at+1].kind != Name {
		p.dropDecorators()
		p.calls(toks, outer, "")
		return
	}
	name := &toks[at+1]
	d := Def{Kind: kind, Name: p.str(name), Pos: p.lx.pos(name), Parent: outer}
	d.Decorators = since(p.decos, p.decoStart)
	p.decoStart = len(p.decos)
	idx := len(p.m.Defs)
	for _, c := range p.decoCalls {
		p.m.Calls[c].Decorates = idx
	}
	p.dropDecorators()
	rest := toks[at+2:]
	if len(rest) > 0 && p.isOp(&rest[0], "(") {
		close := p.matching(rest, 0)
		inner := rest[1:close]
		if kind == Function {
			d.Params = p.params(inner)
		} else {
			d.Bases = p.bases(inner)
		}
		p.calls(inner, outer, "")
		rest = rest[min(close+1, len(rest)):]
	}
	p.m.Defs = append(p.m.Defs, d)
	colon := indexOp(rest, ':')
	if colon < 0 {
		p.calls(rest, outer, "")
		return
	}
	p.calls(rest[:colon], outer, "") // a return annotation
	p.scopes = append(p.scopes, scope{def: idx, body: p.level + 1})
	if body := rest[colon+1:]; len(body) > 0 {
		// "class C: x = 1", "def f(): import signal": the body on the
		// header's line is the def's whole body.
		p.statement(body)
		p.scopes = p.scopes[:len(p.scopes)-1]
	}
}

func (p *parser) params(toks []tok) []Param {
	start := len(p.paramBuf)
	p.eachSeg(toks, false, func(seg []tok) {
		if len(seg) == 0 || seg[0].kind != Name {
			return // *args, **kwargs, a bare * or /
		}
		p.paramBuf = append(p.paramBuf, Param{Name: p.str(&seg[0]), Pos: p.lx.pos(&seg[0])})
	})
	return since(p.paramBuf, start)
}

// bases returns the base classes of a class statement that are dotted
// names.
func (p *parser) bases(toks []tok) []string {
	start := len(p.baseBuf)
	p.eachSeg(toks, true, func(seg []tok) {
		if name, n := p.chain(seg, 0); n > 0 && n == len(seg) && !isKeyword(name) {
			p.baseBuf = append(p.baseBuf, name)
		}
	})
	return since(p.baseBuf, start)
}

// since returns the elements of buf from start on, or nil when there are
// none: Scan carves only the runs that are not nil.
func since[T any](buf []T, start int) []T {
	if len(buf) == start {
		return nil
	}
	return buf[start:]
}

// simple reads a statement that is not a def, class or decorator.
func (p *parser) simple(toks []tok) {
	if len(toks) == 0 {
		return
	}
	if p.isWord(&toks[0], kwImport) || p.isWord(&toks[0], kwFrom) {
		p.importStmt(toks)
		return
	}
	if p.isWord(&toks[0], kwRaise) && p.inFunction(p.scope()) {
		p.m.Defs[p.scope()].Raises = true
	}
	target := ""
	i, n := 0, 0
	for i+1 < len(toks) {
		op := &toks[i+1]
		isAssign := p.isOp(op, "=") || isAugmented(p, op)
		annotated := p.isOp(op, ":") && i == 0
		if toks[i].kind != Name || p.keyword(&toks[i]) || !isAssign && !annotated {
			// A target other than a name ("d[k] = x = 1"): the names
			// of the chain may follow its "=". Without a "=" outside
			// brackets in the line there is none to look for.
			if !p.lx.assign {
				break
			}
			eq := p.targetEnd(toks[i:])
			if eq < 0 {
				break
			}
			i += eq + 1
			continue
		}
		name := p.str(&toks[i])
		if target == "" {
			target = name
		}
		pos := p.lx.pos(&toks[i])
		if !p.inFunction(p.scope()) {
			p.m.Assigns = append(p.m.Assigns, Assign{Name: name, Pos: pos, Scope: p.scope()})
		}
		p.bindBuf = append(p.bindBuf, binding{name: name, scope: p.scope(), pos: pos})
		n++
		if annotated {
			// The value, if any, follows the annotation's "=".
			n = 0
			if eq := indexOp(toks[i+2:], '='); eq >= 0 {
				i, n = i+2+eq+1, 1
			}
			break
		}
		i += 2
	}
	if n > 0 && i < len(toks) {
		p.assignedValue(toks[i:], n)
		if !p.inFunction(p.scope()) {
			if strs, ok := p.stringList(toks[i:]); ok {
				for j := len(p.m.Assigns) - n; j < len(p.m.Assigns); j++ {
					p.m.Assigns[j].Literal, p.m.Assigns[j].Strings = true, strs
				}
			}
		}
	}
	p.calls(toks, p.scope(), target)
}

// isAugmented reports whether op is an augmented assignment ("+=").
func isAugmented(p *parser, op *tok) bool {
	return op.kind == Op && op.end-op.off >= 2 && p.src[op.end-1] == '=' && !p.isOp(op, "==") && !p.isOp(op, "!=") && !p.isOp(op, "<=") && !p.isOp(op, ">=")
}

// targetEnd returns the index of the "=" that ends the assignment target
// at the start of toks, or -1 when toks holds no assignment there: the
// first "=" outside brackets, before any lambda, whose defaults hold "="
// of their own.
func (p *parser) targetEnd(toks []tok) int {
	depth := 0
	for i := range toks {
		switch {
		case toks[i].kind == Name && p.isWord(&toks[i], kwLambda) && depth == 0:
			return -1
		case toks[i].ch == '=' && depth == 0:
			return i
		default:
			depth += int(nesting[toks[i].ch])
		}
	}
	return -1
}

// assignedValue looks at the value of an assignment whose n targets are
// the last bindings noted: an import call ("importlib.import_module(
// 'signal')") binds them to the module it names, and None binds nothing
// that matters (it is the "not available" branch of a guarded import).
func (p *parser) assignedValue(value []tok, n int) {
	targets := p.bindBuf[len(p.bindBuf)-n:]
	if len(value) == 1 && p.isWord(&value[0], kwNone) {
		p.bindBuf = p.bindBuf[:len(p.bindBuf)-n]
		return
	}
	name, k := p.chain(value, 0)
	if k == 0 || k+2 >= len(value) || !p.isOp(&value[k], "(") || value[k+1].kind != String {
		return
	}
	if !importCalls[name[strings.LastIndexByte(name, '.')+1:]] {
		return
	}
	if mod, ok := StringValue(p.str(&value[k+1])); ok && mod != "" {
		for j := range targets {
			targets[j].target = mod
		}
	}
}

// stringList reads the value of an assignment that is a list or a tuple
// of string literals and nothing else: ["a", "b"], ("a",), or "a", "b"
// without brackets. A string in parentheses, ("a" "b"), is no tuple.
func (p *parser) stringList(toks []tok) ([]string, bool) {
	if len(toks) == 0 {
		return nil, false
	}
	elems := toks
	if close := p.matching(toks, 0); close == len(toks)-1 && (p.isOp(&toks[0], "[") || p.isOp(&toks[0], "(")) {
		elems = toks[1 : len(toks)-1]
		if p.isOp(&toks[0], "(") && len(elems) > 0 && indexOp(elems, ',') < 0 {
			return p.stringList(elems) // parentheses around one value
		}
	} else if indexOp(toks, ',') < 0 {
		return nil, false // one value, no tuple
	}
	for i := range elems {
		if k := elems[i].kind; k != String && !p.isOp(&elems[i], ",") && !p.isOp(&elems[i], "(") && !p.isOp(&elems[i], ")") {
			return nil, false // not strings alone: nothing to build
		}
	}
	out := []string{}
	ok := true
	p.eachSeg(elems, true, func(seg []tok) {
		// An element in parentheses, ("a" "b"), is the string inside.
		for len(seg) > 2 && p.isOp(&seg[0], "(") && p.matching(seg, 0) == len(seg)-1 {
			seg = seg[1 : len(seg)-1]
		}
		a := p.arg(seg)
		if a.Kind != ArgString || a.Keyword != "" {
			ok = false
			return
		}
		out = append(out, a.Value)
	})
	return out, ok
}

func (p *parser) importStmt(toks []tok) {
	from := p.isWord(&toks[0], kwFrom)
	mod, names := "", toks[1:]
	if from {
		// from MODULE import NAMES
		var n int
		mod, n = p.dottedModule(names)
		if n == 0 || n >= len(names) || !p.isWord(&names[n], kwImport) {
			return
		}
		names = names[n+1:]
		if len(names) > 0 && p.isOp(&names[0], "(") {
			names = names[1:p.matching(names, 0)]
		}
	}
	p.eachSeg(names, false, func(seg []tok) {
		im := Import{Module: mod, Scope: p.scope()}
		n := 0 // the tokens of the name imported
		switch {
		case from && len(seg) == 1 && p.isOp(&seg[0], "*"):
			im.Name, im.Pos = "*", p.lx.pos(&seg[0])
			p.stars = append(p.stars, im)
			return
		case from && len(seg) > 0 && seg[0].kind == Name:
			im.Name, n = p.str(&seg[0]), 1
			im.Bound = im.Name
		case !from:
			im.Module, n = p.dottedModule(seg)
			im.Bound, _, _ = strings.Cut(im.Module, ".")
		}
		if n == 0 {
			return
		}
		if n+1 < len(seg) && p.isWord(&seg[n], kwAs) && seg[n+1].kind == Name {
			im.Bound = p.str(&seg[n+1])
		}
		im.Pos = p.lx.pos(&seg[0])
		p.m.Imports = append(p.m.Imports, im)
	})
}

// dottedModule reads a module name, with the leading dots of a relative
// import, and returns it with the number of tokens it took.
func (p *parser) dottedModule(toks []tok) (string, int) {
	i := 0
	for i < len(toks) && toks[i].kind == Op && (p.isOp(&toks[i], ".") || p.isOp(&toks[i], "...")) {
		i++
	}
	name, n := "", 0
	if i < len(toks) && !p.keyword(&toks[i]) {
		name, n = p.chain(toks, i)
	}
	if i == 0 {
		return name, n
	}
	return p.text(toks[:i+n]), i + n
}

// calls records every call of a dotted name in toks.
func (p *parser) calls(toks []tok, scope int, target string) {
	if p.noCalls {
		return
	}
	for k := 0; k < len(toks); k++ {
		t := &toks[k]
		if t.kind != Name {
			continue
		}
		// Only a name followed by "(" or "." can start a call; most are
		// not, and need no further look.
		if k+1 >= len(toks) {
			continue
		}
		if b := toks[k+1].ch; b != '(' && b != '.' && b != ')' {
			continue
		}
		if k > 0 && p.isOp(&toks[k-1], ".") || p.keyword(t) {
			continue
		}
		n := chainLen(toks, k)
		open := k + n
		if open >= len(toks) || !p.isOp(&toks[open], "(") {
			if !p.parenthesized(toks, k, open) {
				k = open - 1
				continue
			}
			open++ // (signal.alarm)(5) calls signal.alarm
		}
		if !p.inDecorator && p.inFunction(scope) {
			p.m.Defs[scope].HasCalls = true
		}
		// Most calls are not kept, which their last name tells before
		// the name is read whole.
		if p.keep != nil && !p.inDecorator && !p.keepsLast(&toks[k+n-1], n == 1, target) {
			k = open // the arguments may hold calls that are kept
			continue
		}
		name, _ := p.chain(toks, k)
		close := p.matching(toks, open)
		c := Call{Callee: name, Pos: p.lx.pos(t), Scope: scope, Decorates: -1, Target: target}
		// The arguments of all calls share one array; each call's Args
		// is its part of it.
		start := len(p.args)
		p.eachSeg(toks[open+1:close], true, func(seg []tok) {
			p.args = append(p.args, p.arg(seg))
		})
		c.Args = p.args[start:len(p.args):len(p.args)]
		p.m.Calls = append(p.m.Calls, c)
		k = open // the arguments may hold calls of their own
	}
}

// parenthesized reports whether the dotted name toks[k:end] stands alone
// in grouping brackets that are called: "(signal.alarm)(5)", but not
// "f(signal.alarm)(5)", which calls what f returns.
func (p *parser) parenthesized(toks []tok, k, end int) bool {
	if k == 0 || end+1 >= len(toks) || !p.isOp(&toks[k-1], "(") || !p.isOp(&toks[end], ")") || !p.isOp(&toks[end+1], "(") {
		return false
	}
	if k == 1 {
		return true
	}
	prev := &toks[k-2]
	switch {
	case prev.kind == Name:
		return p.keyword(prev) // return (f)(x), await (f)(x)
	case prev.kind == Op:
		return nesting[prev.ch] >= 0 // not after a closing bracket
	}
	return false
}

func (p *parser) arg(seg []tok) Arg {
	var a Arg
	if len(seg) > 2 && seg[0].kind == Name && p.isOp(&seg[1], "=") {
		a.Keyword = p.str(&seg[0])
		seg = seg[2:]
	}
	a.Pos = p.lx.pos(&seg[0])
	switch {
	case seg[0].kind == String:
		// Adjacent literals are one string. The value of one, the usual
		// case, is a substring of the source unless it has escapes: a
		// string added to "" is not copied.
		value := ""
		for i := range seg {
			s, ok := StringValue(p.str(&seg[i]))
			if seg[i].kind != String || !ok {
				return a
			}
			value += s
		}
		a.Kind, a.Value = ArgString, value
	case len(seg) == 1 && seg[0].kind == Number:
		a.Kind, a.Value = ArgNumber, p.str(&seg[0])
	case p.isWord(&seg[0], kwLambda):
		a.Kind = ArgLambda
		if slices.ContainsFunc(seg, func(t tok) bool { return t.ch == '(' }) {
			a.Value = "call"
		}
	case seg[0].kind == Name:
		if name, n := p.chain(seg, 0); n == len(seg) {
			a.Kind, a.Value = ArgName, name
		}
	}
	return a
}

// StringValue returns the text of one string literal token as written
// (prefix and quotes included), or false for a formatted string, whose
// text is known only when it runs.
func StringValue(tok string) (string, bool) {
	i := strings.IndexAny(tok, `"'`)
	if i < 0 || strings.ContainsAny(tok[:i], "fFtT") {
		return "", false
	}
	raw := strings.ContainsAny(tok[:i], "rR")
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
		case 'n', 't', 'r', 'a', 'b', 'f', 'v':
			b.WriteByte("\n\t\r\a\b\f\v"[strings.IndexByte("ntrabfv", s[i])])
		case '0', '1', '2', '3', '4', '5', '6', '7':
			// Up to three octal digits.
			v, n := 0, 0
			for n < 3 && i+n < len(s) && s[i+n] >= '0' && s[i+n] <= '7' {
				v = v*8 + int(s[i+n]-'0')
				n++
			}
			b.WriteRune(rune(v))
			i += n - 1
		case 'x', 'u', 'U':
			width := map[byte]int{'x': 2, 'u': 4, 'U': 8}[s[i]]
			if i+width < len(s) {
				if v, err := strconv.ParseUint(s[i+1:i+1+width], 16, 32); err == nil && v <= utf8.MaxRune {
					// A surrogate, which a Go string cannot hold, is
					// U+FFFD, as WriteRune writes it.
					b.WriteRune(rune(v))
					i += width
					continue
				}
			}
			fallthrough
		default:
			b.WriteByte('\\')
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// chain reads a dotted name (NAME(.NAME)*) starting at toks[i] and returns
// it with the number of tokens it took; 0 when toks[i] is not a name.
func (p *parser) chain(toks []tok, i int) (string, int) {
	if i >= len(toks) || toks[i].kind != Name {
		return "", 0
	}
	n := chainLen(toks, i)
	return p.text(toks[i : i+n]), n
}

// text returns the text of toks joined, each name in its NFKC form.
func (p *parser) text(toks []tok) string {
	n, ascii := 0, true
	for i := range toks {
		n += int(toks[i].end - toks[i].off)
		ascii = ascii && toks[i].kw != nonASCII
	}
	if first, last := toks[0].off, toks[len(toks)-1].end; int(last-first) == n && ascii {
		// Written without spaces, as dotted names almost always are:
		// the name is a substring of the source.
		return p.kept.copy(p.src[first:last])
	}
	var b strings.Builder
	for k := range toks {
		b.WriteString(p.str(&toks[k]))
	}
	return b.String()
}

// chainLen returns the number of tokens of the dotted name (NAME(.NAME)*)
// that starts at toks[i], a name: chain's count, without the name.
func chainLen(toks []tok, i int) int {
	j := i
	for j+2 < len(toks) && toks[j+1].ch == '.' && toks[j+2].kind == Name {
		j += 2
	}
	return j - i + 1
}

// matching returns the index of the bracket that closes toks[open], or
// len(toks) when it is not closed.
func (p *parser) matching(toks []tok, open int) int {
	depth := 0
	for i := open; i < len(toks); i++ {
		d := nesting[toks[i].ch]
		depth += int(d)
		if d < 0 && depth == 0 {
			return i
		}
	}
	return len(toks)
}

// nesting is how deep a token of each byte (see tok.ch) takes the code
// into brackets: 1 for an opening one, -1 for a closing one.
var nesting = [256]int8{'(': 1, '[': 1, '{': 1, ')': -1, ']': -1, '}': -1}

// eachSeg calls f with each part of toks between the commas outside
// brackets, without allocating; with nonEmpty, empty parts are left out.
func (p *parser) eachSeg(toks []tok, nonEmpty bool, f func([]tok)) {
	// lambdas counts the lambdas whose parameters are being read: their
	// commas separate no segments, up to the lambda's colon.
	depth, start, lambdas := 0, 0, 0
	for i := range toks {
		if depth == 0 && toks[i].kind == Name && p.isWord(&toks[i], kwLambda) {
			lambdas++
			continue
		}
		depth += int(nesting[toks[i].ch])
		switch toks[i].ch {
		case ':':
			if depth == 0 && lambdas > 0 {
				lambdas--
			}
		case ',':
			if depth == 0 && lambdas == 0 {
				if i > start || !nonEmpty {
					f(toks[start:i])
				}
				start = i + 1
			}
		}
	}
	if len(toks) > start || !nonEmpty {
		f(toks[start:])
	}
}

// indexOp returns the index of the first operator c (of one byte) outside
// brackets, or -1.
func indexOp(toks []tok, c byte) int {
	depth := 0
	for i := range toks {
		if toks[i].ch == c && depth == 0 {
			return i
		}
		depth += int(nesting[toks[i].ch])
	}
	return -1
}

// isKeyword reports whether s is one of Python's hard keywords: none of
// them is a callable or assignable name.
func isKeyword(s string) bool {
	id := wordID(s)
	return id != 0 && id <= kwLastHard
}

// markYield marks the function s, whose body holds the code toks, as a
// generator when a yield in it lies outside every lambda: a lambda's body
// runs apart ("lambda: (yield)" makes the lambda the generator), up to the
// comma or the closing bracket that ends it. Only lines that hold a yield
// come here.
func (p *parser) markYield(toks []tok, s int) {
	if !p.inFunction(s) {
		return
	}
	depth := 0
	var lambdas []int // the depth each open lambda began at
	for i := range toks {
		t := &toks[i]
		switch {
		case nesting[t.ch] > 0:
			depth++
		case nesting[t.ch] < 0 || t.ch == ',':
			depth += int(nesting[t.ch])
			for len(lambdas) > 0 && (lambdas[len(lambdas)-1] > depth || t.ch == ',' && lambdas[len(lambdas)-1] == depth) {
				lambdas = lambdas[:len(lambdas)-1]
			}
		case p.isWord(t, kwLambda):
			lambdas = append(lambdas, depth)
		case p.isWord(t, kwYield) && len(lambdas) == 0:
			p.m.Defs[s].Yields = true
			return
		}
	}
}
