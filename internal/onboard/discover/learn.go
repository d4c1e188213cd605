package discover

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fixturegen/fixturegen/internal/onboard/observe"
	"github.com/fixturegen/fixturegen/internal/pytext"
	"github.com/fixturegen/fixturegen/internal/python/pyquote"
	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/schema"
)

// What init learns by running the candidates: one pytest session runs
// every candidate's setup, under each setting of its conftest's
// environment variables; a variable its conftest reads once (at import, in
// a session fixture) gets a session of its own for each setting; a
// conftest that asks whether pytest-timeout is loaded gets a session with
// pytest-timeout loaded.

// variation is one setting of a conftest's environment variables.
type variation struct {
	kind string            // "set" (one variable or, for the order, several), "zero" or "nan"
	name string            // the variable, for one
	set  map[string]string // variable: value
}

// maxVars bounds the variables whose order init learns: every subset of
// two or more gets a run.
const maxVars = 4

// notNumber is a value that holds no number, for the "nan" runs.
const notNumber = "soon"

// variations returns the settings init runs a conftest's candidates
// under: each variable alone set to a number of its own, then every
// subset of two or more set at once (which one wins), each alone set to 0,
// and each alone set to no number.
func variations(env []string) []variation {
	env = env[:min(len(env), maxVars)]
	value := func(i int) string { return strconv.Itoa(311 + i) }
	var out []variation
	for i, name := range env {
		out = append(out, variation{kind: "set", name: name, set: map[string]string{name: value(i)}})
	}
	for mask := 1; mask < 1<<len(env); mask++ {
		set := map[string]string{}
		for i, name := range env {
			if mask&(1<<i) != 0 {
				set[name] = value(i)
			}
		}
		if len(set) >= 2 {
			out = append(out, variation{kind: "set", set: set})
		}
	}
	for _, fixed := range []struct{ kind, value string }{{"zero", "0"}, {"nan", notNumber}} {
		for _, name := range env {
			out = append(out, variation{kind: fixed.kind, name: name, set: map[string]string{name: fixed.value}})
		}
	}
	return out
}

// learner runs the candidates and holds what they did.
type learner struct {
	t *tree
	// results holds, by throwaway test, the session that ran it.
	results map[string]*observe.Result
	// timeout holds the session with pytest-timeout loaded, nil without.
	timeout *observe.Result
	vars    map[string]variation // by throwaway test
}

// run runs every candidate of cfs: a first session, with pytest-timeout's
// session beside it when a conftest asks for it, then a session for each
// setting of a variable that a conftest reads only once.
func run(t *tree, python string, cfs []*conftest) (*learner, error) {
	l := &learner{t: t, results: map[string]*observe.Result{}, vars: map[string]variation{}}
	var watch []string
	var items, timeoutItems []observe.Item
	for i, cf := range cfs {
		for _, name := range cf.env {
			if !slices.Contains(watch, name) {
				watch = append(watch, name)
			}
		}
		vs := variations(cf.env)
		add := func(id, fixture string, v *variation) {
			it := observe.Item{ID: id, Dir: cf.dir, Fixture: fixture}
			if v != nil {
				it.Env, it.Trace = v.set, v.kind == "nan"
				l.vars[id] = *v
			}
			items = append(items, it)
		}
		for j, cd := range cf.cands {
			cd.base = fmt.Sprintf("c%d_%d", i, j)
			add(cd.base, cd.name, nil)
			if cf.defersAt != "" {
				timeoutItems = append(timeoutItems, observe.Item{ID: cd.base, Dir: cf.dir, Fixture: cd.name})
			}
		}
		if len(cf.hooks) > 0 {
			cf.hookItem = fmt.Sprintf("h%d", i)
			add(cf.hookItem, "", nil)
		}
		// The variations after every plain run: a variable a session
		// fixture reads keeps the value of its first read.
		for j, cd := range cf.cands {
			for k := range vs {
				id := fmt.Sprintf("c%d_%dv%d", i, j, k)
				cd.vars = append(cd.vars, id)
				add(id, cd.name, &vs[k])
			}
		}
	}
	runs := []observe.Run{{Items: items}}
	if len(timeoutItems) > 0 {
		runs = append(runs, observe.Run{Items: timeoutItems, Timeout: true})
	}
	results, err := observe.Sessions(t.root, python, watch, runs)
	if err != nil {
		return nil, err
	}
	first := results[0]
	if len(results) > 1 {
		l.timeout = results[1]
	}
	for _, it := range items {
		l.results[it.ID] = first
	}
	// The settings a single session cannot show: a variable read at
	// import, or by a fixture wider than a test, keeps its first value.
	var more []observe.Run
	// By the setting, the same for every conftest: fmt prints a map
	// sorted by its keys.
	runOf := map[string]int{}
	for _, it := range items {
		v, ok := l.vars[it.ID]
		if !ok || l.inSession(first, it.ID, v) {
			continue
		}
		key := fmt.Sprint(v.set)
		i, ok := runOf[key]
		if !ok {
			i, runOf[key] = len(more), len(more)
			more = append(more, observe.Run{Env: v.set})
		}
		it.Env = nil // the session's environment holds the setting
		more[i].Items = append(more[i].Items, it)
	}
	if len(more) == 0 {
		return l, nil
	}
	again, err := observe.Sessions(t.root, python, watch, more)
	if err != nil {
		return nil, err
	}
	for i, r := range again {
		for _, it := range more[i].Items {
			l.results[it.ID] = r
		}
	}
	return l, nil
}

