// Package discover finds a hand-written preload/deadline contract in a
// project, so that fixturegen init can write the spec that generates the
// same contract. It finds the candidates statically (with pyscan): the
// conftests' fixtures and per-test hooks that arm a timer, in their body
// or through a function they call. What they do (the seconds they arm,
// the variables that change them, the handler and what it raises and
// says) it learns by running each once with the project's Python, under
// package observe's recording plugin.
//
// The contract it looks for is the one the reference describes: a pytest
// fixture in a conftest.py that arms an interval timer (signal.setitimer or
// signal.alarm), whose parameters name a fixture that only imports modules;
// or the autouse per-test timeout most suites write, with its seconds from
// an environment variable and its own alarm handler (see Contract);
// test modules below that conftest that use the fixtures and mark
// themselves with pytest.mark.xdist_group; and, perhaps, a probe plugin
// that wraps signal.setitimer with tests that load it with pytest -p.
package discover

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/fixturegen/fixturegen/internal/pytext"
	"github.com/fixturegen/fixturegen/internal/python/pyquote"
	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/python/pytestcfg"
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/schema"
)

// Contract is what Find learned. Paths are slash-separated and relative to
// the folder Find searched.
type Contract struct {
	Conftest string
	Deadline Fixture
	Preload  *Fixture // nil when the deadline fixture takes no preload fixture

	// Spec is the [deadline] the runs showed, and Origin, by the key
	// each value is written under ("deadline" for the fixture), the
	// path:line:col of the code it came from. Seconds is the default of
	// SecondsEnv (the variables that set them, the first one set
	// winning), 0 when unread (see Unread) or when the deadline is armed
	// only with a variable set (ArmedWhenEnvSet). WithoutTimer is off
	// for the real timer behind a hasattr(signal, "SIGALRM") guard: the
	// hand-written deadline runs only where the signal exists, which no
	// run here can show. Raises is schema.RaisesFailed for a handler that calls
	// pytest.fail. Message is the failure's text, its literal braces
	// doubled and a {seconds} field where it states the seconds
	// (secondsMessage). Raises and Message are "" when not learned.
	Spec   schema.Deadline
	Origin map[string]string
	// Interval is the path:line:col of a repeat interval given to
	// setitimer, or "".
	Interval string

	// Handler is the function the fixture installs for the timer's signal,
	// when it is defined in the conftest; HandlerNested tells one defined
	// in the fixture from one at module level.
	Handler       *Fixture
	HandlerNested bool
	// HandlerInstalledAt is the path:line:col of a signal.signal call at
	// module level, or in the conftest's pytest_configure
	// (HandlerInConfigure), that installs Handler for every alarm of the
	// process, when the fixture installs none itself; "" otherwise.
	HandlerInstalledAt string
	HandlerInConfigure bool

	Modules []string

	Group     string // "" when no module using the fixtures has a group mark
	GroupUses []Use  // the group marks found, most used name first

	Probe *Probe // nil when there is no probe plugin

	// Rearms are the test modules' fixtures below the conftest that arm
	// the timer again for their module, relying on the suite's handler.
	Rearms []Rearm
	// Overrides are the deadline fixtures of the same name in conftests
	// below Conftest, which pytest runs in its place for the tests below
	// their folders, in path order.
	Overrides []Override

	// Notes are things the user should check, each starting with the
	// path:line:col it is about.
	Notes []string
	// Unread are the [deadline] keys whose values the runs did not show.
	Unread []Unread
}

// Unread is a spec key whose value init could not learn from the
// hand-written code. init never puts an invented value in its place.
type Unread struct {
	Key string // the key in [deadline]: "seconds", "message", "raises"
	At  string // path:line:col of the code that holds the value
	Why string // what is there instead of a value
}

func (c *Contract) unread(key, where, why string) {
	c.Unread = append(c.Unread, Unread{Key: key, At: where, Why: why})
}

// UnreadKey returns what init could not learn for key, or nil.
func (c *Contract) UnreadKey(key string) *Unread {
	if c == nil {
		return nil
	}
	if i := slices.IndexFunc(c.Unread, func(u Unread) bool { return u.Key == key }); i >= 0 {
		return &c.Unread[i]
	}
	return nil
}

// Fixture is a fixture definition.
type Fixture struct {
	Name string
	At   string // path:line:col of its name
}

