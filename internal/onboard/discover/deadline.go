package discover

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fixturegen/fixturegen/internal/lazyregexp"
	"github.com/fixturegen/fixturegen/internal/pytext"
	"github.com/fixturegen/fixturegen/internal/python/pyquote"
	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/schema"
)

// Unread is a spec key whose value init could not read from the
// hand-written code. init never puts an invented value in its place.
type Unread struct {
	Key string // the key in [deadline]: "seconds", "message", "raises"
	At  string // path:line:col of the code that holds the value
	Why string // what is there instead of a literal
}

func (c *Contract) unread(key, where, why string) {
	c.Unread = append(c.Unread, Unread{Key: key, At: where, Why: why})
}

// UnreadKey returns what init could not read for key, or nil.
func (c *Contract) UnreadKey(key string) *Unread {
	if c == nil {
		return nil
	}
	for i := range c.Unread {
		if c.Unread[i].Key == key {
			return &c.Unread[i]
		}
	}
	return nil
}

// readAutouse reads @pytest.fixture(autouse=True), and notes a scope
// wider than a test.
func (c *Contract) readAutouse(s *source, def int) {
	m := s.m
	for _, dec := range m.Defs[def].Decorators {
		if dec.Call < 0 {
			continue
		}
		for _, a := range m.Calls[dec.Call].Args {
			if a.Keyword == "autouse" && a.Kind == pyscan.ArgName && a.Value == "True" {
				c.Autouse, c.AutouseAt = true, at(s.file, a.Pos)
			}
			if a.Keyword == "scope" && a.Kind == pyscan.ArgString && a.Value != "function" {
				// One alarm for a whole session, package, module or class:
				// a budget, which the generated per-test deadline is not.
				c.Notes = append(c.Notes, fmt.Sprintf("%s: the fixture has scope=%q, so its alarm bounds each %s as a whole, where the generated deadline bounds each test: adopting it changes what the seconds bound", at(s.file, a.Pos), a.Value, a.Value))
			}
		}
	}
}

// readTimer reads the timer and seconds of the call that arms the alarm:
// signal.setitimer(which, seconds[, interval]) or signal.alarm(seconds).
func (c *Contract) readTimer(s *source, call pyscan.Call, callee string) {
	c.TimerAt = at(s.file, call.Pos)
	args := s.callArgs(call.Pos)
	secondsArg, intervalArg := 0, -1
	if callee == "signal.setitimer" {
		secondsArg, intervalArg = 1, 2
		if len(call.Args) > 0 {
			a := call.Args[0]
			if t, ok := schema.TimerNamed(s.m.Resolve(a.Value)); ok && a.Kind == pyscan.ArgName {
				c.Timer = t
			} else {
				c.Notes = append(c.Notes, fmt.Sprintf("%s: the timer is not one of signal.ITIMER_REAL, ITIMER_VIRTUAL or ITIMER_PROF as written; the spec says real, so check [deadline].timer", at(s.file, a.Pos)))
			}
		}
	}
	var secs, interval []pyscan.Token
	for i, a := range args {
		switch {
		case a.keyword == "seconds" || a.keyword == "" && i == secondsArg:
			secs = a.toks
		case a.keyword == "interval" || a.keyword == "" && i == intervalArg:
			interval = a.toks
		}
	}
	if secs == nil {
		c.unread("seconds", c.TimerAt, call.Callee+" has no seconds argument")
		return
	}
	v := s.readSeconds(secs, call.Scope, call.Pos.Line, 0)
	c.SecondsEnv, c.SecondsEnvAt = v.env, v.envAt
	if slices.Contains(v.env, "PYTEST_TIMEOUT") {
		c.Notes = append(c.Notes, fmt.Sprintf("%s: PYTEST_TIMEOUT is pytest-timeout's variable too: where it is set and pytest-timeout is loaded, pytest-timeout arms its own timer beside the generated deadline, where the hand-written handler replaced pytest-timeout's; read another variable, or set defer_to_pytest_timeout = true", v.envAt))
	}
	if v.fallback != "" && len(v.env) > 0 {
		c.SecondsFallbackAt = v.fallback
	}
	if v.ok && v.value > 0 {
		c.Seconds, c.SecondsAt = v.value, v.valueAt
	} else {
		why, where := v.why, v.at
		if v.ok {
			why, where = fmt.Sprintf("the seconds are %s, not more than 0", pyquote.Number(v.value)), v.valueAt
		}
		if where == "" {
			where = s.at(secs[0])
		}
		c.unread("seconds", where, why)
	}
	c.seconds = v
	if interval != nil {
		if iv := s.readSeconds(interval, call.Scope, call.Pos.Line, 0); !iv.ok || iv.value != 0 {
			c.Interval = s.at(interval[0])
		}
	}
}

