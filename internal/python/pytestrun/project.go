// Package pytestrun reads how a project runs pytest: the pytest command
// lines of its CI files (GitHub Actions, GitLab CI, CircleCI, Azure
// Pipelines), tox's configuration, noxfile.py and Makefile, each with its
// position, the folder it starts in and the environment set around it,
// the PYTEST_* variables those files set, and the packages their install
// commands name. From the command lines it
// tells the rootdir and configuration file pytest uses for the project's
// own test runs (Setups), which may be a pytest.ini below the repository
// root that a plain "pytest" there never reads.
//
// It reads files; it runs nothing. A file it cannot read as it expects
// hides its commands and nothing else: CI files come in many shapes, and
// none of them is an error of the project.
package pytestrun

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/fixturegen/fixturegen/internal/python/pytestcfg"
)

// Pos is a place in a file: its absolute path, 1-based line and column.
type Pos struct {
	File      string
	Line, Col int
}

// Command is one pytest command line of the project.
type Command struct {
	// At is the word that runs pytest ("pytest", "python" of "python -m
	// pytest").
	At Word
	// Where says what runs it, for messages: "job test of
	// .github/workflows/ci.yml", "[testenv] of tox.ini".
	Where string
	// Dir is the folder it starts in.
	Dir string
	// Args are its arguments after pytest.
	Args []Word
	// Env is the environment set for it, nearest last: the workflow's,
	// the job's, the step's, the command line's own NAME=value words.
	Env []Setting
}

// String is the command line as pytest's: "pytest ARGS", whatever runs
// it ("python -m pytest", "uv run pytest").
func (c *Command) String() string {
	s := "pytest"
	for _, a := range c.Args {
		s += " " + a.Text
	}
	return s
}

// Setting is an environment variable that a project file sets for its
// runs.
type Setting struct {
	Name  string
	Value Word
	Where string
}

// Project is how a project runs pytest.
type Project struct {
	Root     string
	Commands []Command
	// Settings are the PYTEST_* variables the files set, in file order.
	Settings []Setting
	// Installs are the words the install commands (pip install, uv add,
	// session.install) and tox's deps name as packages.
	Installs []Word
}

// Read reads the project at root.
func Read(root string) (*Project, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	p := &Project{Root: root}
	for _, f := range ciFiles(root) {
		if src, err := os.ReadFile(f.path); err == nil {
			f.read(p, f.path, src)
		}
	}
	p.tox()
	if src, err := os.ReadFile(filepath.Join(root, "noxfile.py")); err == nil {
		p.nox(filepath.Join(root, "noxfile.py"), src)
	}
	for _, name := range []string{"GNUmakefile", "makefile", "Makefile"} {
		if src, err := os.ReadFile(filepath.Join(root, name)); err == nil {
			p.makefile(filepath.Join(root, name), src)
			break
		}
	}
	return p, nil
}

// ciSystems are the CI files fixturegen reads, by the glob that finds
// them from the project's root, each with its reader.
var ciSystems = []struct {
	glob string
	read func(p *Project, file string, src []byte)
}{
	{".github/workflows/*.yml", (*Project).github},
	{".github/workflows/*.yaml", (*Project).github},
	{".github/actions/*/action.yml", (*Project).github},
	{".github/actions/*/action.yaml", (*Project).github},
	{".gitlab-ci.yml", (*Project).gitlab},
	{".gitlab-ci.yaml", (*Project).gitlab},
	{".circleci/config.yml", (*Project).circleci},
	{".circleci/config.yaml", (*Project).circleci},
	{"azure-pipelines.yml", (*Project).azure},
	{"azure-pipelines.yaml", (*Project).azure},
	{".azure-pipelines/*.yml", (*Project).azure},
	{".azure-pipelines/*.yaml", (*Project).azure},
}

type ciFile struct {
	path string
	read func(p *Project, file string, src []byte)
}