// Override is a deadline fixture in a conftest below the contract's that
// bears the deadline fixture's name: pytest gives the tests below its
// folder that fixture in place of the contract's, so it says "these tests
// get N seconds", as a deadline.module_seconds glob does in a spec.
type Override struct {
	Conftest string
	Pattern  string // the module_seconds glob of the tests below its folder
	At       string // path:line:col of the fixture's name
	// Seconds is what it arms the timer for; 0 when that was not read
	// (SecondsAt then says where the call is).
	Seconds   float64
	SecondsAt string
	// SecondsEnv is the variables that set its seconds; nil when fixed.
	SecondsEnv []string
}

// Use is one xdist_group mark in a module that uses the fixtures.
type Use struct {
	Group string
	At    string
}

// Probe is an existing probe plugin and the tests that load it.
type Probe struct {
	Plugin    string
	Tests     []string
	Generated bool // fixturegen generated the plugin, so it may rewrite it
}

// Stray is a call in a conftest that arms a timer outside the body of
// every fixture: in a helper, such as a context manager a fixture enters.
// init reads a deadline only from a fixture that arms the timer in its own
// body, so when it finds no contract it names these rather than pass them
// over in silence.
type Stray struct {
	At       string // path:line:col of the call
	Arms     string // signal.setitimer or signal.alarm
	In       string // the module-level function that holds the call; "" at module level
	CalledBy string // a fixture that calls In; "" for none
	// Bounds is set when In is a fixture that arms the timer only to
	// bound its own setup (suite.OwnSetup): no deadline to read.
	Bounds bool
	// Ran says what running CalledBy's setup (or the hook) showed; ""
	// when init did not run it.
	Ran string
	// HandedBy is the fixture that hands its tests In, a function nested
	// in it that arms the timer (suite.HandedOut); "" for none.
	HandedBy string
}

// Find searches the project at root for a hand-written contract and returns
// nil when there is none, with the stray timer calls of its conftests. It
// reads the files pytest reaches, walked as check walks them
// (suite.Files): the folders norecursedirs names (by default hidden ones,
// virtual environments, build output) and what testpaths leaves out hold
// nothing pytest runs. It runs the candidates it finds with python, in
// pytest sessions started in root; a project without one runs nothing.
func Find(root, python string) (*Contract, []Stray, error) {
	t, err := readTree(root)
	if err != nil {
		return nil, nil, err
	}
	var strays []Stray
	var cfs []*conftest
	for _, rel := range t.files {
		if path.Base(rel) != "conftest.py" {
			continue
		}
		m, err := t.module(rel)
		if err != nil {
			return nil, nil, err
		}
		if cf := scanConftest(rel, t.src[rel], m); cf != nil {
			cfs = append(cfs, cf)
			continue
		}
		strays = append(strays, strayCalls(m, rel, m.Fixtures())...)
	}
	if len(cfs) == 0 {
		return nil, strays, nil
	}
	l, err := run(t, python, cfs)
	if err != nil {
		return nil, nil, fmt.Errorf("running the hand-written fixtures: %w", err)
	}
	// The conftest nearest the root covers the most tests: the others
	// below it that bear its deadline's name override it for theirs.
	sort.SliceStable(cfs, func(i, j int) bool { return strings.Count(cfs[i].file, "/") < strings.Count(cfs[j].file, "/") })
	var c *Contract
	var top *conftest
	for _, cf := range cfs {
		if c = l.contract(cf); c != nil {
			top = cf
			break
		}
	}
	if c == nil {
		for _, cf := range cfs {
			strays = append(strays, l.strays(cf)...)
		}
		return nil, strays, nil
	}
	for _, cf := range cfs {
		if cf != top && below(cf.file, top.dir) {
			if o, ok := l.override(cf, c.Deadline.Name); ok {
				c.Overrides = append(c.Overrides, o)
			}
		}
	}
	if err := c.findGroup(t); err != nil {
		return nil, nil, err
	}
	if err := c.findProbe(t); err != nil {
		return nil, nil, err
	}
	if c.Rearms, err = t.rearms(top.dir); err != nil {
		return nil, nil, err
	}
	return c, nil, nil
}