// readGuard finds a hasattr(signal, "SIGALRM") test (or one for
// "setitimer" or "alarm") in the deadline fixture or at module level: the
// hand-written deadline runs only where the signal exists.
func (c *Contract) readGuard(s *source, def int) {
	for _, call := range s.m.Calls {
		if call.Callee != "hasattr" || len(call.Args) != 2 || !(call.Scope < 0 || s.within(call.Scope, def)) {
			continue
		}
		obj, attr := call.Args[0], call.Args[1]
		if obj.Kind != pyscan.ArgName || s.m.Resolve(obj.Value) != "signal" || attr.Kind != pyscan.ArgString {
			continue
		}
		switch attr.Value {
		case "SIGALRM", "setitimer", "alarm":
			c.Guard = at(s.file, call.Pos)
			return
		}
	}
}

// readDefer finds request.config.pluginmanager.hasplugin("timeout") (or
// "pytest_timeout") in the deadline fixture: a fixture that leaves the
// timing to pytest-timeout when it is loaded.
func (c *Contract) readDefer(s *source, def int) {
	for _, call := range s.m.Calls {
		if !s.within(call.Scope, def) || !strings.HasSuffix(call.Callee, "pluginmanager.hasplugin") || len(call.Args) != 1 {
			continue
		}
		if a := call.Args[0]; a.Kind == pyscan.ArgString && (a.Value == "timeout" || a.Value == "pytest_timeout") {
			c.DefersAt = at(s.file, call.Pos)
			return
		}
	}
}

