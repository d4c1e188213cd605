package render

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/fixturegen/fixturegen/internal/python/region"
	"github.com/fixturegen/fixturegen/internal/testenv"
	"github.com/fixturegen/fixturegen/schema"
)

// minCorpus is how many accepted specs TestCorpusCompiles renders at least.
const minCorpus = 200

// TestCorpusCompiles renders a corpus of accepted specs, derived from the
// fuzz seeds, the committed fuzz corpus and seeded mutations of them, and
// compiles every distinct rendered file with the project's Python:
// py_compile with warnings as errors (an invalid escape is a
// SyntaxWarning), and ast.parse with feature_version (3, 9), the oldest
// grammar the generated code promises. FuzzRender's Go-side check runs
// millions of times; this test holds that check to what CPython says.
func TestCorpusCompiles(t *testing.T) {
	t.Parallel()
	python := testenv.Python(t)
	specs := corpus(t)
	if len(specs) < minCorpus {
		t.Fatalf("only %d accepted specs in the corpus, want at least %d", len(specs), minCorpus)
	}
	dir := t.TempDir()
	// Many specs render some files byte for byte alike (the runtime, most
	// of all); CPython compiles each distinct file once, named after the
	// first spec that rendered it.
	var files []string
	seen := map[string]bool{}
	rendered := 0
	for i, src := range specs {
		spec, err := schema.Parse(src, "fixturegen.toml", "/project")
		if err != nil {
			t.Fatalf("corpus spec %d no longer loads: %v", i, err)
		}
		out, err := Render(spec)
		if err != nil {
			t.Fatalf("corpus spec %d: %v\n%s", i, err, src)
		}
		if err := checkRendered(spec, out); err != nil {
			t.Fatalf("corpus spec %d: %v\n%s", i, err, src)
		}
		for j, f := range out {
			content := f.Content
			if f.Region {
				// The region as it sits in a user's conftest, markers included.
				content = append([]byte("import pytest\n\n\n@pytest.fixture\ndef user():\n    return 1\n\n\n"),
					region.Block("fixturegen.toml", f.Content)...)
			}
			rendered++
			if seen[string(content)] {
				continue
			}
			seen[string(content)] = true
			name := filepath.Join(dir, fmt.Sprintf("spec%03d_file%d.py", i, j))
			if err := os.WriteFile(name, content, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(name+".toml", src, 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, name)
		}
	}
	list := filepath.Join(dir, "files.txt")
	if err := os.WriteFile(list, []byte(strings.Join(files, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	script := `
import ast, py_compile, sys, warnings
warnings.simplefilter("error")
bad = 0
with open(sys.argv[1]) as f:
    names = f.read().split("\n")
for name in names:
    try:
        with open(name, "rb") as f:
            ast.parse(f.read(), name, feature_version=(3, 9))
        py_compile.compile(name, cfile=name + "c", doraise=True)
    except Exception as e:
        bad += 1
        print(f"{name}: {type(e).__name__}: {e}")
print(f"compiled {len(names)} files, {bad} failed")
`
	out, err := exec.Command(python, "-c", script, list).CombinedOutput()
	if err != nil || !bytes.Contains(out, []byte(fmt.Sprintf("compiled %d files, 0 failed", len(files)))) {
		t.Fatalf("python: %v\n%s\n(the spec of each failing file is beside it as FILE.toml in %s)", err, out, dir)
	}
	t.Logf("%d specs, %d files rendered, %d distinct files compiled", len(specs), rendered, len(files))
}

// corpus returns distinct accepted spec documents: the fuzz seeds, the
// committed fuzz corpus, and mutations of them, drawn from a fixed seed so
// that the corpus is the same on every run.
func corpus(t *testing.T) [][]byte {
	t.Helper()
	var bases [][]byte
	for _, s := range seedSpecs(t) {
		bases = append(bases, s.src)
	}
	for _, h := range hostile {
		bases = append(bases, []byte(hostileSpec(h)))
	}
	entries, _ := filepath.Glob("testdata/fuzz/FuzzRender/*")
	for _, e := range entries {
		src, err := readCorpusEntry(e)
		if err != nil {
			t.Fatalf("%s: %v", e, err)
		}
		bases = append(bases, src)
	}

	seen := map[string]bool{}
	var out [][]byte
	accept := func(src []byte) bool {
		if seen[string(src)] {
			return false
		}
		if _, err := schema.Parse(src, "fixturegen.toml", "/project"); err != nil {
			return false
		}
		seen[string(src)] = true
		out = append(out, src)
		return true
	}
	var accepted [][]byte
	for _, b := range bases {
		if accept(b) {
			accepted = append(accepted, b)
		}
	}
	if len(accepted) == 0 {
		t.Fatal("no seed spec loads; there is nothing to mutate")
	}
	rng := rand.New(rand.NewPCG(6, 2026))
	for tries := 0; len(out) < minCorpus+50 && tries < 20*minCorpus; tries++ {
		base := accepted[rng.IntN(len(accepted))]
		var doc map[string]any
		if _, err := toml.Decode(string(base), &doc); err != nil {
			t.Fatalf("a loaded seed does not decode: %v", err)
		}
		for n := 1 + rng.IntN(4); n > 0; n-- {
			mutators[rng.IntN(len(mutators))](rng, doc)
		}
		var buf bytes.Buffer
		if err := toml.NewEncoder(&buf).Encode(doc); err != nil {
			continue
		}
		accept(buf.Bytes())
	}
	return out
}

// readCorpusEntry reads the spec document of a "go test fuzz v1" file.
func readCorpusEntry(file string) ([]byte, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(string(data), "\n")
	if len(lines) < 2 || lines[0] != "go test fuzz v1" {
		return nil, fmt.Errorf("not a go test fuzz v1 file")
	}
	lit, ok := strings.CutPrefix(lines[1], "[]byte(")
	if !ok {
		return nil, fmt.Errorf("first value is not a []byte")
	}
	s, err := strconv.Unquote(strings.TrimSuffix(lit, ")"))
	return []byte(s), err
}

// pick returns one of the strings at random.
func pick(rng *rand.Rand, options ...string) string { return options[rng.IntN(len(options))] }

// text builds a value from one to three hostile pieces and plain words.
func text(rng *rand.Rand, control bool) string {
	var b strings.Builder
	for n := 1 + rng.IntN(3); n > 0; n-- {
		h := hostile[rng.IntN(len(hostile))]
		if !control {
			h = strings.Map(func(r rune) rune {
				if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
					return -1
				}
				return r
			}, h)
		}
		b.WriteString(pick(rng, "", "word ", "é ", "x"))
		b.WriteString(h)
	}
	return b.String()
}

func identifier(rng *rand.Rand) string {
	return pick(rng, "match", "case", "type", "_", "x", "recovery_deadline", "deadline2", "Fixture", "_private", "t_9") +
		pick(rng, "", "_a", "0", "__")
}

func table(doc map[string]any, key string) map[string]any {
	t, ok := doc[key].(map[string]any)
	if !ok {
		t = map[string]any{}
		doc[key] = t
	}
	return t
}

// mutators change one part of a decoded spec. Most results still load;
// those that do not are dropped by corpus.
var mutators = []func(*rand.Rand, map[string]any){
	func(rng *rand.Rand, doc map[string]any) { table(doc, "deadline")["message"] = text(rng, true) },
	func(rng *rand.Rand, doc map[string]any) { table(doc, "group")["name"] = text(rng, false) },
	func(rng *rand.Rand, doc map[string]any) {
		table(doc, "deadline")["seconds"] = pick2(rng, int64(1), 0.001, 5e-9, 86400.0, 2.5, 1e-300, int64(86400), 123.456789)
	},
	func(rng *rand.Rand, doc map[string]any) {
		table(doc, "deadline")["import_grace"] = pick2(rng, int64(60), 0.5, 86400.0, 1e-6)
	},
	func(rng *rand.Rand, doc map[string]any) {
		d := table(doc, "deadline")
		d["timer"] = pick(rng, "real", "virtual", "prof")
		d["on_import"] = pick(rng, "exclude", "defer", "raise")
		d["late_imports"] = pick(rng, "off", "warn", "fail")
	},
	func(rng *rand.Rand, doc map[string]any) {
		table(doc, "deadline")["fixture"] = identifier(rng)
		table(doc, "preload")["fixture"] = identifier(rng) + "_pre"
	},
	func(rng *rand.Rand, doc map[string]any) {
		var mods []any
		for n := rng.IntN(5); n > 0; n-- {
			mods = append(mods, identifier(rng)+pick(rng, "", ".sub", ".a.b.c", ".match"))
		}
		table(doc, "preload")["modules"] = mods
	},
	func(rng *rand.Rand, doc map[string]any) {
		rec := map[string]any{}
		for n := rng.IntN(4); n > 0; n-- {
			rec[text(rng, false)+strconv.Itoa(n)] = identifier(rng) + pick(rng, "", ":attr", ".x:y")
		}
		table(doc, "probe")["record"] = rec
	},
	func(rng *rand.Rand, doc map[string]any) {
		dir := strings.NewReplacer("/", "", `\`, "").Replace(text(rng, false))
		if dir == "" || dir == "." || dir == ".." {
			dir = "d"
		}
		p := table(doc, "paths")
		p["conftest"] = dir + "/conftest.py"
		p["probe_plugin"] = dir + "/" + pick(rng, "alarm_probe", "probe", "_p") + ".py"
		p["probe_tests"] = dir + "/sub dir/test_probe.py"
	},
	func(rng *rand.Rand, doc map[string]any) {
		p := table(doc, "paths")
		p["probe_plugin"] = "tests/alarm_probe.py"
		p["probe_tests"] = "tests/test_alarm_probe.py"
		c := map[string]any{
			"test": "test_" + identifier(rng),
			"node": "tests/test_x.py::" + pick(rng, "test_a", "TestC::test_b") + "[" + text(rng, false) + "]",
		}
		if rng.IntN(2) == 0 {
			c["planted_delay"] = map[string]any{"module": identifier(rng), "seconds": 0.5}
		}
		if rng.IntN(2) == 0 {
			c["armed_delay"] = int64(1 + rng.IntN(3))
		}
		table(doc, "probe")["case"] = []map[string]any{c}
	},
}

func pick2(rng *rand.Rand, options ...any) any { return options[rng.IntN(len(options))] }
