package discover

import (
	"fmt"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fixturegen/fixturegen/internal/python/pyquote"
	"github.com/fixturegen/fixturegen/internal/python/pyscan"
)

// seconds is what a deadline's seconds expression says, as far as it can
// be read without running it: a number, or environment variables tried in
// order with a number as their default.
type seconds struct {
	value   float64 // the number, or the variables' default; valid with ok
	ok      bool
	valueAt string   // path:line:col of the number
	env     []string // the environment variables, first one first; nil for none
	envAt   string   // where the first is named
	// fallback is the path:line:col of a helper's return of the default
	// when a variable does not hold a number (except ValueError), or "".
	fallback string
	// why says what could not be read, when ok is false.
	why string
	at  string // where that is
}

// sameSource reports whether v and o read the same variables and default.
func (v seconds) sameSource(o seconds) bool {
	return v.ok && o.ok && v.value == o.value && slices.Equal(v.env, o.env)
}

// maxDepth bounds how many names readSeconds follows to their
// assignments, so a cycle (x = y; y = x) ends.
const maxDepth = 8

// readSeconds reads a seconds expression: a number literal; a name bound
// to one by an assignment in scope or at module level; float(...) or
// int(...) of one; os.environ.get(NAME, DEFAULT) or os.getenv(NAME,
// DEFAULT) with a literal default (a string holding a number, or a
// number), or "... or DEFAULT".
func (s *source) readSeconds(toks []pyscan.Token, scope, before, depth int) seconds {
	if len(toks) == 0 {
		return seconds{why: "no seconds argument"}
	}
	where := s.at(toks[0])
	if depth > maxDepth {
		return seconds{why: "the seconds are defined through too many names", at: where}
	}
	if parts := split(toks, "or"); len(parts) == 2 && len(parts[0]) > 0 {
		// os.environ.get("T") or 5: the variable, or the default when it
		// is unset or empty.
		env := s.readSeconds(parts[0], scope, before, depth+1)
		def := s.readSeconds(parts[1], scope, before, depth+1)
		if len(env.env) > 0 && def.ok {
			// os.environ.get("A") or os.environ.get("B") or 5 reads
			// its variables in order.
			env.env = append(env.env, def.env...)
			env.value, env.ok, env.valueAt, env.why, env.at = def.value, true, def.valueAt, "", ""
			return env
		}
	}
	if len(toks) == 1 {
		t := toks[0]
		switch t.Kind {
		case pyscan.Number:
			if f, err := strconv.ParseFloat(strings.ReplaceAll(text(t), "_", ""), 64); err == nil {
				return seconds{value: f, ok: true, valueAt: where}
			}
		case pyscan.String:
			if v, ok := pyscan.StringValue(text(t)); ok {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					return seconds{value: f, ok: true, valueAt: where}
				}
			}
		case pyscan.Name:
			return s.readName(text(t), scope, before, depth, where)
		}
		return seconds{why: "the seconds " + text(t) + " are not a number", at: where}
	}
	if v, ok := s.readArithmetic(toks, scope, before, depth); ok {
		return v
	}
	name, n := dotted(toks)
	callee := s.m.Resolve(name)
	switch {
	case n > 0 && n < len(toks) && text(toks[n]) == "(" && matching(toks, n) == len(toks)-1:
		args := splitArgs(toks[n+1 : len(toks)-1])
		switch callee {
		case "float", "int":
			if len(args) == 1 && args[0].keyword == "" {
				return s.readSeconds(args[0].toks, scope, before, depth+1)
			}
		case "os.environ.get", "os.getenv":
			return s.readEnv(args, where, depth)
		}
		if fn := findFunction(s.m, name, scope); fn >= 0 && len(args) == 0 && !strings.Contains(name, ".") {
			return s.readHelper(fn, where, depth)
		}
	case n > 0 && callee == "os.environ" && n < len(toks) && text(toks[n]) == "[" && matching(toks, n) == len(toks)-1:
		env := s.readEnv([]arg{{toks: toks[n+1 : len(toks)-1]}}, where, depth)
		env.why = "os.environ[" + strconv.Quote(env.env[0]) + "] has no default"
		return env
	}
	return seconds{why: "the seconds are computed (" + compact(toks) + ")", at: where}
}

