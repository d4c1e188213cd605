package schema

import (
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// locateDoc exercises everything the locator must see through: comments and
// strings holding '#', '[', ']', '=' and quotes, quoted and dotted keys,
// multi-line strings and arrays, inline tables (one TOML 1.1 one spanning
// lines), arrays of tables with sub-tables, and a super-table defined after
// its sub-table.
const locateDoc = `# a comment with [brackets] and key = "value"
title = "a # not a comment [x] = y"   # trailing comment
"quoted.key" = 'C:\path # not a comment'
a . b . "c d" = true
multi = """
line # not a comment
"quoted" ] = x
"""""
lit = '''
x ] } '''
arr = [
  1, # one
  # a whole comment line, with ] and }
  [2, "3]"],
  { x = "}" },
]
when = 1979-05-27 07:32:00Z # a date-time holds a space
inl = { k = "v", nested = { deep = [1] }, dotted.key = 2 }
ml = {
  a = 1, # comment inside an inline table
  b = [2],
}

[table . "sub"]
key = "v"

[[fruit]]
name = "apple"
[fruit.physical]
color = "red"
[[fruit.variety]]
name = "red delicious"
[[fruit]]
name = "banana"
[[fruit.variety]]
name = "plantain"
[[fruit.variety]]
name = "cavendish"

[x.y.z]
k = 1
[x]
k2 = 2
`

func TestLocate(t *testing.T) {
	var doc map[string]any
	if _, err := toml.Decode(locateDoc, &doc); err != nil {
		t.Fatalf("the test document is not valid TOML: %v", err)
	}
	spans := Locate([]byte(locateDoc))
	tests := []struct {
		path      string
		line, col int
		text      string // locateDoc[Start:End]
	}{
		{"title", 2, 1, `"a # not a comment [x] = y"`},
		{`"quoted.key"`, 3, 1, `'C:\path # not a comment'`},
		{`a.b."c d"`, 4, 1, `true`},
		{"multi", 5, 1, "\"\"\"\nline # not a comment\n\"quoted\" ] = x\n\"\"\"\"\""},
		{"lit", 9, 1, "'''\nx ] } '''"},
		{"arr", 11, 1, "[\n  1, # one\n  # a whole comment line, with ] and }\n  [2, \"3]\"],\n  { x = \"}\" },\n]"},
		{"arr[0]", 12, 3, "1"},
		{"arr[1]", 14, 3, `[2, "3]"]`},
		{"arr[1][1]", 14, 7, `"3]"`},
		{"arr[2]", 15, 3, `{ x = "}" }`},
		{"arr[2].x", 15, 5, `"}"`},
		{"when", 17, 1, "1979-05-27 07:32:00Z"},
		{"inl", 18, 1, `{ k = "v", nested = { deep = [1] }, dotted.key = 2 }`},
		{"inl.k", 18, 9, `"v"`},
		{"inl.nested.deep", 18, 29, "[1]"},
		{"inl.nested.deep[0]", 18, 37, "1"},
		{"inl.dotted.key", 18, 43, "2"},
		{"ml.a", 20, 3, "1"},
		{"ml.b[0]", 21, 8, "2"},
		{`table."sub"`, 24, 1, `[table . "sub"]`},
		{`table.sub`, 24, 1, `[table . "sub"]`},
		{"table.sub.key", 25, 1, `"v"`},
		{"fruit", 27, 1, "[[fruit]]"},
		{"fruit[0]", 27, 1, "[[fruit]]"},
		{"fruit[0].name", 28, 1, `"apple"`},
		{"fruit[0].physical", 29, 1, "[fruit.physical]"},
		{"fruit[0].physical.color", 30, 1, `"red"`},
		{"fruit[0].variety[0].name", 32, 1, `"red delicious"`},
		{"fruit[1]", 33, 1, "[[fruit]]"},
		{"fruit[1].name", 34, 1, `"banana"`},
		{"fruit[1].variety[0]", 35, 1, "[[fruit.variety]]"},
		{"fruit[1].variety[0].name", 36, 1, `"plantain"`},
		{"fruit[1].variety[1].name", 38, 1, `"cavendish"`},
		{"x.y.z.k", 41, 1, "1"},
		// [x] comes after [x.y.z], which implied it; the explicit header wins.
		{"x", 42, 1, "[x]"},
		{"x.k2", 43, 1, "2"},
	}
	for _, tt := range tests {
		sp, ok := spans[tt.path]
		if !ok {
			// The quoted form of a bare key is never produced.
			if tt.path == `table."sub"` {
				continue
			}
			t.Errorf("%s: not located", tt.path)
			continue
		}
		if sp.Line != tt.line || sp.Col != tt.col {
			t.Errorf("%s: at %d:%d, want %d:%d", tt.path, sp.Line, sp.Col, tt.line, tt.col)
		}
		if got := locateDoc[sp.Start:sp.End]; got != tt.text {
			t.Errorf("%s: value %q, want %q", tt.path, got, tt.text)
		}
	}
	if _, ok := spans[`table."sub"`]; ok {
		t.Errorf(`a bare key written quoted must be located by its bare form, not as table."sub"`)
	}
}

// TestLocateFindsEveryKey checks the locator against the decoder: every key
// the decoder saw must have a position. Arrays of tables are left out, since
// the decoder's keys carry no element index; so are the tables inside arr.
func TestLocateFindsEveryKey(t *testing.T) {
	src := strings.Split(locateDoc, "[[fruit]]")[0]
	md, err := toml.Decode(src, new(map[string]any))
	if err != nil {
		t.Fatal(err)
	}
	spans := Locate([]byte(src))
	for _, k := range md.Keys() {
		if len(k) > 1 && k[0] == "arr" {
			continue
		}
		path := ""
		for _, part := range k {
			path = JoinKey(path, part)
		}
		if _, ok := spans[path]; !ok {
			t.Errorf("key %s (decoder: %s) not located", path, k)
		}
	}
}

func TestLocateDetails(t *testing.T) {
	tests := []struct {
		name, src string
		path      string
		line, col int
		text      string
	}{
		{"crlf line ends", "a = 1\r\nb = \"x\"\r\n", "b", 2, 1, `"x"`},
		{"byte order mark is not a column", "\ufeffa = 1\n", "a", 1, 1, "1"},
		{"escaped quote in a key", `"a\"b" = 1` + "\n", `"a\"b"`, 1, 1, "1"},
		{"unicode escape in a key", `"\u0041" = 1` + "\n", "A", 1, 1, "1"},
		{"literal key", "'a.b' = 1\n", `"a.b"`, 1, 1, "1"},
		{"indented key", "[t]\n    k = 'v' # c\n", "t.k", 2, 5, "'v'"},
		{"no trailing newline", "k = [1, 2]", "k[1]", 1, 9, "2"},
		{"empty array", "k = [ ]\n", "k", 1, 1, "[ ]"},
		{"trailing comma", "k = [\n  'a',\n]\n", "k[0]", 2, 3, "'a'"},
		{"quotes ending a multi-line string", "k = '''x''''' \n", "k", 1, 1, "'''x'''''"},
		{"escaped quotes in a multi-line string", "k = \"\"\"a\\\"\"\"\"\"\"\n", "k", 1, 1, "\"\"\"a\\\"\"\"\"\"\""},
		{"header with spaces", "[ a . b ]\nc = 1\n", "a.b.c", 2, 1, "1"},
		{"array of tables with spaces", "[[ a ]]\nc = 1\n[[ a ]]\nc = 2\n", "a[1].c", 4, 1, "2"},
		{"inline array of tables", "a = [{b = 1}, {b = 2}]\n", "a[1].b", 1, 16, "2"},
		{"table under a dotted key", "[a]\nb.c = 1\n[a.b.d]\ne = 2\n", "a.b.d.e", 4, 1, "2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := toml.Decode(tt.src, new(map[string]any)); err != nil {
				t.Fatalf("not valid TOML: %v", err)
			}
			sp, ok := Locate([]byte(tt.src))[tt.path]
			if !ok {
				t.Fatalf("%s not located in %v", tt.path, Locate([]byte(tt.src)))
			}
			if sp.Line != tt.line || sp.Col != tt.col {
				t.Errorf("at %d:%d, want %d:%d", sp.Line, sp.Col, tt.line, tt.col)
			}
			if got := tt.src[sp.Start:sp.End]; got != tt.text {
				t.Errorf("value %q, want %q", got, tt.text)
			}
		})
	}
}