// readHandler finds the function the deadline fixture installs for the
// timer's signal (nested in the fixture, or at module level), or, when the
// fixture installs none, the one the conftest installs for every alarm of
// the process, at import or in its pytest_configure; and it reads what
// that function does when the alarm rings: the exception it raises and its
// message, and whether it dumps the threads' stacks first.
func (c *Contract) readHandler(s *source, def int) {
	m := s.m
	handler, where := -1, ""
	installs := func(call pyscan.Call) bool { return s.within(call.Scope, def) }
	if !slices.ContainsFunc(m.Calls, func(call pyscan.Call) bool {
		return installs(call) && m.Resolve(call.Callee) == "signal.signal"
	}) {
		// Installed once for the process: at import, or by the conftest's
		// pytest_configure hook, which pytest runs before any test.
		installs = func(call pyscan.Call) bool { return call.Scope < 0 || s.inConfigure(call.Scope) }
	}
	for _, call := range m.Calls {
		if !installs(call) || m.Resolve(call.Callee) != "signal.signal" || len(call.Args) < 2 {
			continue
		}
		sig, h := call.Args[0], call.Args[1]
		if sig.Kind != pyscan.ArgName || !schema.IsTimerSignal(m.Resolve(sig.Value)) {
			continue
		}
		where = at(s.file, h.Pos)
		switch m.Resolve(h.Value) {
		case "signal.SIG_DFL", "signal.SIG_IGN":
			continue // resetting the signal installs no handler
		}
		if args := s.callArgs(call.Pos); h.Kind == pyscan.ArgOther && len(args) > 1 && text(args[1].toks[0]) == "lambda" {
			// A lambda's parameters hold commas: it runs to the end.
			inner := s.callInner(call.Pos)
			start := 0
			for start < len(inner) && inner[start].Off != args[1].toks[0].Off {
				start++
			}
			c.readLambda(s, inner[start:], call.Scope, where)
			return
		}
		if args := s.callArgs(call.Pos); h.Kind == pyscan.ArgOther && len(args) > 1 {
			// signal.signal(..., _make_handler(seconds)).
			handler = s.builtHandler(args[1].toks, call.Scope)
		}
		if handler < 0 && (h.Kind != pyscan.ArgName || strings.Contains(h.Value, ".")) {
			c.unreadHandler(where, "the handler is not a function named in this conftest")
			return
		}
		if handler < 0 {
			handler = findFunction(m, h.Value, call.Scope)
		}
		if handler < 0 {
			// handler = _on_timeout, or handler = _make_handler(seconds),
			// then signal.signal(..., handler).
			value := s.assignment(h.Value, call.Scope, call.Pos.Line)
			if len(value) == 1 && value[0].Kind == pyscan.Name {
				handler = findFunction(m, text(value[0]), call.Scope)
			} else {
				handler = s.builtHandler(value, call.Scope)
			}
		}
		if handler < 0 && call.Scope >= 0 {
			// A helper's parameter: def arm(handler): signal.signal(...,
			// handler), called once as arm(_on_alarm).
			if args, _ := s.paramArgs(h.Value, call.Scope); len(args) == 1 && len(args[0].toks) == 1 && args[0].toks[0].Kind == pyscan.Name {
				handler = findFunction(m, text(args[0].toks[0]), args[0].scope)
			}
		}
		if handler < 0 {
			c.unreadHandler(where, fmt.Sprintf("the handler %s is not defined in this conftest", h.Value))
			return
		}
		c.Handler = &Fixture{Name: m.Defs[handler].Name, At: at(s.file, m.Defs[handler].Pos), Line: m.Defs[handler].Pos.Line}
		c.HandlerNested = m.Defs[handler].Parent >= 0
		if call.Scope < 0 || s.inConfigure(call.Scope) {
			c.HandlerInstalledAt = at(s.file, call.Pos)
			c.HandlerInConfigure = call.Scope >= 0
		}
		break
	}
	body := handler
	if handler < 0 {
		// No handler installed here: look for what the fixture itself
		// raises, as a handler written inline would.
		body = def
		where = c.TimerAt
	}
	c.readDump(s, body)
	if c.readRaise(s, body) {
		return
	}
	for _, call := range m.Calls {
		// A handler that ends the test some other way than by failing it:
		// the generated deadline always fails it, so init says which way
		// the hand-written one went.
		switch callee := m.Resolve(call.Callee); callee {
		case "pytest.skip", "pytest.xfail", "pytest.exit", "os._exit":
			if s.within(call.Scope, body) {
				c.unreadHandler(at(s.file, call.Pos), fmt.Sprintf("the handler calls %s, so a test that runs out of time ends %s, where the generated deadline fails it", callee, endsBy[callee]))
				return
			}
		}
	}
	c.unreadHandler(where, "no raise statement or pytest.fail call found in the handler")
}

// endsBy is how a test ends when the alarm's handler calls each of these.
var endsBy = map[string]string{
	"pytest.skip":  "skipped",
	"pytest.xfail": "as an expected failure",
	"pytest.exit":  "the whole session",
	"os._exit":     "its process at once (a pytest-xdist worker, or the session)",
}

func (c *Contract) unreadHandler(where, why string) {
	c.unread("raises", where, why)
	c.unread("message", where, why)
}

// findFunction returns the function named name that code in scope sees:
// one defined in scope or an enclosing function, else at module level.
func findFunction(m *pyscan.Module, name string, scope int) int {
	for sc := scope; ; sc = m.Defs[sc].Parent {
		for i, d := range m.Defs {
			if d.Parent == sc && d.Name == name && d.Kind == pyscan.Function {
				return i
			}
		}
		if sc < 0 {
			return -1
		}
	}
}

// builtHandler returns the function a handler factory of this conftest
// returns, when toks call one: a function whose every return statement
// returns the same function nested in it, as
// "def _make(seconds): def handler(...): ...; return handler" does. It
// returns -1 for anything else.
func (s *source) builtHandler(toks []pyscan.Token, scope int) int {
	if len(toks) < 3 || toks[0].Kind != pyscan.Name || text(toks[1]) != "(" || text(toks[len(toks)-1]) != ")" {
		return -1
	}
	factory := findFunction(s.m, text(toks[0]), scope)
	if factory < 0 {
		return -1
	}
	built := -1
	for _, l := range s.lines {
		if l.scope != factory || text(l.toks[0]) != "return" {
			continue
		}
		fn := -1
		if len(l.toks) == 2 && l.toks[1].Kind == pyscan.Name {
			fn = findFunction(s.m, text(l.toks[1]), factory)
		}
		if fn < 0 || s.m.Defs[fn].Parent != factory || built >= 0 && fn != built {
			return -1
		}
		built = fn
	}
	return built
}