// contract returns the contract whose deadline is the first candidate of
// cf that the runs show to keep a timer armed while the test runs (or
// that arms one in its own body, when its setup failed), or nil.
func (l *learner) contract(cf *conftest) *Contract {
	m := cf.s.m
	for _, cd := range cf.cands {
		sec := l.learnSeconds(cf, cd)
		if !sec.armed && !(cd.own && (sec.base.err != nil || !sec.base.ran)) {
			continue
		}
		def := cd.def
		c := &Contract{Conftest: cf.file, Deadline: fixture(m, cf.file, def), Spec: schema.Deadline{Fixture: cd.name, Timer: schema.TimerReal}}
		c.Origin = map[string]string{"deadline": c.Deadline.At}
		if m.Defs[def].Pos.Col > len("def ")+1 {
			// Defined under an if or a try at module level: generate
			// --adopt takes out only definitions at module level.
			c.Notes = append(c.Notes, fmt.Sprintf("%s: %s is defined inside a block (an if or a try); move it to module level before running fixturegen generate --adopt, which replaces only module-level fixtures", c.Deadline.At, cd.name))
		}
		c.readAutouse(cf, def)
		c.learnTimer(l, cf, sec)
		c.learnHandler(l, sec)
		c.readGuard(cf, def)
		c.learnDefer(l, cf, cd)
		c.notePytestTimeoutVariable()
		c.readPreload(m, cf.file, cf.fx, def)
		if arm := sec.base.arm; arm != nil && arm.Frames[0].File == cf.file {
			c.readEarlyYield(cf.s, def, arm.Frames[0].Line)
		}
		c.readCatchAroundYield(cf.s, def)
		for _, other := range cf.cands {
			if other != cd && l.learnSeconds(cf, other).armed {
				c.Notes = append(c.Notes, fmt.Sprintf("%s: fixture %s arms the timer too; init reads only %s, and generate --adopt replaces only it", at(cf.file, m.Defs[other.def].Pos), other.name, cd.name))
			}
		}
		for name, def := range cf.fx {
			switch suite.FixtureTimer(m, def) {
			case suite.OwnSetup:
				c.Notes = append(c.Notes, fmt.Sprintf("%s: fixture %s arms the timer to bound its own setup and disarms it before any test runs; generate --adopt leaves it as it is, and check reports its alarm (own-timer)", at(cf.file, m.Defs[def].Pos), name))
			case suite.HandedOut:
				c.Notes = append(c.Notes, fmt.Sprintf("%s: fixture %s hands its tests a function that arms the timer, with seconds they choose; generate --adopt leaves it as it is, and check reports its alarm (own-timer)", at(cf.file, m.Defs[def].Pos), name))
			}
		}
		sort.SliceStable(c.Notes, func(i, j int) bool { return notePos(c.Notes[i]) < notePos(c.Notes[j]) })
		return c
	}
	return nil
}

// notePos orders notes by the line they are about.
func notePos(note string) int {
	_, rest, _ := strings.Cut(note, ":")
	line, _, _ := strings.Cut(rest, ":")
	n, _ := strconv.Atoi(line)
	return n
}

// override reads the deadline fixture name of cf, a conftest below the
// contract's, which pytest runs in place of the contract's for the tests
// below cf's folder.
func (l *learner) override(cf *conftest, name string) (Override, bool) {
	for _, cd := range cf.cands {
		if cd.name != name {
			continue
		}
		sec := l.learnSeconds(cf, cd)
		o := Override{Conftest: cf.file, Pattern: path.Dir(cf.file) + "/**", At: fixture(cf.s.m, cf.file, cd.def).At}
		if sec.ok {
			o.Seconds = sec.value
			o.SecondsEnv = sec.env
		}
		if sec.base.arm != nil {
			o.SecondsAt = l.secondsAt(sec.base.arm)
		} else {
			o.SecondsAt, _ = failedAt(cf, sec.base)
		}
		return o, true
	}
	return Override{}, false
}

// strays returns cf's timer calls outside its candidates, each with what
// running the fixture that calls it (or the hook that holds it) showed.
func (l *learner) strays(cf *conftest) []Stray {
	out := append([]Stray{}, cf.strays...)
	for i := range out {
		st := &out[i]
		for _, cd := range cf.cands {
			if cd.name == st.CalledBy {
				st.Ran = l.ran(cf, l.look(cd.base, cd.name, ""), cd.name)
			}
		}
		if slices.Contains(cf.hooks, st.In) {
			st.Ran = l.ran(cf, l.look(cf.hookItem, "", st.In), st.In)
		}
	}
	return out
}