// inSession reports whether the first session's run of the variation in
// item id shows what the setting does: every variable of it was read in
// the plain run's setup and one in this one's, and none at import. A
// variable nothing reads needs no run at all.
func (l *learner) inSession(r *observe.Result, id string, v variation) bool {
	base := id[:strings.IndexByte(id, 'v')]
	readHere := false
	for name := range v.set {
		if !r.Reads(name) {
			return true // never read: the setting changes nothing
		}
		atImport := slices.ContainsFunc(r.EnvReads, func(e observe.EnvRead) bool { return e.Name == name && e.Item == "" })
		if atImport || !r.SetupReads(base, name) {
			return false
		}
		readHere = readHere || r.SetupReads(id, name)
	}
	return readHere
}

// seen is what one throwaway test showed of a fixture's setup.
type seen struct {
	ran   bool // the test ran
	err   *observe.Error
	arm   *observe.Event // the fixture's last arming of a timer in its setup
	spans bool           // that timer was still armed when the test's body ran
	ring  *observe.Ring  // what the timer's signal's handler did
	item  *observe.ItemResult
	res   *observe.Result
	// refused is the fixture's call that would have armed a timer, which
	// raised as the real call does for the arguments given (a string's
	// seconds); ring is then what the handler did at the seconds the
	// argument states.
	refused *observe.Event
}

// look returns what the throwaway test id showed of fixture's setup (of
// hook's, when fixture is "").
func (l *learner) look(id, fixture, hook string) seen {
	return lookIn(l.results[id], id, fixture, hook)
}

// lookIn is look in the session r, nil when no session ran the test.
func lookIn(r *observe.Result, id, fixture, hook string) seen {
	if r == nil || r.Items[id] == nil {
		return seen{res: r}
	}
	it := r.Items[id]
	s := seen{ran: true, err: it.SetupError, item: it, res: r}
	mine := func(e *observe.Event) bool {
		if hook != "" {
			return (e.Phase == "setup" || e.Phase == "call") && len(e.Frames) > 0 && e.Frames[len(e.Frames)-1].Function == hook
		}
		return e.Phase == "setup" && e.Fixture == fixture
	}
	for i := range it.Events {
		e := &it.Events[i]
		if !mine(e) {
			continue
		}
		switch {
		case e.Arms():
			s.arm = e
		case e.Disarms() && s.arm != nil && e.Which == s.arm.Which && e.Phase == s.arm.Phase:
			s.arm = nil
		case e.Rejected != "" && (e.Call == "alarm" || e.Call == "setitimer") && len(e.Frames) > 0:
			s.refused = e
		}
	}
	if s.arm == nil && s.refused != nil && s.err != nil {
		s.ring = it.Rings[strconv.Itoa(s.refused.Which)]
	}
	if s.arm != nil {
		which := strconv.Itoa(s.arm.Which)
		s.spans = it.Armed[which] > 0
		s.ring = it.Rings[which]
	}
	return s
}

// armsAndDisarms reports whether fixture armed a timer in its setup and
// disarmed it before the test ran.
func armsAndDisarms(it *observe.ItemResult, fixture string) bool {
	return len(it.Armed) == 0 && slices.ContainsFunc(it.Events, func(e observe.Event) bool {
		return e.Phase == "setup" && e.Fixture == fixture && e.Arms()
	})
}

