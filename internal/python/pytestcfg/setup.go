package pytestcfg

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/fixturegen/fixturegen/internal/relpath"
	"github.com/fixturegen/fixturegen/schema"
)

// Invocation is what decides where one pytest run is rooted and which
// configuration file it reads: the folder it starts in and the arguments
// of its command line that count (pytest's determine_setup).
type Invocation struct {
	// Dir is the folder pytest starts in; relative paths are from the
	// working folder.
	Dir string
	// Args are the command line's positional arguments (files, folders or
	// node ids), as written, relative to Dir.
	Args []string
}

// Setup is where pytest roots a run and the configuration it reads.
type Setup struct {
	// Rootdir is the run's rootdir, an absolute path.
	Rootdir string
	// Config is the configuration file pytest reads, nil when it reads
	// none. A pyproject.toml without pytest's tables that pytest takes as
	// its inifile anyway (it then only roots the run) is a Config with no
	// options.
	Config *Config
}

// ConfcutDir is the folder above which pytest loads no conftest.py for
// the run: the configuration file's folder, else the rootdir (without a
// --confcutdir on the command line).
func (s *Setup) ConfcutDir() string {
	if s.Config != nil {
		return filepath.Dir(s.Config.File)
	}
	return s.Rootdir
}

// Determine returns the rootdir and configuration file pytest picks for
// inv, by the algorithm of pytest 9.2's _pytest/config/findpaths.py
// (determine_setup) for a command line without -c or --rootdir, which
// fixturegen never reads: the common ancestor of the arguments
// that exist (the folder pytest starts in when none does) and the folders
// above it are searched for the first of the configuration files, in
// pytest's order of names; failing that, a setup.py above the ancestor
// makes its folder the rootdir; failing that, each argument's folder and
// those above it are searched in turn; failing that, the first
// pyproject.toml met roots the run; failing that, the common ancestor of
// the ancestor and the starting folder is the rootdir. A file that
// cannot be read or parsed is an error naming it, as pytest stops there.
func Determine(inv Invocation) (*Setup, error) {
	invocation, err := filepath.Abs(inv.Dir)
	if err != nil {
		return nil, err
	}
	abs := func(p string) string { return relpath.Resolve(invocation, p) }
	dirs := dirsFromArgs(inv.Args, abs)
	ancestor := commonAncestor(invocation, dirs)
	s := &Setup{}
	if s.Rootdir, s.Config, err = locate([]string{ancestor}); err != nil {
		return nil, err
	}
	if s.Rootdir != "" {
		return s, nil
	}
	for dir := range relpath.Up(ancestor) {
		if IsFile(filepath.Join(dir, "setup.py")) {
			s.Rootdir = dir
			return s, nil
		}
	}
	if !(len(dirs) == 1 && dirs[0] == ancestor) {
		if s.Rootdir, s.Config, err = locate(dirs); err != nil {
			return nil, err
		}
		if s.Rootdir != "" {
			return s, nil
		}
	}
	s.Rootdir = commonAncestor(invocation, []string{invocation, ancestor})
	if isFSRoot(s.Rootdir) {
		s.Rootdir = ancestor
	}
	return s, nil
}

// locate is pytest's locate_config: the first folder, from each of dirs
// upwards in turn, that holds a configuration file, and that file; else
// the first pyproject.toml met, whatever it holds; else "".
func locate(dirs []string) (string, *Config, error) {
	var pyproject string
	for _, start := range dirs {
		for dir := range relpath.Up(start) {
			for _, name := range names {
				path := filepath.Join(dir, name)
				if !IsFile(path) {
					continue
				}
				if name == "pyproject.toml" && pyproject == "" {
					pyproject = path
				}
				src, err := os.ReadFile(path)
				if err != nil {
					return "", nil, &schema.Error{File: relpath.FromWD(path), Msg: "cannot read: " + unwrapped(err)}
				}
				c, err := parse(path, name, src)
				if err != nil {
					return "", nil, err
				}
				if c != nil {
					c.Dir = dir
					return dir, c, nil
				}
			}
		}
	}
	if pyproject != "" {
		dir := filepath.Dir(pyproject)
		c := newConfig(pyproject)
		c.Dir, c.Fallback = dir, true
		return dir, c, nil
	}
	return "", nil, nil
}

// dirsFromArgs is pytest's get_dirs_from_args: the folder of each
// argument that exists (the argument itself when it is a folder), after
// removing a node id's "::" part.
func dirsFromArgs(args []string, abs func(string) string) []string {
	var out []string
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		p, _, _ := strings.Cut(a, "::")
		path := abs(p)
		info, err := os.Stat(path)
		if err != nil {
			continue
		}
		if !info.IsDir() {
			path = filepath.Dir(path)
		}
		out = append(out, path)
	}
	return out
}

// commonAncestor is pytest's get_common_ancestor: the deepest folder
// holding every path that exists, or invocation when none does.
func commonAncestor(invocation string, paths []string) string {
	common := ""
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		if common == "" {
			common = p
		} else {
			common = commonPath(p, common)
		}
	}
	if common == "" {
		return invocation
	}
	if IsFile(common) {
		return filepath.Dir(common)
	}
	return common
}

// commonPath is os.path.commonpath of two absolute, clean paths.
func commonPath(a, b string) string {
	as := strings.Split(a, string(filepath.Separator))
	bs := strings.Split(b, string(filepath.Separator))
	n := 0
	for n < len(as) && n < len(bs) && as[n] == bs[n] {
		n++
	}
	p := strings.Join(as[:n], string(filepath.Separator))
	if p == "" || p == filepath.VolumeName(a) {
		p += string(filepath.Separator)
	}
	return p
}

// IsFile reports whether path is a regular file, links followed, as
// pytest's Path.is_file() tells the files it looks for.
func IsFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}

func isFSRoot(p string) bool {
	return p == filepath.VolumeName(p)+string(filepath.Separator)
}

func unwrapped(err error) string {
	if u := errors.Unwrap(err); u != nil {
		return u.Error()
	}
	if errors.Is(err, fs.ErrNotExist) {
		return "no such file"
	}
	return err.Error()
}
