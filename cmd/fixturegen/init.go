package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/fixturegen/fixturegen/internal/gen/pyquote"
	"github.com/fixturegen/fixturegen/internal/gen/write"
	"github.com/fixturegen/fixturegen/internal/onboard/discover"
	"github.com/fixturegen/fixturegen/internal/onboard/starter"
	"github.com/fixturegen/fixturegen/internal/specedit"
	"github.com/fixturegen/fixturegen/schema"
)

func init() {
	var force bool
	commands = append(commands, &command{
		name:    "init",
		summary: "write a spec: from a hand-written contract, or a starter",
		help: `
Writes fixturegen.toml (or the file named by --spec) in the working
directory and prints what it found.

When a conftest.py below the working directory holds a hand-written
contract (a fixture that arms signal.setitimer or signal.alarm, perhaps
taking a fixture that imports modules, perhaps autouse), init reads it
without running Python:
  - the deadline fixture's name, autouse, seconds (a number, or an
    environment variable with a default: seconds_env), timer (auto behind a
    hasattr(signal, "SIGALRM") guard), and what its alarm handler does (the
    exception it raises, its message, a faulthandler dump) become
    [deadline],
  - the preload fixture's name and imports become [preload],
  - the xdist_group name that the test modules using them carry becomes
    [group] (an autouse deadline without one gets no [group]),
  - that conftest becomes [paths].conftest, and a probe plugin found beside
    it is noted.
Each value gets a comment naming the line it came from, and what init could
not read as a literal is listed for you to check. init invents no value:
seconds it cannot read stop it with exit status 2 at their line; a message
or exception it cannot read is left commented out in the spec, with why.
init then prints the one command that replaces the hand-written fixtures
with the generated region, fixturegen generate --adopt, which keeps
everything else in the conftest.

Otherwise init writes a commented starter spec with defaults.

init never replaces an existing spec: it stops with exit status 2, unless
--force is given. A pyproject.toml that already holds [tool.fixturegen]
counts as a spec (--force does not help there: two specs are an error).
With --spec pyproject.toml, the spec is appended to pyproject.toml as
[tool.fixturegen] tables.

Examples:
  fixturegen init
  fixturegen init --force
  fixturegen --spec pyproject.toml init`,
		flags: func(fs *pflag.FlagSet) {
			fs.BoolVar(&force, "force", false, "replace an existing spec file")
		},
		run: func(c *context, args []string) error {
			if len(args) > 0 {
				return usageError{fmt.Sprintf("init takes no arguments, got %q", args[0])}
			}
			return runInit(c, force)
		},
	})
}

func runInit(c *context, force bool) error {
	target := schema.DefaultFile
	if c.spec != "" {
		target = filepath.Clean(c.spec)
	}
	prefix := schema.TablePrefix(target)
	// The spec is written in its folder, never through a link in its
	// place.
	root, err := write.NewRoot(filepath.Dir(target), filepath.Dir(target))
	if err != nil {
		return err
	}
	if err := root.Check(target); err != nil {
		return err
	}
	if err := refuseSecondSpec(target, prefix, force); err != nil {
		return err
	}
	dir, err := filepath.Abs(filepath.Dir(target))
	if err != nil {
		return err
	}
	found, err := discover.Find(dir)
	if err != nil {
		return fmt.Errorf("reading the project: %w", err)
	}
	if u := found.UnreadKey("seconds"); u != nil {
		// Every spec needs its seconds, and init invents no deadline.
		return &schema.Error{File: u.At, Msg: fmt.Sprintf(
			"init cannot read the deadline's seconds here: %s; it invents no value, so nothing was written: write them as a number, or as os.environ.get(NAME, \"N\"), or write %s by hand with [deadline].seconds",
			u.Why, target)}
	}
	v := starterValues(dir, found)
	text := starter.Text(v, prefix)

	// The written spec must load: a value read from the conftest that the
	// loader refuses (a deadline of a week, say) stops init here.
	var old []byte
	if prefix != nil {
		old, _, err = root.ReadFile(target)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: cannot read: %w", target, err)
		}
		text = appendTables(old, text)
	}
	if _, err := schema.ParseTable(text, target, dir, prefix); err != nil {
		return fmt.Errorf("the contract found does not make a valid spec, so nothing was written:\n%v", err)
	}

	report(c, found, v.Group)
	switch {
	case prefix != nil && old != nil:
		err = root.File(target, text)
	case force:
		err = root.File(target, text)
	default:
		err = root.New(target, text)
		if errors.Is(err, fs.ErrExist) {
			return existsError(target)
		}
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", target, err)
	}
	if found == nil {
		fmt.Fprintf(c.stdout, "wrote %s, a starter spec: list the modules to preload in [preload].modules, then run 'fixturegen generate'\n", target)
		return nil
	}
	fmt.Fprintf(c.stdout, "wrote %s\n", target)
	names := found.Deadline.Name
	if found.Preload != nil {
		names = found.Preload.Name + " and " + names
	}
	fmt.Fprintf(c.stdout, "\nnext: fixturegen generate --adopt\n  replaces the hand-written %s in %s with the generated region; everything else in that file stays as it is\n",
		names, found.Conftest)
	return nil
}

