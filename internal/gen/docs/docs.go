// Package docs writes the reference tables that a project's own document
// about its alarm contract would otherwise keep by hand: the settings, the
// modules in the xdist group and why each is there, and the modules that
// use the alarm and how.
//
// The tables come from the spec and from the facts of the test tree
// (package suite), the model check's rules read, so the document says what
// check checks. They are written between marker lines in a Markdown file
// (see region.Docs); the plan makes the file one of the outputs that
// fixturegen docs and generate write and check compares.
package docs

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/fixturegen/fixturegen/internal/gen/render"
	"github.com/fixturegen/fixturegen/internal/python/pyquote"
	"github.com/fixturegen/fixturegen/internal/python/region"
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/internal/relpath"
	"github.com/fixturegen/fixturegen/schema"
)

// Block renders the whole block, marker lines included, for spec and the
// facts of its tree. Module paths are shown relative to the spec's folder,
// whatever the working directory was when the tree was scanned.
func Block(spec *schema.Spec, facts *suite.Facts) ([]byte, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	rel := func(p string) string {
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		return relpath.Slash(spec.Dir, p)
	}
	var b bytes.Buffer
	b.WriteString(region.DocsBeginLine(filepath.Base(spec.File)))
	b.WriteString("\n")
	b.WriteString(render.MarkdownHeader())
	b.WriteString("\n")
	settings(&b, spec)
	members(&b, spec, facts, rel)
	if spec.HasDeadline() {
		users(&b, spec, facts, rel)
	} else {
		shielded(&b, spec)
	}
	fmt.Fprintf(&b, "\nRefresh these tables with `fixturegen docs`; `fixturegen check` reports them when they are out of date.\n")
	b.WriteString(region.DocsEnd)
	b.WriteString("\n")
	return b.Bytes(), nil
}

// timerOf is what the settings table says of a [deadline].timer value:
// an interval timer's own names, and for thread and auto how they
// deliver the deadline instead.
func timerOf(kind string) schema.IntervalTimer {
	switch kind {
	case schema.TimerThread:
		return schema.IntervalTimer{Time: "real time", Which: "a watchdog thread", Signal: "interrupt_main"}
	case schema.TimerAuto:
		return schema.IntervalTimer{Time: "real time", Which: "ITIMER_REAL or a watchdog thread", Signal: "SIGALRM where it exists"}
	}
	return schema.IntervalTimers[kind]
}

var onImport = map[string]string{
	schema.OnImportExclude: "an import that starts under the alarm is never interrupted, and its time is not charged to the deadline",
	schema.OnImportDefer:   "an import is never interrupted; a deadline that passes during one fails the test right after it",
	schema.OnImportRaise:   "the alarm interrupts anything, imports included",
}

var lateImports = map[string]string{
	schema.LateImportsOff:  "not reported",
	schema.LateImportsWarn: "a pytest warning names the test, the module and its seconds",
	schema.LateImportsFail: "the test errors at teardown, naming the module and its seconds",
}

// specKey is a spec key as the settings table names it: "[table].key",
// the table under its pyproject.toml prefix there.
func specKey(spec *schema.Spec, k string) string {
	table, name, _ := strings.Cut(k, ".")
	if p := schema.TablePrefix(spec.File); p != nil {
		table = strings.Join(p, ".") + "." + table
	}
	return code("[" + table + "]." + name)
}

// pastGrace says what each past_grace value does with a handler held
// for the whole import grace.
var pastGrace = map[string]string{
	schema.PastGraceDeliver: "the handler runs inside the import, which the rollback then undoes",
	schema.PastGraceWait:    "the handler waits until the import finishes, however long",
}

