package render

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/fixturegen/fixturegen/internal/python/region"
	"github.com/fixturegen/fixturegen/internal/specedit"
	"github.com/fixturegen/fixturegen/schema"
)

// FuzzRender feeds arbitrary spec documents (and spec file names) to the
// loader and, for every spec it accepts, renders the files and checks them
// with checkRendered: loading never panics, and no accepted spec yields
// Python that is malformed or says more than the spec asked for.
//
// Run it with
//
//	go test ./internal/gen/render -run '^$' -fuzz FuzzRender -fuzztime 10m
//
// Plain go test runs the seeds and testdata/fuzz/FuzzRender only.
func FuzzRender(f *testing.F) {
	for _, s := range seedSpecs(f) {
		f.Add(s.src, s.name)
	}
	for _, h := range hostile {
		f.Add([]byte(hostileSpec(h)), "fixturegen.toml")
	}
	f.Fuzz(func(t *testing.T, src []byte, name string) {
		if name == "" || strings.ContainsAny(name, "/\x00") {
			// The loader gets a path; a name with a slash is a path with
			// folders, which says nothing new, and NUL cannot be in a path.
			t.Skip()
		}
		spec, err := schema.Parse(src, name, "/project")
		if err != nil {
			return
		}
		files, err := Render(spec)
		if err != nil {
			t.Fatalf("an accepted spec failed to render: %v\n%s", err, src)
		}
		if err := checkRendered(spec, files); err != nil {
			t.Fatalf("%v\nspec %q:\n%s", err, name, src)
		}
	})
}

// seed is one spec document found in the repository.
type seed struct {
	from string // where it was found, for messages
	name string // the spec's file name
	src  []byte
}

// seedSpecs returns every spec in examples/ and every *.toml file held in a
// testscripts/*.txtar archive, so new example and script specs seed the
// fuzzer without anyone listing them.
func seedSpecs(t testing.TB) []seed {
	t.Helper()
	var seeds []seed
	examples, _ := filepath.Glob("../../../examples/*/*.toml")
	for _, file := range examples {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, seed{file, filepath.Base(file), src})
	}
	scripts, _ := filepath.Glob("../../../testscripts/*.txtar")
	for _, file := range scripts {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, ".toml") {
				seeds = append(seeds, seed{file + ":" + f.Name, path.Base(f.Name), f.Data})
			}
		}
	}
	if len(examples) == 0 {
		t.Fatal("no spec under examples/*/: the fuzz seeds would be empty")
	}
	return seeds
}

// hostile are values that would break or inject into the generated Python
// if any of them reached it unquoted or badly quoted.
var hostile = []string{
	`"""`, `'''`, `\`, `\"`, `"`, `'`, "\n", "\r\n", "\r", "\t", "\x7f", "\u0085",
	"é☕", "\u2028", "\u00a0", "\U0001F600", "\ufeff", `{x}`, `{{`, `}`,
	`\N{BULLET}`, `\x41`, `\u0041`, `\0`, "# not a comment",
	`"); import os; os.system("id"); ("`,
	`""" + __import__("os").system("id") + """`,
	"\\\n", `\'`, `%s`, `$HOME`, "a\"b'c\\d\ne",
}

// hostileSpec is the example's shape with h in every free-text value. The
// loader refuses control characters in names, paths and node ids, so there
// h stands only when it has none; the message takes anything, its braces
// doubled, since it is a format string whose only field is {seconds}.
func hostileSpec(h string) string {
	q := specedit.String
	name := h
	if strings.IndexFunc(h, unicode.IsControl) >= 0 {
		name = "plain"
	}
	return fmt.Sprintf(`version = 1

[deadline]
fixture = "recovery_deadline"
seconds = 0.25
message = %s

[preload]
fixture = "toy_sdk"
modules = ["toyredis", "toysdk.server.stdio"]

[group]
name = %s

[paths]
conftest = %s
probe_plugin = "tests/alarm_probe.py"
probe_tests = %s

[probe.record]
%s = "toysdk.server:stdio"

[[probe.case]]
test = "test_probe"
node = %s
planted_delay = { module = "toyredis", seconds = 1.5 }
armed_delay = 2
`, q(strings.NewReplacer("{", "{{", "}", "}}").Replace(h)), q(name), q(safePath(h)+"/conftest.py"), q(safePath(h)+"/test_probe.py"), q(name), q("tests/test_x.py::test_a["+name+"]"))
}