// timers are the spec's names of the timers, by setitimer's which.
var timers = map[int]string{0: schema.TimerReal, 1: schema.TimerVirtual, 2: schema.TimerProf}

// callAt returns the call whose callee starts at the frame's position, or
// the first call after it on its line (a raise statement's frame stands
// at the raise).
func (l *learner) callAt(f observe.Frame) *pyscan.Call {
	m, _ := l.t.module(f.File)
	if m == nil {
		return nil
	}
	var best *pyscan.Call
	for i := range m.Calls {
		c := &m.Calls[i]
		if c.Pos.Line != f.Line || c.Pos.Col < f.Col {
			continue
		}
		if best == nil || c.Pos.Col < best.Pos.Col {
			best = c
		}
	}
	return best
}

// argAt returns where the call at the frame gives its argument number i
// (or one of keywords), else the frame's position.
func (l *learner) argAt(f observe.Frame, i int, keywords ...string) string {
	if c := l.callAt(f); c != nil {
		for k, a := range c.Args {
			if a.Keyword == "" && k == i || a.Keyword != "" && slices.Contains(keywords, a.Keyword) {
				return at(f.File, a.Pos)
			}
		}
	}
	return f.At()
}

// callPos returns where the call at the frame starts.
func (l *learner) callPos(f observe.Frame) string {
	if c := l.callAt(f); c != nil {
		return at(f.File, c.Pos)
	}
	return f.At()
}

// returnedAt returns where a return statement at line of file gives its
// value.
func (l *learner) returnedAt(file string, line int) string {
	if src, err := l.t.read(file); err == nil {
		lx := pyscan.NewLexer(src)
		for t := lx.Next(); t.Kind != pyscan.EOF; t = lx.Next() {
			if t.Line == line && text(t) == "return" {
				if v := lx.Next(); v.Line == line && v.Kind != pyscan.Newline {
					return at(file, lx.Pos(v))
				}
			}
		}
	}
	return fmt.Sprintf("%s:%d:1", file, line)
}

// defAt returns where the handler's def names it.
func (l *learner) defAt(h *observe.Handler) string {
	if m, _ := l.t.module(h.File); m != nil {
		for _, d := range m.Defs {
			if d.Name != h.Function && !(h.Kind == "object" && d.Kind == pyscan.Class && strings.HasSuffix(h.Name, d.Name)) {
				continue
			}
			first := d.Pos.Line
			for _, dec := range d.Decorators {
				first = min(first, dec.Pos.Line)
			}
			if first == h.Line || d.Pos.Line == h.Line || h.Kind == "object" {
				return at(h.File, d.Pos)
			}
		}
	}
	return fmt.Sprintf("%s:%d:1", h.File, h.Line)
}

// secondsOf is what the runs showed of a deadline's seconds.
type secondsOf struct {
	base   seen    // the plain run, or the first variation that armed
	armed  bool    // a run armed the timer while the test ran
	value  float64 // the default seconds; 0 unless ok
	ok     bool    // value is the default, armed with no variable set
	env    []string
	notes  []string
	unread *Unread
	// fallbackAt is where the default is given again for a variable
	// that holds no number; "" when such a variable is an error.
	fallbackAt string
	samples    []*observe.Ring // the handler's message at each number of seconds
	// optIn is set when the fixture arms no timer unless a variable of
	// env is set.
	optIn bool
}

