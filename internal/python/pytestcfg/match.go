package pytestcfg

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/fixturegen/fixturegen/internal/relpath"
)

// Fnmatch matches name against a shell pattern as Python's fnmatch does:
// "*" matches any run of characters, "/" included; "?" one character;
// "[seq]" and "[!seq]" one character in or not in seq, where a "]" right
// after the opening bracket is part of seq and a "[" that is never closed
// is itself; there is no escape character.
func Fnmatch(name, pattern string) bool {
	// The last "*" seen, and where in name it stands for the characters
	// up to, so that a failed match can let it take one more.
	starP, starN := -1, 0
	p, n := 0, 0
	for n < len(name) {
		if p < len(pattern) {
			switch pattern[p] {
			case '*':
				starP, starN = p, n
				p++
				continue
			case '?':
				_, size := utf8.DecodeRuneInString(name[n:])
				p++
				n += size
				continue
			case '[':
				r, size := utf8.DecodeRuneInString(name[n:])
				if ok, end, valid := matchClass(pattern, p, r); valid {
					if ok {
						p = end
						n += size
						continue
					}
				} else if name[n] == '[' {
					p++
					n++
					continue
				}
			default:
				r, size := utf8.DecodeRuneInString(pattern[p:])
				if nr, nsize := utf8.DecodeRuneInString(name[n:]); nr == r && nsize == size {
					p += size
					n += nsize
					continue
				}
			}
		}
		if starP < 0 {
			return false
		}
		_, size := utf8.DecodeRuneInString(name[starN:])
		starN += size
		p, n = starP+1, starN
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

// matchClass matches r against the bracket expression at pattern[open];
// it returns whether r is in it, the index after it, and whether the
// bracket is closed at all (an unclosed one is a literal "[").
func matchClass(pattern string, open int, r rune) (ok bool, end int, valid bool) {
	i := open + 1
	negate := false
	if i < len(pattern) && pattern[i] == '!' {
		negate = true
		i++
	}
	start := i
	for ; i < len(pattern); i++ {
		if pattern[i] == ']' && i > start {
			break
		}
	}
	if i >= len(pattern) {
		return false, 0, false
	}
	set := pattern[start:i]
	end = i + 1
	for j := 0; j < len(set); {
		lo, size := utf8.DecodeRuneInString(set[j:])
		j += size
		hi := lo
		if j+1 < len(set) && set[j] == '-' {
			hi, size = utf8.DecodeRuneInString(set[j+1:])
			j += 1 + size
		}
		if lo <= r && r <= hi {
			ok = true
		}
	}
	return ok != negate, end, true
}

// MatchPath matches an absolute path against a pattern of norecursedirs
// or python_files as pytest's fnmatch_ex does: a pattern without a "/" is
// matched against the last part of the path alone; one with a "/" against
// the whole path, with "*/" put in front of a relative pattern, so that
// "tests/skipme" matches every folder whose path ends so.
func MatchPath(pattern, path string) bool {
	sep := string(filepath.Separator)
	if filepath.Separator != '/' && !strings.Contains(pattern, sep) {
		pattern = strings.ReplaceAll(pattern, "/", sep)
	}
	if !strings.Contains(pattern, sep) {
		return Fnmatch(filepath.Base(path), pattern)
	}
	if filepath.IsAbs(path) && !filepath.IsAbs(pattern) {
		pattern = "*" + sep + pattern
	}
	return Fnmatch(path, pattern)
}

// Collection is what of the configuration decides which paths pytest
// collects, with every path made absolute.
type Collection struct {
	// Ignore are the paths of addopts' --ignore; IgnoreGlob the patterns
	// of --ignore-glob, matched against whole paths with Fnmatch. pytest
	// reads them relative to the folder it runs in, taken to be Dir.
	Ignore, IgnoreGlob []string
	// TestPaths are the paths testpaths expands to, or nil when it is not
	// set or names nothing (pytest then collects from the folder it runs
	// in).
	TestPaths []string
}

// Collection reads the options that decide which paths pytest collects.
func (c *Config) Collection() Collection {
	var col Collection
	abs := func(p string) string { return relpath.Resolve(c.Dir, p) }
	lists := map[string]*[]string{"--ignore": &col.Ignore, "--ignore-glob": &col.IgnoreGlob}
	c.eachOption(func(_ *Arg, name, value string, inline bool) bool {
		list := lists[name]
		if list == nil || !inline && value == "" {
			return false
		}
		*list = append(*list, abs(value))
		return !inline
	})
	for _, a := range c.Options["testpaths"] {
		col.TestPaths = append(col.TestPaths, glob(abs(a.Text))...)
	}
	return col
}

// glob expands a pattern as Python's glob.glob(..., recursive=True): "**"
// stands for any number of folders, "*" does not match names that start
// with a dot, and the result is sorted.
func glob(pattern string) []string {
	var out []string
	var walk func(dir string, parts []string)
	walk = func(dir string, parts []string) {
		if len(parts) == 0 {
			out = append(out, dir)
			return
		}
		part, rest := parts[0], parts[1:]
		if !strings.ContainsAny(part, "*?[") {
			p := filepath.Join(dir, part)
			if _, err := os.Lstat(p); err == nil {
				walk(p, rest)
			}
			return
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		if part == "**" {
			walk(dir, rest)
			for _, e := range entries {
				if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
					walk(filepath.Join(dir, e.Name()), parts)
				}
			}
			return
		}
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") && !strings.HasPrefix(part, ".") {
				continue
			}
			if Fnmatch(e.Name(), part) {
				walk(filepath.Join(dir, e.Name()), rest)
			}
		}
	}
	vol := filepath.VolumeName(pattern)
	rest := strings.TrimPrefix(pattern[len(vol):], string(filepath.Separator))
	walk(vol+string(filepath.Separator), strings.Split(rest, string(filepath.Separator)))
	sort.Strings(out)
	// "**" reaches a folder by more than one way.
	return slices.Compact(out)
}