// readDump reads faulthandler.dump_traceback() in the handler: with
// all_threads left to its default (True) or set to True, every thread's
// stack is written.
func (c *Contract) readDump(s *source, body int) {
	for _, call := range s.m.Calls {
		if !s.within(call.Scope, body) || s.m.Resolve(call.Callee) != "faulthandler.dump_traceback" {
			continue
		}
		all := true
		for i, a := range call.Args {
			if a.Keyword == "all_threads" || a.Keyword == "" && i == 1 {
				all = a.Kind == pyscan.ArgName && a.Value == "True"
			}
		}
		if all {
			c.DumpThreads, c.DumpAt = true, at(s.file, call.Pos)
			return
		}
		c.Notes = append(c.Notes, fmt.Sprintf("%s: the handler dumps only the current thread's stack; dump_threads = true dumps every thread's", at(s.file, call.Pos)))
		return
	}
}

// readLambda reads a handler written as a lambda, which can fail the test
// only by calling a function: pytest.fail(message).
func (c *Contract) readLambda(s *source, toks []pyscan.Token, scope int, where string) {
	colon := indexOp(toks, ":")
	if colon < 0 || colon+1 == len(toks) {
		c.unreadHandler(where, "the handler is a lambda without a body")
		return
	}
	body := toks[colon+1:]
	if name, n := dotted(body); n == 0 || s.m.Resolve(name) != "pytest.fail" {
		c.unreadHandler(where, "the handler is a lambda that does not call pytest.fail")
		return
	}
	c.readException(s, body, "pytest.fail", scope)
}

// readRaise reads the first raise statement or pytest.fail call in body
// (and the functions nested in it), and reports whether there was one.
func (c *Contract) readRaise(s *source, body int) bool {
	for _, l := range s.lines {
		if !s.within(l.scope, body) {
			continue
		}
		toks := l.toks
		kind := ""
		switch {
		case text(toks[0]) == "raise" && len(toks) > 1:
			toks = toks[1:]
		default:
			name, n := dotted(toks)
			if n == 0 || s.m.Resolve(name) != "pytest.fail" {
				continue
			}
			kind = "pytest.fail"
		}
		c.readException(s, toks, kind, l.scope)
		return true
	}
	return false
}

// readException reads what a raise statement raises (toks follow the
// raise keyword; kind is "") or what a pytest.fail call says (kind is
// "pytest.fail"): the exception and its message.
func (c *Contract) readException(s *source, toks []pyscan.Token, kind string, scope int) {
	name, n := dotted(toks)
	if kind == "" {
		kind = s.m.Resolve(name)
	}
	where := s.at(toks[0])
	var args []arg
	if n < len(toks) && text(toks[n]) == "(" {
		args = splitArgs(toks[n+1 : matching(toks, n)])
	}
	if (kind == "TimeoutError" || kind == "AssertionError") && s.shadows(kind) {
		// class TimeoutError(Exception) or TimeoutError = ... in the
		// conftest: the handler raises that, not the builtin.
		kind = "the conftest's own " + kind
	}
	switch kind {
	case "TimeoutError", "builtins.TimeoutError":
		c.Raises, c.RaisesAt = schema.RaisesTimeoutError, where
	case "AssertionError", "builtins.AssertionError":
		c.Raises, c.RaisesAt = schema.RaisesAssertionError, where
	case "pytest.fail":
		c.Raises, c.RaisesAt = schema.RaisesFailed, where
		if !pytraceFalse(args) {
			c.Notes = append(c.Notes, fmt.Sprintf("%s: the handler calls pytest.fail with its traceback; the generated deadline raises the same Failed without one (pytrace=False), its message alone", where))
		}
	default:
		raised := compact(toks[:max(n, 1)])
		if kind != raised && kind != "" {
			raised += " (" + kind + ")"
		}
		c.unread("raises", where, fmt.Sprintf("the handler raises %s; the generated deadline raises %s or %s", raised,
			strings.Join(pytext.Raises[:len(pytext.Raises)-1], ", "), pytext.Raises[len(pytext.Raises)-1]))
	}
	var msg []pyscan.Token
	for i, a := range args {
		if a.keyword == "" && i == 0 || kind == "pytest.fail" && (a.keyword == "reason" || a.keyword == "msg") {
			msg = a.toks
			break
		}
	}
	if msg == nil {
		c.unread("message", where, "the exception is raised without a message")
		return
	}
	c.readMessage(s, msg, scope, 0)
}

