package pytestrun

import (
	"path/filepath"
	"strings"

	"github.com/fixturegen/fixturegen/internal/textpos"
)

// INIKey is one key of an INI section with the lines of its value, each
// with its position.
type INIKey struct {
	Section string
	Name    Word
	Lines   []Word
}

// INI reads an INI file as Python's configparser reads tox.ini and
// setup.cfg: "[section]" headers, "key = value" or "key: value", indented
// lines continuing a value, "#" and ";" comment lines.
func INI(file string, src []byte) []INIKey {
	var out []INIKey
	section := ""
	for i, line := range strings.Split(string(src), "\n") {
		n := i + 1
		line = strings.TrimRight(line, " \t\r")
		if i == 0 {
			line = strings.TrimPrefix(line, "\uFEFF")
		}
		trimmed := strings.TrimLeft(line, " \t")
		if trimmed == "" || trimmed[0] == '#' || trimmed[0] == ';' {
			continue
		}
		switch {
		case line[0] == '[':
			end := strings.IndexByte(line, ']')
			if end < 0 {
				end = len(line)
			}
			section = strings.TrimSpace(line[1:end])
		case line[0] == ' ' || line[0] == '\t':
			if len(out) > 0 && out[len(out)-1].Section == section {
				col := len(line) - len(trimmed)
				k := &out[len(out)-1]
				k.Lines = append(k.Lines, Word{Text: trimmed, Pos: Pos{File: file, Line: n, Col: textpos.ColString(line, col)}})
			}
		default:
			sep := strings.IndexAny(line, "=:")
			if sep < 0 {
				continue
			}
			k := INIKey{Section: section, Name: Word{Text: strings.TrimSpace(line[:sep]), Pos: Pos{File: file, Line: n, Col: 1}}}
			value := strings.TrimLeft(line[sep+1:], " \t")
			if value != "" {
				k.Lines = append(k.Lines, Word{Text: value, Pos: Pos{File: file, Line: n, Col: textpos.ColString(line, len(line)-len(value))}})
			}
			out = append(out, k)
		}
	}
	return out
}

// toxINI reads tox's INI configuration (tox.ini, setup.cfg, or the
// legacy_tox_ini of pyproject.toml): the commands of each [testenv]
// section, run from changedir, in the variables setenv sets, and the
// packages of deps.
func (p *Project) toxINI(file string, keys []INIKey) {
	rel := p.rel(file)
	sections := map[string]map[string]*INIKey{}
	var order []string
	for i := range keys {
		k := &keys[i]
		if k.Section != "testenv" && !strings.HasPrefix(k.Section, "testenv:") {
			continue
		}
		if sections[k.Section] == nil {
			sections[k.Section] = map[string]*INIKey{}
			order = append(order, k.Section)
		}
		sections[k.Section][k.Name.Text] = k
	}
	base := sections["testenv"]
	for _, sec := range order {
		keys := sections[sec]
		get := func(name string) *INIKey {
			if k := keys[name]; k != nil {
				return k
			}
			if base != nil {
				return base[name]
			}
			return nil
		}
		where := "[" + sec + "] of " + rel
		var env []Setting
		if k := keys["setenv"]; k != nil {
			for _, l := range k.Lines {
				name, value, ok := strings.Cut(l.Text, "=")
				if !ok {
					continue
				}
				name = strings.TrimSpace(name)
				trimmed := strings.TrimLeft(value, " \t")
				at := l.Pos
				at.Col += len([]rune(l.Text)) - len([]rune(trimmed))
				s := Setting{Name: name, Value: Word{Text: strings.TrimSpace(trimmed), Pos: at}, Where: where}
				p.setting(s)
				env = append(env, s)
			}
		} else if base != nil && base["setenv"] != nil {
			// The variables of [testenv] hold here; they were recorded there.
			for _, l := range base["setenv"].Lines {
				if name, value, ok := strings.Cut(l.Text, "="); ok {
					env = append(env, Setting{Name: strings.TrimSpace(name), Value: Word{Text: strings.TrimSpace(value), Pos: l.Pos}, Where: "[testenv] of " + rel})
				}
			}
		}
		if k := keys["deps"]; k != nil {
			for _, l := range k.Lines {
				t := p.toxText([]Word{l})
				for _, c := range split(t) {
					p.Installs = append(p.Installs, packages(c.words)...)
				}
			}
		}
		dir := p.Root
		if k := get("changedir"); k != nil && len(k.Lines) > 0 {
			dir = p.toxDir(k.Lines[0].Text)
		}
		// A section without commands runs [testenv]'s, which were read
		// there.
		k := keys["commands"]
		if k == nil {
			continue
		}
		// Each line is a command; a line ending in a backslash goes on
		// on the next.
		var cmd []Word
		for _, l := range k.Lines {
			cmd = append(cmd, l)
			if strings.HasSuffix(l.Text, "\\") {
				continue
			}
			p.addShell(p.toxText(cmd), dir, where, env)
			cmd = nil
		}
		if cmd != nil {
			p.addShell(p.toxText(cmd), dir, where, env)
		}
	}
}

