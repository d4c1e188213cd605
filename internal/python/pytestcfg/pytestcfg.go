// Package pytestcfg is fixturegen's one model of a project's pytest
// configuration: the configuration file pytest picks and its rootdir
// (Determine, pytest's own determine_setup; Project for the project's
// tests), and the options fixturegen's checks care about, with the
// position of every value, so a finding can point at the "-n" it is
// about. Every command asks it: check's rules, the docs file, init,
// probe and generate's conftest checks, so they never disagree on which
// file pytest reads.
//
// pytest looks, from a folder upwards, for pytest.toml, .pytest.toml,
// pytest.ini, .pytest.ini, pyproject.toml (with [tool.pytest] or
// [tool.pytest.ini_options]), tox.ini (with [pytest]) or setup.cfg (with
// [tool:pytest]), the first of those names in that order winning. Values are split into arguments as pytest splits them, with the
// POSIX shell rules of Python's shlex.
package pytestcfg

import (
	"fmt"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"

	"github.com/fixturegen/fixturegen/internal/relpath"
	"github.com/fixturegen/fixturegen/internal/textpos"
	"github.com/fixturegen/fixturegen/schema"
)

// Config is the pytest configuration of a project.
type Config struct {
	File string // the configuration file's path
	Dir  string // its folder, which pytest makes the rootdir
	// Options holds the values of the options fixturegen reads, each split
	// into arguments. An option that is not set is absent.
	Options map[string][]Arg
	// Fallback is set for a pyproject.toml without pytest's tables that
	// pytest takes as its configuration file anyway, for want of another:
	// it roots the run and sets nothing.
	Fallback bool
}

// Arg is one argument of an option's value, with its position in File.
type Arg struct {
	Text      string
	Line, Col int // 1-based; Col counts characters
}

// names are the configuration files pytest looks for in each folder, in
// the order it prefers them.
var names = []string{"pytest.toml", ".pytest.toml", "pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg"}

// read are the options Find reads.
var read = []string{"addopts", "pythonpath", "python_files", "python_classes", "python_functions", "norecursedirs", "testpaths",
	// The timers that can ring during a test (see Timers).
	"timeout", "timeout_method", "faulthandler_timeout", "faulthandler_exit_on_timeout"}

// newConfig is a configuration read from path that sets no option yet.
func newConfig(path string) *Config {
	return &Config{File: path, Options: map[string][]Arg{}}
}

// parse reads one candidate file and returns nil when it holds no pytest
// configuration.
func parse(path, name string, src []byte) (*Config, error) {
	c := newConfig(path)
	switch name {
	case "pytest.ini", ".pytest.ini", "tox.ini", "setup.cfg":
		section := "pytest"
		if name == "setup.cfg" {
			section = "tool:pytest"
		}
		found, err := c.ini(src, section)
		if err != nil {
			return nil, err
		}
		// A pytest.ini is pytest's configuration even without a [pytest]
		// section; the other files only with theirs.
		if !found && name != "pytest.ini" && name != ".pytest.ini" {
			return nil, nil
		}
		return c, nil
	case "pytest.toml", ".pytest.toml":
		if _, err := c.toml(src, []string{"pytest"}); err != nil {
			return nil, err
		}
		return c, nil // always pytest's configuration, even when empty
	default: // pyproject.toml
		// [tool.pytest] with keys of its own is pytest 9's native TOML
		// table; with [tool.pytest.ini_options] beside it, pytest stops.
		native := c
		found, err := native.toml(src, []string{"tool", "pytest"})
		if err != nil {
			return nil, err
		}
		c = newConfig(path)
		ini, err := c.toml(src, []string{"tool", "pytest", "ini_options"})
		if err != nil {
			return nil, err
		}
		if found && ini {
			sp := schema.Locate(src)["tool.pytest.ini_options"]
			return nil, &schema.Error{File: relpath.FromWD(path), Line: sp.Line, Col: sp.Col,
				Msg: "pytest reads either [tool.pytest] or [tool.pytest.ini_options], and stops on a file with both"}
		}
		if ini {
			return c, nil
		}
		if found {
			return native, nil
		}
		return nil, nil
	}
}

// toml reads the table at prefix; it reports whether the table exists.
func (c *Config) toml(src []byte, prefix []string) (bool, error) {
	doc, err := DecodeTOML(src)
	if err != nil {
		return false, schema.SyntaxError(relpath.FromWD(c.File), src, err)
	}
	var table map[string]any = doc
	for _, k := range prefix {
		t, ok := table[k].(map[string]any)
		if !ok {
			return false, nil
		}
		table = t
	}
	// [tool.pytest] counts only with keys of its own.
	if _, ini := table["ini_options"]; len(prefix) == 2 && (len(table) == 0 || ini && len(table) == 1) {
		return false, nil
	}
	spans := schema.Locate(src)
	base := strings.Join(prefix, ".")
	for _, key := range read {
		v, ok := table[key]
		if !ok {
			continue
		}
		sp := spans[base+"."+key]
		switch v := v.(type) {
		case string:
			c.Options[key] = c.tomlString(src, v, sp)
		case []any:
			var args []Arg
			for i, e := range v {
				es := spans[fmt.Sprintf("%s.%s[%d]", base, key, i)]
				args = append(args, c.arg(src, fmt.Sprint(e), es))
			}
			c.Options[key] = args
		default:
			c.Options[key] = []Arg{c.arg(src, fmt.Sprint(v), sp)}
		}
	}
	return true, nil
}

