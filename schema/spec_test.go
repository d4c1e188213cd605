package schema

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode"
)

var update = flag.Bool("update", false, "rewrite fixturegen.schema.json and the key table of docs/spec.md from Keys")

// jsonSchemaTop is what the editor schema says about the spec as a whole,
// and the definitions its keys share.
var jsonSchemaTop = map[string]any{
	"$schema":     "https://json-schema.org/draft/2020-12/schema",
	"$id":         URL,
	"title":       "fixturegen spec, version 1",
	"description": "The contract that keeps a pytest suite's SIGALRM deadline from interrupting a module's first import: the deadline fixture, the preload fixture that runs before it, the pytest-xdist worker group and the probe cases that prove it, and the import shield that keeps other timers' handlers out of first imports. Lives in fixturegen.toml, or in [tool.fixturegen] of pyproject.toml. Run `fixturegen generate` after editing it.",
	// A spec holds a deadline with its preload, or the shield, or both.
	"anyOf": []any{
		map[string]any{"required": []string{"deadline", "preload"}},
		map[string]any{"required": []string{"shield"}},
	},
}

const jsonSchemaDefs = `{
  "fixture": {
    "description": "A pytest fixture name: an ASCII Python identifier that is not a keyword, not \"request\" and not starting with _fixturegen.",
    "type": "string",
    "pattern": "^[A-Za-z_][A-Za-z0-9_]*$",
    "not": {"anyOf": [{"$ref": "#/$defs/keyword"}, {"const": "request"}, {"pattern": "^_fixturegen"}]}
  },
  "keyword": {"description": "The hard keywords of Python 3, which cannot be names."},
  "module": {
    "description": "A dotted Python module name, as an import statement takes it.",
    "type": "string",
    "pattern": "^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*$"
  },
  "seconds": {
    "description": "A number of seconds, more than 0 and at most a day.",
    "type": "number",
    "exclusiveMinimum": 0,
    "maximum": 86400
  }
}`

