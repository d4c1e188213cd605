package starter

import (
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/internal/onboard/discover"
	"github.com/fixturegen/fixturegen/internal/python/pyquote"
	"github.com/fixturegen/fixturegen/internal/python/pytesttimeout"
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/internal/relpath"
	"github.com/fixturegen/fixturegen/schema"
)

// Report is what init found and wrote.
type Report struct {
	Target string             // the spec's path, as the user named it
	Found  *discover.Contract // nil when the project has no hand-written contract
	// Strays are the timer calls of the conftests outside every fixture's
	// body, when there is no contract: init does not read them.
	Strays []discover.Stray
	Group  string // the spec's [group], "" for none
	Wrote  bool   // the spec was written
	// Timeouts are pytest-timeout's places in the project; the spec
	// shields those with the signal method.
	Timeouts *Timeouts
	// Conftest is the spec's [paths].conftest.
	Conftest string
	// BaseTimers are the timers of test base classes the spec's deadline
	// does not cover, for which it holds the import shield.
	BaseTimers []BaseTimer
}

// shielded reports whether the spec holds the shield for pytest-timeout.
func (r *Report) shielded() bool { return r.Timeouts != nil && len(r.Timeouts.Signal) > 0 }

// Text prints what init found, each finding at its position, then, once
// the spec is written, what was written and the command that comes next.
func (r *Report) Text(w io.Writer) {
	r.found(w)
	r.baseTimers(w)
	if !r.Wrote {
		return
	}
	found := r.Found
	if found == nil && r.shielded() {
		fmt.Fprintf(w, "wrote %s, a spec with only the import shield, which %s loads for every test below it: run 'fixturegen generate' next, and 'fixturegen check' in CI\n", r.Target, r.Conftest)
		return
	}
	if found == nil {
		fmt.Fprintf(w, "wrote %s, a starter spec: list the modules to preload in [preload].modules, then run 'fixturegen generate'\n", r.Target)
		return
	}
	fmt.Fprintf(w, "wrote %s\n", r.Target)
	names := found.Deadline.Name
	if found.Preload != nil {
		names = found.Preload.Name + " and " + names
	}
	fmt.Fprintf(w, "\nnext: fixturegen generate --adopt\n  replaces the hand-written %s in %s with the generated region; everything else in that file stays as it is\n",
		names, found.Conftest)
}

// baseTimers prints the timers of test base classes the spec shields,
// and why the deadline does not cover them.
func (r *Report) baseTimers(w io.Writer) {
	if len(r.BaseTimers) == 0 {
		return
	}
	var signals []string
	for _, bt := range r.BaseTimers {
		if q := pyquote.String(bt.Signal); !slices.Contains(signals, q) {
			signals = append(signals, q)
		}
	}
	fmt.Fprintf(w, "added the import shield ([shield], signals = [%s]) for the timers test base classes arm in their tests, which the deadline fixture cannot replace:\n", strings.Join(signals, ", "))
	for _, bt := range r.BaseTimers {
		fmt.Fprintf(w, "  %s: %s in %s.%s runs in the tests of %s, and %s: a module imported for the first time under that alarm can be left half imported; the shield holds the handler back until the import is done\n",
			bt.At, bt.What, bt.Base, bt.Method, strings.Join(bt.Classes, ", "), bt.Why)
	}
}

// timeouts prints where the project sets pytest-timeout, and what the
// shield does for it.
func (r *Report) timeouts(w io.Writer) {
	t := r.Timeouts
	if t == nil {
		return
	}
	if c := t.Run.Config(); c != nil && len(t.Run.Inv.Args) > 0 {
		fmt.Fprintf(w, "pytest reads %s for the tests in %s/ (pytest %s): its rootdir is %s/\n",
			relpath.Slash(t.Root, c.File), strings.Join(t.Run.Inv.Args, "/, "), strings.Join(t.Run.Inv.Args, " "), relpath.Slash(t.Root, t.Run.Setup.Rootdir))
	}
	if len(t.Signal) > 0 {
		fmt.Fprintln(w, "found pytest-timeout, whose signal method times these tests:")
		for _, p := range t.Signal {
			fmt.Fprintf(w, "  %s: %s\n", p.At(t.Root), p.Text())
		}
		fmt.Fprintln(w, "its handler raises wherever the main thread is: a timeout that lands in a module's first import leaves the module half imported, and later tests on the same worker fail with \"module 'x' has no attribute 'y'\" (pytest-timeout#184); the import shield ([shield]) holds the handler until the import finishes, then runs it, so the test fails with pytest-timeout's own message and the worker stays sound")
		r.plugin(w)
	}
	if len(t.Thread) > 0 {
		fmt.Fprintln(w, "found pytest-timeout with the thread method, which needs no shield:")
		for _, p := range t.Thread {
			fmt.Fprintf(w, "  %s: %s\n", p.At(t.Root), p.Text())
		}
	}
}