// inConfigure reports whether scope lies in the conftest's module-level
// pytest_configure hook.
func (s *source) inConfigure(scope int) bool {
	top := topLevel(s.m, scope)
	return top >= 0 && s.m.Defs[top].Name == "pytest_configure" && s.m.Defs[top].Kind == pyscan.Function
}

// shadows reports whether the conftest binds name at module level, by a
// class or function definition or an assignment, in place of the builtin.
func (s *source) shadows(name string) bool {
	for _, d := range s.m.Defs {
		if d.Parent < 0 && d.Name == name {
			return true
		}
	}
	return s.assignment(name, -1, 0) != nil
}

// pytraceFalse reports whether a pytest.fail call's arguments say
// pytrace=False.
func pytraceFalse(args []arg) bool {
	for _, a := range args {
		if a.keyword == "pytrace" && len(a.toks) == 1 && text(a.toks[0]) == "False" {
			return true
		}
	}
	return false
}

// readMessage reads the message argument: a string literal, an f-string
// whose placeholders name the deadline's seconds, or a name bound to one
// of those.
func (c *Contract) readMessage(s *source, toks []pyscan.Token, scope, depth int) {
	where := s.at(toks[0])
	if len(toks) == 1 && toks[0].Kind == pyscan.Name && depth < maxDepth {
		name := text(toks[0])
		for sc := scope; ; sc = s.m.Defs[sc].Parent {
			if value := s.assignment(name, sc, 0); value != nil {
				c.readMessage(s, value, sc, depth+1)
				return
			}
			if sc < 0 {
				break
			}
		}
	}
	if lit, why, ok := formatted(toks); ok {
		msg := ""
		if why == "" {
			msg, why = c.stringPart(s, lit, scope)
		}
		c.setMessage(msg, why, where)
		return
	}
	var b strings.Builder
	for _, t := range toks {
		if t.Kind != pyscan.String {
			c.setMessage("", "the message is computed ("+compact(toks)+")", where)
			return
		}
		part, why := c.stringPart(s, text(t), scope)
		if why != "" {
			c.setMessage("", why, where)
			return
		}
		b.WriteString(part)
	}
	c.setMessage(b.String(), "", where)
}

// setMessage sets the message read at where, or marks it unread with why.
func (c *Contract) setMessage(msg, why, where string) {
	if why == "" && msg == "" {
		why = "the message is empty"
	}
	if why != "" {
		c.unread("message", where, why)
		return
	}
	c.Message, c.MessageAt = msg, where
}

// formatted reads a message formatted the older ways, a string literal
// with % and its arguments ("over %s s" % LIMIT, "%s: %r" % (a, b)) or
// with .format ("over {} s".format(LIMIT), "{n} s".format(n=LIMIT)),
// and returns it as the f-string that says the same, for stringPart to
// read; why is set when the form is one of those but cannot be read, and
// ok is false when it is neither.
func formatted(toks []pyscan.Token) (lit, why string, ok bool) {
	if len(toks) < 3 || toks[0].Kind != pyscan.String {
		return "", "", false
	}
	var args map[string]string
	var fields func(body string, args map[string]string) (string, string)
	switch op := text(toks[1]); {
	case op == "%":
		args, ok = names(toks[2:], false)
		fields = percentFields
	case op == "." && text(toks[2]) == "format" && len(toks) >= 5 && text(toks[3]) == "(" && text(toks[len(toks)-1]) == ")":
		args, ok = names(toks[4:len(toks)-1], true)
		fields = formatFields
	default:
		return "", "", false
	}
	prefix, q, body, whole := splitString(text(toks[0]))
	if !ok || !whole || strings.ContainsAny(prefix, "fFtT") {
		return "", "the message is computed (" + compact(toks) + ")", true
	}
	body, why = fields(body, args)
	return "f" + dropPrefix(prefix, "uU") + q + body + q, why, true
}