// TestLocateSpanRewrite shows the use the spans are for: replacing one value
// in place leaves every other byte as it was.
func TestLocateSpanRewrite(t *testing.T) {
	src := "[preload]\nfixture = \"p\"\nmodules = [\n  \"a\", # first\n  \"b\",\n] # keep me\n"
	sp := Locate([]byte(src))["preload.modules"]
	got := src[:sp.Start] + `["a", "b", "c"]` + src[sp.End:]
	want := "[preload]\nfixture = \"p\"\nmodules = [\"a\", \"b\", \"c\"] # keep me\n"
	if got != want {
		t.Errorf("rewrite gave\n%s\nwant\n%s", got, want)
	}
}

func TestLocateNeverPanics(t *testing.T) {
	for _, src := range []string{
		"", "[", "[[", "[a", "a", "a =", "a = \"", "a = '''", "a = \"\"\"\\", "a = [", "a = {",
		"a = [1,,]", "= 1", "[a]]\n", "a.\n", `"a`, "a = {b = [}", "\ufeff", "\xff\xfe",
		"a = " + strings.Repeat("[", 10000),
		"a = " + strings.Repeat("{b=", 10000),
	} {
		Locate([]byte(src))
	}
}

func FuzzLocate(f *testing.F) {
	f.Add(locateDoc)
	f.Add("a = [1, {b = 'c'}]\n[[d]]\ne = \"\"\"f\"\"\"\n")
	f.Fuzz(func(t *testing.T, src string) {
		for path, sp := range Locate([]byte(src)) {
			if sp.Start < 0 || sp.Start > sp.End || sp.End > len(src) || sp.Line < 1 || sp.Col < 1 {
				t.Fatalf("%s: bad span %+v in %d bytes", path, sp, len(src))
			}
		}
	})
}