// readArithmetic reads fixed seconds written as arithmetic over numbers
// and names bound to them (+, -, *, / and //), as TIMEOUT_MS // 1000 or
// 2 * 60 are, or in parentheses. It reports false for anything else, and for arithmetic
// over an environment variable, which no spec key can say.
func (s *source) readArithmetic(toks []pyscan.Token, scope, before, depth int) (seconds, bool) {
	if text(toks[0]) == "(" && matching(toks, 0) == len(toks)-1 {
		return s.readSeconds(toks[1:len(toks)-1], scope, before, depth+1), true
	}
	// The operator applied last: the rightmost + or - outside brackets,
	// else the rightmost * or /. A sign after another operator is unary.
	split, level := -1, 0
	for i := 0; i < len(toks); i++ {
		switch t := text(toks[i]); {
		case toks[i].Kind != pyscan.Op:
		case t == "(" || t == "[" || t == "{":
			level++
		case t == ")" || t == "]" || t == "}":
			level--
		case level != 0 || i == 0 || toks[i-1].Kind == pyscan.Op && !strings.Contains(")]}", text(toks[i-1])):
		case t == "+" || t == "-":
			split = i
		case multiplies(t) && (split < 0 || multiplies(text(toks[split]))):
			split = i
		}
	}
	if split < 0 && len(toks) > 1 && (text(toks[0]) == "-" || text(toks[0]) == "+") {
		v := s.readSeconds(toks[1:], scope, before, depth+1)
		if !v.ok || len(v.env) > 0 {
			return seconds{}, false
		}
		if text(toks[0]) == "-" {
			v.value = -v.value
		}
		v.valueAt = s.at(toks[0])
		return v, true
	}
	if split < 0 {
		return seconds{}, false
	}
	l := s.readSeconds(toks[:split], scope, before, depth+1)
	r := s.readSeconds(toks[split+1:], scope, before, depth+1)
	if !l.ok || !r.ok || len(l.env) > 0 || len(r.env) > 0 {
		return seconds{}, false
	}
	v := seconds{ok: true, valueAt: s.at(toks[0])}
	switch text(toks[split]) {
	case "+":
		v.value = l.value + r.value
	case "-":
		v.value = l.value - r.value
	case "*":
		v.value = l.value * r.value
	case "/", "//":
		if r.value == 0 {
			return seconds{}, false
		}
		v.value = l.value / r.value
		if text(toks[split]) == "//" {
			v.value = math.Floor(v.value)
		}
	}
	return v, true
}

// multiplies reports whether op is one of the arithmetic operators that
// bind tighter than + and -.
func multiplies(op string) bool { return op == "*" || op == "/" || op == "//" }

// readName follows a name to the value it was last assigned in scope
// before the line, or at module level.
func (s *source) readName(name string, scope, before, depth int, where string) seconds {
	for sc := scope; ; sc = s.m.Defs[sc].Parent {
		b := before
		if sc != scope {
			b = 0 // module-level names are set at import, before any fixture runs
		}
		if value := s.assignment(name, sc, b); value != nil {
			return s.readSeconds(value, sc, value[0].Line, depth+1)
		}
		if sc < 0 {
			if v, ok := s.readImported(name, depth, where); ok {
				return v
			}
			break
		}
		if v, ok := s.readParam(name, sc, depth, where); ok {
			return v
		}
	}
	return seconds{why: "the seconds come from " + name + ", which is not assigned a number in this conftest", at: where}
}