// dropPrefix returns a string literal's prefix without the letters of
// drop.
func dropPrefix(prefix, drop string) string {
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune(drop, r) {
			return -1
		}
		return r
	}, prefix)
}

// splitString splits a string literal's text into its prefix, its quote
// and its body.
func splitString(lit string) (prefix, q, body string, ok bool) {
	i := strings.IndexAny(lit, "'\"")
	if i < 0 {
		return "", "", "", false
	}
	prefix, q = lit[:i], lit[i:i+1]
	if strings.HasPrefix(lit[i:], q+q+q) && len(lit)-i >= 6 {
		q += q + q
	}
	if len(lit)-i < 2*len(q) || !strings.HasSuffix(lit, q) {
		return "", "", "", false
	}
	return prefix, q, lit[i+len(q) : len(lit)-len(q)], true
}

// names reads the arguments of a % or a .format: one name, or names in
// parentheses and separated by commas; with keywords, also name=name. A
// keyword argument is keyed by its keyword, a positional one by its
// index.
func names(toks []pyscan.Token, keywords bool) (map[string]string, bool) {
	if !keywords {
		if len(toks) == 1 && toks[0].Kind == pyscan.Name {
			return map[string]string{"0": text(toks[0])}, true
		}
		if len(toks) < 2 || text(toks[0]) != "(" || text(toks[len(toks)-1]) != ")" {
			return nil, false
		}
		toks = toks[1 : len(toks)-1]
	}
	out := map[string]string{}
	n := 0
	for len(toks) > 0 {
		switch {
		case toks[0].Kind == pyscan.Name && (len(toks) == 1 || text(toks[1]) == ","):
			out[strconv.Itoa(n)] = text(toks[0])
			n++
			toks = toks[1:]
		case keywords && len(toks) >= 3 && toks[0].Kind == pyscan.Name && text(toks[1]) == "=" && toks[2].Kind == pyscan.Name && (len(toks) == 3 || text(toks[3]) == ","):
			out[text(toks[0])] = text(toks[2])
			toks = toks[3:]
		default:
			return nil, false
		}
		if len(toks) > 0 {
			toks = toks[1:] // the comma
		}
	}
	return out, true
}

// percentFields rewrites the body of a %-formatted string as an f-string's:
// each conversion of a number or a string (%s, %r, %d, %.1f, ...) becomes
// a field naming its argument, and literal braces are doubled.
func percentFields(body string, args map[string]string) (string, string) {
	var b strings.Builder
	n := 0
	for i := 0; i < len(body); i++ {
		switch ch := body[i]; {
		case ch == '{' || ch == '}':
			b.WriteString(string(ch) + string(ch))
		case ch == '%' && i+1 < len(body) && body[i+1] == '%':
			b.WriteByte('%')
			i++
		case ch == '%':
			// Flags, a width and a precision, then the conversion.
			end := i + 1
			for end < len(body) && strings.IndexByte("#0- +.123456789", body[end]) >= 0 {
				end++
			}
			if end == len(body) || strings.IndexByte("sriduFfGgEe", body[end]) < 0 {
				return "", fmt.Sprintf("the message formats with %s, which init does not read", body[i:min(end+1, len(body))])
			}
			arg, ok := args[strconv.Itoa(n)]
			if !ok {
				return "", "the message has more % fields than arguments"
			}
			n++
			b.WriteString("{" + arg)
			if body[end] == 'r' {
				b.WriteString("!r")
			}
			b.WriteByte('}')
			i = end
		default:
			b.WriteByte(ch)
		}
	}
	if n != len(args) {
		return "", "the message has fewer % fields than arguments"
	}
	return b.String(), ""
}