// generatedJSONSchema builds fixturegen.schema.json from Keys.
func generatedJSONSchema(t *testing.T) []byte {
	t.Helper()
	root := objectSchema(t, "")
	for k, v := range jsonSchemaTop {
		root[k] = v
	}
	var defs map[string]map[string]any
	if err := json.Unmarshal([]byte(jsonSchemaDefs), &defs); err != nil {
		t.Fatal(err)
	}
	var keywords []string
	for k := range pythonKeywords {
		keywords = append(keywords, k)
	}
	sort.Strings(keywords)
	defs["keyword"]["enum"] = keywords
	root["$defs"] = defs
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(root); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// objectSchema is the closed object schema of table: its keys, and the
// ones it requires.
func objectSchema(t *testing.T, table string) map[string]any {
	props := map[string]any{}
	var required []string
	for _, name := range tableKeys(table) {
		k := keyNamed(t, joinName(table, name))
		props[name] = keySchema(t, k)
		if k.Required {
			required = append(required, name)
		}
	}
	out := map[string]any{"type": "object", "additionalProperties": false, "properties": props}
	if len(required) > 0 {
		out["required"] = required
	}
	return out
}

func keySchema(t *testing.T, k Key) map[string]any {
	m := map[string]any{}
	if k.Schema != "" {
		if err := json.Unmarshal([]byte(k.Schema), &m); err != nil {
			t.Fatalf("Keys: %s: Schema: %v", k.Name, err)
		}
	}
	if len(tableKeys(k.Name)) > 0 {
		into := m
		if m["type"] == "array" {
			into = m["items"].(map[string]any)
		}
		for kw, v := range objectSchema(t, k.Name) {
			into[kw] = v
		}
	}
	m["description"] = sentence(k.Doc)
	if k.Enum != nil {
		m["enum"] = k.Enum
	}
	if k.Default != nil {
		m["default"] = k.Default
	}
	return m
}

// sentence turns a line of Markdown into a plain sentence for editors.
func sentence(doc string) string {
	s := strings.ReplaceAll(doc, "`", "")
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	s = string(r)
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

func keyNamed(t *testing.T, name string) Key {
	for _, k := range Keys {
		if k.Name == name {
			return k
		}
	}
	t.Fatalf("no key %s in Keys", name)
	return Key{}
}

func joinName(table, name string) string {
	if table == "" {
		return name
	}
	return table + "." + name
}

// The editor schema is generated from Keys: a key added to Keys and not
// to the committed file fails here until `go test ./schema -update`.
func TestSchemaFileIsGenerated(t *testing.T) {
	want := generatedJSONSchema(t)
	if *update {
		if err := os.WriteFile(schemaFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from what Keys describe; run go test ./schema -update and review the diff", schemaFile)
	}
}

// Every field of the spec's types that holds a key names it in a toml
// tag, and each tag is a key of Keys, and the other way round: a field
// cannot be added without describing its key.
func TestKeysMatchTypes(t *testing.T) {
	tagged := map[string]bool{}
	var walk func(typ reflect.Type, table string)
	walk = func(typ reflect.Type, table string) {
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			tag, ok := f.Tag.Lookup("toml")
			if !ok {
				continue
			}
			name := joinName(table, tag)
			tagged[name] = true
			ft := f.Type
			for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				walk(ft, name)
			}
		}
	}
	walk(reflect.TypeOf(Spec{}), "")
	for _, k := range Keys {
		if !tagged[k.Name] {
			t.Errorf("Keys describes %s, which no field of the spec's types is tagged with", k.Name)
		}
		delete(tagged, k.Name)
		if strings.TrimSpace(k.Doc) == "" {
			t.Errorf("%s has no Doc", k.Name)
		}
		if k.Enum != nil && k.Default != nil && !slices.Contains(k.Enum, k.Default.(string)) {
			t.Errorf("%s: the default %v is not one of Enum %v", k.Name, k.Default, k.Enum)
		}
	}
	for name := range tagged {
		t.Errorf("a field is tagged toml:%q, but Keys does not describe %s", name, name)
	}
}

// Each default in Keys is the value the loader gives a spec that leaves
// the key out.
func TestKeyDefaultsAreTheLoaders(t *testing.T) {
	s, err := Parse([]byte("version = 1\n[deadline]\nfixture = \"d\"\nseconds = 5\n[preload]\nfixture = \"p\"\nmodules = []\n[paths]\nconftest = \"conftest.py\"\n[shield]\n"), "spec.toml", "/project")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range Keys {
		if k.Default == nil {
			continue
		}
		got, ok := fieldAt(reflect.ValueOf(*s), k.Name)
		if !ok {
			t.Errorf("%s: no field holds it", k.Name)
			continue
		}
		if !reflect.DeepEqual(got, k.Default) {
			t.Errorf("%s: the loader's default is %#v, Keys says %#v", k.Name, got, k.Default)
		}
	}
}

// fieldAt follows toml tags from v to the field that holds key.
func fieldAt(v reflect.Value, key string) (any, bool) {
	first, rest, more := strings.Cut(key, ".")
	for i := 0; i < v.NumField(); i++ {
		if v.Type().Field(i).Tag.Get("toml") != first {
			continue
		}
		if !more {
			return v.Field(i).Interface(), true
		}
		return fieldAt(v.Field(i), rest)
	}
	return nil, false
}

const (
	keyTableFile = "../docs/spec.md"
	keysBegin    = "<!-- fixturegen:keys:begin: generated from schema.Keys by go test ./schema -update -->\n"
	keysEnd      = "<!-- fixturegen:keys:end -->\n"
	tableHeader  = "| key | required | default | meaning |\n|---|---|---|---|\n"
)

// keyTable is docs/spec.md's table of spec keys: every key but the tables
// whose keys it lists.
func keyTable(t *testing.T) string {
	var b strings.Builder
	b.WriteString(tableHeader)
	for _, k := range Keys {
		if k.Table {
			continue
		}
		if strings.Contains(k.Doc, "|") {
			t.Errorf("%s: Doc has a |, which would end its cell in the key table", k.Name)
		}
		row := fmt.Sprintf("| `%s` | %s | %s | %s |\n", k.Name, requiredText(t, k), defaultText(k), k.Doc)
		b.WriteString(strings.ReplaceAll(row, "|  |", "| |"))
	}
	return b.String()
}

// requiredText says when key k is required: "yes", "no", or with the
// optional table that holds it.
func requiredText(t *testing.T, k Key) string {
	switch {
	case k.RequiredWhen != "":
		return k.RequiredWhen
	case !k.Required:
		return "no"
	}
	for table, _ := splitKey(k.Name); table != ""; table, _ = splitKey(table) {
		tk := keyNamed(t, table)
		if tk.Required {
			continue
		}
		switch {
		case strings.Contains(tk.Schema, `"array"`):
			return "with `[[" + table + "]]`"
		case !strings.Contains(table, "."):
			return "with `[" + table + "]`"
		}
		_, name := splitKey(table)
		return "with `" + name + "`"
	}
	return "yes"
}

func defaultText(k Key) string {
	switch {
	case k.DefaultText != "":
		return k.DefaultText
	case k.Default == nil:
		return ""
	}
	return "`" + fmt.Sprint(k.Default) + "`"
}

// docs/spec.md's key table is generated from Keys, between its marker lines.
func TestKeyTableDoc(t *testing.T) {
	src, err := os.ReadFile(keyTableFile)
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	before, rest, ok := strings.Cut(text, keysBegin)
	_, after, ok2 := strings.Cut(rest, keysEnd)
	if !ok || !ok2 {
		t.Fatalf("%s has no %q ... %q lines", keyTableFile, strings.TrimSpace(keysBegin), strings.TrimSpace(keysEnd))
	}
	want := before + keysBegin + keyTable(t) + keysEnd + after
	if *update && want != text {
		if err := os.WriteFile(keyTableFile, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want != text {
		t.Errorf("the key table in %s differs from what Keys describe; run go test ./schema -update and review the diff", keyTableFile)
	}
}

// The loader reads every boolean and every enum key of Keys into the
// field its toml tag names: a key described but not read would be
// accepted and then ignored.
func TestLoaderReadsTheKeys(t *testing.T) {
	base := "version = 1\n[deadline]\nfixture = \"d\"\nseconds = 5\nseconds_env = \"T\"\n[preload]\nfixture = \"p\"\nmodules = []\n[paths]\nconftest = \"conftest.py\"\n[shield]\n"
	for _, k := range Keys {
		var values []any
		switch {
		case k.Enum != nil:
			for _, e := range k.Enum {
				values = append(values, e)
			}
		case k.Default == false:
			values = []any{true}
		default:
			continue
		}
		table, name := splitKey(k.Name)
		header := "[" + table + "]\n"
		if !strings.Contains(base, header) {
			t.Fatalf("%s: test bug: the base spec has no %s", k.Name, strings.TrimSpace(header))
		}
		for _, v := range values {
			value := fmt.Sprint(v)
			if s, ok := v.(string); ok {
				value = fmt.Sprintf("%q", s)
			}
			src := strings.Replace(base, header, header+name+" = "+value+"\n", 1)
			s, err := Parse([]byte(src), "spec.toml", "/project")
			if err != nil {
				t.Errorf("%s = %s: %v", k.Name, value, err)
				continue
			}
			if got, _ := fieldAt(reflect.ValueOf(*s), k.Name); !reflect.DeepEqual(got, v) {
				t.Errorf("%s = %s loads as %#v", k.Name, value, got)
			}
		}
	}
}

// TestModuleSecondsRegexp holds deadline.module_seconds' globs to the paths
// each matches, whole, as the runtime matches them.
func TestModuleSecondsRegexp(t *testing.T) {
	for _, c := range []struct {
		pattern     string
		match, miss []string
	}{
		{"tests/test_zone.py", []string{"tests/test_zone.py"}, []string{"tests/test_zoneXpy", "a/tests/test_zone.py", "tests/test_zone.pyc"}},
		{"tests/test_*.py", []string{"tests/test_a.py", "tests/test_.py"}, []string{"tests/sub/test_a.py"}},
		{"tests/**/test_?.py", []string{"tests/test_a.py", "tests/a/b/test_c.py"}, []string{"tests/test_ab.py", "testsX/test_a.py"}},
		{"tests/slow/**", []string{"tests/slow/test_a.py", "tests/slow/x/y.py"}, []string{"tests/slowest/test_a.py"}},
		{"**", []string{"test_a.py", "a/b.py"}, nil},
	} {
		re := regexp.MustCompile("^(?:" + ModuleSeconds{Pattern: c.pattern}.Regexp() + ")$")
		for _, p := range c.match {
			if !re.MatchString(p) {
				t.Errorf("%s does not match %s (%s)", c.pattern, p, re)
			}
		}
		for _, p := range c.miss {
			if re.MatchString(p) {
				t.Errorf("%s matches %s (%s)", c.pattern, p, re)
			}
		}
	}
}

// The spec a release writes names the schema at its tag; a development
// build's names main's.
func TestURLFor(t *testing.T) {
	for v, want := range map[string]string{
		"0.4.0":    "https://raw.githubusercontent.com/fixturegen/fixturegen/v0.4.0/schema/fixturegen.schema.json",
		"1.0.0rc1": "https://raw.githubusercontent.com/fixturegen/fixturegen/v1.0.0-rc.1/schema/fixturegen.schema.json",
		"dev":      URL,
	} {
		if got := URLFor(v); got != want {
			t.Errorf("URLFor(%q) = %s, want %s", v, got, want)
		}
	}
}
