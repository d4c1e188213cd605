package schema

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fixturegen/fixturegen/internal/textpos"
	"github.com/fixturegen/fixturegen/internal/version"
)

// maxGroupName bounds the xdist group name, which pytest-xdist shows in its
// output and uses to pick a worker; a longer name is a pasted mistake.
const maxGroupName = 200

// reservedPrefix starts the names of the helpers fixturegen generates next
// to the fixtures; a user fixture with such a name could collide with them.
const reservedPrefix = "_fixturegen"

// validate checks the spec table doc (the whole document, or the table under
// the prefix) and builds the Spec. recordOrder lists the keys of
// [probe.record] in document order, which a Go map has lost.
func (c *checker) validate(root *node, doc map[string]any, recordOrder []string) *Spec {
	c.root = root
	s := &Spec{}
	// An unsupported version is reported alone: the rest of the document
	// follows another format, so its other "problems" would only mislead.
	if !c.version(root, doc, s) {
		return s
	}
	// So is a fixturegen version the spec does not allow: the spec may
	// use what only the versions it allows understand.
	if !c.requiredVersion(root, doc, s) {
		return s
	}
	c.keys(root, doc, tableKeys("")...)
	c.shield(doc, s)
	// A spec with the shield may leave the deadline and its preload out;
	// without the shield, a spec is nothing but them.
	_, hasDeadline := doc["deadline"]
	if hasDeadline || !s.Shield.On {
		c.deadline(doc, s)
		c.preload(doc, s)
	} else {
		s.Deadline = defaultDeadline()
		c.needsDeadline(root, doc, "preload", "the preload fixture runs before the deadline's alarm")
		c.needsDeadline(root, doc, "probe", "the probe records the state at each arming of the deadline's alarm")
	}
	c.group(doc, s)
	paths := c.paths(doc, s)
	c.probe(doc, s, paths, recordOrder)
	return s
}

// version checks version and returns false when it is a number other than 1.
func (c *checker) version(root *node, doc map[string]any, s *Spec) bool {
	n := root.child("version")
	v, ok := doc["version"]
	if !ok {
		c.missingKey(root, "missing required key %s; add version = %d", n.key, Version)
		return true
	}
	if f, isFloat := v.(float64); isFloat && f == Version {
		c.errorf(n, "%s must be the integer %d, not %s", n.key, Version, c.text(n, v))
		return true
	}
	i, ok := typed[int64](c, n, v, "an integer")
	if !ok {
		return true
	}
	if i != Version {
		c.errs = nil
		c.errorf(n, "unsupported spec version %d; this fixturegen reads version %d", i, Version)
		return false
	}
	s.Version = Version
	return true
}

// runningVersion is the version required_version is checked against;
// tests replace it.
var runningVersion = version.Version

// requiredVersion reads required_version and returns false when the
// running fixturegen is outside it. A development build knows no release
// number: it satisfies every requirement, and the command warns (see
// RequiredVersionWarning).
func (c *checker) requiredVersion(root *node, doc map[string]any, s *Spec) bool {
	v, ok := doc["required_version"]
	if !ok {
		return true
	}
	n := root.child("required_version")
	text, ok := c.str(n, v)
	if !ok {
		return true
	}
	spec, err := version.ParseSpecifier(text)
	if err != nil {
		c.errorf(n, "%s %v", n.key, err)
		return true
	}
	s.RequiredVersion = text
	running := runningVersion()
	if version.IsDev(running) || spec.Allows(running) {
		return true
	}
	c.errs = nil
	c.errorf(n, "%s = %q excludes this fixturegen, %s; install a version it allows (pip install '%s%s'), or change %s",
		n.key, text, running, version.Distribution, strings.ReplaceAll(text, " ", ""), n.key)
	return false
}

// RequiredVersionWarning is what a development build says about a spec's
// required_version, which it cannot check; "" when there is nothing to say.
func RequiredVersionWarning(s *Spec) string {
	if s.RequiredVersion == "" || !version.IsDev(runningVersion()) {
		return ""
	}
	return fmt.Sprintf("%s: required_version = %q not checked: this is a development build of fixturegen, which satisfies every requirement", s.File, s.RequiredVersion)
}