// refuseSecondSpec stops init from replacing a spec, or from writing one
// beside another.
func refuseSecondSpec(target string, prefix []string, force bool) error {
	if prefix != nil {
		sp, err := schema.PyprojectSpan(target)
		if err != nil {
			return fmt.Errorf("%s: cannot read: %w", target, err)
		}
		if sp != nil {
			return &schema.Error{File: target, Line: sp.Line, Col: sp.Col,
				Msg: "[tool.fixturegen] already holds a spec; init adds one only where there is none, so edit this one or remove it first"}
		}
		return nil
	}
	if _, err := os.Lstat(target); err == nil && !force {
		return existsError(target)
	}
	pyproject := filepath.Join(filepath.Dir(target), schema.PyprojectFile)
	if filepath.Base(target) != schema.DefaultFile {
		return nil
	}
	sp, err := schema.PyprojectSpan(pyproject)
	if err != nil {
		return fmt.Errorf("%s: cannot read: %w", pyproject, err)
	}
	if sp != nil {
		return &schema.Error{File: pyproject, Line: sp.Line, Col: sp.Col,
			Msg: fmt.Sprintf("[tool.fixturegen] already holds a spec, and a %s beside it would be a second one; edit this one instead", schema.DefaultFile)}
	}
	return nil
}

func existsError(target string) error {
	return fmt.Errorf("%s already exists; init never replaces a spec, so edit it, or run 'fixturegen init --force' to write a new one over it", target)
}

// appendTables adds the spec's tables to the end of a pyproject.toml.
func appendTables(old, tables []byte) []byte {
	out := append([]byte{}, old...)
	if len(out) > 0 {
		if out[len(out)-1] != '\n' {
			out = append(out, '\n')
		}
		out = append(out, '\n')
	}
	return append(out, tables...)
}

// starterValues fills a spec from what discover found, or with defaults.
func starterValues(root string, found *discover.Contract) starter.Values {
	if found == nil {
		testDir := "."
		if info, err := os.Stat(filepath.Join(root, "tests")); err == nil && info.IsDir() {
			testDir = "tests"
		}
		return starter.Defaults(testDir)
	}
	dir := filepath.ToSlash(filepath.Dir(filepath.FromSlash(found.Conftest)))
	v := starter.Defaults(dir)
	v.From = found.Conftest
	v.Paths.Conftest = found.Conftest
	v.Origin = map[string]string{"deadline": found.Deadline.At}
	v.Deadline.Fixture = found.Deadline.Name
	v.Deadline.Timer = found.Timer
	v.Origin["timer"] = found.TimerAt
	if found.Guard != "" && found.Timer == schema.TimerReal {
		// The hand-written deadline runs only where SIGALRM exists; auto
		// keeps it there and adds a watchdog thread elsewhere.
		v.Deadline.Timer = schema.TimerAuto
		v.Origin["timer"] = found.Guard
	}
	v.Deadline.Seconds = found.Seconds
	v.Origin["seconds"] = found.SecondsAt
	if found.SecondsEnv != "" {
		v.Deadline.SecondsEnv = found.SecondsEnv
		v.Origin["seconds_env"] = found.SecondsEnvAt
	}
	if found.Autouse {
		v.Deadline.Autouse = true
		v.Origin["autouse"] = found.AutouseAt
	}
	if found.DumpThreads {
		v.Deadline.DumpThreads = true
		v.Origin["dump_threads"] = found.DumpAt
	}
	v.Unread = map[string]string{}
	if u := found.UnreadKey("raises"); u != nil {
		v.Unread["raises"] = fmt.Sprintf("# Not read from %s: %s.\n# Until you set it, a fired deadline raises %s.\n# raises = %s",
			u.At, u.Why, schema.DefaultRaises, specedit.String(schema.DefaultRaises))
	} else if found.Raises != "" {
		v.Deadline.Raises = found.Raises
		v.Origin["raises"] = found.RaisesAt
	}
	message, fixed := discover.LiteralMessage(found.Message)
	before, mapped := discover.MessageBeforeSeconds(found.Message)
	switch u := found.UnreadKey("message"); {
	case u != nil:
		v.Unread["message"] = fmt.Sprintf("# Not read from %s: %s.\n# Until you set it, the message is %s.\n# message = \"\"",
			u.At, u.Why, specedit.String(schema.DefaultMessage))
	case !fixed && mapped:
		v.Deadline.Message = before
		v.Origin["message"] = found.MessageAt + ", without the seconds it ended with: the failure ends with them"
	case !fixed:
		v.Unread["message"] = fmt.Sprintf("# Not read as written at %s: it formats the seconds, and this message is\n# fixed text (the failure ends with \"(<seconds> s, <timer>)\"). Until you set\n# it, the message is %s.\n# message = %s",
			found.MessageAt, specedit.String(schema.DefaultMessage), specedit.String(message))
	default:
		v.Deadline.Message = message
		v.Origin["message"] = found.MessageAt
	}
	if found.Preload != nil {
		v.Preload = schema.Preload{Fixture: found.Preload.Name, Modules: found.Modules}
		v.Origin["preload"] = found.Preload.At
	}
	switch {
	case found.Group != "":
		v.Group = found.Group
		v.Origin["group"] = found.GroupUses[0].At
	case found.Autouse:
		// Every test below the conftest uses an autouse deadline; a group
		// would put the whole suite on one worker.
		v.Group = ""
	default:
		// Without a group mark to copy, the group is named after the
		// preload, as the reference's mcp_sdk fixture goes with the
		// mcp-sdk group.
		v.Group = strings.ReplaceAll(v.Preload.Fixture, "_", "-")
	}
	if p := found.Probe; p != nil {
		switch {
		case p.Generated && len(p.Tests) == 1:
			v.Paths.ProbePlugin, v.Paths.ProbeTests = p.Plugin, p.Tests[0]
		default:
			v.HandProbe = p.Plugin
			if len(p.Tests) > 0 {
				v.HandProbe += ", loaded by " + strings.Join(p.Tests, ", ")
				v.ProbeTests = p.Tests[0]
			}
			v.ProbePlugin = p.Plugin
		}
	}
	return v
}