// learnSeconds reads the candidate's seconds from its runs.
func (l *learner) learnSeconds(cf *conftest, cd *cand) secondsOf {
	base := l.look(cd.base, cd.name, "")
	out := secondsOf{base: base}
	if base.spans {
		out.armed, out.ok, out.value = true, true, base.arm.Seconds
		out.samples = append(out.samples, sample(base)...)
	}
	values := map[string]float64{}
	for _, id := range cd.vars {
		v := l.vars[id]
		if v.kind != "set" || v.name == "" {
			continue
		}
		s := l.look(id, cd.name, "")
		want, _ := strconv.ParseFloat(v.set[v.name], 64)
		if !s.spans && s.refused != nil && s.err != nil && slices.Contains(s.refused.Given, "'"+v.set[v.name]+"'") {
			// The variable gives the seconds, which the fixture hands
			// the timer as text: the real call refuses them.
			arm := *s.refused
			arm.Seconds, arm.Rejected = want, ""
			s.arm, s.spans = &arm, true
			out.notes = append(out.notes, fmt.Sprintf("%s: with $%s=%s the fixture's setup raises %s: it hands %s the variable's text, %s, where a number is needed, so no test it covers runs; the generated deadline arms %s s there",
				l.callPos(s.refused.Frames[0]), v.name, v.set[v.name], s.refused.Rejected, "signal."+s.refused.Call, "'"+v.set[v.name]+"'", v.set[v.name]))
		} else if !s.spans && s.err != nil {
			out.notes = append(out.notes, fmt.Sprintf("%s: with $%s=%s the fixture's setup raises %s", raisedAt(s.err, cf.envAt[v.name]), v.name, v.set[v.name], errorText(s.err)))
		}
		switch {
		case !s.spans:
		case s.arm.Seconds == want:
			out.env = append(out.env, v.name)
			values[v.name] = want
			out.samples = append(out.samples, sample(s)...)
			if !out.armed {
				out.armed, out.base = true, s
			}
		case out.ok && s.arm.Seconds != out.value:
			out.notes = append(out.notes, fmt.Sprintf("%s: $%s changes the seconds, but not to its value (%s gives %s s), which seconds_env cannot say: the spec keeps %s s whatever $%s holds",
				cf.envAt[v.name], v.name, v.set[v.name], pyquote.Number(s.arm.Seconds), pyquote.Number(out.value), v.name))
		}
	}
	out.env = l.order(cd, out.env, values)
	if len(out.env) > 0 && !out.ok && base.ran && base.err == nil && base.arm == nil {
		// Without its variables the fixture arms nothing: an opt-in
		// timer, which armed_when_env_set says.
		out.optIn = true
	} else if len(out.env) > 0 && !out.ok {
		why := fmt.Sprintf("the seconds come from $%s, which has no default here", strings.Join(out.env, " or $"))
		where := cf.envAt[out.env[0]]
		if base.ran && base.err == nil {
			why = fmt.Sprintf("without $%s the fixture arms no timer, so its default turns the deadline off", strings.Join(out.env, " or $"))
		}
		if base.err != nil {
			why = fmt.Sprintf("$%s has no default: without it, the fixture's setup raises %s", strings.Join(out.env, " or $"), errorText(base.err))
			where = raisedAt(base.err, where)
		}
		out.unread = &Unread{Key: "seconds", At: where, Why: why}
	}
	for _, id := range cd.vars {
		v := l.vars[id]
		if !slices.Contains(out.env, v.name) || v.kind == "set" {
			continue
		}
		s := l.look(id, cd.name, "")
		switch {
		case v.kind == "zero" && s.spans:
			out.notes = append(out.notes, fmt.Sprintf("%s: with $%s=0 the fixture arms %s s, where 0 turns the generated deadline off", cf.envAt[v.name], v.name, pyquote.Number(s.arm.Seconds)))
		case v.kind == "nan" && s.spans && out.ok && s.arm.Seconds == out.value && out.fallbackAt == "":
			out.fallbackAt = l.fallbackAt(s, out.value)
		case v.kind == "nan" && s.spans && s.arm.Seconds != out.value:
			out.notes = append(out.notes, fmt.Sprintf("%s: with $%s=%q (no number) the fixture arms %s s; the generated deadline stops the session there, or keeps its default with seconds_env_invalid = \"fallback\"", cf.envAt[v.name], v.name, notNumber, pyquote.Number(s.arm.Seconds)))
		}
	}
	return out
}

// order sorts the variables that set the seconds by which one wins when
// several are set: the runs with two or more set show it.
func (l *learner) order(cd *cand, env []string, values map[string]float64) []string {
	var out []string
	left := append([]string{}, env...)
	for len(left) > 1 {
		winner := ""
		for _, id := range cd.vars {
			v := l.vars[id]
			if v.kind != "set" || v.name != "" || !setOf(v.set, left) {
				continue
			}
			if s := l.look(id, cd.name, ""); s.spans {
				for _, name := range left {
					if values[name] == s.arm.Seconds {
						winner = name
					}
				}
			}
		}
		if winner == "" {
			break // no run shows it (more variables than init tries)
		}
		out = append(out, winner)
		left = slices.DeleteFunc(left, func(name string) bool { return name == winner })
	}
	return append(out, left...)
}