// ciFiles are the CI files of the project at root, in the order of their
// paths.
func ciFiles(root string) []ciFile {
	var out []ciFile
	for _, s := range ciSystems {
		m, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(s.glob)))
		for _, f := range m {
			out = append(out, ciFile{f, s.read})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// addShell reads a shell script that runs in dir with env set around it:
// its pytest commands, the PYTEST_* variables it exports, the packages it
// installs.
func (p *Project) addShell(t *text, dir, where string, env []Setting) {
	for _, cmd := range split(t) {
		dir, env = p.add(cmd, dir, where, env)
	}
}

// add reads one simple command that runs in dir with env set around it,
// and returns the folder and environment of the commands after it.
func (p *Project) add(cmd simple, dir, where string, env []Setting) (string, []Setting) {
	words := cmd.words
	var own []Setting
	for _, a := range cmd.assigns {
		own = append(own, assignment(a, where))
	}
	if len(words) > 0 && (words[0].Text == "export" || words[0].Text == "set") {
		for _, w := range words[1:] {
			if isAssignment(w.Text) {
				s := assignment(w, where)
				p.setting(s)
				env = append(env, s)
			}
		}
		return dir, env
	}
	if len(words) == 0 {
		// A line of only assignments sets shell variables for the lines
		// after it.
		for _, s := range own {
			p.setting(s)
			env = append(env, s)
		}
		return dir, env
	}
	for _, s := range own {
		p.setting(s)
	}
	if d, ok := cd(dir, words); ok {
		return d, env
	}
	if at, args, ok := pytestArgs(words); ok {
		p.Commands = append(p.Commands, Command{At: at, Where: where, Dir: dir, Args: args, Env: append(slices.Clone(env), own...)})
		return dir, env
	}
	p.Installs = append(p.Installs, installs(words)...)
	return dir, env
}

// assignment is a NAME=value word as a Setting, the value at its own
// position.
func assignment(w Word, where string) Setting {
	name, value, _ := strings.Cut(w.Text, "=")
	at := w.Pos
	at.Col += len([]rune(name)) + 1
	return Setting{Name: name, Value: Word{Text: value, Pos: at}, Where: where}
}

// setting records a PYTEST_* variable.
func (p *Project) setting(s Setting) {
	if strings.HasPrefix(s.Name, "PYTEST_") {
		p.Settings = append(p.Settings, s)
	}
}

// envOf reads a YAML mapping of environment variables (GitHub's env:,
// GitLab's variables:, whose values may be {value: ...}).
func (p *Project) envOf(n *ynode, where string) []Setting {
	if n == nil || n.kind != yMap {
		return nil
	}
	var out []Setting
	for i, k := range n.keys {
		v := n.vals[i]
		if v.kind == yMap {
			v = v.get("value")
		}
		if v == nil || v.kind != yScalar {
			continue
		}
		s := Setting{Name: k.Text, Value: Word{Text: v.str(), Pos: v.Pos}, Where: where}
		p.setting(s)
		out = append(out, s)
	}
	return out
}

// rel is path relative to the project's root, slash-separated, for
// messages.
func (p *Project) rel(path string) string {
	r, err := filepath.Rel(p.Root, path)
	if err != nil {
		return path
	}
	return filepath.ToSlash(r)
}

// Run is one way the project runs pytest and the setup pytest picks for
// it.
type Run struct {
	// Command is the command line; nil for a plain "pytest" in the root.
	Command *Command
	Inv     pytestcfg.Invocation
	Setup   *pytestcfg.Setup
}

// Runs returns the setup of each of the project's pytest command lines,
// and of a plain "pytest" in the root, first. A command line whose setup
// pytest would refuse (a -c file that is not there) is left out; the
// plain run's error is returned, as pytest run there stops on it.
func (p *Project) Runs() ([]Run, error) {
	plain := pytestcfg.Invocation{Dir: p.Root}
	s, err := pytestcfg.Determine(plain)
	if err != nil {
		return nil, err
	}
	runs := []Run{{Inv: plain, Setup: s}}
	for i := range p.Commands {
		c := &p.Commands[i]
		inv := pytestcfg.Invoke(c.Dir, c.argv())
		s, err := pytestcfg.Determine(inv)
		if err != nil {
			continue
		}
		runs = append(runs, Run{Command: c, Inv: inv, Setup: s})
	}
	return runs, nil
}

// argv is the command's arguments as pytest reads them: PYTEST_ADDOPTS
// from its environment first.
func (c *Command) argv() []string {
	var out []string
	for _, s := range c.Env {
		if s.Name == "PYTEST_ADDOPTS" {
			out = nil
			for _, a := range pytestcfg.SplitLine(s.Value.Text, 1, 1) {
				out = append(out, a.Text)
			}
		}
	}
	for _, a := range c.Args {
		out = append(out, a.Text)
	}
	return out
}

// Primary returns the run whose configuration stands for the project's:
// the configuration most of its command lines read, the first of them on
// a tie, when one reads a configuration file with pytest's options; else
// the plain run's.
func Primary(runs []Run) Run {
	count := map[string]int{}
	best, n := -1, 0
	for i, r := range runs {
		if r.Command == nil || r.Setup.Config == nil || r.Setup.Config.Fallback {
			continue
		}
		count[r.Setup.Config.File]++
		if c := count[r.Setup.Config.File]; c > n {
			best, n = i, c
		}
	}
	if best < 0 {
		return runs[0]
	}
	// The first command line that reads the chosen file.
	for _, r := range runs {
		if r.Command != nil && r.Setup.Config != nil && r.Setup.Config.File == runs[best].Setup.Config.File {
			return r
		}
	}
	return runs[best]
}
