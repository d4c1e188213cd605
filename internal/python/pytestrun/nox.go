package pytestrun

import (
	"path/filepath"
	"strings"

	"github.com/fixturegen/fixturegen/internal/python/pyscan"
)

// nox reads noxfile.py: each session's session.run("pytest", ...) (or
// "python", "-m", "pytest"), from the folder session.chdir moved to, and
// its session.install packages; and every "PYTEST_..." key given a string
// value (session.env["PYTEST_TIMEOUT"] = "60", env={"PYTEST_TIMEOUT":
// "60"}).
func (p *Project) nox(file string, src []byte) {
	rel := p.rel(file)
	m := pyscan.Scan(src)
	dirs := map[int]string{} // the folder of each session, by its def
	for _, c := range m.Calls {
		last := c.Callee[strings.LastIndexByte(c.Callee, '.')+1:]
		where := rel
		if c.Scope >= 0 {
			where = "session " + m.Defs[c.Scope].Name + " of " + rel
		}
		var words []Word
		for _, a := range c.Args {
			if a.Keyword == "" && a.Kind == pyscan.ArgString {
				// The argument's text starts after its quote.
				words = append(words, Word{Text: a.Value, Pos: Pos{File: file, Line: a.Pos.Line, Col: a.Pos.Col + 1}})
			}
		}
		switch last {
		case "chdir":
			if len(words) > 0 {
				d := filepath.FromSlash(words[0].Text)
				if !filepath.IsAbs(d) {
					d = filepath.Join(p.Root, d)
				}
				dirs[c.Scope] = d
			}
		case "install":
			p.Installs = append(p.Installs, packages(words)...)
		case "run", "run_always", "run_install":
			at, args, ok := pytestArgs(words)
			if !ok {
				continue
			}
			dir := p.Root
			if d, ok := dirs[c.Scope]; ok {
				dir = d
			}
			p.Commands = append(p.Commands, Command{At: at, Where: where, Dir: dir, Args: args})
		}
	}
	p.pythonSettings(file, src, rel)
}

// pythonSettings records the "PYTEST_..." string keys given a string
// value in Python source: d["PYTEST_X"] = "v" and {"PYTEST_X": "v"}.
func (p *Project) pythonSettings(file string, src []byte, where string) {
	lx := pyscan.NewLexer(src)
	var toks []pyscan.Token
	for t := lx.Next(); t.Kind != pyscan.EOF; t = lx.Next() {
		toks = append(toks, t)
	}
	for i, t := range toks {
		if t.Kind != pyscan.String {
			continue
		}
		name, ok := pyscan.StringValue(string(t.Text))
		if !ok || !strings.HasPrefix(name, "PYTEST_") {
			continue
		}
		j := i + 1
		switch {
		case j+1 < len(toks) && string(toks[j].Text) == ":":
			j++
		case j+2 < len(toks) && string(toks[j].Text) == "]" && string(toks[j+1].Text) == "=":
			j += 2
		default:
			continue
		}
		if toks[j].Kind != pyscan.String {
			continue
		}
		value, ok := pyscan.StringValue(string(toks[j].Text))
		if !ok {
			continue
		}
		pos := lx.Pos(toks[j])
		p.setting(Setting{Name: name, Value: Word{Text: value, Pos: Pos{File: file, Line: pos.Line, Col: pos.Col + 1}}, Where: where})
	}
}
