package schema

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/fixturegen/fixturegen/internal/suggest"
)

// checker walks a decoded TOML document by hand and collects every problem
// with its position. Decoding into structs is not an option: the decoder
// matches struct fields case-insensitively, so "Seconds" would slip through
// as "seconds".
type checker struct {
	file  string
	src   []byte
	spans map[string]Span
	errs  Errors
	root  *node // The spec table: the document, or the table under a prefix.
	// missing holds the "missing required key" errors, and misspelt is
	// set when an unknown key had a did-you-mean: a misspelt table or key
	// is missing where it is required, so those errors are its echo, and
	// sorted leaves them out (the next run reports any that remain).
	missing  map[*Error]bool
	misspelt bool
}

// key names a key of the spec by its path from the spec table, for messages
// that mention a key other than the one they are about.
func (c *checker) key(path ...string) string {
	n := c.root
	for _, k := range path {
		n = n.child(k)
	}
	return n.key
}

// inOrder returns the keys of table t in document order: first as order
// lists them (the decoder's record of the document), then any it missed,
// by position.
func (c *checker) inOrder(n *node, t map[string]any, order []string) []string {
	var keys []string
	seen := map[string]bool{}
	for _, k := range order {
		if _, ok := t[k]; ok && !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	rest := slices.DeleteFunc(slices.Collect(maps.Keys(t)), func(k string) bool { return seen[k] })
	slices.SortFunc(rest, func(a, b string) int {
		return cmp.Or(cmp.Compare(c.spans[n.child(a).key].Start, c.spans[n.child(b).key].Start), strings.Compare(a, b))
	})
	return append(keys, rest...)
}

// node is one place in the document: a table, a key or an array element.
type node struct {
	key    string // Locate path, used for positions and in value messages.
	name   string // The path without array indices, as a header would name it.
	elem   bool   // An element of an array (of tables, when it is a table).
	parent *node
}

func (n *node) child(key string) *node {
	return &node{key: JoinKey(n.key, key), name: JoinKey(n.name, key), parent: n}
}

func (n *node) index(i int) *node {
	return &node{key: indexKey(n.key, i), name: n.name, elem: true, parent: n}
}

// where names the table n for a message about one of its keys.
func (n *node) where() string {
	switch {
	case n.name == "":
		return "at the top level"
	case n.elem:
		return "in [[" + n.name + "]]"
	}
	return "in [" + n.name + "]"
}

// pos is the position of n, or of its nearest ancestor that has one (a
// missing key is reported at its table, a missing table at the top), or 1:1.
func (c *checker) pos(n *node) (int, int) {
	for m := n; m != nil; m = m.parent {
		if sp, ok := c.spans[m.key]; ok && m.key != "" {
			return sp.Line, sp.Col
		}
	}
	return 1, 1
}

func (c *checker) errorf(n *node, format string, args ...any) {
	line, col := c.pos(n)
	c.errs = append(c.errs, &Error{File: c.file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)})
}

// missingKey reports that key, required, is absent from the table n.
func (c *checker) missingKey(n *node, format string, args ...any) {
	c.errorf(n, format, args...)
	c.missing[c.errs[len(c.errs)-1]] = true
}