// shieldRows are the settings of [shield], for the settings table.
func shieldRows(spec *schema.Spec) [][4]string {
	sh := spec.Shield
	key := func(k string) string { return specKey(spec, k) }
	var sigs []string
	for _, s := range sh.Signals {
		sigs = append(sigs, code(s))
	}
	where := "the region in " + code(spec.Paths.Conftest)
	rollback := "off: an import a handler interrupts anyway stays as Python leaves it"
	if sh.Rollback {
		rollback = "on: an import a handler interrupts anyway leaves " + code("sys.modules") + ", so its next import runs whole, and an " + code("InterruptedImportWarning") + " names it"
	}
	return [][4]string{
		{"Import shield", "holds the handlers of " + strings.Join(sigs, ", ") + " that are not fixturegen's (pytest-timeout's signal method, a test's own " + code("signal.signal") + ") while a first import runs, and runs them right after it", where, key("shield.signals")},
		{"Import grace", render.Seconds(sh.ImportGrace) + ": the longest one import holds a handler back", where, key("shield.import_grace")},
		{"Past the grace", code(sh.PastGrace) + ": " + pastGrace[sh.PastGrace], where, key("shield.past_grace")},
		{"Rollback", rollback, where, key("shield.rollback")},
	}
}

func settings(b *bytes.Buffer, spec *schema.Spec) {
	fmt.Fprintf(b, "\n### Settings\n\n| Setting | Value | Where it lives | Spec key |\n| --- | --- | --- | --- |\n")
	var rows [][4]string
	if spec.HasDeadline() {
		d := spec.Deadline
		t := timerOf(d.Timer)
		key := func(k string) string { return specKey(spec, k) }
		conftest := code(spec.Paths.Conftest)
		modules := "none yet"
		if len(spec.Preload.Modules) > 0 {
			var ms []string
			for _, m := range spec.Preload.Modules {
				ms = append(ms, code(m))
			}
			modules = strings.Join(ms, ", ")
		}
		rows = [][4]string{
			{"Deadline", fmt.Sprintf("%s of %s (%s, %s)", render.Seconds(d.Seconds), t.Time, code(t.Which), code(t.Signal)),
				fmt.Sprintf("%s fixture in %s", code(d.Fixture), conftest), key("deadline.seconds") + ", " + key("deadline.timer")},
			{"Deadline failure", code(d.Exception() + ": " + failure(d.Message)), "the alarm handler of " + code(d.Fixture), key("deadline.message")},
			{"Imports under the alarm", code(d.OnImport) + ": " + onImport[d.OnImport], code(d.Fixture) + " fixture", key("deadline.on_import")},
			{"Late imports", code(d.LateImports) + ": " + lateImports[d.LateImports], code(d.Fixture) + " fixture", key("deadline.late_imports")},
			{"Preload", modules, fmt.Sprintf("%s fixture, the first parameter of %s", code(spec.Preload.Fixture), code(d.Fixture)), key("preload.modules")},
		}
		if spec.Group.Name != "" {
			rows = append(rows, [4]string{"Worker group", code(spec.Group.Name) + ", with `--dist loadgroup`", "each module's " + code("pytestmark"), key("group.name")})
		}
	}
	// A spec without a deadline holds the shield alone.
	if spec.Shield.On || !spec.HasDeadline() {
		rows = append(rows, shieldRows(spec)...)
	}
	for _, r := range rows {
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", r[0], r[1], r[2], r[3])
	}
}

// shielded says which tests a spec that holds only the shield covers:
// every test below its conftest, whatever timer it runs under.
func shielded(b *bytes.Buffer, spec *schema.Spec) {
	dir := cmp.Or(strings.TrimSuffix(spec.Paths.Conftest, "conftest.py"), ".")
	fmt.Fprintf(b, "\n### Tests the shield covers\n\nEvery test below %s, the folder of the conftest that holds the region: a new test module there needs nothing more. `fixturegen probe` lists the first imports a timeout lands in.\n", code(dir))
}

func members(b *bytes.Buffer, spec *schema.Spec, facts *suite.Facts, rel func(string) string) {
	if spec.Group.Name == "" {
		return
	}
	fmt.Fprintf(b, "\n### Modules in the %s group\n\n", code(spec.Group.Name))
	if len(facts.Members) == 0 {
		fmt.Fprintf(b, "No module is marked %s yet.\n", code(fmt.Sprintf("xdist_group(%s)", pyquote.String(spec.Group.Name))))
		return
	}
	b.WriteString("| Module | Why it is in the group |\n| --- | --- |\n")
	for _, m := range facts.Members {
		var why []string
		for _, r := range m.Reasons {
			why = append(why, reason(spec, r))
		}
		fmt.Fprintf(b, "| %s | %s |\n", code(rel(m.Path)), strings.Join(why, "; "))
	}
}

