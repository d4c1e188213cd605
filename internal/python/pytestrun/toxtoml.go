package pytestrun

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/fixturegen/fixturegen/internal/textpos"
	"github.com/fixturegen/fixturegen/schema"
)

// tox reads tox's configuration from the one place tox 4 takes it, the
// first of: tox.ini, setup.cfg with a [tox:tox] section, the
// legacy_tox_ini string of pyproject.toml's [tool.tox], pyproject.toml's
// [tool.tox] table, tox.toml.
func (p *Project) tox() {
	if file := filepath.Join(p.Root, "tox.ini"); exists(file) {
		src, _ := os.ReadFile(file)
		p.toxINI(file, INI(file, src))
		return
	}
	if file := filepath.Join(p.Root, "setup.cfg"); exists(file) {
		src, _ := os.ReadFile(file)
		for line := range strings.Lines(string(src)) {
			if strings.TrimSpace(line) == "[tox:tox]" {
				p.toxINI(file, INI(file, src))
				return
			}
		}
	}
	file := filepath.Join(p.Root, "pyproject.toml")
	if src, err := os.ReadFile(file); err == nil {
		var doc struct {
			Tool struct {
				Tox map[string]any `toml:"tox"`
			} `toml:"tool"`
		}
		if _, err := toml.Decode(string(src), &doc); err == nil && doc.Tool.Tox != nil {
			spans := schema.Locate(src)
			if legacy, ok := doc.Tool.Tox["legacy_tox_ini"].(string); ok {
				p.toxINI(file, legacyINI(file, src, legacy, spans["tool.tox.legacy_tox_ini"]))
				return
			}
			p.toxTOML(file, src, doc.Tool.Tox, "tool.tox", spans)
			return
		}
	}
	file = filepath.Join(p.Root, "tox.toml")
	if src, err := os.ReadFile(file); err == nil {
		var doc map[string]any
		if _, err := toml.Decode(string(src), &doc); err == nil {
			p.toxTOML(file, src, doc, "", schema.Locate(src))
		}
	}
}

func exists(file string) bool {
	st, err := os.Stat(file)
	return err == nil && !st.IsDir()
}

// legacyINI reads the INI text of pyproject.toml's legacy_tox_ini, each
// line at its place in the file when the string is written as it reads
// (a multi-line string, as tox's documentation writes it), else at the
// string's start.
func legacyINI(file string, src []byte, value string, sp schema.Span) []INIKey {
	keys := INI(file, []byte(value))
	at := -1 // the offset of the value's first character, when exact
	if sp.End-sp.Start >= 6 && sp.End <= len(src) {
		lit := string(src[sp.Start:sp.End])
		if q := lit[:3]; q == `"""` || q == `'''` {
			body, start := lit[3:len(lit)-3], sp.Start+3
			// TOML drops a line break right after the opening quotes.
			if nl := strings.IndexByte(body, '\n'); nl >= 0 && strings.TrimRight(body[:nl], "\r") == "" {
				body, start = body[nl+1:], start+nl+1
			}
			if body == value {
				at = start
			}
		}
	}
	line0, col0 := textpos.LineCol(src, max(at, sp.Start))
	shift := func(w *Word) {
		switch {
		case at < 0:
			w.Line, w.Col = line0, col0
		case w.Line == 1:
			w.Line, w.Col = line0, w.Col+col0-1
		default:
			w.Line += line0 - 1
		}
	}
	for i := range keys {
		shift(&keys[i].Name)
		for j := range keys[i].Lines {
			shift(&keys[i].Lines[j])
		}
	}
	return keys
}