// formatFields rewrites the body of a string formatted with .format as an
// f-string's: each field names the argument it takes.
func formatFields(body string, args map[string]string) (string, string) {
	var b strings.Builder
	auto := 0
	for i := 0; i < len(body); i++ {
		switch {
		case strings.HasPrefix(body[i:], "{{"), strings.HasPrefix(body[i:], "}}"):
			b.WriteString(body[i : i+2])
			i++
			continue
		case body[i] != '{':
			b.WriteByte(body[i])
			continue
		}
		end := fieldEnd(body, i)
		if end < 0 {
			return "", "the message has a replacement field that is not closed"
		}
		field := body[i+1 : end]
		key, rest := field, ""
		if k := strings.IndexAny(field, "!:"); k >= 0 {
			key, rest = field[:k], field[k:]
		}
		if key == "" {
			key = strconv.Itoa(auto)
			auto++
		}
		arg, ok := args[key]
		if !ok {
			return "", fmt.Sprintf("the message formats {%s}, which no argument of .format names", field)
		}
		b.WriteString("{" + arg + rest + "}")
		i = end
	}
	return b.String(), ""
}

// LiteralMessage returns a Contract.Message as the text a failure shows,
// and whether that text is fixed: false when the message formats the
// seconds, which stand as "<seconds>" in the text.
func LiteralMessage(msg string) (string, bool) {
	var b strings.Builder
	fixed := true
	for i := 0; i < len(msg); i++ {
		switch {
		case strings.HasPrefix(msg[i:], SecondsPlaceholder):
			b.WriteString("<seconds>")
			fixed = false
			i += len(SecondsPlaceholder) - 1
		case strings.HasPrefix(msg[i:], "{{"), strings.HasPrefix(msg[i:], "}}"):
			b.WriteByte(msg[i])
			i++
		default:
			b.WriteByte(msg[i])
		}
	}
	return b.String(), fixed
}

// MessageBeforeSeconds maps a Contract.Message that ends with the seconds
// ("test exceeded {seconds} s") to the spec's message: the text before
// them. The generated failure ends with the seconds itself, as
// "<message> (<seconds> s, <timer>)", so nothing the hand-written message
// said is lost. It reports false for any other message that formats the
// seconds.
func MessageBeforeSeconds(msg string) (string, bool) {
	text, fixed := LiteralMessage(msg)
	const mark = "<seconds>"
	i := strings.Index(text, mark)
	if fixed || i < 0 || strings.Count(text, mark) != 1 {
		return "", false
	}
	switch strings.TrimSpace(text[i+len(mark):]) {
	case "", "s", "s.", "sec", "secs", "second", "seconds", "seconds.":
	default:
		return "", false
	}
	before := strings.TrimRight(text[:i], " \t:=(")
	// "timed out after" would read "timed out after (5 s, real time)":
	// the word that led to the seconds goes with them.
	for _, word := range danglingWords {
		if cut, ok := strings.CutSuffix(before, " "+word); ok && strings.TrimSpace(cut) != "" {
			before = strings.TrimRight(cut, " \t:,")
			break
		}
	}
	return before, before != ""
}

// secondsInMessage reads a literal message that states the seconds the
// fixture arms ("Test exceeded 10 seconds", with alarm(10)) as one that
// formats them, so that MessageBeforeSeconds maps it as it does
// f"... {timeout} seconds": the generated failure states the seconds it
// armed itself, which a seconds_env variable or a module's own seconds
// can make other than the literal's.
func (c *Contract) secondsInMessage() {
	if c.Seconds <= 0 || c.Message == "" || strings.Contains(c.Message, SecondsPlaceholder) {
		return
	}
	i, end := lastNumber(c.Message, c.Seconds)
	if i < 0 {
		return
	}
	msg := c.Message[:i] + SecondsPlaceholder + c.Message[end:]
	if _, ok := MessageBeforeSeconds(msg); ok {
		c.Message = msg
	}
}

// lastNumber returns where the last number in msg whose value is seconds
// ("2", "2.0" for 2) starts and ends, as a word of its own or after one
// of " \t:=(", or -1.
func lastNumber(msg string, seconds float64) (int, int) {
	at, end := -1, -1
	for _, loc := range number().FindAllStringIndex(msg, -1) {
		v, err := strconv.ParseFloat(msg[loc[0]:loc[1]], 64)
		if err == nil && v == seconds && (loc[0] == 0 || strings.IndexByte(" \t:=(", msg[loc[0]-1]) >= 0) {
			at, end = loc[0], loc[1]
		}
	}
	return at, end
}

