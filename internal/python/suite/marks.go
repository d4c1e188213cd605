package suite

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/internal/python/pyscan"
)

// The marks and patches the model reads: the xdist group a test is in,
// and the modules of the group.

// lastName is what follows a dotted name's last dot.
func lastName(dotted string) string {
	return dotted[strings.LastIndexByte(dotted, '.')+1:]
}

// readCalls are the calls the rules read, for the scan's Scanners to keep:
// the calls of the marks (in decorators and pytestmark), the timer calls
// (own-timer, hand-written-deadline) and request.addfinalizer (SpansTest),
// the group marks and patches anywhere (--list-group's members), and
// pytest-timeout's marks anywhere (in pytest.param too). It is
// built from the names the rules match, so a rule reading another call
// adds its name to one of them.
var readCalls = func() *pyscan.CallFilter {
	f := &pyscan.CallFilter{
		Last:    map[string]bool{lastName(groupMarkCall): true, lastName(usefixturesMarkCall): true, finalizerCall: true, lastName(TimeoutMarkCall): true},
		Targets: map[string]bool{pytestmarkTarget: true},
	}
	maps.Copy(f.Last, timerCallees)
	maps.Copy(f.Last, patchCallees)
	return f
}()

// TimeoutMarkCall is pytest-timeout's mark as its calls resolve, which
// check's unshielded-timeout rule reads (pytesttimeout.Marks).
const TimeoutMarkCall = "pytest.mark.timeout"

// GroupMark is an xdist_group mark and the group it names.
type GroupMark struct {
	Group string
	Pos   pyscan.Pos
}

// GroupMarks lists the xdist_group marks among the calls of src.
func GroupMarks(src *Source, calls []int) []GroupMark {
	m := src.Mod
	var out []GroupMark
	for _, ci := range calls {
		c := m.Calls[ci]
		if m.ResolveCall(c) != groupMarkCall {
			continue
		}
		for _, a := range c.Args {
			if a.Kind == pyscan.ArgString && (a.Keyword == "" || a.Keyword == "name") {
				out = append(out, GroupMark{a.Value, a.Pos})
				break
			}
		}
	}
	return out
}

// InGroup reports whether the marks on a test put it in the spec's group;
// other names the group it is in instead, if any.
func (q *Query) InGroup(src *Source, test int) (in bool, other string) {
	q.sc.markBuf = src.facts.marks(test, q.sc.markBuf[:0])
	// Marks inside pytest.param(...) in the test's decorators apply to
	// its parametrized cases; they are among the decorator's calls.
	for _, gm := range GroupMarks(src, q.sc.markBuf) {
		if gm.Group == q.spec.Group.Name {
			return true, ""
		}
		other = gm.Group
	}
	return false, other
}

// Member returns the module src as a member of the group, with the
// reasons it is there; false when it is not in the group.
func (q *Query) Member(src *Source) (Member, bool) {
	if q.spec.Group.Name == "" {
		return Member{}, false
	}
	m := src.Mod
	var all []int
	for i := range m.Calls {
		all = append(all, i)
	}
	marks := GroupMarks(src, all)
	first := slices.IndexFunc(marks, func(gm GroupMark) bool { return gm.Group == q.spec.Group.Name })
	if first < 0 {
		return Member{}, false
	}
	mem := Member{Path: src.Path}
	for _, t := range src.Tests() {
		if via, ok := q.UsesDeadline(src, t); ok {
			mem.Reasons = append(mem.Reasons, Reason{Kind: "uses-fixture", Line: via.Pos.Line, Col: via.Pos.Col,
				Detail: fmt.Sprintf("uses %s (%s)", q.spec.Deadline.Fixture, describeRequest(via))})
			break
		}
	}
	for _, c := range m.Calls {
		if target, ok := q.patchesPreload(m, c); ok {
			mem.Reasons = append(mem.Reasons, Reason{Kind: "patches", Line: c.Pos.Line, Col: c.Pos.Col,
				Detail: "patches " + target})
			break
		}
	}
	if len(mem.Reasons) == 0 {
		mem.Reasons = append(mem.Reasons, Reason{Kind: "marks", Line: marks[first].Pos.Line, Col: marks[first].Pos.Col,
			Detail: fmt.Sprintf("marks it, but neither uses %s nor patches a preload module", q.spec.Deadline.Fixture)})
	}
	return mem, true
}

func describeRequest(q Request) string {
	switch {
	case q.Autouse != nil:
		return "autouse fixture " + q.Autouse.Name
	case q.How == "usefixtures":
		return "usefixtures"
	default:
		return "parameter " + q.Name
	}
}

// patchCallees are the last names of the calls that patch by dotted path:
// monkeypatch.setattr/delattr and unittest.mock's patch.
var patchCallees = map[string]bool{"setattr": true, "delattr": true, "patch": true}

// patchesPreload reports whether c patches something inside a preload
// module, or inside a package that holds one: after a half import, that is
// where the attribute goes missing.
func (q *Query) patchesPreload(m *pyscan.Module, c pyscan.Call) (string, bool) {
	// Only the last name counts. monkeypatch.setattr is a method of a
	// parameter, which resolves to no module: its name as written does.
	callee := cmp.Or(m.ResolveCall(c), c.Callee)
	if !patchCallees[lastName(callee)] || len(c.Args) == 0 || c.Args[0].Kind != pyscan.ArgString || c.Args[0].Keyword != "" {
		return "", false
	}
	target := c.Args[0].Value
	// A package that holds a preload module holds it through its top
	// package, so that is the one package to look inside.
	for _, mod := range q.spec.Preload.Modules {
		if top, _, _ := strings.Cut(mod, "."); top != "" && (target == top || strings.HasPrefix(target, top+".")) {
			return target, true
		}
	}
	return "", false
}

// The marks the rules read, as a call resolves to them, and the name a
// module or class assigns its marks to.
const (
	groupMarkCall       = "pytest.mark.xdist_group"
	usefixturesMarkCall = "pytest.mark.usefixtures"
	pytestmarkTarget    = "pytestmark"
)

// Member is one module of the xdist group, for check --list-group and the
// docs file.
type Member struct {
	Path string `json:"path"`
	// PathBytes is the path's bytes, base64 in JSON, when they are not
	// valid UTF-8: JSON strings hold only Unicode.
	PathBytes []byte   `json:"path_bytes,omitempty"`
	Reasons   []Reason `json:"reasons"`
}

// Reason is why a module is in the group.
type Reason struct {
	Kind   string `json:"kind"` // "uses-fixture", "patches" or "marks"
	Line   int    `json:"line"`
	Col    int    `json:"col"`
	Detail string `json:"detail"`
}