// plugin names the way with no generated file: pytest-import-shield,
// the plugin that shields pytest-timeout wherever it is installed, at
// each place that declares pytest-timeout without it.
func (r *Report) plugin(w io.Writer) {
	t := r.Timeouts
	un := t.Found.Unshielded()
	switch {
	case len(un) > 0:
		fmt.Fprintf(w, "or, with no generated file, the plugin %s shields pytest-timeout wherever it is installed:\n", pytesttimeout.Plugin)
		for _, p := range un {
			fmt.Fprintf(w, "  %s: %s\n", p.At(t.Root), p.Set.Fix(t.Root))
		}
	case len(t.Found.Plugin) > 0:
		fmt.Fprintf(w, "%s, the plugin that shields pytest-timeout wherever it is installed, is declared beside it at %s: the spec's shield is not needed for the tests it runs\n",
			pytesttimeout.Plugin, t.Found.Plugin[0].At(t.Root))
	default:
		fmt.Fprintf(w, "or, with no generated file: declare %s, the plugin that shields pytest-timeout wherever it is installed, beside pytest-timeout in the project's test dependencies\n", pytesttimeout.Plugin)
	}
}

// found prints each finding of the hand-written contract at its position,
// and the notes the user should check by hand.
func (r *Report) found(w io.Writer) {
	r.timeouts(w)
	found := r.Found
	if found == nil {
		if r.shielded() && len(r.Strays) == 0 {
			// A pytest-timeout user never had a contract to find.
			return
		}
		fmt.Fprintln(w, "no hand-written contract found (a pytest fixture in a conftest.py that arms a timer with signal.setitimer or signal.alarm)")
		const byHand = "adopt it by hand (docs/migrating.md#a-deadline-armed-in-a-helper-or-a-hook)"
		for _, st := range r.Strays {
			switch {
			case st.Bounds:
				fmt.Fprintf(w, "  %s: %s in fixture %s, which bounds its own setup with it and disarms it before any test runs: no deadline of the tests, so the spec has none to read; check reports the call (own-timer)\n", st.At, st.Arms, st.In)
			case st.HandedBy != "":
				fmt.Fprintf(w, "  %s: %s in %s, which fixture %s hands to its tests: they arm the timer with seconds they choose, so the spec has no deadline to read; check reports the call (own-timer)\n", st.At, st.Arms, st.In, st.HandedBy)
			case suite.IsTestHook(st.In):
				ran := ""
				if st.Ran != "" {
					ran = " (" + st.Ran + ")"
				}
				fmt.Fprintf(w, "  %s: %s in hook %s, which pytest runs for every test below the conftest's folder: init adopts a deadline only from a fixture, so the spec leaves this one out%s; %s\n", st.At, st.Arms, st.In, ran, byHand)
			case st.CalledBy != "" && st.Ran != "":
				fmt.Fprintf(w, "  %s: %s in %s, which fixture %s calls: %s, so the spec has no deadline to read; %s\n", st.At, st.Arms, st.In, st.CalledBy, st.Ran, byHand)
			default:
				where := "at module level"
				switch {
				case st.CalledBy != "":
					where = fmt.Sprintf("in %s, which fixture %s calls", st.In, st.CalledBy)
				case st.In != "":
					where = "in " + st.In + ", which no fixture calls"
				}
				fmt.Fprintf(w, "  %s: %s %s: init learns a deadline only from a fixture that arms the timer, so the spec leaves this one out; %s\n", st.At, st.Arms, where, byHand)
			}
		}
		return
	}
	fmt.Fprintf(w, "found a hand-written contract in %s:\n", found.Conftest)
	d, origin := found.Spec, found.Origin
	kind := "deadline fixture"
	if d.Autouse {
		kind = "autouse deadline fixture"
	}
	seconds := pyquote.Number(d.Seconds) + " s"
	switch {
	case d.ArmedWhenEnvSet:
		seconds = "armed only when $" + strings.Join(d.SecondsEnv, ", else $") + " is set, for its seconds"
	case len(d.SecondsEnv) > 0:
		seconds += ", or $" + strings.Join(d.SecondsEnv, ", else $") + " when set"
	}
	parts := []string{seconds, d.Timer + " timer"}
	if d.Raises != "" && d.Raises != schema.DefaultRaises {
		parts = append(parts, "raises "+d.Raises)
	}
	message := "message not read"
	if d.Message != "" {
		message = "message " + pyquote.String(d.Message)
	}
	parts = append(parts, message)
	fmt.Fprintf(w, "  %s: %s %s: %s\n", found.Deadline.At, kind, found.Deadline.Name, strings.Join(parts, ", "))
	// The values a line of their own explains, at the code they came from.
	for _, v := range []struct {
		key  string
		set  bool
		what string
	}{
		{"without_timer", d.WithoutTimer == schema.WithoutTimerOff, `runs only where SIGALRM exists: kept, the generated deadline arms nothing elsewhere either (without_timer = "off")`},
		{"armed_when_env_set", d.ArmedWhenEnvSet, fmt.Sprintf(`arms no timer unless $%s is set: kept, the generated deadline is opt-in too (armed_when_env_set = true)`, strings.Join(d.SecondsEnv, " or $"))},
		{"message_verbatim", d.MessageVerbatim, `says its message alone, with no seconds in it: kept, the generated failure says that text exactly (message_verbatim = true)`},
		{"seconds_env_invalid", d.SecondsEnvInvalid == schema.SecondsEnvFallback, fmt.Sprintf(`falls back to %s s when $%s holds no number (seconds_env_invalid = "fallback": the generated deadline does too, and warns once naming the variable and its value)`,
			pyquote.Number(d.Seconds), strings.Join(d.SecondsEnv, " or $"))},
		{"dump_threads", d.DumpThreads, "dumps every thread's stack when it fires (dump_threads = true)"},
		{"defer_to_pytest_timeout", d.DeferToPytestTimeout, "leaves the timing to pytest-timeout when that plugin is loaded (defer_to_pytest_timeout = true)"},
	} {
		if v.set {
			fmt.Fprintf(w, "  %s: %s\n", origin[v.key], v.what)
		}
	}
	if h := found.Handler; h != nil && found.HandlerInstalledAt != "" {
		when := "at import"
		if found.HandlerInConfigure {
			when = "by pytest_configure"
		}
		fmt.Fprintf(w, "  %s: alarm handler %s, installed %s for every alarm of the process; generate --adopt keeps that, since other code may arm the timer and rely on it\n", found.HandlerInstalledAt, h.Name, when)
	} else if h != nil && !found.HandlerNested {
		fmt.Fprintf(w, "  %s: alarm handler %s, at module level\n", h.At, h.Name)
	}
	for _, re := range found.Rearms {
		switch {
		case re.Seconds == 0:
			fmt.Fprintf(w, "  %s: fixture %s arms the timer again for its module's tests, for seconds that are not a number literal; give the module its seconds in [deadline.module_seconds] by hand\n", re.SecondsAt, re.Fixture)
		case !re.WholeModule:
			fmt.Fprintf(w, "  %s: fixture %s arms the timer again for %s s for the tests that request it; deadline.module_seconds gives whole modules their seconds, so the spec leaves it to the fixture, which the generated deadline answers too\n", re.SecondsAt, re.Fixture, pyquote.Number(re.Seconds))
		default:
			fmt.Fprintf(w, "  %s: fixture %s arms the timer again for %s s for every test of %s: the spec gives the module those seconds ([deadline.module_seconds]), and generate --adopt names the fixture, which it no longer needs\n", re.SecondsAt, re.Fixture, pyquote.Number(re.Seconds), re.Module)
		}
	}
	for _, o := range found.Overrides {
		folder := strings.TrimSuffix(o.Pattern, "/**")
		switch {
		case o.Seconds == 0:
			fmt.Fprintf(w, "  %s: fixture %s here overrides the one in %s for the tests below %s, for seconds init cannot read; give them their seconds in [deadline.module_seconds] (%q = N) by hand, and generate --adopt removes this fixture\n", o.At, found.Deadline.Name, found.Conftest, folder, o.Pattern)
		default:
			env := ""
			if len(o.SecondsEnv) > 0 {
				env = fmt.Sprintf(" (the default of $%s, which the spec's entry does not read)", strings.Join(o.SecondsEnv, " or $"))
			}
			fmt.Fprintf(w, "  %s: fixture %s here overrides the one in %s for the tests below %s, with %s s%s: the spec gives them those seconds ([deadline.module_seconds] %q), and generate --adopt removes this fixture\n", o.At, found.Deadline.Name, found.Conftest, folder, pyquote.Number(o.Seconds), env, o.Pattern)
		}
	}
	if r.shielded() {
		if out := r.Timeouts.Outside(found.Conftest); len(out) > 0 {
			var names []string
			for _, m := range out[:min(len(out), 3)] {
				names = append(names, relpath.Slash(r.Timeouts.Root, m))
			}
			if len(out) > 3 {
				names = append(names, fmt.Sprintf("%d more", len(out)-3))
			}
			cover := ""
			if f := r.Timeouts.Folder; f != "" {
				cover = fmt.Sprintf("; [paths].conftest = %q covers them all", path.Join(f, "conftest.py"))
			}
			fmt.Fprintf(w, "  the shield in %s does not reach %d of the %d test modules pytest collects (%s): fixturegen check reports them (uncovered-tests)%s\n",
				found.Conftest, len(out), len(r.Timeouts.Modules), strings.Join(names, ", "), cover)
		}
	}
	if found.Preload != nil {
		fmt.Fprintf(w, "  %s: preload fixture %s imports %s\n", found.Preload.At, found.Preload.Name, strings.Join(found.Modules, ", "))
	} else {
		fmt.Fprintf(w, "  %s: %s takes no fixture that imports modules; the spec names a new preload fixture with no modules yet\n", found.Deadline.At, found.Deadline.Name)
	}
	if found.Group != "" {
		n := 0
		for _, u := range found.GroupUses {
			if u.Group == found.Group {
				n++
			}
		}
		fmt.Fprintf(w, "  %s: xdist group %s, marked by %d module(s) that use the fixtures\n", found.GroupUses[0].At, pyquote.String(found.Group), n)
	} else if r.Group == "" {
		fmt.Fprintf(w, "  no [group]: the autouse deadline covers every test, and one group would put them all on one worker\n")
	} else {
		fmt.Fprintf(w, "  no module that uses the fixtures has an xdist_group mark; the spec names the group %s, and fixturegen check names each module to mark with pytest.mark.xdist_group(%s)\n", pyquote.String(r.Group), pyquote.String(r.Group))
	}
	if p := found.Probe; p != nil {
		kind := "hand-written"
		if p.Generated {
			kind = "generated by fixturegen"
		}
		fmt.Fprintf(w, "  %s: probe plugin (%s)", p.Plugin, kind)
		if len(p.Tests) > 0 {
			fmt.Fprintf(w, ", loaded by %s", strings.Join(p.Tests, ", "))
		}
		fmt.Fprintln(w)
	}
	notes := append([]string{}, found.Notes...)
	for i := 0; i < len(found.Unread); i++ {
		u := found.Unread[i]
		left := fmt.Sprintf("[deadline].%s is left commented out in the spec, so the default applies until you set it", u.Key)
		// raises and message are most often unread for one reason, the
		// handler's: one line says it for both.
		if i+1 < len(found.Unread) && found.Unread[i+1].At == u.At && found.Unread[i+1].Why == u.Why {
			left = fmt.Sprintf("[deadline].%s and %s are left commented out in the spec, so their defaults apply until you set them", u.Key, found.Unread[i+1].Key)
			i++
		}
		notes = append(notes, fmt.Sprintf("%s: %s; %s", u.At, u.Why, left))
	}
	if found.Interval != "" {
		notes = append(notes, fmt.Sprintf("%s: the alarm repeats; the generated deadline fires once, and again every 0.05 s only while the code under test swallows it", found.Interval))
	}
	if len(notes) > 0 {
		fmt.Fprintln(w, "check these by hand:")
		for _, n := range notes {
			fmt.Fprintf(w, "  %s\n", n)
		}
	}
}
