package schema

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// The editor schema, schema/fixturegen.schema.json, is generated from Keys
// (see keys_test.go), for TOML editors. These tests keep it honest: its
// keys are the loader's keys, every key has a description, every example spec passes
// it, and it refuses the mistakes the loader refuses, as far as JSON Schema
// can say them. The validator below understands exactly the keywords the
// schema uses and refuses any other, so the schema cannot lean on a keyword
// these tests would silently skip.

const schemaFile = "fixturegen.schema.json"

// loaderTables maps each table of the spec, by its path in the schema
// ("probe.case[]" for the tables of an array), to the loader's list of keys
// for it.
var loaderTables = map[string][]string{
	"":                           tableKeys(""),
	"deadline":                   tableKeys("deadline"),
	"preload":                    tableKeys("preload"),
	"group":                      tableKeys("group"),
	"paths":                      tableKeys("paths"),
	"probe":                      tableKeys("probe"),
	"probe.case[]":               tableKeys("probe.case"),
	"probe.case[].planted_delay": tableKeys("probe.case.planted_delay"),
	"shield":                     tableKeys("shield"),
}

func loadJSONSchema(t *testing.T) *jsonSchema {
	t.Helper()
	data, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	var root map[string]any
	if err := json.Unmarshal(data, &root); err != nil {
		t.Fatalf("%s: %v", schemaFile, err)
	}
	s := &jsonSchema{root: root}
	if errs := s.checkKeywords(root, "#"); len(errs) > 0 {
		t.Fatalf("%s uses keywords or patterns this test's validator does not know:\n%s", schemaFile, strings.Join(errs, "\n"))
	}
	return s
}

func TestSchemaKeysMatchLoader(t *testing.T) {
	s := loadJSONSchema(t)

	tables := s.tables(s.root, "")
	for path, keys := range loaderTables {
		props, ok := tables[path]
		if !ok {
			t.Errorf("the loader reads table %q, which the schema does not describe", path)
			continue
		}
		for _, k := range keys {
			if !slices.Contains(props, k) {
				t.Errorf("the loader accepts key %q in table %q, which the schema lacks", k, path)
			}
		}
		for _, k := range props {
			if !slices.Contains(keys, k) {
				t.Errorf("the schema has key %q in table %q, which the loader refuses", k, path)
			}
		}
	}
	for path := range tables {
		if _, ok := loaderTables[path]; !ok {
			t.Errorf("the schema describes table %q, which the loader does not read", path)
		}
	}
}

// tables returns the property names of every closed object schema under
// node, by table path.
func (s *jsonSchema) tables(node map[string]any, path string) map[string][]string {
	out := map[string][]string{}
	node = s.resolve(node)
	if props, ok := node["properties"].(map[string]any); ok && node["additionalProperties"] == false {
		var names []string
		for k, v := range props {
			names = append(names, k)
			child := JoinKey(path, k)
			sub := s.resolve(v.(map[string]any))
			if items, ok := sub["items"].(map[string]any); ok {
				sub, child = s.resolve(items), child+"[]"
			}
			for p, n := range s.tables(sub, child) {
				out[p] = n
			}
		}
		sort.Strings(names)
		out[path] = names
	}
	return out
}

func TestSchemaDescribesEveryKey(t *testing.T) {
	s := loadJSONSchema(t)
	if s.root["$id"] != URL {
		t.Errorf("$id is %v; the #:schema comments fixturegen writes name %s", s.root["$id"], URL)
	}
	var walk func(node map[string]any, where string)
	walk = func(node map[string]any, where string) {
		if props, ok := node["properties"].(map[string]any); ok {
			for k, v := range props {
				sub := v.(map[string]any)
				if d, _ := sub["description"].(string); strings.TrimSpace(d) == "" {
					t.Errorf("%s: key %q has no description", where, k)
				}
				walk(sub, where+"."+k)
			}
		}
		for _, kw := range []string{"items", "additionalProperties"} {
			if sub, ok := node[kw].(map[string]any); ok {
				sub = s.resolve(sub)
				if d, _ := sub["description"].(string); strings.TrimSpace(d) == "" {
					t.Errorf("%s: %s has no description", where, kw)
				}
				walk(sub, where+"."+kw)
			}
		}
	}
	if d, _ := s.root["description"].(string); d == "" {
		t.Error("the schema has no description")
	}
	walk(s.root, "#")
}