// sorted returns the problems in file order; problems at one position keep
// the order in which they were found. After a misspelt key (an unknown key
// with a did-you-mean), the missing required keys are left out: they are
// most likely the misspelt one ([sheild] leaves the spec without [shield],
// which then needs [deadline] and [preload]), and a list of them before
// the misspelling would hide the one fix that matters.
func (c *checker) sorted() Errors {
	if c.misspelt {
		c.errs = slices.DeleteFunc(c.errs, func(e *Error) bool { return c.missing[e] })
	}
	slices.SortStableFunc(c.errs, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
	return c.errs
}

// text is the value of n as written in the file, for messages; it falls
// back to formatting v when the value cannot be found.
func (c *checker) text(n *node, v any) string {
	if sp, ok := c.spans[n.key]; ok && sp.Start >= 0 && sp.Start < sp.End && sp.End <= len(c.src) {
		return string(c.src[sp.Start:sp.End])
	}
	return fmt.Sprint(v)
}

// describe names the TOML type of a decoded value, with its article.
func describe(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case time.Time:
		return "a date or time"
	case []map[string]any:
		return "an array of tables"
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return fmt.Sprintf("a %T", v)
}

// table returns the table key of the spec table doc, reporting the keys
// it does not allow. A missing table comes back empty, so that its
// required keys are reported as missing (at the nearest table that
// exists); a value of another type is reported and returns false.
func (c *checker) table(doc map[string]any, key string) (*node, map[string]any, bool) {
	n := c.root.child(key)
	v, ok := doc[key]
	if !ok {
		return n, map[string]any{}, true
	}
	t, ok := c.asTable(n, v)
	if ok {
		c.keys(n, t, tableKeys(key)...)
	}
	return n, t, ok
}

func (c *checker) asTable(n *node, v any) (map[string]any, bool) {
	return typed[map[string]any](c, n, v, "a table")
}

// typed returns v as a T, or reports that n must be what.
func typed[T any](c *checker, n *node, v any, what string) (T, bool) {
	x, ok := v.(T)
	if !ok {
		c.errorf(n, "%s must be %s, not %s", n.key, what, describe(v))
	}
	return x, ok
}

// keys reports every key of t that is not in allowed, suggesting the key
// that was probably meant.
func (c *checker) keys(n *node, t map[string]any, allowed ...string) {
	for k := range t {
		if slices.Contains(allowed, k) {
			continue
		}
		if s := suggest.Closest(k, allowed); s != "" {
			c.misspelt = true
			c.errorf(n.child(k), "unknown key %q %s; did you mean %q?", k, n.where(), s)
		} else {
			c.errorf(n.child(k), "unknown key %q %s; valid keys are %s", k, n.where(), strings.Join(allowed, ", "))
		}
	}
}

// required reports every key in keys that t lacks, at the table's position.
func (c *checker) required(n *node, t map[string]any, keys ...string) {
	for _, k := range keys {
		if _, ok := t[k]; !ok {
			c.missingKey(n, "missing required key %s", n.child(k).key)
		}
	}
}

// fail reports an error at n, as errorf, for a reader of a string that
// returns none.
func (c *checker) fail(n *node, format string, args ...any) (string, bool) {
	c.errorf(n, format, args...)
	return "", false
}

func (c *checker) str(n *node, v any) (string, bool) {
	return typed[string](c, n, v, "a string")
}

// name reads a string that ends up in names, paths or pytest arguments,
// where control characters have no business.
func (c *checker) name(n *node, v any, what string) (string, bool) {
	s, ok := c.str(n, v)
	if !ok {
		return "", false
	}
	if strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return c.fail(n, "%s must be %s without control characters, not %q", n.key, what, s)
	}
	return s, true
}

// maxSeconds bounds every duration in a spec: a deadline of more than a day
// is a mistake (a value in milliseconds, say), not a deadline.
const maxSeconds = 86400

// seconds reads a duration: a TOML integer or float, finite, more than 0
// and at most a day.
func (c *checker) seconds(n *node, v any) (float64, bool) {
	var f float64
	switch x := v.(type) {
	case int64:
		f = float64(x)
	case float64:
		f = x
	default:
		c.errorf(n, "%s must be a number, not %s", n.key, describe(v))
		return 0, false
	}
	if math.IsNaN(f) || math.IsInf(f, 0) || f <= 0 || f > maxSeconds {
		c.errorf(n, "%s must be a number of seconds more than 0 and at most %d (a day), not %s",
			n.key, maxSeconds, c.text(n, v))
		return 0, false
	}
	return f, true
}

// boolean reads a TOML true or false.
func (c *checker) boolean(n *node, v any) (bool, bool) {
	return typed[bool](c, n, v, "true or false")
}

// oneOf reads a string that must be one of allowed.
func (c *checker) oneOf(n *node, v any, allowed ...string) (string, bool) {
	s, ok := c.str(n, v)
	if !ok {
		return "", false
	}
	if !slices.Contains(allowed, s) {
		quoted := make([]string, len(allowed))
		for i, a := range allowed {
			quoted[i] = strconv.Quote(a)
		}
		return c.fail(n, "%s must be one of %s, not %q", n.key, strings.Join(quoted, ", "), s)
	}
	return s, true
}