// fallbackAt returns where the setup gave the default again after a
// caught exception, or where it armed the timer.
func (l *learner) fallbackAt(s seen, value float64) string {
	for _, r := range s.item.Handled {
		if r.Value != nil && *r.Value == value {
			return l.returnedAt(r.File, r.Line)
		}
	}
	return s.arm.Frames[0].At()
}

// sample returns the ring whose handler raised a message, at the seconds
// the timer was armed for.
func sample(s seen) []*observe.Ring {
	if s.ring == nil || s.ring.Templates == nil {
		return nil
	}
	return []*observe.Ring{s.ring}
}

// failedAt says where and why a run showed nothing of a fixture's setup:
// it failed, or pytest never ran it (its conftest does not import).
func failedAt(cf *conftest, s seen) (string, string) {
	if e := s.err; e != nil {
		unset := ""
		if len(cf.env) > 0 {
			unset = fmt.Sprintf(" with $%s unset", strings.Join(cf.env, ", $"))
		}
		return raisedAt(e, cf.file), "the fixture's setup failed when init ran it" + unset + ": " + errorText(e)
	}
	why := "pytest could not run the fixture"
	if s.res != nil {
		for _, ce := range s.res.CollectErrors {
			if ce.Node == cf.dir || ce.Node == cf.file || strings.HasPrefix(cf.dir, ce.Node+"/") || ce.Node == "" {
				why += ": " + lastLine(ce.Error)
				break
			}
		}
		if len(s.res.CollectErrors) == 0 && !s.res.Configured {
			why += ": " + lastLine(s.res.Output)
		}
	}
	return cf.file, why + "; if this Python is not the one the project's tests run under, name that one with --python"
}

// lastLine returns the last line of text that is not blank, without
// pytest's "E" in front of an error's lines.
func lastLine(text string) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	return strings.TrimSpace(strings.TrimPrefix(last, "E "))
}

// raisedAt returns where the project's code raised e, else fallback.
func raisedAt(e *observe.Error, fallback string) string {
	if len(e.Frames) > 0 {
		return e.Frames[0].At()
	}
	return fallback
}

func errorText(e *observe.Error) string {
	if e.Message == "" {
		return e.Type
	}
	return e.Type + ": " + e.Message
}

// secondsAt returns where the call that armed the timer gives its seconds.
func (l *learner) secondsAt(arm *observe.Event) string {
	if arm.Call == "setitimer" {
		return l.argAt(arm.Frames[0], 1, "seconds")
	}
	return l.argAt(arm.Frames[0], 0, "seconds")
}

// learnTimer fills the deadline's timer, seconds and variables.
func (c *Contract) learnTimer(l *learner, cf *conftest, sec secondsOf) {
	arm := sec.base.arm
	if arm == nil {
		where, why := failedAt(cf, sec.base)
		c.unread("seconds", where, why)
		return
	}
	call := arm.Frames[0]
	c.Spec.Timer = timers[arm.Which]
	c.Origin["timer"], c.Origin["seconds"] = l.callPos(call), l.secondsAt(arm)
	if arm.Interval > 0 {
		c.Interval = l.argAt(call, 2, "interval")
	}
	c.Spec.Seconds = sec.value
	c.Spec.SecondsEnv = sec.env
	if sec.optIn {
		c.Spec.ArmedWhenEnvSet, c.Origin["armed_when_env_set"] = true, cf.envAt[sec.env[0]]
	}
	if len(sec.env) > 0 {
		c.Origin["seconds_env"] = cf.envAt[sec.env[0]]
		if sec.fallbackAt != "" {
			c.Spec.SecondsEnvInvalid, c.Origin["seconds_env_invalid"] = schema.SecondsEnvFallback, sec.fallbackAt
		}
	}
	c.Notes = append(c.Notes, sec.notes...)
	if neverDisarmed(sec.base, arm) {
		c.Notes = append(c.Notes, fmt.Sprintf("%s: the fixture arms signal.%s and never disarms it: after each test the timer keeps running into whatever runs next, where it rings or the next test's setup arms it again; the generated deadline disarms it when the test ends, and changes that", c.Origin["timer"], arm.Call))
	}
	if sec.unread != nil {
		c.Unread = append(c.Unread, *sec.unread)
	} else if !sec.ok && !sec.optIn {
		c.unread("seconds", c.Origin["seconds"], "the fixture armed no timer when init ran it without its variables")
	}
}