// defaultDeadline is a [deadline] with every optional key at its default
// and no fixture: what a spec without [deadline] holds, so that the
// runtime's settings all have values.
func defaultDeadline() Deadline {
	return Deadline{
		Timer:       DefaultTimer,
		Message:     DefaultMessage,
		OnImport:    DefaultOnImport,
		LateImports: DefaultLateImports,
		ImportGrace: DefaultImportGrace,
		Raises:      DefaultRaises,

		SecondsEnvInvalid: DefaultSecondsEnvInvalid,
		WithoutTimer:      DefaultWithoutTimer,
	}
}

// needsDeadline reports the table key, written in a spec without
// [deadline], that only a deadline gives a meaning to (why says how).
func (c *checker) needsDeadline(root *node, doc map[string]any, key, why string) {
	if _, ok := doc[key]; !ok {
		return
	}
	table, deadline := "["+root.child(key).name+"]", "["+root.child("deadline").name+"]"
	c.missingKey(root.child(key), "%s needs %s: %s; add %s, or remove %s to keep only the shield", table, deadline, why, deadline, table)
}

// shield reads [shield], which is optional: its presence turns the import
// shield on.
func (c *checker) shield(doc map[string]any, s *Spec) {
	if _, present := doc["shield"]; !present {
		return
	}
	n, t, ok := c.table(doc, "shield")
	if !ok {
		return
	}
	sh := Shield{On: true, Signals: DefaultShieldSignals(), ImportGrace: DefaultShieldGrace, PastGrace: DefaultPastGrace, Rollback: true}
	opt(n, t, "signals", &sh.Signals, c.signals)
	opt(n, t, "import_grace", &sh.ImportGrace, c.seconds)
	opt(n, t, "past_grace", &sh.PastGrace, c.enum("shield.past_grace"))
	opt(n, t, "rollback", &sh.Rollback, c.boolean)
	s.Shield = sh
}

// signals reads shield.signals: timer signals' names, each once. An empty
// list is allowed: it keeps the rollback and holds nothing.
func (c *checker) signals(n *node, v any) ([]string, bool) {
	list, ok := typed[[]any](c, n, v, "an array of signal names")
	if !ok {
		return nil, false
	}
	signal := func(n *node, v any) (string, bool) { return c.oneOf(n, v, ShieldSignals...) }
	return c.distinct(n, list, "%s", signal), true
}

func (c *checker) deadline(doc map[string]any, s *Spec) {
	d := defaultDeadline()
	defer func() { s.Deadline = d }()
	n, t, ok := c.table(doc, "deadline")
	if !ok {
		return
	}
	c.required(n, t, "fixture")
	if v, ok := t["armed_when_env_set"]; ok {
		kn := n.child("armed_when_env_set")
		d.ArmedWhenEnvSet, _ = c.boolean(kn, v)
		if _, hasEnv := t["seconds_env"]; d.ArmedWhenEnvSet && !hasEnv {
			c.errorf(kn, "%s needs %s: it arms the deadline only when one of those variables is set", kn.key, n.child("seconds_env").key)
		}
	}
	if !d.ArmedWhenEnvSet {
		// An opt-in deadline takes its seconds from the variable alone.
		c.required(n, t, "seconds")
	}
	opt(n, t, "fixture", &d.Fixture, c.fixtureName)
	opt(n, t, "seconds", &d.Seconds, c.seconds)
	opt(n, t, "timer", &d.Timer, c.enum("deadline.timer"))
	opt(n, t, "message", &d.Message, c.message)
	opt(n, t, "on_import", &d.OnImport, c.enum("deadline.on_import"))
	opt(n, t, "late_imports", &d.LateImports, c.enum("deadline.late_imports"))
	opt(n, t, "import_grace", &d.ImportGrace, c.seconds)
	opt(n, t, "autouse", &d.Autouse, c.boolean)
	opt(n, t, "seconds_env", &d.SecondsEnv, c.envNames)
	if v, ok := t["seconds_env_invalid"]; ok {
		kn := n.child("seconds_env_invalid")
		d.SecondsEnvInvalid, _ = c.oneOf(kn, v, keyEnum("deadline.seconds_env_invalid")...)
		if _, hasEnv := t["seconds_env"]; !hasEnv {
			c.errorf(kn, "%s needs %s: it says what a variable of it that holds no number does", kn.key, n.child("seconds_env").key)
		}
		if _, hasSeconds := t["seconds"]; !hasSeconds && d.SecondsEnvInvalid == SecondsEnvFallback {
			c.errorf(kn, "%s = %q keeps %s, which this spec does not give: set it, or drop %s", kn.key, SecondsEnvFallback, n.child("seconds").key, kn.key)
		}
	}
	opt(n, t, "message_verbatim", &d.MessageVerbatim, c.boolean)
	opt(n, t, "without_timer", &d.WithoutTimer, c.enum("deadline.without_timer"))
	opt(n, t, "raises", &d.Raises, c.enum("deadline.raises"))
	opt(n, t, "dump_threads", &d.DumpThreads, c.boolean)
	opt(n, t, "defer_to_pytest_timeout", &d.DeferToPytestTimeout, c.boolean)
	opt(n, t, "module_seconds", &d.ModuleSeconds, c.moduleSeconds)
}