// safePath keeps the characters of h that a relative path may hold.
func safePath(h string) string {
	var b strings.Builder
	for _, r := range h {
		if !unicode.IsControl(r) && r != '\\' && r != '/' {
			b.WriteRune(r)
		}
	}
	if s := b.String(); s != "" && s != "." && s != ".." {
		return "d" + s
	}
	return "d"
}

// checkRendered checks every file rendered from spec:
//
//   - it tokenizes as Python (checkPython), the conftest region with its
//     marker lines and whole files with their generated header;
//   - every name in it is one the templates use or one the spec supplies
//     as an identifier: a spec value that escaped its string literal would
//     show up as a name no template and no identifier field holds;
//   - every free-text spec value that reaches a file comes back, decoded,
//     from one of its string literals: quoted, not mangled or dropped.
func checkRendered(spec *schema.Spec, files []File) error {
	allowed := allowedNames(spec)
	var all []pyToken
	for _, f := range files {
		content := f.Content
		if f.Region {
			content = region.Block(filepath.Base(spec.File), content)
		}
		toks, err := pythonTokens(content)
		toks = joinStrings(toks)
		if err != nil {
			return fmt.Errorf("%s does not tokenize as Python: %v\n%s", f.Path, err, numbered(content))
		}
		for _, tok := range toks {
			if tok.Kind == nameToken && !allowed[tok.Value] {
				return fmt.Errorf("%s:%d: name %q comes from neither a template nor an identifier of the spec\n%s",
					f.Path, tok.Line, tok.Value, numbered(content))
			}
		}
		all = append(all, toks...)
	}
	literals := map[string]bool{}
	for _, tok := range all {
		if tok.Kind == stringToken && !tok.FString {
			literals[tok.Value] = true
		}
	}
	// A message that places the seconds reaches the runtime as the format
	// string it is; one that does not, as its text, its doubled braces undone.
	message := spec.Deadline.Message
	if f, p := schema.ParseMessage(message); p == nil && !f.HasSeconds() {
		message = f.Text()
	}
	want := []string{message, path.Base(spec.File)}
	if spec.Paths.ProbeTests != "" {
		want = append(want, path.Dir(spec.Paths.ProbePlugin))
		for _, r := range spec.Probe.Record {
			want = append(want, r.Key)
		}
		for _, c := range spec.Probe.Cases {
			want = append(want, c.Node)
		}
	}
	for _, w := range want {
		if !literals[w] {
			return fmt.Errorf("no string literal in the rendered files holds the spec value %q", w)
		}
	}
	return nil
}

// allowedNames is the vocabulary of the templates, plus the identifiers the
// spec supplies.
func allowedNames(spec *schema.Spec) map[string]bool {
	names := map[string]bool{}
	for n := range templateNames() {
		names[n] = true
	}
	add := func(ids ...string) {
		for _, id := range ids {
			for _, part := range strings.Split(id, ".") {
				names[part] = true
			}
		}
	}
	add(spec.Deadline.Fixture, spec.Preload.Fixture)
	add(spec.Preload.Modules...)
	for _, r := range spec.Probe.Record {
		add(r.Module, r.Attr)
	}
	for _, c := range spec.Probe.Cases {
		add(c.Test)
	}
	add(strings.TrimSuffix(path.Base(spec.Paths.ProbePlugin), ".py"))
	return names
}

var (
	vocabOnce sync.Once
	vocab     map[string]bool
)

// templateNames renders a fixed spec in every combination of the settings
// that switch template branches (timer, on_import, late_imports, with and
// without probe files, with the per-test timeout's keys, a message that
// places the seconds and module_seconds, without a group, or with neither)
// and collects the names the output uses. The spec's own identifiers are
// chosen so that none of them is a real template name.
func templateNames() map[string]bool {
	vocabOnce.Do(func() {
		vocab = map[string]bool{}
		for _, timer := range []string{"real", "virtual", "prof", "thread", "auto"} {
			for _, onImport := range []string{"exclude", "defer", "raise"} {
				for _, late := range []string{"off", "warn", "fail"} {
					for _, variant := range []int{0, 1, 2, 3} {
						probe, perTest := variant&1 == 1, variant&2 == 2
						src := vocabSpec(timer, onImport, late, probe)
						if perTest {
							src = strings.Replace(src, "[deadline]\n", "[deadline]\nautouse = true\nseconds_env = \"ZZ_ENV\"\nraises = \"TimeoutError\"\ndump_threads = true\nmessage = \"zz {seconds:g} s\"\n", 1)
							src = strings.Replace(src, "[group]\nname = \"g\"\n", "", 1)
							src = strings.Replace(src, "[preload]\n", "[deadline.module_seconds]\n\"test_zz.py\" = 3\n[preload]\n", 1)
						}
						spec, err := schema.Parse([]byte(src), "fixturegen.toml", "/project")
						if err != nil {
							panic(fmt.Sprintf("vocabulary spec rejected: %v\n%s", err, src))
						}
						files, err := Render(spec)
						if err != nil {
							panic(err)
						}
						for _, f := range files {
							toks, err := pythonTokens(f.Content)
							if err != nil {
								panic(fmt.Sprintf("%s: %v", f.Path, err))
							}
							for _, tok := range toks {
								if tok.Kind == nameToken {
									vocab[tok.Value] = true
								}
							}
						}
					}
				}
			}
		}
		for _, own := range []string{"zzdeadline", "zzpreload", "zzmod", "zzsub", "zzattr", "test_zzcase", "zzplugin"} {
			delete(vocab, own)
		}
	})
	return vocab
}