// readParam reads name when it is a parameter of the function fn, which
// is not a method: through the calls of fn in this conftest, as
// "def arm(seconds): ...; arm(2)" gives seconds 2. Every call must give
// the same seconds. It reports false when name is no parameter of fn.
func (s *source) readParam(name string, fn, depth int, where string) (seconds, bool) {
	args, ok := s.paramArgs(name, fn)
	if !ok || s.m.IsFixture(fn) {
		return seconds{}, false // a fixture's parameters are other fixtures
	}
	if len(args) == 0 {
		// A context manager the fixture hands to its tests, say.
		return seconds{why: fmt.Sprintf("the seconds come from %s, a parameter of %s(), which nothing in this conftest calls: the tests choose them", name, s.m.Defs[fn].Name), at: where}, true
	}
	var out seconds
	for i, a := range args {
		if a.toks == nil {
			return seconds{why: fmt.Sprintf("the seconds come from %s, which a call of %s() does not give", name, s.m.Defs[fn].Name), at: where}, true
		}
		v := s.readSeconds(a.toks, a.scope, a.line, depth+1)
		if !v.ok {
			return v, true
		}
		if i > 0 && !v.sameSource(out) {
			return seconds{why: fmt.Sprintf("the seconds come from %s, which the calls of %s() give different values", name, s.m.Defs[fn].Name), at: v.valueAt}, true
		}
		out = v
	}
	return out, true
}

// readImported reads name when a from-import at module level binds it,
// as "from settings import TEST_TIMEOUT" does: in the module it names,
// looked up as pytest's default import mode finds it, from the conftest's
// folder up to the root (a relative import from the conftest's package).
// It reports false when no such import binds name.
func (s *source) readImported(name string, depth int, where string) (seconds, bool) {
	if s.root == "" || depth > maxDepth {
		return seconds{}, false
	}
	for _, im := range s.m.Imports {
		if im.Scope >= 0 || im.Bound != name || im.Name == "" {
			continue
		}
		// Looked up from this file's folder: the key holds both.
		key := path.Dir(s.file) + "\x00" + im.Module
		other, ok := s.modules[key]
		if !ok {
			if rel, src, found := s.moduleFile(im.Module); found {
				other = newSource(rel, src)
				other.root, other.modules = s.root, s.modules
			}
			s.modules[key] = other
		}
		if other == nil {
			return seconds{why: fmt.Sprintf("the seconds come from %s, imported from %s, which init finds in no folder from the conftest's up", name, im.Module), at: where}, true
		}
		return other.readName(im.Name, -1, 0, depth+1, where), true
	}
	return seconds{}, false
}

// moduleFile finds and reads the file of module, a dotted name that
// may start with dots (relative to the conftest's package), below the
// root: the first folder from the conftest's up that holds it, as a .py
// file or a package's __init__.py.
func (s *source) moduleFile(module string) (string, []byte, bool) {
	dir := path.Dir(s.file)
	rest := strings.TrimLeft(module, ".")
	dirs := []string{}
	if dots := len(module) - len(rest); dots > 0 {
		for range dots - 1 {
			dir = path.Dir(dir)
		}
		dirs = append(dirs, dir)
	} else {
		for d := dir; ; d = path.Dir(d) {
			dirs = append(dirs, d)
			if d == "." || d == "/" {
				break
			}
		}
	}
	sub := strings.ReplaceAll(rest, ".", "/")
	for _, d := range dirs {
		for _, rel := range []string{path.Join(d, sub+".py"), path.Join(d, sub, "__init__.py")} {
			if strings.HasPrefix(rel, "../") {
				continue
			}
			if src, err := os.ReadFile(filepath.Join(s.root, filepath.FromSlash(rel))); err == nil {
				return rel, src, true
			}
		}
	}
	return "", nil, false
}

// paramArg is what one call gives a parameter: the argument's tokens (nil
// when the call gives none), and the scope and line of the call.
type paramArg struct {
	toks        []pyscan.Token
	scope, line int
}