// opt reads key of t, where the table has it, into *dst with read.
func opt[T any](n *node, t map[string]any, key string, dst *T, read func(*node, any) (T, bool)) {
	if v, ok := t[key]; ok {
		*dst, _ = read(n.child(key), v)
	}
}

// enum reads a string that must be one of key's values (keyEnum).
func (c *checker) enum(key string) func(*node, any) (string, bool) {
	return func(n *node, v any) (string, bool) { return c.oneOf(n, v, keyEnum(key)...) }
}

// moduleSeconds reads deadline.module_seconds: test modules' paths, or
// globs of them, each with its seconds, in the order written.
func (c *checker) moduleSeconds(n *node, v any) ([]ModuleSeconds, bool) {
	t, ok := c.asTable(n, v)
	if !ok {
		return nil, false
	}
	out := []ModuleSeconds{}
	for _, k := range c.inOrder(n, t, nil) {
		kn := n.child(k)
		if _, isTable := t[k].(map[string]any); isTable {
			c.errorf(kn, "%s must be a number of seconds, not a table; a key with dots or slashes must be quoted, as in \"tests/test_zone.py\" = 120", kn.key)
			continue
		}
		if p := modulePatternProblem(k); p != "" {
			c.errorf(kn, "keys in [%s] must be test modules' paths relative to the spec's folder, or globs of them, as in \"tests/test_zone.py\" = 120 or \"tests/slow/**\" = 60, not %q: %s", n.name, k, p)
			continue
		}
		secs, ok := c.seconds(kn, t[k])
		if !ok {
			continue
		}
		out = append(out, ModuleSeconds{Pattern: k, Seconds: secs})
	}
	return out, true
}

// modulePatternProblem says what is wrong with a key of
// deadline.module_seconds, or returns "".
func modulePatternProblem(p string) string {
	switch {
	case p == "":
		return "the path is empty"
	case strings.HasPrefix(p, "/"):
		return "the path is absolute"
	case strings.Contains(p, "\\"):
		return "the path has a backslash; separate folders with /"
	case strings.ContainsAny(p, "[]{}"):
		return "only * ? and ** are glob characters here"
	case strings.IndexFunc(p, unicode.IsControl) >= 0:
		return "the path has a control character"
	}
	segments := strings.Split(p, "/")
	for _, seg := range segments {
		switch {
		case seg == "" || seg == "." || seg == "..":
			return fmt.Sprintf("the path has a segment %q; write it from the spec's folder, inside it", seg)
		case seg != "**" && strings.Contains(seg, "**"):
			return "** stands for whole segments only (tests/**/test_x.py)"
		}
	}
	if !strings.HasSuffix(p, ".py") && segments[len(segments)-1] != "**" {
		return "it names no test module: end it with .py, or with /** for every module below a folder"
	}
	return ""
}

