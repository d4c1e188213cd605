package pytestrun

import (
	"path"
	"path/filepath"
	"strings"
)

// text is a command text with the position of each of its bytes in the
// file it was read from: the lines of a YAML block scalar or of a tox
// command, joined as the tool that runs them joins them.
type text struct {
	b   []byte
	pos []Pos
}

// add appends s, read at line:col of file (a 1-based column of
// characters, counting a multi-byte character once).
func (t *text) add(s string, file string, line, col int) {
	for i := 0; i < len(s); i++ {
		if i > 0 && (s[i] < 0x80 || s[i] >= 0xC0) {
			col++ // a byte that starts a character
		}
		t.b = append(t.b, s[i])
		t.pos = append(t.pos, Pos{File: file, Line: line, Col: col})
	}
}

// join appends a separator that is in no file (a newline between lines),
// placed where the text so far ends.
func (t *text) join(sep string) {
	var p Pos
	if n := len(t.pos); n > 0 {
		p = t.pos[n-1]
	}
	for i := 0; i < len(sep); i++ {
		t.b = append(t.b, sep[i])
		t.pos = append(t.pos, p)
	}
}

// Word is one word of a command line, with the position of its first
// character.
type Word struct {
	Text string
	Pos
}

// simple is one simple command: its words, after the assignments that
// set its environment.
type simple struct {
	assigns []Word // NAME=value words before the command
	words   []Word
}

// split splits t as a POSIX shell reads it into simple commands: words
// are split at blanks outside quotes, ";", "&", "|", "&&", "||" and
// newlines end a command, a "#" that starts a word starts a comment, a
// backslash before a newline joins lines, redirections are left out, and
// "$(...)", "${...}" and GitHub's "${{ ... }}" stay one word whatever
// they hold. Nothing is expanded.
func split(t *text) []simple {
	var out []simple
	var cur simple
	var w strings.Builder
	var start Pos
	inWord := false
	endWord := func() {
		if !inWord {
			return
		}
		word := Word{Text: w.String(), Pos: start}
		w.Reset()
		inWord = false
		if len(cur.words) == 0 && isAssignment(word.Text) {
			cur.assigns = append(cur.assigns, word)
			return
		}
		cur.words = append(cur.words, word)
	}
	endCommand := func() {
		endWord()
		if len(cur.words) > 0 || len(cur.assigns) > 0 {
			out = append(out, cur)
		}
		cur = simple{}
	}
	begin := func(i int) {
		if !inWord {
			inWord, start = true, t.pos[i]
		}
	}
	b := t.b
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '\\' && i+1 < len(b) && b[i+1] == '\n':
			i++
		case c == '\\' && i+1 < len(b):
			begin(i)
			i++
			w.WriteByte(b[i])
		case c == '\'':
			begin(i)
			for i++; i < len(b) && b[i] != '\''; i++ {
				w.WriteByte(b[i])
			}
		case c == '"':
			begin(i)
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' && i+1 < len(b) && strings.IndexByte("\\\"$`\n", b[i+1]) >= 0 {
					i++
					if b[i] == '\n' {
						continue
					}
				}
				w.WriteByte(b[i])
			}
		case c == '$' && i+1 < len(b) && (b[i+1] == '(' || b[i+1] == '{'):
			begin(i)
			end := matchingClose(b, i+1)
			w.Write(b[i:end])
			i = end - 1
		case c == ' ' || c == '\t' || c == '\r':
			endWord()
		case c == '\n' || c == ';' || c == '&' || c == '|' || c == '(' || c == ')':
			endCommand()
		case c == '#' && !inWord:
			for i < len(b) && b[i] != '\n' {
				i++
			}
			i--
		case (c == '>' || c == '<') && (!inWord || isDigits(w.String())):
			// A redirection: "> file", ">file", "2>&1", "<in".
			w.Reset()
			inWord = false
			j := i + 1
			for j < len(b) && (b[j] == '>' || b[j] == '&' || b[j] == '|') {
				j++
			}
			for j < len(b) && b[j] == ' ' {
				j++
			}
			// Its target is the next word: skip it.
			for j < len(b) && strings.IndexByte(" \t\n;&|()", b[j]) < 0 {
				j++
			}
			i = j - 1
		default:
			begin(i)
			w.WriteByte(c)
		}
	}
	endCommand()
	return out
}