func users(b *bytes.Buffer, spec *schema.Spec, facts *suite.Facts, rel func(string) string) {
	fmt.Fprintf(b, "\n### Modules that use the alarm\n\n")
	if spec.Deadline.Autouse {
		// An autouse deadline reaches every test below its conftest,
		// including modules that never name it; a list of the modules
		// that do would read as if the others ran without it.
		fmt.Fprintf(b, "Every test below %s: %s is autouse.\n", code(strings.TrimSuffix(spec.Paths.Conftest, "conftest.py")), code(spec.Deadline.Fixture))
		return
	}
	if len(facts.Users) == 0 {
		fmt.Fprintf(b, "No test uses %s yet.\n", code(spec.Deadline.Fixture))
		return
	}
	b.WriteString("| Module | Uses the alarm |\n| --- | --- |\n")
	for _, u := range facts.Users {
		fmt.Fprintf(b, "| %s | %s |\n", code(rel(u.Path)), how(spec, u))
	}
}

// reason says why a module is in the group, from check's reason, with the
// names it mentions as code.
func reason(spec *schema.Spec, r suite.Reason) string {
	switch r.Kind {
	case "uses-fixture":
		how, _ := strings.CutPrefix(r.Detail, "uses "+spec.Deadline.Fixture+" ")
		how = strings.TrimSuffix(strings.TrimPrefix(how, "("), ")")
		if name, ok := strings.CutPrefix(how, "autouse fixture "); ok {
			how = "through the autouse " + code(name) + " fixture"
		} else if name, ok := strings.CutPrefix(how, "parameter "); ok {
			how = "through the parameter " + code(name)
		} else if how != "" {
			how = "through " + code(how)
		}
		return strings.TrimSpace("Uses " + code(spec.Deadline.Fixture) + " " + how)
	case "patches":
		if target, ok := strings.CutPrefix(r.Detail, "patches "); ok {
			return "Patches " + code(target)
		}
	case "marks":
		return "Marks itself, but neither uses " + code(spec.Deadline.Fixture) + " nor patches a preloaded module"
	}
	return cell(sentence(r.Detail))
}

// how says in words how a module's tests reach the deadline fixture: one
// phrase for the whole module when every test gets it the same way, else
// one per test.
func how(spec *schema.Spec, u suite.User) string {
	way := func(use suite.Use) string {
		switch use.How {
		case suite.ViaPytestmark:
			return "through " + code("pytestmark")
		case suite.ViaUsefixtures:
			return "through a " + code("usefixtures") + " mark"
		case suite.ViaAutouse:
			return "through the autouse " + code(use.Via) + " fixture"
		}
		if use.Via == spec.Deadline.Fixture {
			return "as a parameter"
		}
		return "through the " + code(use.Via) + " fixture"
	}
	same := len(u.Uses) == u.Tests
	for _, use := range u.Uses[1:] {
		same = same && way(use) == way(u.Uses[0])
	}
	if same {
		return "Every test, " + way(u.Uses[0])
	}
	var parts []string
	for _, use := range u.Uses {
		parts = append(parts, code(use.Test)+", "+way(use))
	}
	return strings.Join(parts, "; ")
}

// sentence starts s with a capital letter.
func sentence(s string) string {
	for i, r := range s {
		return string(unicode.ToUpper(r)) + s[i+len(string(r)):]
	}
	return s
}

// code writes s as Markdown inline code that is safe in a table cell: a
// pipe is escaped, a backtick gets a longer fence, and control characters
// (a newline in a message, say) become spaces.
func code(s string) string {
	s = cell(s)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if fence != "`" || strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// cell makes plain text safe in a table cell.
func cell(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	return strings.ReplaceAll(s, "|", `\|`)
}

// failure is what a fired deadline's failure says, from deadline.message:
// the message, its seconds named where it places them.
func failure(message string) string {
	f, p := schema.ParseMessage(message)
	if p != nil {
		return message
	}
	return f.With("<seconds>")
}