// neverDisarmed reports whether the run s armed the timer of arm and
// nothing disarmed it by the end of the test's teardown.
func neverDisarmed(s seen, arm *observe.Event) bool {
	if s.item == nil || s.err != nil || arm.Rejected != "" {
		return false
	}
	return !slices.ContainsFunc(s.item.Events, func(e observe.Event) bool {
		return (e.Phase == "after" || e.Phase == "teardown") && e.Disarms() && e.Which == arm.Which
	})
}

// learnHandler fills what the handler does when the timer rings.
func (c *Contract) learnHandler(l *learner, sec secondsOf) {
	s := sec.base
	if s.ring == nil {
		return // no run armed the timer; the seconds say why
	}
	h := s.ring.Handler
	sig := signalNames[s.ring.Signal]
	switch {
	case h == nil || h.Kind == "default":
		c.unreadHandler(c.Origin["timer"], fmt.Sprintf("no handler of %s is installed when the test runs, so the alarm ends the process", sig))
		return
	case h.Kind == "ignore":
		c.unreadHandler(c.Origin["timer"], fmt.Sprintf("%s is ignored when the test runs, so the alarm does nothing", sig))
		return
	case h.File == "" || h.Kind == "other":
		c.unreadHandler(c.Origin["timer"], fmt.Sprintf("the handler of %s, %s, is not the project's code", sig, h.Name))
		return
	}
	handlerAt := l.defAt(h)
	c.Handler = &Fixture{Name: shortName(h.Name), At: handlerAt}
	c.HandlerNested = strings.Contains(h.Name, "<locals>") || h.Function == "<lambda>"
	if ev := installedAtImport(s, h); ev != nil {
		c.HandlerInstalledAt = l.callPos(ev.Frames[0])
		c.HandlerInConfigure = ev.Frames[len(ev.Frames)-1].Function == "pytest_configure"
	}
	if len(s.ring.Dumps) > 0 {
		d := s.ring.Dumps[0]
		where := handlerAt
		if len(d.Frames) > 0 {
			where = l.callPos(d.Frames[0])
		}
		if d.AllThreads {
			c.Spec.DumpThreads, c.Origin["dump_threads"] = true, where
		} else {
			c.Notes = append(c.Notes, fmt.Sprintf("%s: the handler dumps only the current thread's stack; dump_threads = true dumps every thread's", where))
		}
	}
	if len(s.ring.Outcomes) == 0 {
		return
	}
	o := s.ring.Outcomes[0]
	switch o.Kind {
	case "exit":
		c.unreadHandler(handlerAt, fmt.Sprintf("the handler calls os._exit(%d), so a test that runs out of time ends its process at once (a pytest-xdist worker, or the session), where the generated deadline fails it", o.Code))
		return
	case "returned":
		c.unreadHandler(handlerAt, "the handler returns without failing the test, so a test that runs out of time goes on, where the generated deadline fails it")
		return
	}
	where, msgAt := handlerAt, handlerAt // the raise, and the message in it
	if len(o.Frames) > 0 {
		where = l.callPos(o.Frames[0])
		msgAt = l.argAt(o.Frames[0], 0, "reason", "msg")
	}
	switch {
	case o.Outcome == "fail":
		c.Spec.Raises, c.Origin["raises"] = schema.RaisesFailed, where
		if o.Pytrace != nil && *o.Pytrace {
			c.Notes = append(c.Notes, fmt.Sprintf("%s: the handler calls pytest.fail with its traceback; the generated deadline raises the same Failed without one (pytrace=False), its message alone", where))
		}
	case o.Outcome != "":
		c.unreadHandler(where, fmt.Sprintf("the handler calls pytest.%s, so a test that runs out of time ends %s, where the generated deadline fails it", o.Outcome, endsBy[o.Outcome]))
		return
	case o.Module == "builtins" && (o.Type == schema.RaisesTimeoutError || o.Type == schema.RaisesAssertionError):
		c.Spec.Raises, c.Origin["raises"] = o.Type, where
	default:
		raised := o.Type
		if slices.Contains(pytext.Raises, o.Type) {
			raised += " (" + o.Module + "." + o.Type + ", not the builtin)"
		}
		c.unread("raises", where, fmt.Sprintf("the handler raises %s; the generated deadline raises %s or %s", raised,
			strings.Join(pytext.Raises[:len(pytext.Raises)-1], ", "), pytext.Raises[len(pytext.Raises)-1]))
	}
	switch {
	case o.Message == "":
		c.unread("message", where, "the exception is raised without a message")
	case len(s.ring.Outcomes) > 1 && s.ring.Outcomes[1].Message != o.Message:
		c.unread("message", msgAt, fmt.Sprintf("the message changes from one call of the handler to the next (%s, then %s)", pyquote.String(o.Message), pyquote.String(s.ring.Outcomes[1].Message)))
	case strings.Contains(o.Message, "fixturegen_c"):
		c.unread("message", msgAt, "the message names the test, which a spec's message cannot")
	default:
		msg, changes := secondsMessage(sec.samples)
		if changes {
			c.unread("message", msgAt, fmt.Sprintf("the message changes with the seconds in a way no {seconds} field says (%s at %s s)", pyquote.String(o.Message), pyquote.Number(s.arm.Seconds)))
			return
		}
		c.Spec.Message, c.Origin["message"] = msg, msgAt
		if f, p := schema.ParseMessage(msg); p == nil && !f.HasSeconds() {
			// The hand-written text stated no seconds: the failure says
			// it alone, as it did.
			c.Spec.MessageVerbatim, c.Origin["message_verbatim"] = true, msgAt
		}
	}
}