// envNames reads deadline.seconds_env: one variable's name, or a non-empty
// array of them, each once.
func (c *checker) envNames(n *node, v any) ([]string, bool) {
	list, ok := v.([]any)
	if !ok {
		if _, isString := v.(string); !isString {
			c.errorf(n, "%s must be an environment variable's name or an array of them, not %s", n.key, describe(v))
			return nil, false
		}
		if name, ok := c.envName(n, v); ok {
			return []string{name}, true
		}
		return nil, false
	}
	if len(list) == 0 {
		c.errorf(n, "%s must name at least one environment variable; leave it out for none", n.key)
		return nil, false
	}
	return c.distinct(n, list, "%q", c.envName), true
}

// distinct reads each element of an array with read and returns them in
// order, reporting an element that repeats an earlier one ("repeats
// <value>", the value written by the format value) and leaving it out.
func (c *checker) distinct(n *node, list []any, value string, read func(*node, any) (string, bool)) []string {
	out := []string{}
	seen := map[string]*node{}
	for i, e := range list {
		en := n.index(i)
		v, ok := read(en, e)
		if !ok {
			continue
		}
		if first, dup := seen[v]; dup {
			line, _ := c.pos(first)
			c.errorf(en, "%s repeats "+value+", already listed as %s on line %d", en.key, v, first.key, line)
			continue
		}
		seen[v] = en
		out = append(out, v)
	}
	return out
}

var envNamePattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// envName reads the name of an environment variable, as a shell writes it:
// the generated code reads it with os.environ.get, and a name a shell cannot
// set would be a variable nobody can set.
func (c *checker) envName(n *node, v any) (string, bool) {
	s, ok := c.str(n, v)
	if !ok {
		return "", false
	}
	if !envNamePattern.MatchString(s) {
		return c.fail(n, "%s must be an environment variable name, letters, digits and _ not starting with a digit, not %q", n.key, s)
	}
	return s, true
}

// message reads deadline.message, which reaches Python only as a quoted
// string, so anything goes but an empty text and NUL (which no C string,
// and so no terminal or log line, carries intact).
func (c *checker) message(n *node, v any) (string, bool) {
	s, ok := c.str(n, v)
	switch {
	case !ok:
		return "", false
	case s == "":
		return c.fail(n, "%s must not be empty; leave it out to use %q", n.key, DefaultMessage)
	case strings.ContainsRune(s, 0):
		return c.fail(n, "%s must not contain a NUL character", n.key)
	}
	if _, p := ParseMessage(s); p != nil {
		line, col := c.posIn(n, p.Offset)
		c.errs = append(c.errs, &Error{File: c.file, Line: line, Col: col, Msg: n.key + " " + p.Msg})
		return "", false
	}
	return s, true
}

// posIn is the position of the byte at offset off of the string value of
// n, when the file writes that string on one line without escapes (a
// literal string, or a basic one without a backslash), so that it is the
// same text; otherwise the position of n.
func (c *checker) posIn(n *node, off int) (int, int) {
	sp, ok := c.spans[n.key]
	if !ok || sp.Start < 0 || sp.End > len(c.src) || sp.End-sp.Start < 2 {
		return c.pos(n)
	}
	raw := c.src[sp.Start:sp.End]
	quote := raw[0]
	plain := (quote == '\'' || quote == '"' && bytes.IndexByte(raw, '\\') < 0) &&
		!bytes.HasPrefix(raw, []byte{quote, quote, quote}) && off < len(raw)-2
	if !plain {
		return c.pos(n)
	}
	return textpos.LineCol(c.src, sp.Start+1+off)
}