// matchingClose returns the index after the bracket that closes the one
// at open, or len(b).
func matchingClose(b []byte, open int) int {
	depth := 0
	for i := open; i < len(b); i++ {
		switch b[i] {
		case '(', '{':
			depth++
		case ')', '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return len(b)
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isAssignment reports whether a word is NAME=value.
func isAssignment(s string) bool {
	name, _, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// wrappers run the command that follows their options: "uv run pytest",
// "timeout 600 pytest", "xvfb-run -a pytest".
var wrappers = map[string]string{
	"uv": "run", "poetry": "run", "pdm": "run", "hatch": "run", "pipenv": "run", "rye": "run", "pixi": "run", "conda": "run",
	"coverage": "run", "xvfb-run": "", "timeout": "", "nice": "", "time": "", "env": "", "sudo": "", "exec": "",
	"command": "", "stdbuf": "", "catchsegv": "", "nox": "", "tox": "",
}

// pytestArgs returns the arguments of the pytest a simple command runs,
// and the word that runs it: "pytest ARGS", "py.test ARGS",
// "python -m pytest ARGS", through wrappers such as "uv run", "coverage
// run -m" or "timeout 600". ok is false for any other command, "pip
// install pytest" among them.
func pytestArgs(words []Word) (at Word, args []Word, ok bool) {
	for i := 0; i < len(words); i++ {
		name := commandName(words[i].Text)
		switch {
		case name == "pytest" || name == "py.test":
			return words[i], words[i+1:], true
		case isPython(name):
			// python [options] -m pytest ARGS
			for j := i + 1; j < len(words); j++ {
				a := words[j].Text
				if a == "-m" && j+1 < len(words) && (words[j+1].Text == "pytest" || words[j+1].Text == "py.test") {
					return words[i], words[j+2:], true
				}
				if a == "-mpytest" {
					return words[i], words[j+1:], true
				}
				if !strings.HasPrefix(a, "-") || a == "-c" {
					return Word{}, nil, false
				}
			}
			return Word{}, nil, false
		default:
			sub, known := wrappers[name]
			if !known || name == "nox" || name == "tox" {
				return Word{}, nil, false
			}
			i++
			if sub != "" {
				// "uv run", "coverage run": the subcommand must follow.
				for i < len(words) && strings.HasPrefix(words[i].Text, "-") {
					i++
				}
				if i >= len(words) || words[i].Text != sub {
					return Word{}, nil, false
				}
				i++
			}
			// Skip the wrapper's options (and "timeout"'s duration) to
			// the command it runs; "coverage run -m pytest" goes on as
			// python would.
			for i < len(words) {
				a := words[i].Text
				if a == "-m" && i+1 < len(words) && (words[i+1].Text == "pytest" || words[i+1].Text == "py.test") {
					return words[i+1], words[i+2:], true
				}
				if strings.HasPrefix(a, "-") || isAssignment(a) || name == "timeout" && isDuration(a) {
					i++
					continue
				}
				break
			}
			i--
		}
	}
	return Word{}, nil, false
}

// commandName is the name a command word runs: its base name, without a
// tool's placeholders ("{envpython}", "$(PYTHON)", "${{ env.PY }}" stay as
// they are and are not pytest).
func commandName(w string) string {
	base := path.Base(filepath.ToSlash(w))
	if strings.ContainsAny(base, "{}$()") {
		if strings.Contains(strings.ToLower(base), "python") {
			return "python"
		}
	}
	return base
}

// isPython reports whether a command name runs a Python: python,
// python3, python3.12, pypy3, py (the Windows launcher).
func isPython(name string) bool {
	name = strings.TrimSuffix(name, ".exe")
	for _, p := range []string{"python", "pypy"} {
		if rest, ok := strings.CutPrefix(name, p); ok && strings.Trim(rest, "0123456789.") == "" {
			return true
		}
	}
	return name == "py"
}

func isDuration(s string) bool {
	return strings.Trim(strings.TrimRight(s, "smhd"), "0123456789.") == ""
}

// installs returns the package words of a simple command that installs
// packages: pip install, uv pip install, uv add, poetry add, pdm add,
// conda/mamba install, pipx inject. Options and their values are left
// out.
func installs(words []Word) []Word {
	for i := 0; i < len(words); i++ {
		name := commandName(words[i].Text)
		rest := words[i+1:]
		switch {
		case isPython(name):
			// python -m pip install ...
			for j := 0; j+1 < len(rest); j++ {
				if rest[j].Text == "-m" && rest[j+1].Text == "pip" {
					return pipPackages(rest[j+2:])
				}
			}
			return nil
		case name == "pip" || name == "pip3" || strings.HasPrefix(name, "pip3."):
			return pipPackages(rest)
		case name == "uv" || name == "pdm" || name == "poetry" || name == "conda" || name == "mamba" || name == "micromamba" || name == "pipx":
			for j, w := range rest {
				switch w.Text {
				case "pip":
					return pipPackages(rest[j+1:])
				case "add", "install", "inject":
					return packages(rest[j+1:])
				}
				if !strings.HasPrefix(w.Text, "-") {
					return nil
				}
			}
			return nil
		case wrappers[name] == "" && name != "nox" && name != "tox" && isWrapper(name):
			continue
		default:
			return nil
		}
	}
	return nil
}

func isWrapper(name string) bool {
	_, ok := wrappers[name]
	return ok
}

// pipPackages reads "install PACKAGES" after pip.
func pipPackages(words []Word) []Word {
	for j, w := range words {
		if w.Text == "install" {
			return packages(words[j+1:])
		}
		if !strings.HasPrefix(w.Text, "-") {
			return nil
		}
	}
	return nil
}

// packages are the words that are not options; a requirement file's name
// after -r is kept too, for the caller to tell apart.
func packages(words []Word) []Word {
	var out []Word
	for _, w := range words {
		if !strings.HasPrefix(w.Text, "-") {
			out = append(out, w)
		}
	}
	return out
}

// cd returns the folder a "cd DIR" command moves to from dir, and
// whether the command is one.
func cd(dir string, words []Word) (string, bool) {
	if len(words) == 0 || words[0].Text != "cd" && words[0].Text != "pushd" {
		return dir, false
	}
	if len(words) < 2 || strings.ContainsAny(words[1].Text, "$~{") {
		return dir, true
	}
	target := filepath.FromSlash(words[1].Text)
	if filepath.IsAbs(target) {
		return target, true
	}
	return filepath.Join(dir, target), true
}