// TestExamplesMatchSchema validates every spec under examples/ (its own
// fixturegen.toml or a pyproject.toml's [tool.fixturegen]) against the
// schema and with the loader, and checks that a #:schema comment in it
// leads to the schema file.
func TestExamplesMatchSchema(t *testing.T) {
	s := loadJSONSchema(t)
	schemaAbs, _ := filepath.Abs(schemaFile)
	found := 0
	err := filepath.WalkDir("../examples", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || (d.Name() != DefaultFile && d.Name() != PyprojectFile) {
			return nil
		}
		prefix := TablePrefix(path)
		if prefix != nil {
			if sp, err := PyprojectSpan(path); err != nil || sp == nil {
				return err
			}
		}
		found++
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var doc map[string]any
		if _, err := toml.Decode(string(src), &doc); err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		for _, k := range prefix {
			doc, _ = doc[k].(map[string]any)
		}
		for _, e := range s.validate(doc) {
			t.Errorf("%s: %s", path, e)
		}
		if _, err := Load(path); err != nil {
			t.Errorf("%s: the loader refuses it: %v", path, err)
		}
		if first, _, _ := strings.Cut(string(src), "\n"); strings.HasPrefix(first, "#:schema ") && prefix == nil {
			ref := strings.TrimSpace(strings.TrimPrefix(first, "#:schema "))
			if !strings.Contains(ref, "://") {
				got, _ := filepath.Abs(filepath.Join(filepath.Dir(path), filepath.FromSlash(ref)))
				if got != schemaAbs {
					t.Errorf("%s: #:schema %s leads to %s, not to %s", path, ref, got, schemaAbs)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found == 0 {
		t.Fatal("no spec under examples/")
	}
}

// TestSchemaAgreesWithLoader feeds small variations of a valid spec to both
// the loader and the schema: each must accept or refuse them alike.
func TestSchemaAgreesWithLoader(t *testing.T) {
	s := loadJSONSchema(t)
	base := minimal + "docs = \"docs/alarm.md\"\n\n[probe.record]\nstdio = \"a.b:c\"\n\n" + oneCase + "planted_delay = { module = \"a\", seconds = 2 }\narmed_delay = 0.5\n"
	tests := []struct {
		name     string
		old, new string
		ok       bool
	}{
		{"as it is", "", "", true},
		{"every optional deadline key", "seconds = 5\n", "seconds = 5\ntimer = \"prof\"\nmessage = \"m\"\non_import = \"defer\"\nlate_imports = \"fail\"\nimport_grace = 30\n", true},
		{"float seconds", "seconds = 5", "seconds = 0.25", true},
		{"autouse per-test timeout", "seconds = 5\n", "seconds = 4\ntimer = \"auto\"\nautouse = true\nseconds_env = \"SUITE_TEST_LIMIT\"\nraises = \"TimeoutError\"\ndump_threads = true\n", true},
		{"thread timer", "seconds = 5\n", "seconds = 5\ntimer = \"thread\"\n", true},
		{"no group", "[group]\nname = \"g\"\n", "", true},
		{"runtime", "[paths]\n", "[paths]\nruntime = \"tests/support/deadline_runtime.py\"\n", true},
		{"runtime not Python", "[paths]\n", "[paths]\nruntime = \"tests/runtime.txt\"\n", false},
		{"runtime as tests", "[paths]\n", "[paths]\nruntime = \"tests/test_runtime.py\"\n", false},
		{"bad raises", "seconds = 5\n", "seconds = 5\nraises = \"RuntimeError\"\n", false},
		{"autouse as text", "seconds = 5\n", "seconds = 5\nautouse = \"yes\"\n", false},
		{"dump_threads as a number", "seconds = 5\n", "seconds = 5\ndump_threads = 1\n", false},
		{"seconds_env with a dash", "seconds = 5\n", "seconds = 5\nseconds_env = \"TEST-LIMIT\"\n", false},
		{"empty preload", `modules = ["a", "b.c"]`, "modules = []", true},
		{"unknown top key", "version = 1\n", "version = 1\nextra = 1\n", false},
		{"shield", "version = 1\n", "version = 1\n[shield]\nsignals = [\"SIGALRM\", \"SIGVTALRM\"]\nimport_grace = 5\npast_grace = \"wait\"\nrollback = false\n", true},
		{"bad shield signal", "version = 1\n", "version = 1\n[shield]\nsignals = [\"SIGINT\"]\n", false},
		{"bad past_grace", "version = 1\n", "version = 1\n[shield]\npast_grace = \"raise\"\n", false},
		{"no deadline nor shield", "[deadline]\nfixture = \"deadline\"\nseconds = 5\n", "", false},
		{"unknown deadline key", "seconds = 5\n", "seconds = 5\nSeconds = 5\n", false},
		{"unknown case key", "armed_delay = 0.5\n", "armed_delay = 0.5\nnode_id = \"x\"\n", false},
		{"version 2", "version = 1", "version = 2", false},
		{"required_version", "version = 1\n", "version = 1\nrequired_version = \">=0.4, <2, !=0.5.*\"\n", true},
		{"required_version ~=", "version = 1\n", "version = 1\nrequired_version = \"~=0.4.1\"\n", true},
		{"required_version without operator", "version = 1\n", "version = 1\nrequired_version = \"0.4\"\n", false},
		{"required_version not a version", "version = 1\n", "version = 1\nrequired_version = \">=next\"\n", false},
		{"required_version trailing comma", "version = 1\n", "version = 1\nrequired_version = \">=0.4,\"\n", false},
		{"required_version as a number", "version = 1\n", "version = 1\nrequired_version = 0.4\n", false},
		{"zero seconds", "seconds = 5", "seconds = 0", false},
		{"a week", "seconds = 5", "seconds = 604800", false},
		{"seconds as text", "seconds = 5", "seconds = \"5\"", false},
		{"bad timer", "seconds = 5\n", "seconds = 5\ntimer = \"wall\"\n", false},
		{"bad on_import", "seconds = 5\n", "seconds = 5\non_import = \"skip\"\n", false},
		{"empty message", "seconds = 5\n", "seconds = 5\nmessage = \"\"\n", false},
		{"message with the seconds", "seconds = 5\n", "seconds = 5\nmessage = \"took {seconds:.1f} s {{x}}\"\n", true},
		{"message with another field", "seconds = 5\n", "seconds = 5\nmessage = \"took {timeout} s\"\n", false},
		{"message with a single brace", "seconds = 5\n", "seconds = 5\nmessage = \"took { s\"\n", false},
		{"fixture keyword", `fixture = "deadline"`, `fixture = "lambda"`, false},
		{"fixture request", `fixture = "deadline"`, `fixture = "request"`, false},
		{"fixture reserved", `fixture = "deadline"`, `fixture = "_fixturegen_x"`, false},
		{"fixture digit", `fixture = "deadline"`, `fixture = "1x"`, false},
		{"missing seconds", "seconds = 5\n", "", false},
		{"bad module", `"b.c"`, `"b..c"`, false},
		{"repeated module", `"b.c"`, `"a"`, false},
		{"empty group", `name = "g"`, `name = ""`, false},
		{"long group", `name = "g"`, `name = "` + strings.Repeat("g", 201) + `"`, false},
		{"conftest name", `"tests/conftest.py"`, `"tests/setup.py"`, false},
		{"absolute conftest", `"tests/conftest.py"`, `"/tests/conftest.py"`, false},
		{"plugin stem", `"tests/alarm_probe.py"`, `"tests/alarm-probe.py"`, false},
		{"tests name", `"tests/test_alarm_probe.py"`, `"tests/alarm_probe_test.py"`, false},
		{"docs not Markdown", `"docs/alarm.md"`, `"docs/alarm.rst"`, false},
		{"record target", `"a.b:c"`, `"a.b:"`, false},
		{"case test name", `test = "test_one"`, `test = "probe_one"`, false},
		{"case node", `"tests/test_x.py::test_a"`, `"tests/test_x.py"`, false},
		{"planted delay seconds", "seconds = 2 }", "seconds = -2 }", false},
		{"planted delay key", "seconds = 2 }", "seconds = 2, after = 1 }", false},
		{"case without node", "node = \"tests/test_x.py::test_a\"\n", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := base
			if tt.old != "" {
				if !strings.Contains(src, tt.old) {
					t.Fatalf("test bug: %q is not in the spec", tt.old)
				}
				src = strings.Replace(src, tt.old, tt.new, 1)
			}
			_, loadErr := Parse([]byte(src), "spec.toml", "/project")
			var doc map[string]any
			if _, err := toml.Decode(src, &doc); err != nil {
				t.Fatal(err)
			}
			schemaErrs := s.validate(doc)
			if (loadErr == nil) != tt.ok {
				t.Errorf("loader: got %v, want ok=%v", loadErr, tt.ok)
			}
			if (len(schemaErrs) == 0) != tt.ok {
				t.Errorf("schema: got %v, want ok=%v", schemaErrs, tt.ok)
			}
		})
	}
}

// jsonSchema is a validator for the subset of JSON Schema (draft 2020-12)
// that fixturegen.schema.json uses.
type jsonSchema struct{ root map[string]any }

// keywords are the keywords the validator understands; annotations are
// those it reads but that never fail a value.
var (
	keywords = []string{
		"type", "properties", "additionalProperties", "required", "enum", "const",
		"pattern", "minLength", "maxLength", "exclusiveMinimum", "maximum",
		"items", "uniqueItems", "propertyNames", "not", "anyOf", "$ref",
	}
	annotations = []string{"$schema", "$id", "$defs", "title", "description", "default"}
)

// checkKeywords lists every keyword under node that the validator does not
// know, by its JSON pointer.
func (s *jsonSchema) checkKeywords(node map[string]any, ptr string) []string {
	var errs []string
	for k, v := range node {
		if !slices.Contains(keywords, k) && !slices.Contains(annotations, k) {
			errs = append(errs, ptr+"/"+k)
		}
		switch k {
		case "properties", "$defs":
			for name, sub := range v.(map[string]any) {
				errs = append(errs, s.checkKeywords(sub.(map[string]any), ptr+"/"+k+"/"+name)...)
			}
		case "items", "propertyNames", "not", "additionalProperties":
			if sub, ok := v.(map[string]any); ok {
				errs = append(errs, s.checkKeywords(sub, ptr+"/"+k)...)
			}
		case "anyOf":
			for i, sub := range v.([]any) {
				errs = append(errs, s.checkKeywords(sub.(map[string]any), fmt.Sprintf("%s/%s/%d", ptr, k, i))...)
			}
		case "pattern":
			if _, err := regexp.Compile(v.(string)); err != nil {
				errs = append(errs, fmt.Sprintf("%s/pattern: %v", ptr, err))
			}
		}
	}
	return errs
}

// resolve follows a local "$ref": "#/$defs/name", merging the referring
// schema's own keywords (its description, say) over the target's.
func (s *jsonSchema) resolve(node map[string]any) map[string]any {
	ref, ok := node["$ref"].(string)
	if !ok {
		return node
	}
	name, ok := strings.CutPrefix(ref, "#/$defs/")
	if !ok {
		panic("unsupported $ref " + ref)
	}
	target := s.resolve(s.root["$defs"].(map[string]any)[name].(map[string]any))
	out := map[string]any{}
	for k, v := range target {
		out[k] = v
	}
	for k, v := range node {
		if k != "$ref" {
			out[k] = v
		}
	}
	return out
}

// validate returns every way doc breaks the schema, by TOML key path.
func (s *jsonSchema) validate(doc map[string]any) []string {
	return s.check(s.root, doc, "")
}

func (s *jsonSchema) check(node map[string]any, v any, at string) []string {
	node = s.resolve(node)
	where := at
	if where == "" {
		where = "the spec"
	}
	var errs []string
	fail := func(format string, args ...any) {
		errs = append(errs, where+": "+fmt.Sprintf(format, args...))
	}
	if t, ok := node["type"].(string); ok && !hasType(v, t) {
		fail("want type %s, got %T", t, v)
		return errs
	}
	if c, ok := node["const"]; ok && !jsonEqual(c, v) {
		fail("want %v, got %v", c, v)
	}
	if enum, ok := node["enum"].([]any); ok && !slices.ContainsFunc(enum, func(e any) bool { return jsonEqual(e, v) }) {
		fail("%v is not one of %v", v, enum)
	}
	if str, ok := v.(string); ok {
		n := float64(len([]rune(str)))
		if min, ok := node["minLength"].(float64); ok && n < min {
			fail("shorter than %v characters", min)
		}
		if max, ok := node["maxLength"].(float64); ok && n > max {
			fail("longer than %v characters", max)
		}
		if p, ok := node["pattern"].(string); ok && !regexp.MustCompile(p).MatchString(str) {
			fail("%q does not match %s", str, p)
		}
	}
	if f, ok := number(v); ok {
		if min, ok := node["exclusiveMinimum"].(float64); ok && f <= min {
			fail("%v is not more than %v", f, min)
		}
		if max, ok := node["maximum"].(float64); ok && f > max {
			fail("%v is more than %v", f, max)
		}
	}
	if list, ok := asList(v); ok {
		if items, ok := node["items"].(map[string]any); ok {
			for i, e := range list {
				errs = append(errs, s.check(items, e, fmt.Sprintf("%s[%d]", at, i))...)
			}
		}
		if node["uniqueItems"] == true {
			for i := range list {
				for j := i + 1; j < len(list); j++ {
					if jsonEqual(list[i], list[j]) {
						fail("items %d and %d are equal", i, j)
					}
				}
			}
		}
	}
	if obj, ok := v.(map[string]any); ok {
		props, _ := node["properties"].(map[string]any)
		for _, r := range asAnyList(node["required"]) {
			if _, ok := obj[r.(string)]; !ok {
				fail("missing required key %s", r)
			}
		}
		for k, val := range obj {
			if sub, ok := props[k].(map[string]any); ok {
				errs = append(errs, s.check(sub, val, JoinKey(at, k))...)
				continue
			}
			switch extra := node["additionalProperties"].(type) {
			case bool:
				if !extra {
					fail("unknown key %q", k)
				}
			case map[string]any:
				errs = append(errs, s.check(extra, val, JoinKey(at, k))...)
			}
		}
		if names, ok := node["propertyNames"].(map[string]any); ok {
			for k := range obj {
				errs = append(errs, s.check(names, k, JoinKey(at, k))...)
			}
		}
	}
	if not, ok := node["not"].(map[string]any); ok && len(s.check(not, v, at)) == 0 {
		fail("%v matches a value the schema forbids", v)
	}
	if anyOf, ok := node["anyOf"].([]any); ok {
		matched := false
		for _, sub := range anyOf {
			if len(s.check(sub.(map[string]any), v, at)) == 0 {
				matched = true
			}
		}
		if !matched {
			fail("%v matches none of anyOf", v)
		}
	}
	return errs
}

// hasType reports whether a decoded TOML value has a JSON Schema type.
func hasType(v any, t string) bool {
	switch t {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := asList(v)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "integer":
		f, ok := number(v)
		return ok && f == math.Trunc(f)
	case "number":
		_, ok := number(v)
		return ok
	}
	panic("unsupported type " + t)
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// asList returns a TOML array or array of tables as a list.
func asList(v any) ([]any, bool) {
	switch x := v.(type) {
	case []any:
		return x, true
	case []map[string]any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = e
		}
		return out, true
	}
	return nil, false
}

func asAnyList(v any) []any {
	l, _ := v.([]any)
	return l
}

// jsonEqual compares a value from the JSON schema with a decoded TOML value,
// numbers by value.
func jsonEqual(a, b any) bool {
	fa, aok := number(a)
	fb, bok := number(b)
	if aok || bok {
		return aok && bok && fa == fb
	}
	return reflect.DeepEqual(a, b)
}