// toxTOML reads tox's TOML configuration (tox.toml, or pyproject.toml's
// [tool.tox] table at base): the commands of [env_run_base] and of each
// [env.NAME], each a list of arguments run from change_dir in the
// variables set_env sets, and the packages of deps. An environment
// without commands runs env_run_base's, which were read there.
func (p *Project) toxTOML(file string, src []byte, doc map[string]any, base string, spans map[string]schema.Span) {
	r := toxReader{p: p, file: file, src: src, spans: spans}
	rel := p.rel(file)
	runBase, _ := doc["env_run_base"].(map[string]any)
	type env struct {
		path string
		keys map[string]any
	}
	envs := []env{{schema.JoinKey(base, "env_run_base"), runBase}}
	named, _ := doc["env"].(map[string]any)
	var names []string
	for name := range named {
		names = append(names, name)
	}
	// File order, as tox lists them.
	envPath := func(name string) string { return schema.JoinKey(schema.JoinKey(base, "env"), name) }
	sort.Slice(names, func(i, j int) bool {
		a, b := spans[envPath(names[i])], spans[envPath(names[j])]
		return a.Start < b.Start
	})
	for _, name := range names {
		keys, _ := named[name].(map[string]any)
		envs = append(envs, env{envPath(name), keys})
	}
	for _, e := range envs {
		if e.keys == nil {
			continue
		}
		get := func(key string) (any, string) {
			if v, ok := e.keys[key]; ok {
				return v, schema.JoinKey(e.path, key)
			}
			if v, ok := runBase[key]; ok {
				return v, schema.JoinKey(schema.JoinKey(base, "env_run_base"), key)
			}
			return nil, ""
		}
		where := "[" + e.path + "] of " + rel
		var env []Setting
		if v, path := get("set_env"); v != nil {
			vars, _ := v.(map[string]any)
			for name, value := range vars {
				s, ok := value.(string)
				if !ok {
					continue
				}
				at := r.word(s, schema.JoinKey(path, name))
				setting := Setting{Name: name, Value: at, Where: where}
				if path == schema.JoinKey(e.path, "set_env") {
					p.setting(setting)
				}
				env = append(env, setting)
			}
			sort.Slice(env, func(i, j int) bool {
				a, b := env[i].Value.Pos, env[j].Value.Pos
				return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
			})
		}
		if deps, ok := e.keys["deps"].([]any); ok {
			for i, d := range deps {
				if s, ok := d.(string); ok {
					p.Installs = append(p.Installs, packages([]Word{r.word(s, indexPath(schema.JoinKey(e.path, "deps"), i))})...)
				}
			}
		}
		dir := p.Root
		if v, _ := get("change_dir"); v != nil {
			if d, ok := v.(string); ok {
				dir = p.toxDir(d)
			}
		}
		commands, _ := e.keys["commands"].([]any)
		for i, c := range commands {
			args, _ := c.([]any)
			path := indexPath(schema.JoinKey(e.path, "commands"), i)
			words := r.args(args, path)
			if len(words) > 0 {
				// A leading "-" or "!" (run whatever the exit status) goes.
				name := strings.TrimLeft(words[0].Text, "-!")
				words[0].Col += len(words[0].Text) - len(name)
				words[0].Text = name
				dir, env = p.add(simple{words: words}, dir, where, env)
			}
		}
	}
}

type toxReader struct {
	p     *Project
	file  string
	src   []byte
	spans map[string]schema.Span
}

// args are the words of one command of tox's TOML: its strings, with
// tox's {...} substitutions in them, and the default of a
// {replace = "posargs"} or {replace = "env"} table, which is what runs
// without arguments or with the variable unset.
func (r toxReader) args(args []any, path string) []Word {
	var out []Word
	for i, a := range args {
		at := indexPath(path, i)
		switch a := a.(type) {
		case string:
			w := r.word(a, at)
			t := &text{}
			t.add(w.Text, w.File, w.Line, w.Col)
			t = substitute(t, r.p.toxRoot)
			if len(t.b) > 0 {
				out = append(out, Word{Text: string(t.b), Pos: t.pos[0]})
			}
		case map[string]any:
			switch def := a["default"].(type) {
			case []any:
				out = append(out, r.args(def, schema.JoinKey(at, "default"))...)
			case string:
				if a["replace"] == "env" {
					out = append(out, r.word(def, schema.JoinKey(at, "default")))
				}
			}
		}
	}
	return out
}

// word is the string value s at path, placed at its first character when
// the file writes it as it reads, else at its opening quote.
func (r toxReader) word(s, path string) Word {
	sp := r.spans[path]
	pos := Pos{File: r.file, Line: max(sp.Line, 1), Col: max(sp.Col, 1)}
	if sp.End > sp.Start && sp.End <= len(r.src) {
		pos.Line, pos.Col = textpos.LineCol(r.src, sp.Start)
		if lit := r.src[sp.Start:sp.End]; len(lit) == len(s)+2 && string(lit[1:len(lit)-1]) == s {
			pos.Col++
		}
	}
	return Word{Text: s, Pos: pos}
}

func indexPath(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}