// paramArgs returns what each call of the function fn in this conftest
// gives its parameter name, positionally or by keyword. It reports false
// when name is no parameter of fn, or fn is a method, whose calls are not
// found by its name.
func (s *source) paramArgs(name string, fn int) ([]paramArg, bool) {
	d := s.m.Defs[fn]
	k := slices.IndexFunc(d.Params, func(p pyscan.Param) bool { return p.Name == name })
	if k < 0 || d.Kind != pyscan.Function || d.Parent >= 0 && s.m.Defs[d.Parent].Kind == pyscan.Class {
		return nil, false
	}
	var out []paramArg
	for _, call := range s.m.Calls {
		if call.Callee != d.Name || findFunction(s.m, d.Name, call.Scope) != fn {
			continue
		}
		a := paramArg{scope: call.Scope, line: call.Pos.Line}
		for i, arg := range s.callArgs(call.Pos) {
			if arg.keyword == name || arg.keyword == "" && i == k {
				a.toks = arg.toks
			}
		}
		out = append(out, a)
	}
	return out, true
}

// readEnv reads the arguments of os.environ.get or os.getenv.
func (s *source) readEnv(args []arg, where string, depth int) seconds {
	if len(args) == 0 || len(args[0].toks) != 1 || args[0].toks[0].Kind != pyscan.String {
		return seconds{why: "the environment variable's name is not a string literal", at: where}
	}
	name, ok := pyscan.StringValue(text(args[0].toks[0]))
	if !ok || name == "" {
		return seconds{why: "the environment variable's name is not a string literal", at: where}
	}
	out := seconds{env: []string{name}, envAt: s.at(args[0].toks[0])}
	if len(args) < 2 {
		out.why, out.at = "$"+name+" has no default here", where
		return out
	}
	// The default may read another variable: os.getenv("A",
	// os.getenv("B", "5")) tries A, then B, then 5. A name is one bound at
	// module level (_DEFAULT = "2.0").
	def := s.readSeconds(args[1].toks, -1, 0, depth+1)
	if !def.ok {
		out.why, out.at = "the default of $"+name+" is not a number literal", s.at(args[1].toks[0])
		return out
	}
	out.env = append(out.env, def.env...)
	out.value, out.ok, out.valueAt = def.value, true, def.valueAt
	return out
}

// readHelper follows a call to a function of this conftest that takes no
// arguments, as a reader would, through its return statements: one of them
// gives the seconds, and any other must return the same default, as an
// "except ValueError: return 5" does for a variable that holds no number.
func (s *source) readHelper(fn int, where string, depth int) seconds {
	name := s.m.Defs[fn].Name
	var reads []seconds
	for _, l := range s.lines {
		if l.scope != fn || text(l.toks[0]) != "return" {
			continue
		}
		if len(l.toks) == 1 {
			return seconds{why: "the helper " + name + "() returns None on one path", at: s.at(l.toks[0])}
		}
		v := s.readSeconds(l.toks[1:], fn, l.toks[0].Line, depth+1)
		if !v.ok {
			return v
		}
		reads = append(reads, v)
	}
	if len(reads) == 0 {
		return seconds{why: "the helper " + name + "() has no return statement", at: where}
	}
	main := slices.IndexFunc(reads, func(v seconds) bool { return len(v.env) > 0 })
	if main < 0 {
		main = 0
	}
	out := reads[main]
	for i, o := range reads {
		if i == main {
			continue
		}
		if len(o.env) > 0 || o.value != out.value {
			return seconds{why: fmt.Sprintf("the helper %s() returns different seconds on different paths (%s and %s)",
				name, compactSeconds(out), compactSeconds(o)), at: o.valueAt}
		}
		if out.fallback == "" {
			out.fallback = o.valueAt
		}
	}
	return out
}

// compactSeconds says where seconds come from, for a message.
func compactSeconds(v seconds) string {
	if len(v.env) > 0 {
		return "$" + strings.Join(v.env, ", $") + " or " + pyquote.Number(v.value)
	}
	return pyquote.Number(v.value)
}

// compact writes tokens back as short code, for a message: one space
// where the source had any space or line break between two tokens, none
// where it had none.
func compact(toks []pyscan.Token) string {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 && t.Off > toks[i-1].Off+len(toks[i-1].Text) {
			b.WriteByte(' ')
		}
		b.WriteString(text(t))
		if b.Len() > 60 {
			return b.String()[:60] + "..."
		}
	}
	return b.String()
}