// fixtureName reads a fixture name: a Python identifier that pytest and the
// generated helpers leave free.
func (c *checker) fixtureName(n *node, v any) (string, bool) {
	s, ok := c.str(n, v)
	if !ok {
		return "", false
	}
	if p := identifierProblem(s); p != "" {
		return c.fail(n, "%s must be a Python identifier, not %q: %s", n.key, s, p)
	}
	if s == "request" {
		return c.fail(n, "%s must not be \"request\", which is pytest's own fixture", n.key)
	}
	if strings.HasPrefix(s, reservedPrefix) {
		return c.fail(n, "%s must not start with %q, which is kept for the helpers fixturegen generates", n.key, reservedPrefix)
	}
	return s, true
}

func (c *checker) moduleName(n *node, v any) (string, bool) {
	s, ok := c.str(n, v)
	if !ok {
		return "", false
	}
	if p := moduleProblem(s); p != "" {
		return c.fail(n, "%s must be a dotted module name, not %q: %s", n.key, s, p)
	}
	return s, true
}

func (c *checker) preload(doc map[string]any, s *Spec) {
	n, t, ok := c.table(doc, "preload")
	if !ok {
		return
	}
	c.required(n, t, "fixture", "modules")
	if v, ok := t["fixture"]; ok {
		fn := n.child("fixture")
		if name, ok := c.fixtureName(fn, v); ok {
			if name == s.Deadline.Fixture {
				c.errorf(fn, "%s must differ from %s; both are %q", fn.key, c.key("deadline", "fixture"), name)
			}
			s.Preload.Fixture = name
		}
	}
	v, ok := t["modules"]
	if !ok {
		return
	}
	mn := n.child("modules")
	list, ok := typed[[]any](c, mn, v, "an array of module names")
	if !ok {
		return
	}
	// An empty list is allowed: a project may set up the deadline before it
	// knows which imports to hoist.
	s.Preload.Modules = c.distinct(mn, list, "module %q", c.moduleName)
}

func (c *checker) group(doc map[string]any, s *Spec) {
	// [group] is optional; when it is written, it needs its name.
	if _, present := doc["group"]; !present {
		return
	}
	n, t, ok := c.table(doc, "group")
	if !ok {
		return
	}
	c.required(n, t, "name")
	v, ok := t["name"]
	if !ok {
		return
	}
	nn := n.child("name")
	name, ok := c.name(nn, v, "an xdist group name")
	switch {
	case !ok:
	case name == "":
		c.errorf(nn, "%s must not be empty", nn.key)
	case utf8.RuneCountInString(name) > maxGroupName:
		c.errorf(nn, "%s must be at most %d characters long, not %d", nn.key, maxGroupName, utf8.RuneCountInString(name))
	default:
		s.Group.Name = name
	}
}

// paths reads [paths] and returns the keys written there, by name, for
// the checks that compare them with each other and with the probe cases.
func (c *checker) paths(doc map[string]any, s *Spec) map[string]*node {
	written := map[string]*node{}
	n, t, ok := c.table(doc, "paths")
	if !ok {
		return written
	}
	c.required(n, t, "conftest")
	pathsKeys := tableKeys("paths")
	clean := map[string]string{}
	for _, k := range pathsKeys {
		v, ok := t[k]
		if !ok {
			continue
		}
		pn := n.child(k)
		written[k] = pn
		p, ok := c.name(pn, v, "a relative path")
		if !ok {
			continue
		}
		cp, problem := relPathProblem(p)
		if problem != "" {
			c.errorf(pn, "%s must be a relative path inside the spec's folder, not %q: %s", pn.key, p, problem)
			continue
		}
		if c.pathRole(pn, k, cp) {
			clean[k] = cp
		}
	}
	for i, a := range pathsKeys {
		for _, b := range pathsKeys[i+1:] {
			if sameFile(clean[a], clean[b]) {
				c.errorf(written[b], "%s names the same file as %s, %q", written[b].key, written[a].key, clean[a])
				delete(clean, b)
			}
		}
	}
	if tests := written["probe_tests"]; tests != nil && written["probe_plugin"] == nil {
		c.errorf(tests, "%s needs %s too: the probe tests load the probe plugin with pytest -p",
			tests.key, n.child("probe_plugin").key)
	}
	s.Paths = Paths{Conftest: clean["conftest"], ProbePlugin: clean["probe_plugin"], ProbeTests: clean["probe_tests"], Docs: clean["docs"], Runtime: clean["runtime"]}
	if written["runtime"] == nil && s.Paths.Conftest != "" {
		s.Paths.Runtime = DefaultRuntime(s.Paths.Conftest)
		for _, k := range pathsKeys {
			if k != "runtime" && sameFile(clean[k], s.Paths.Runtime) {
				c.errorf(written[k], "%s names %q, where the runtime goes by default; set %s to another file",
					written[k].key, clean[k], n.child("runtime").key)
			}
		}
	}
	return written
}

