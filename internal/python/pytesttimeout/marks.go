package pytesttimeout

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/python/pytestcfg"
	"github.com/fixturegen/fixturegen/internal/python/suite"
)

// MarkWords are what a file must hold one of for Marks to find anything
// in it: the mark as code names it (pytest.mark.timeout, mark.timeout
// after "from pytest import mark"), or pytest's mark imported under
// another name ("from pytest import mark as m"), the one alias a call
// resolves through. The many files that only name a timeout
// (sock.settimeout(5), self.timeout) are not tokenized for it.
var MarkWords = []string{"mark.timeout", "mark as"}

// findMarks reads the timeout marks of the Python files pytest reaches
// in the project at root under cfg (suite.Files).
func findMarks(root string, cfg *pytestcfg.Config) ([]Place, error) {
	files, err := suite.Files(root, cfg)
	if err != nil {
		return nil, err
	}
	var out []Place
	var sc pyscan.Scanner
	for _, f := range files {
		path := filepath.Join(root, filepath.FromSlash(f))
		src, err := os.ReadFile(path)
		if err != nil || !slices.ContainsFunc(MarkWords, func(w string) bool { return bytes.Contains(src, []byte(w)) }) {
			continue
		}
		dec, problem := pyscan.Decode(src)
		if problem != nil {
			continue
		}
		out = append(out, Marks(path, sc.Scan(dec))...)
	}
	return out, nil
}

// Marks returns the timeout marks of a module read from path: on
// functions and classes, in pytestmark, in pytest.param(..., marks=...)
// and wherever else a pytest.mark.timeout(...) is called. A mark whose
// timeout is 0 (no timeout for the test) is left out; one whose timeout
// is not a literal is kept, with its seconds "". Its method, when it
// names one, is the place's.
func Marks(path string, m *pyscan.Module) []Place {
	var out []Place
	for ci, c := range m.Calls {
		if m.ResolveCall(c) != suite.TimeoutMarkCall {
			continue
		}
		var timeout, method *pyscan.Arg
		var texts []string
		positional := 0
		for i := range c.Args {
			a := &c.Args[i]
			texts = append(texts, argText(a))
			switch {
			case a.Keyword == "timeout", a.Keyword == "" && positional == 0:
				timeout = a
			case a.Keyword == "method", a.Keyword == "" && positional == 1:
				method = a
			}
			if a.Keyword == "" {
				positional++
			}
		}
		if timeout == nil || timeout.Kind == pyscan.ArgName && timeout.Value == "None" {
			continue
		}
		seconds := ""
		if timeout.Kind == pyscan.ArgNumber {
			if f, err := strconv.ParseFloat(strings.TrimSpace(timeout.Value), 64); err == nil && f <= 0 {
				continue // pytest-timeout reads it as no timeout
			}
			seconds = timeout.Value
		}
		what := c.Callee + "(" + strings.Join(texts, ", ") + ")"
		switch {
		case c.Decorates >= 0 && slices.ContainsFunc(m.Defs[c.Decorates].Decorators, func(d pyscan.Decorator) bool { return d.Call == ci }):
			d := m.Defs[c.Decorates]
			kind := "function"
			if d.Kind == pyscan.Class {
				kind = "class"
			}
			what = "@" + what + " on " + kind + " " + d.Name
		case c.Decorates >= 0:
			// Inside another decorator: pytest.param(..., marks=...).
			what += " in the decorators of " + m.Defs[c.Decorates].Name
		case c.Target == "pytestmark":
			what = "pytestmark = " + what
		}
		p := Place{Kind: Mark, File: path, Line: c.Pos.Line, Col: c.Pos.Col, Seconds: seconds, What: what}
		if method != nil && method.Kind == pyscan.ArgString {
			p.Method = method.Value
			p.MethodAt = "the mark's method"
		}
		out = append(out, p)
	}
	return out
}

// argText is a mark's argument as written, near enough for a message.
func argText(a *pyscan.Arg) string {
	v := a.Value
	switch a.Kind {
	case pyscan.ArgString:
		v = strconv.Quote(v)
	case pyscan.ArgOther:
		v = "..."
	}
	if a.Keyword != "" {
		return a.Keyword + "=" + v
	}
	return v
}