// number matches a number as a message writes one: digits, and a
// fraction.
var number = lazyregexp.New(`[0-9]+(?:\.[0-9]+)?`)

// danglingWords lead to the seconds in a message ("timed out after 5 s")
// and read wrong without them.
var danglingWords = []string{"after", "of", "in", "for", "than", "over"}

// SecondsPlaceholder stands, in Contract.Message, where the hand-written
// message formats the deadline's seconds.
const SecondsPlaceholder = "{seconds}"

// stringPart returns the text of one string literal, with literal braces
// doubled and SecondsPlaceholder where an f-string's replacement field
// names the deadline's seconds; or why it cannot be read.
func (c *Contract) stringPart(s *source, lit string, scope int) (string, string) {
	if v, ok := pyscan.StringValue(lit); ok {
		return strings.ReplaceAll(strings.ReplaceAll(v, "{", "{{"), "}", "}}"), ""
	}
	prefix, q, body, ok := splitString(lit)
	if strings.ContainsAny(prefix, "tT") {
		return "", "the message is a template string"
	}
	if !ok {
		return "", "the message is not a complete string"
	}
	prefix = dropPrefix(prefix, "fF")
	var out strings.Builder
	literal := func(part string) {
		v, _ := pyscan.StringValue(prefix + q + part + q)
		out.WriteString(strings.ReplaceAll(strings.ReplaceAll(v, "{", "{{"), "}", "}}"))
	}
	start := 0
	for j := 0; j < len(body); j++ {
		switch body[j] {
		case '{':
			if j+1 < len(body) && body[j+1] == '{' {
				literal(body[start:j] + "{")
				j++
				start = j + 1
				continue
			}
			literal(body[start:j])
			end := fieldEnd(body, j)
			if end <= j {
				return "", "the message has a replacement field that is not closed"
			}
			field := body[j+1 : end]
			expr, spec := field, ""
			if k := strings.IndexAny(field, "!:"); k >= 0 {
				expr, spec = field[:k], field[k:]
			}
			expr = strings.TrimSpace(expr)
			if strings.HasSuffix(expr, "=") {
				spec = "=" + spec // {name=} shows the name too
			}
			if !c.namesSeconds(s, strings.TrimSuffix(expr, "="), scope) {
				return "", fmt.Sprintf("the message formats {%s}, which is not the deadline's seconds", field)
			}
			// The spec's message never shows the seconds itself (the
			// failure states them after it), so how a field formats them
			// is lost with nothing; a name the field shows too is not.
			if strings.HasPrefix(spec, "=") {
				return "", fmt.Sprintf("the message formats the seconds as {%s}", field)
			}
			out.WriteString(SecondsPlaceholder)
			start = end + 1
			j = end
		case '}':
			if j+1 < len(body) && body[j+1] == '}' {
				literal(body[start:j] + "}")
				j++
				start = j + 1
			}
		}
	}
	literal(body[start:])
	return out.String(), ""
}

// fieldEnd returns the index of the brace that closes the replacement
// field opened at body[open].
func fieldEnd(body string, open int) int {
	depth := 0
	for j := open; j < len(body); j++ {
		switch body[j] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// namesSeconds reports whether expr, a name in scope, holds the deadline's
// seconds: it reads to the same environment variable and default.
func (c *Contract) namesSeconds(s *source, expr string, scope int) bool {
	if !c.seconds.ok || strings.ContainsAny(expr, " ()[]") {
		return false
	}
	lx := pyscan.NewLexer([]byte(expr))
	var toks []pyscan.Token
	for t := lx.Next(); t.Kind != pyscan.EOF && t.Kind != pyscan.Newline; t = lx.Next() {
		toks = append(toks, t)
	}
	if len(toks) != 1 || toks[0].Kind != pyscan.Name {
		return false
	}
	v := s.readName(text(toks[0]), scope, 0, 0, "")
	return v.sameSource(c.seconds)
}