// pathRole checks what each [paths] file is for: pytest reads only files
// named conftest.py as conftests, loads the plugin by its module name and
// collects only test files whose names start with test_; the docs are
// Markdown.
func (c *checker) pathRole(n *node, key, p string) bool {
	base := path.Base(p)
	// The probe plugin, the probe tests and the runtime are Python modules.
	if key != "conftest" && key != "docs" && !strings.HasSuffix(base, ".py") {
		c.errorf(n, "%s must end in .py, not %q", n.key, base)
		return false
	}
	switch key {
	case "conftest":
		if base != "conftest.py" {
			c.errorf(n, "%s must name a file called conftest.py, not %q: pytest reads conftests only under that name", n.key, base)
			return false
		}
	case "probe_plugin":
		stem := strings.TrimSuffix(base, ".py")
		if problem := identifierProblem(stem); problem != "" {
			c.errorf(n, "%s must be named after a Python identifier, since it is loaded with pytest -p %s; %q is not one: %s",
				n.key, stem, stem, problem)
			return false
		}
	case "docs":
		// fixturegen writes a Markdown region there; in any other format its
		// marker lines and tables would be noise.
		if !strings.HasSuffix(base, ".md") {
			c.errorf(n, "%s must name a Markdown file ending in .md, not %q", n.key, base)
			return false
		}
	case "runtime":
		// The region loads the runtime from its path, so any file name
		// works; pytest must not collect it as a test module.
		if base == "conftest.py" || strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py") {
			c.errorf(n, "%s must not be named %q: pytest would load it as a conftest or collect it as tests", n.key, base)
			return false
		}
	case "probe_tests":
		if !strings.HasPrefix(base, "test_") {
			c.errorf(n, "%s must name a file starting with test_, not %q, so that pytest collects it", n.key, base)
			return false
		}
	}
	return true
}

func (c *checker) probe(doc map[string]any, s *Spec, paths map[string]*node, recordOrder []string) {
	n, t, ok := c.table(doc, "probe")
	if !ok {
		return
	}
	if v, ok := t["record"]; ok {
		c.record(n.child("record"), v, s, recordOrder)
	} else {
		s.Probe.Record = DefaultRecord(s.Preload.Modules)
		s.Probe.RecordDefaulted = true
	}
	if v, ok := t["case"]; ok {
		c.cases(n.child("case"), v, s, paths)
	}
}

func (c *checker) record(n *node, v any, s *Spec, order []string) {
	t, ok := c.asTable(n, v)
	if !ok {
		return
	}
	s.Probe.Record = []Record{}
	for _, k := range c.inOrder(n, t, order) {
		kv := t[k]
		kn := n.child(k)
		if k == "" || strings.IndexFunc(k, unicode.IsControl) >= 0 {
			c.errorf(kn, "keys in [%s] must be non-empty and free of control characters, not %q", n.name, k)
			continue
		}
		target, ok := kv.(string)
		if !ok {
			hint := ""
			if _, isTable := kv.(map[string]any); isTable {
				hint = fmt.Sprintf(`; a key with dots must be quoted, as in "%s.x" = "..."`, k)
			}
			c.errorf(kn, "%s must be a string, \"module\" or \"module:attr\", not %s%s", kn.key, describe(kv), hint)
			continue
		}
		module, attr, hasAttr := strings.Cut(target, ":")
		if p := moduleProblem(module); p != "" {
			c.errorf(kn, "%s must be \"module\" or \"module:attr\" with a dotted module name, not %q: %s", kn.key, target, p)
			continue
		}
		if hasAttr {
			if p := identifierProblem(attr); p != "" {
				c.errorf(kn, "%s must be \"module\" or \"module:attr\" with an identifier after the colon, not %q: %s", kn.key, target, p)
				continue
			}
		}
		s.Probe.Record = append(s.Probe.Record, Record{Key: k, Module: module, Attr: attr})
	}
}