// toxText joins a command's lines and applies tox's substitutions:
// {posargs} goes, {posargs:DEFAULT} becomes DEFAULT (what runs without
// arguments), {toxinidir} and {tox_root} the project's root; a leading "-" or "!" (run
// whatever the exit status) goes too.
func (p *Project) toxText(lines []Word) *text {
	var t text
	for i, l := range lines {
		s := l.Text
		col := l.Col
		if i == 0 {
			trimmed := strings.TrimLeft(s, "-! ")
			col += len(s) - len(trimmed)
			s = trimmed
		}
		if i > 0 {
			t.join("\n")
		}
		t.add(s, l.File, l.Line, col)
	}
	return substitute(&t, p.toxRoot)
}

// toxRoot gives tox's {toxinidir} and {tox_root}, the project's root; no
// other substitution is known here.
func (p *Project) toxRoot(name string) (string, bool) {
	if name == "toxinidir" || name == "tox_root" {
		return p.Root, true
	}
	return "", false
}

// toxDir is the folder a changedir (change_dir) value names: the
// project's root when it holds a substitution other than the root's.
func (p *Project) toxDir(d string) string {
	for _, name := range []string{"toxinidir", "tox_root"} {
		d = strings.ReplaceAll(d, "{"+name+"}", p.Root)
	}
	switch {
	case strings.ContainsAny(d, "{}"):
		return p.Root
	case filepath.IsAbs(d):
		return d
	}
	return filepath.Join(p.Root, filepath.FromSlash(d))
}

// substitute rewrites tox's {...} substitutions in t: {posargs} and []
// go, {posargs:DEFAULT} keeps DEFAULT with its positions, and a name
// value gives is replaced; others stay.
func substitute(t *text, value func(string) (string, bool)) *text {
	var out text
	b := t.b
	for i := 0; i < len(b); i++ {
		if b[i] == '[' && i+1 < len(b) && b[i+1] == ']' {
			i++
			continue
		}
		if b[i] != '{' {
			out.b = append(out.b, b[i])
			out.pos = append(out.pos, t.pos[i])
			continue
		}
		end := strings.IndexByte(string(b[i:]), '}')
		if end < 0 {
			out.b = append(out.b, b[i:]...)
			out.pos = append(out.pos, t.pos[i:]...)
			break
		}
		inner := string(b[i+1 : i+end])
		switch {
		case inner == "posargs":
		case strings.HasPrefix(inner, "posargs:"):
			from := i + 1 + len("posargs:")
			out.b = append(out.b, b[from:i+end]...)
			out.pos = append(out.pos, t.pos[from:i+end]...)
		default:
			v, ok := value(inner)
			if !ok {
				out.b = append(out.b, b[i:i+end+1]...)
				out.pos = append(out.pos, t.pos[i:i+end+1]...)
				break
			}
			for range v {
				out.pos = append(out.pos, t.pos[i])
			}
			out.b = append(out.b, v...)
		}
		i += end
	}
	return &out
}