// tomlString splits a TOML string value into arguments. When the string is
// written without escapes on one line, each argument gets its own
// position; otherwise all get the value's.
func (c *Config) tomlString(src []byte, v string, sp schema.Span) []Arg {
	if sp.End > sp.Start && sp.End <= len(src) {
		lit := string(src[sp.Start:sp.End])
		if len(lit) == len(v)+2 && lit[1:len(lit)-1] == v {
			line, col := textpos.LineCol(src, sp.Start+1)
			return shlexSplit([]Arg{{Text: v, Line: line, Col: col}})
		}
	}
	args := shlexSplit([]Arg{{Text: v}})
	for i := range args {
		args[i].Line, args[i].Col = sp.Line, sp.Col
	}
	return args
}

// arg is a value at the start of its span; a value Locate did not find
// (which only a document it cannot read leaves) is put at the file's start.
func (c *Config) arg(src []byte, text string, sp schema.Span) Arg {
	if sp.Line == 0 {
		return Arg{Text: text, Line: 1, Col: 1}
	}
	line, col := textpos.LineCol(src, sp.Start)
	return Arg{Text: text, Line: line, Col: col}
}

// shlexSplit splits the lines of one value, each at its position and
// joined by newlines, as Python's shlex.split does in POSIX mode, and
// gives each argument the position of its first character.
func shlexSplit(lines []Arg) []Arg {
	var args []Arg
	var cur strings.Builder
	inArg := false
	var start Arg
	var quote byte
	flush := func() {
		if inArg {
			start.Text = cur.String()
			args = append(args, start)
			cur.Reset()
			inArg = false
		}
	}
	for _, p := range lines {
		col := p.Col
		for i := 0; i < len(p.Text); i++ {
			ch := p.Text[i]
			here := Arg{Line: p.Line, Col: col}
			if ch < 0x80 || ch >= 0xC0 {
				col++
			}
			switch {
			case quote == '\'':
				if ch == '\'' {
					quote = 0
				} else {
					cur.WriteByte(ch)
				}
			case quote == '"':
				switch {
				case ch == '"':
					quote = 0
				case ch == '\\' && i+1 < len(p.Text) && strings.IndexByte("\\\"$`", p.Text[i+1]) >= 0:
					i++
					col++
					cur.WriteByte(p.Text[i])
				default:
					cur.WriteByte(ch)
				}
			case ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r':
				flush()
			default:
				if !inArg {
					inArg, start = true, here
				}
				switch ch {
				case '\'', '"':
					quote = ch
				case '\\':
					if i+1 < len(p.Text) {
						i++
						col++
						cur.WriteByte(p.Text[i])
					}
				default:
					cur.WriteByte(ch)
				}
			}
		}
		// The newline between lines separates arguments, unless it is
		// inside quotes.
		if quote != 0 {
			cur.WriteByte('\n')
		} else {
			flush()
		}
	}
	flush()
	return args
}

// SplitArgs splits a command line's options as pytest splits
// PYTEST_ADDOPTS: with the POSIX shell rules of Python's shlex.
func SplitArgs(text string) []string {
	var out []string
	for _, a := range shlexSplit([]Arg{{Text: text, Line: 1, Col: 1}}) {
		out = append(out, a.Text)
	}
	return out
}

// Xdist is what addopts says about pytest-xdist.
type Xdist struct {
	// Workers is the -n or --numprocesses argument that distributes the
	// tests over workers; nil when there is none, or it asks for none.
	Workers *Arg
	// Dist is the last --dist argument, nil when there is none; Mode is its
	// value ("loadgroup", "load", ...).
	Dist *Arg
	Mode string
	// Disabled is set by "-p no:xdist", which turns the plugin off.
	Disabled bool
}

// Xdist reads the pytest-xdist options of addopts. As on pytest's command
// line, a later option overrides an earlier one.
func (c *Config) Xdist() Xdist {
	var x Xdist
	c.eachOption(func(a *Arg, name, value string, inline bool) bool {
		switch {
		case name == "-n" || name == "--numprocesses":
		case strings.HasPrefix(name, "-n") && !strings.HasPrefix(name, "--"):
			// "-n4", "-nauto": the value is attached.
			value, inline = a.Text[2:], true
		case name == "--dist":
			x.Dist, x.Mode = a, value
			return !inline
		case a.Text == "-p" && value == "no:xdist", a.Text == "-pno:xdist":
			x.Disabled = true
			return a.Text == "-p"
		default:
			return false
		}
		x.Workers = a
		if value == "0" {
			x.Workers = nil
		}
		return !inline
	})
	return x
}

// eachOption calls f with each argument of addopts, its name (up to a
// "=") and its value: what follows the "=", else the next argument. f
// reports whether it took the next argument as the value, which is then
// passed over.
func (c *Config) eachOption(f func(a *Arg, name, value string, inline bool) bool) {
	args := c.Options["addopts"]
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, value, inline := strings.Cut(a.Text, "=")
		if !inline && i+1 < len(args) {
			value = args[i+1].Text
		}
		if f(&a, name, value, inline) {
			i++
		}
	}
}

// decoded is the latest document DecodeTOML decoded. One check run reads
// pyproject.toml for the pytest configuration (twice: for its run and for
// its project) and for the declared dependencies; a large one (twisted's
// is 27 KB) took as long to decode as a tenth of the scan of its tests.
var decoded struct {
	sync.Mutex
	src string
	doc map[string]any
	err error
}

// DecodeTOML decodes a TOML document. The document it returns is shared
// with every caller that decodes the same bytes: it is only to be read.
func DecodeTOML(src []byte) (map[string]any, error) {
	decoded.Lock()
	defer decoded.Unlock()
	if (decoded.doc != nil || decoded.err != nil) && decoded.src == string(src) {
		return decoded.doc, decoded.err
	}
	var doc map[string]any
	_, err := toml.Decode(string(src), &doc)
	if err != nil {
		doc = nil
	}
	decoded.src, decoded.doc, decoded.err = string(src), doc, err
	return doc, err
}