// ran says what one run of a fixture's setup (or a hook) showed.
func (l *learner) ran(cf *conftest, s seen, name string) string {
	switch {
	case !s.ran:
		_, why := failedAt(cf, s)
		return "init could not run it: " + why
	case s.err != nil:
		return fmt.Sprintf("its setup failed when init ran it (%s)", errorText(s.err))
	case s.spans:
		said := ""
		if len(sample(s)) > 0 {
			o := s.ring.Outcomes[0]
			said = fmt.Sprintf(", and its handler raised %s: %s", o.Type, o.Message)
		}
		return fmt.Sprintf("it armed %s s when init ran it for a test%s", pyquote.Number(s.arm.Seconds), said)
	case armsAndDisarms(s.item, name):
		return "it armed a timer and disarmed it before the test ran, when init ran it"
	}
	return "it armed no timer when init ran it for a test of its folder (a mark or an argument of each test may set it)"
}

func at(file string, p pyscan.Pos) string {
	return fmt.Sprintf("%s:%d:%d", file, p.Line, p.Col)
}

func fixture(m *pyscan.Module, file string, def int) Fixture {
	return Fixture{Name: m.FixtureName(def), At: at(file, m.Defs[def].Pos)}
}

// readPreload finds the fixture among the deadline fixture's parameters
// that imports modules, and the modules it imports, in order.
func (c *Contract) readPreload(m *pyscan.Module, file string, fx map[string]int, deadline int) {
	for _, p := range m.Defs[deadline].Params {
		def, ok := fx[p.Name]
		if !ok {
			continue
		}
		var modules []string
		for _, im := range m.Imports {
			if im.Scope != def {
				continue
			}
			mod := im.Module
			switch {
			case strings.HasPrefix(mod, "."):
				c.Notes = append(c.Notes, fmt.Sprintf("%s: a relative import; add its absolute module name to [preload].modules by hand", at(file, im.Pos)))
				continue
			case im.Name != "":
				c.Notes = append(c.Notes, fmt.Sprintf("%s: from %s import %s preloads %s; if %s is a submodule, add %s.%s to [preload].modules",
					at(file, im.Pos), mod, im.Name, mod, im.Name, mod, im.Name))
			}
			if !slices.Contains(modules, mod) {
				modules = append(modules, mod)
			}
		}
		if len(modules) == 0 {
			continue
		}
		f := fixture(m, file, def)
		c.Preload = &f
		c.Modules = modules
		return
	}
}

// findGroup reads the xdist_group marks of the test modules that use the
// fixtures: the ones below the conftest's folder, which its fixtures reach.
func (c *Contract) findGroup(t *tree) error {
	names := map[string]bool{c.Deadline.Name: true}
	if c.Preload != nil {
		names[c.Preload.Name] = true
	}
	count := map[string]int{}
	for _, rel := range t.tests(path.Dir(c.Conftest)) {
		m, err := t.module(rel)
		if err != nil {
			return err
		}
		if !usesAny(m, names) {
			continue
		}
		for _, call := range m.Calls {
			if m.Resolve(call.Callee) != "pytest.mark.xdist_group" {
				continue
			}
			for _, a := range call.Args {
				if a.Kind == pyscan.ArgString && (a.Keyword == "" || a.Keyword == "name") {
					c.GroupUses = append(c.GroupUses, Use{a.Value, at(rel, a.Pos)})
					count[a.Value]++
					break
				}
			}
		}
	}
	sort.SliceStable(c.GroupUses, func(i, j int) bool {
		return count[c.GroupUses[i].Group] > count[c.GroupUses[j].Group]
	})
	if len(c.GroupUses) > 0 {
		c.Group = c.GroupUses[0].Group
		for _, u := range c.GroupUses {
			if u.Group != c.Group {
				c.Notes = append(c.Notes, fmt.Sprintf("%s: this module uses group %q, not %q, which most modules use; fixturegen keeps one group", u.At, u.Group, c.Group))
			}
		}
	}
	return nil
}