// endsBy is how a test ends when the handler calls pytest's outcome.
var endsBy = map[string]string{
	"skip":  "skipped",
	"xfail": "as an expected failure",
	"exit":  "the whole session",
}

// signalNames are the timers' signals, by number.
var signalNames = map[int]string{14: "SIGALRM", 26: "SIGVTALRM", 27: "SIGPROF"}

// installedAtImport returns the signal.signal call that installed h, when
// the conftest did it for the whole process (at import, or in
// pytest_configure) and not the fixture.
func installedAtImport(s seen, h *observe.Handler) *observe.Event {
	if slices.ContainsFunc(s.item.Events, func(e observe.Event) bool { return e.Call == "signal" && e.Phase == "setup" && e.Handler.Same(h) }) {
		return nil
	}
	for i := len(s.res.Session) - 1; i >= 0; i-- {
		if e := &s.res.Session[i]; e.Call == "signal" && e.Handler.Same(h) && len(e.Frames) > 0 {
			return e
		}
	}
	return nil
}

// shortName is a handler's name without the functions that hold it.
func shortName(qualname string) string {
	return qualname[strings.LastIndexByte(qualname, '.')+1:]
}

// learnDefer reads the session with pytest-timeout loaded: a fixture that
// arms its timer only without it leaves the timing to pytest-timeout.
func (c *Contract) learnDefer(l *learner, cf *conftest, cd *cand) {
	if cf.defersAt == "" || l.timeout == nil {
		return
	}
	s := lookIn(l.timeout, cd.base, cd.name, "")
	if !s.ran {
		return
	}
	if s.item.Timeout == nil || !s.item.Timeout.Loaded {
		c.Notes = append(c.Notes, fmt.Sprintf("%s: the fixture asks whether pytest-timeout is loaded, and this Python has no pytest-timeout, so init cannot see what it does then; if it leaves the timing to pytest-timeout, set defer_to_pytest_timeout = true", cf.defersAt))
		return
	}
	if !s.spans {
		c.Spec.DeferToPytestTimeout, c.Origin["defer_to_pytest_timeout"] = true, cf.defersAt
	}
}

// notePytestTimeoutVariable notes seconds read from PYTEST_TIMEOUT, which
// pytest-timeout reads too, unless the deadline leaves the timing to
// pytest-timeout where it is loaded: then the two never run together.
func (c *Contract) notePytestTimeoutVariable() {
	if c.Spec.DeferToPytestTimeout || !slices.Contains(c.Spec.SecondsEnv, "PYTEST_TIMEOUT") {
		return
	}
	c.Notes = append(c.Notes, fmt.Sprintf("%s: PYTEST_TIMEOUT is pytest-timeout's variable too: where it is set and pytest-timeout is loaded, pytest-timeout arms its own timer beside the generated deadline, where the hand-written handler replaced pytest-timeout's; read another variable, or set defer_to_pytest_timeout = true", c.Origin["seconds_env"]))
}

func (c *Contract) unreadHandler(where, why string) {
	c.unread("raises", where, why)
	c.unread("message", where, why)
}

// setOf reports whether set holds exactly names.
func setOf(set map[string]string, names []string) bool {
	return len(set) == len(names) && !slices.ContainsFunc(names, func(n string) bool {
		_, ok := set[n]
		return !ok
	})
}