// report prints what init found, each finding at its position.
func report(c *context, found *discover.Contract, group string) {
	if found == nil {
		fmt.Fprintln(c.stdout, "no hand-written contract found (a pytest fixture in a conftest.py that calls signal.setitimer or signal.alarm)")
		return
	}
	w := c.stdout
	fmt.Fprintf(w, "found a hand-written contract in %s:\n", found.Conftest)
	kind := "deadline fixture"
	if found.Autouse {
		kind = "autouse deadline fixture"
	}
	seconds := pyquote.Number(found.Seconds) + " s"
	if found.SecondsEnv != "" {
		seconds += ", or $" + found.SecondsEnv + " when set"
	}
	timer := found.Timer
	if found.Guard != "" && found.Timer == schema.TimerReal {
		timer = schema.TimerAuto
	}
	parts := []string{seconds, timer + " timer"}
	if found.Raises == schema.RaisesTimeoutError && found.UnreadKey("raises") == nil {
		parts = append(parts, "raises "+found.Raises)
	}
	message := "message not read"
	if text, fixed := discover.LiteralMessage(found.Message); found.Message != "" {
		message = "message " + pyquote.String(text)
		if !fixed {
			message += " (it formats the seconds)"
		}
	}
	parts = append(parts, message)
	fmt.Fprintf(w, "  %s: %s %s: %s\n", found.Deadline.At, kind, found.Deadline.Name, strings.Join(parts, ", "))
	if found.Guard != "" && found.Timer == schema.TimerReal {
		fmt.Fprintf(w, "  %s: runs only where SIGALRM exists; the spec says timer = \"auto\" (a watchdog thread elsewhere)\n", found.Guard)
	}
	if found.DumpThreads {
		fmt.Fprintf(w, "  %s: dumps every thread's stack when it fires (dump_threads = true)\n", found.DumpAt)
	}
	if h := found.Handler; h != nil && !found.HandlerNested {
		fmt.Fprintf(w, "  %s: alarm handler %s, at module level\n", h.At, h.Name)
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
	} else if group == "" {
		fmt.Fprintf(w, "  no [group]: the autouse deadline covers every test, and one group would put them all on one worker\n")
	} else {
		fmt.Fprintf(w, "  no module that uses the fixtures has an xdist_group mark; the spec names the group %s\n", pyquote.String(group))
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
	for _, u := range found.Unread {
		notes = append(notes, fmt.Sprintf("%s: %s; [deadline].%s is left commented out in the spec, so the default applies until you set it", u.At, u.Why, u.Key))
	}
	if before, ok := discover.MessageBeforeSeconds(found.Message); ok {
		text, _ := discover.LiteralMessage(found.Message)
		notes = append(notes, fmt.Sprintf("%s: the message ends with the seconds (%s); the spec's message is %s, and the generated failure ends with \"(<seconds> s, <timer>)\"",
			found.MessageAt, pyquote.String(text), pyquote.String(before)))
	} else if text, fixed := discover.LiteralMessage(found.Message); found.Message != "" && !fixed {
		notes = append(notes, fmt.Sprintf("%s: the message formats the seconds (%s), and [deadline].message is fixed text, ended by \"(<seconds> s, <timer>)\"; it is left commented out in the spec, so the default applies until you set it",
			found.MessageAt, pyquote.String(text)))
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