// usesAny reports whether a test module uses one of the fixtures: in a
// usefixtures mark or as a parameter of a function.
func usesAny(m *pyscan.Module, names map[string]bool) bool {
	named := func(a pyscan.Arg) bool { return a.Kind == pyscan.ArgString && names[a.Value] }
	for _, call := range m.Calls {
		if m.Resolve(call.Callee) == "pytest.mark.usefixtures" && slices.ContainsFunc(call.Args, named) {
			return true
		}
	}
	return slices.ContainsFunc(m.Defs, func(d pyscan.Def) bool {
		return slices.ContainsFunc(d.Params, func(p pyscan.Param) bool { return names[p.Name] })
	})
}

func isTestFile(rel string) bool {
	base := path.Base(rel)
	return strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py")
}

func below(rel, dir string) bool {
	return dir == "." || strings.HasPrefix(rel, dir+"/")
}

// findProbe looks below the conftest's folder for a probe plugin: a module
// that is not a test module, defines a pytest hook and names setitimer (to
// wrap it); and for the test modules that name the plugin's module in a
// string, as pytest -p takes it.
func (c *Contract) findProbe(t *tree) error {
	for _, rel := range t.files {
		// The generated deadline runtime defines a hook and names
		// setitimer too, but it is no probe.
		if isTestFile(rel) || path.Base(rel) == "conftest.py" || path.Base(rel) == schema.RuntimeFile || !below(rel, path.Dir(c.Conftest)) {
			continue
		}
		src, err := t.read(rel)
		if err != nil {
			return err
		}
		if m, _ := t.module(rel); !hasHook(m) || !hasToken(src, pyscan.Name, "setitimer") {
			continue
		}
		p := &Probe{Plugin: rel, Generated: bytes.HasPrefix(src, []byte(pytext.GeneratedHeader))}
		stem := strings.TrimSuffix(path.Base(rel), ".py")
		for _, test := range t.tests(".") {
			tsrc, err := t.read(test)
			if err != nil {
				return err
			}
			if hasToken(tsrc, pyscan.String, strconv.Quote(stem), "'"+stem+"'") {
				p.Tests = append(p.Tests, test)
			}
		}
		c.Probe = p
		return nil
	}
	return nil
}

func hasHook(m *pyscan.Module) bool {
	return slices.ContainsFunc(m.Defs, func(d pyscan.Def) bool { return d.Parent < 0 && strings.HasPrefix(d.Name, "pytest_") })
}

// hasToken reports whether src holds a token of kind with one of texts: a
// name used as code, not in a string or comment, or a string literal as
// written.
func hasToken(src []byte, kind pyscan.Kind, texts ...string) bool {
	lx := pyscan.NewLexer(src)
	for t := lx.Next(); t.Kind != pyscan.EOF; t = lx.Next() {
		if t.Kind == kind && slices.Contains(texts, string(t.Text)) {
			return true
		}
	}
	return false
}

// tree is the project's files that pytest reaches, walked as check walks
// them (suite.Files), each read and scanned once, when first needed.
type tree struct {
	root  string
	files []string // slash-separated, relative to root, in path order
	src   map[string][]byte
	mods  map[string]*pyscan.Module
}

func readTree(root string) (*tree, error) {
	cfg, err := pytestcfg.Plain(root)
	if err != nil {
		return nil, err
	}
	files, err := suite.Files(root, cfg)
	return &tree{root: root, files: files, src: map[string][]byte{}, mods: map[string]*pyscan.Module{}}, err
}

// read returns the text of file, relative to the root.
func (t *tree) read(file string) ([]byte, error) {
	src, ok := t.src[file]
	if !ok {
		var err error
		if src, err = os.ReadFile(filepath.Join(t.root, filepath.FromSlash(file))); err != nil {
			return nil, err
		}
		t.src[file] = src
	}
	return src, nil
}

// module returns file scanned.
func (t *tree) module(file string) (*pyscan.Module, error) {
	m, ok := t.mods[file]
	if !ok {
		src, err := t.read(file)
		if err != nil {
			return nil, err
		}
		m = pyscan.Scan(src)
		t.mods[file] = m
	}
	return m, nil
}

// tests returns the test modules below dir ("." for all).
func (t *tree) tests(dir string) []string {
	return slices.DeleteFunc(slices.Clone(t.files), func(rel string) bool { return !isTestFile(rel) || !below(rel, dir) })
}