func (c *checker) cases(n *node, v any, s *Spec, paths map[string]*node) {
	var elems []any
	switch x := v.(type) {
	case []map[string]any:
		for _, e := range x {
			elems = append(elems, e)
		}
	case []any:
		elems = x
	default:
		c.errorf(n, "%s must be an array of tables, written [[%s]], not %s", n.key, n.name, describe(v))
		return
	}
	if len(elems) > 0 && (paths["probe_plugin"] == nil || paths["probe_tests"] == nil) {
		c.errorf(n.index(0), "[[%s]] needs %s and %s, the files that run the probe cases",
			n.name, c.key("paths", "probe_plugin"), c.key("paths", "probe_tests"))
	}
	seen := map[string]*node{}
	for i, e := range elems {
		en := n.index(i)
		t, ok := c.asTable(en, e)
		if !ok {
			continue
		}
		c.keys(en, t, tableKeys("probe.case")...)
		c.required(en, t, "test", "node")
		var pc Case
		if v, ok := t["test"]; ok {
			tn := en.child("test")
			if name, ok := c.testName(tn, v); ok {
				if first, dup := seen[name]; dup {
					line, _ := c.pos(first)
					c.errorf(tn, "%s repeats test name %q, already used by %s on line %d", tn.key, name, first.key, line)
				} else {
					seen[name] = tn
				}
				pc.Test = name
			}
		}
		if v, ok := t["node"]; ok {
			pc.Node, _ = c.nodeID(en.child("node"), v, s)
		}
		opt(en, t, "planted_delay", &pc.PlantedDelay, c.plantedDelay)
		opt(en, t, "armed_delay", &pc.ArmedDelay, c.seconds)
		s.Probe.Cases = append(s.Probe.Cases, pc)
	}
}

// testName reads a probe test name, which pytest collects only when it
// starts with "test".
func (c *checker) testName(n *node, v any) (string, bool) {
	name, ok := c.str(n, v)
	if !ok {
		return "", false
	}
	if p := identifierProblem(name); p != "" {
		return c.fail(n, "%s must be a Python identifier, not %q: %s", n.key, name, p)
	}
	if !strings.HasPrefix(name, "test") {
		return c.fail(n, "%s must start with \"test\" so that pytest collects it, not %q", n.key, name)
	}
	return name, true
}

func (c *checker) nodeID(n *node, v any, s *Spec) (string, bool) {
	id, ok := c.name(n, v, "a pytest node id")
	if !ok {
		return "", false
	}
	clean, problem := nodeIDProblem(id)
	if problem != "" {
		return c.fail(n, "%s must be a pytest node id like \"tests/test_x.py::test_name\", not %q: %s", n.key, id, problem)
	}
	file, _, _ := strings.Cut(clean, "::")
	if sameFile(file, s.Paths.ProbeTests) {
		return c.fail(n, "%s must not run a test in %s, %q: the probe would run itself", n.key, c.key("paths", "probe_tests"), file)
	}
	return clean, true
}

func (c *checker) plantedDelay(n *node, v any) (*PlantedDelay, bool) {
	t, ok := c.asTable(n, v)
	if !ok {
		return nil, false
	}
	c.keys(n, t, tableKeys("probe.case.planted_delay")...)
	c.required(n, t, "module", "seconds")
	pd := &PlantedDelay{}
	opt(n, t, "module", &pd.Module, c.moduleName)
	opt(n, t, "seconds", &pd.Seconds, c.seconds)
	return pd, true
}
