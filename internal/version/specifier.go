package version

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fixturegen/fixturegen/internal/lazyregexp"
)

// A Specifier is a spec's required_version: comma-separated PEP 440 version
// clauses (">=0.4, <0.6"), every one of which a version must satisfy.
type Specifier struct {
	clauses []clause
}

type clause struct {
	op       string // one of ops
	v        parsed
	wildcard bool // "==0.4.*" or "!=0.4.*": a prefix match
}

// ops are the comparison operators a clause may use, longest first so that
// ">=" is not read as ">".
var ops = []string{"~=", "==", "!=", "<=", ">=", "<", ">"}

// parsed is a version as PEP 440 orders it: release numbers, then an
// optional pre-release (a, b or rc and its number), which sorts before the
// release it precedes.
type parsed struct {
	release []int
	pre     string // "", "a", "b" or "rc"
	preN    int
}

var versionText = lazyregexp.New(`^v?([0-9]+(?:\.[0-9]+)*)(?:(a|b|rc)([0-9]+))?$`)

func parse(s string) (parsed, bool) {
	m := versionText().FindStringSubmatch(s)
	if m == nil {
		return parsed{}, false
	}
	var p parsed
	for _, f := range strings.Split(m[1], ".") {
		n, err := strconv.Atoi(f)
		if err != nil {
			return parsed{}, false
		}
		p.release = append(p.release, n)
	}
	p.pre = m[2]
	p.preN, _ = strconv.Atoi(m[3]) // 0 without a pre-release
	return p, true
}

// ParseSpecifier reads a required_version value. Its errors say what is
// wrong with which clause, for a message at the spec's position.
func ParseSpecifier(text string) (Specifier, error) {
	s := Specifier{}
	if strings.TrimSpace(text) == "" {
		return s, fmt.Errorf("is empty; write a version clause such as \">=0.4\"")
	}
	for _, part := range strings.Split(text, ",") {
		part = strings.TrimSpace(part)
		k := slices.IndexFunc(ops, func(op string) bool { return strings.HasPrefix(part, op) })
		if k < 0 {
			return s, fmt.Errorf("clause %q has no operator; start it with one of %s", part, strings.Join(ops, " "))
		}
		c := clause{op: ops[k]}
		rest := strings.TrimSpace(strings.TrimPrefix(part, c.op))
		if (c.op == "==" || c.op == "!=") && strings.HasSuffix(rest, ".*") {
			c.wildcard, rest = true, strings.TrimSuffix(rest, ".*")
		}
		v, ok := parse(rest)
		if !ok || (c.wildcard && v.pre != "") {
			return s, fmt.Errorf("clause %q: %q is not a version such as 0.4 or 1.0.0rc1", part, rest)
		}
		if c.op == "~=" && len(v.release) < 2 {
			return s, fmt.Errorf("clause %q: ~= needs at least two numbers (~=0.4 means >=0.4, ==0.*)", part)
		}
		c.v = v
		s.clauses = append(s.clauses, c)
	}
	return s, nil
}

// Allows reports whether version v satisfies every clause. A version that
// is not a release (Dev, say) satisfies none.
func (s Specifier) Allows(v string) bool {
	p, ok := parse(v)
	if !ok {
		return false
	}
	for _, c := range s.clauses {
		if !c.allows(p) {
			return false
		}
	}
	return true
}

func (c clause) allows(v parsed) bool {
	switch c.op {
	case "==", "!=":
		equal := compare(v, c.v) == 0
		if c.wildcard {
			equal = hasPrefix(v, c.v.release)
		}
		return equal == (c.op == "==")
	case "<":
		return compare(v, c.v) < 0
	case "<=":
		return compare(v, c.v) <= 0
	case ">":
		return compare(v, c.v) > 0
	case ">=":
		return compare(v, c.v) >= 0
	case "~=":
		// ~=1.4.2 is >=1.4.2 together with ==1.4.*: the last number may grow.
		return compare(v, c.v) >= 0 && hasPrefix(v, c.v.release[:len(c.v.release)-1])
	}
	return false
}

// hasPrefix reports whether v's release numbers start with prefix, with
// missing numbers read as zeros (0.4 is 0.4.0).
func hasPrefix(v parsed, prefix []int) bool {
	for i, n := range prefix {
		if at(v.release, i) != n {
			return false
		}
	}
	return true
}

func at(release []int, i int) int {
	if i < len(release) {
		return release[i]
	}
	return 0
}

// compare orders two versions as PEP 440 does for these forms: release
// numbers padded with zeros, then a pre-release before its release.
func compare(a, b parsed) int {
	for i := range max(len(a.release), len(b.release)) {
		if c := cmp.Compare(at(a.release, i), at(b.release, i)); c != 0 {
			return c
		}
	}
	rank := map[string]int{"a": 0, "b": 1, "rc": 2, "": 3}
	return cmp.Or(cmp.Compare(rank[a.pre], rank[b.pre]), cmp.Compare(a.preN, b.preN))
}
