package render

import (
	"strings"

	"github.com/fixturegen/fixturegen/internal/python/pyquote"
	"github.com/fixturegen/fixturegen/schema"
)

// lineLength is the longest line the conftest region writes: ruff's
// default, which its E501 checks and ruff format wraps at. The region sits
// in the user's conftest, among code held to the project's settings, and
// 88 columns is what most of them keep.
const lineLength = 88

// regionView holds the lines of the conftest region whose length depends
// on the spec's names and paths, each laid out to fit lineLength as ruff
// format lays it out, so that the region stays clean under E501 and
// unchanged by ruff format whatever the names.
type regionView struct {
	// PathLine assigns the runtime's path in the loader.
	PathLine string
	// PreloadDoc and DeadlineDoc are the fixtures' docstrings, without
	// their quotes: the most telling wording that fits.
	PreloadDoc  string
	DeadlineDoc string
	// DeadlineDef is the deadline fixture's def line, or lines.
	DeadlineDef string
}

func newRegionView(spec *schema.Spec, rel, seconds, timer string) regionView {
	d, preload := spec.Deadline, spec.Preload.Fixture
	path := "_FixturegenPath(__file__).parent / " + pyquote.String(rel)
	v := regionView{PathLine: "    path = " + path}
	switch {
	case fits(v.PathLine):
	case fits("        " + path):
		v.PathLine = "    path = (\n        " + path + "\n    )"
	default:
		v.PathLine = "    path = (\n        _FixturegenPath(__file__).parent\n        / " + pyquote.String(rel) + "\n    )"
	}
	v.PreloadDoc = docstring(
		"Import what "+d.Fixture+"'s tests would otherwise import under its alarm.",
		"Import what the deadline's tests would otherwise import under its alarm.")
	bound := "Fail the test after " + seconds + " of " + timer
	if len(d.ModuleSeconds) > 0 {
		bound += ", or its module's"
	}
	v.DeadlineDoc = docstring(
		bound+"; "+preload+" runs first.",
		bound+"; the preload runs first.",
		bound+".",
		"Fail the test when its deadline passes.")
	params := []string{preload}
	if len(d.ModuleSeconds) > 0 {
		params = append(params, "request")
	}
	v.DeadlineDef = signature(d.Fixture, params)
	return v
}

// fits reports whether line is at most lineLength characters wide.
func fits(line string) bool {
	return len([]rune(line)) <= lineLength
}

// docstring returns the first of texts that fits on one line as a
// function's docstring, or the last.
func docstring(texts ...string) string {
	for _, t := range texts {
		if fits(`    """` + t + `"""`) {
			return t
		}
	}
	return texts[len(texts)-1]
}

// signature returns a def line for a function of params, split as ruff
// format splits one that is too long: the parameters on one indented line
// of their own, a lone parameter with a trailing comma, or one a line, each
// with a trailing comma, when they do not fit on one.
func signature(name string, params []string) string {
	line := "def " + name + "(" + strings.Join(params, ", ") + "):"
	if fits(line) {
		return line
	}
	joined := "    " + strings.Join(params, ", ")
	if len(params) > 1 && fits(joined) {
		return "def " + name + "(\n" + joined + "\n):"
	}
	return "def " + name + "(\n    " + strings.Join(params, ",\n    ") + ",\n):"
}

// assign is a module-level assignment of one value, as ruff format lays
// it out: on one line, or, when that is too long, the value alone on a
// line between parentheses (even when it is still too long there).
func assign(target, value string) string {
	line := target + " = " + value
	if fits(line) {
		return line
	}
	return target + " = (\n    " + value + "\n)"
}

// tuple is a module-level assignment of a tuple of values, as ruff format
// lays it out: on one line, or one value a line, each with a trailing
// comma.
func tuple(target string, values []string) string {
	joined := strings.Join(values, ", ")
	if len(values) == 1 {
		joined += ","
	}
	line := target + " = (" + joined + ")"
	if len(values) == 0 || fits(line) {
		return line
	}
	return target + " = (\n    " + strings.Join(values, ",\n    ") + ",\n)"
}

// specDirLine is the runtime's SPEC_DIR, the spec's folder found from the
// runtime's by up (".", "..", "../.."), as ruff format lays it out.
func specDirLine(up string) string {
	path := "Path(__file__).resolve().parent / " + pyquote.String(up)
	line := "SPEC_DIR: Final = (" + path + ").resolve()"
	switch {
	case fits(line):
		return line
	case fits("    " + path):
		return "SPEC_DIR: Final = (\n    " + path + "\n).resolve()"
	}
	return "SPEC_DIR: Final = (\n    Path(__file__).resolve().parent\n    / " + pyquote.String(up) + "\n).resolve()"
}