func vocabSpec(timer, onImport, late string, probe bool) string {
	src := fmt.Sprintf(`version = 1
[deadline]
fixture = "zzdeadline"
seconds = 2
timer = %q
on_import = %q
late_imports = %q
[preload]
fixture = "zzpreload"
modules = ["zzmod.zzsub"]
[group]
name = "g"
[paths]
conftest = "conftest.py"
`, timer, onImport, late)
	if probe {
		src += `probe_plugin = "zzplugin.py"
probe_tests = "test_probe.py"
[probe.record]
k = "zzmod:zzattr"
[[probe.case]]
test = "test_zzcase"
node = "test_x.py::test_y"
planted_delay = { module = "zzmod", seconds = 1 }
armed_delay = 1
`
	}
	return src
}

// numbered returns src with line numbers, for failure messages.
func numbered(src []byte) string {
	var b strings.Builder
	for i, line := range bytes.Split(src, []byte("\n")) {
		fmt.Fprintf(&b, "%4d  %s\n", i+1, line)
	}
	return b.String()
}

// TestCheckRenderedCatchesInjection proves checkRendered fails on the
// damage it exists to find, by rendering the example and then undoing the
// quoting of one value in three ways.
func TestCheckRenderedCatchesInjection(t *testing.T) {
	src := strings.Replace(hostileSpec(`x`), `message = "x"`, `message = "only here"`, 1)
	spec, err := schema.Parse([]byte(src), "fixturegen.toml", "/project")
	if err != nil {
		t.Fatal(err)
	}
	files, err := Render(spec)
	if err != nil {
		t.Fatal(err)
	}
	if err := checkRendered(spec, files); err != nil {
		t.Fatalf("the untampered render fails the check: %v", err)
	}
	tamper := []struct {
		name, old, new string
	}{
		// A value pasted without quotes brings names of its own.
		{"unquoted", `MESSAGE: Final[str] = "only here"`, `MESSAGE: Final[str] = only_here; import os`},
		// A value whose quote was not escaped ends its literal early.
		{"unescaped quote", `MESSAGE: Final[str] = "only here"`, `MESSAGE: Final[str] = "only "here"`},
		// Python joins adjacent literals, so a quote that ends a literal
		// early can still tokenize; the joined value gives it away.
		{"split literal", `MESSAGE: Final[str] = "only here"`, `MESSAGE: Final[str] = "only "" here"`},
		// A value that lost a character no longer round-trips.
		{"mangled", `MESSAGE: Final[str] = "only here"`, `MESSAGE: Final[str] = "only there"`},
	}
	for _, tc := range tamper {
		broken := make([]File, len(files))
		copy(broken, files)
		tampered := false
		for i, f := range files {
			broken[i].Content = bytes.Replace(f.Content, []byte(tc.old), []byte(tc.new), 1)
			tampered = tampered || !bytes.Equal(broken[i].Content, f.Content)
		}
		if !tampered {
			t.Fatalf("%s: %q does not occur in the rendered files", tc.name, tc.old)
		}
		if err := checkRendered(spec, broken); err == nil {
			t.Errorf("%s: checkRendered accepted the tampered region", tc.name)
		}
	}
}

// TestHostileValuesLoad makes sure every hostile seed reaches the
// renderer: a seed the loader refuses would test nothing.
func TestHostileValuesLoad(t *testing.T) {
	for _, h := range hostile {
		if _, err := schema.Parse([]byte(hostileSpec(h)), "fixturegen.toml", "/project"); err != nil {
			t.Errorf("hostile seed %q is refused: %v", h, err)
		}
	}
}
