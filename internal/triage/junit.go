package triage

import (
	"bytes"
	"cmp"
	"encoding/xml"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// junitParser reads a JUnit XML report token by token.
type junitParser struct {
	src  *Source
	m    *Matcher
	dec  *xml.Decoder
	last map[string]int // node id → index of its latest run
	// The testcase being read.
	run    Run
	inCase bool
	inText string // the element whose text is read: failure, error, system-out...
	clues  []Clue
	reruns []Run
}

// parseJUnit reads pytest's --junitxml report.
func parseJUnit(src *Source, r io.Reader, m *Matcher) error {
	p := &junitParser{src: src, m: m, dec: xml.NewDecoder(r), last: map[string]int{}}
	p.dec.Strict = false
	for {
		tok, err := p.dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				line, _ := p.dec.InputPos()
				src.warnf("%s:%d: the XML stops early (%s); read as far as it goes", src.Path, line, se.Msg)
				if p.inCase {
					p.endCase()
				}
				break
			}
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			p.start(t)
		case xml.EndElement:
			p.end(t)
		case xml.CharData:
			if p.inText != "" {
				p.text(t)
			}
		}
	}
	src.Lines, _ = p.dec.InputPos()
	src.gap("JUnit XML names no worker: tests of one loadgroup are placed together, other tests are not placed")
	return nil
}

func attr(e xml.StartElement, name string) string {
	if i := slices.IndexFunc(e.Attr, func(a xml.Attr) bool { return a.Name.Local == name }); i >= 0 {
		return e.Attr[i].Value
	}
	return ""
}

// loc is where the token just read ends: the XML's line and column.
func (p *junitParser) loc() Loc {
	line, col := p.dec.InputPos()
	return Loc{File: p.src.Path, Line: line, Col: col}
}

func (p *junitParser) start(e xml.StartElement) {
	name := e.Name.Local
	if name == "testcase" {
		p.inCase, p.clues, p.reruns = true, nil, nil
		p.run = Run{Node: junitNode(attr(e, "classname"), attr(e, "name"), attr(e, "file")), Outcome: Passed, Duration: -1, Loc: p.loc()}
		if d, err := strconv.ParseFloat(attr(e, "time"), 64); err == nil {
			p.run.Duration = d
		}
		return
	}
	if !p.inCase {
		return
	}
	switch name {
	case "failure", "error", "skipped":
		p.run.Outcome = map[string]Outcome{"failure": Failed, "error": Errored, "skipped": Skipped}[name]
	case "rerunFailure", "rerunError", "flakyFailure", "flakyError":
		// An earlier failed run: pytest-rerunfailures writes a testcase
		// per run, and other JUnit writers (Maven Surefire's schema) nest
		// the failed runs as these elements.
		p.reruns = append(p.reruns, Run{Node: p.run.Node, Outcome: Rerun, Duration: -1, Loc: p.loc()})
	case "system-out", "system-err":
	default:
		return
	}
	p.inText = name
	if msg := attr(e, "message"); msg != "" {
		p.clues = p.m.matchAt(p.clues, []byte(msg), p.run.Node, p.loc())
	}
}

func (p *junitParser) end(e xml.EndElement) {
	switch {
	case e.Name.Local == "testcase" && p.inCase:
		p.endCase()
	case e.Name.Local == p.inText:
		p.inText = ""
	}
}

// text reads the text of a failure, rerun or captured output element
// line by line, with the line numbers the XML gives them.
func (p *junitParser) text(data []byte) {
	endLine, _ := p.dec.InputPos()
	line := endLine - bytes.Count(data, []byte("\n"))
	captured := p.inText == "system-out" || p.inText == "system-err"
	for one := range bytes.SplitSeq(data, []byte("\n")) {
		if bytes.HasPrefix(one, []byte("E ")) || bytes.Contains(one, bFixturegen) ||
			(captured && bytes.Contains(one, bFirstTime)) {
			p.clues = p.m.matchAt(p.clues, one, p.run.Node, Loc{File: p.src.Path, Line: line})
		}
		line++
	}
}

func (p *junitParser) endCase() {
	p.inCase, p.inText = false, ""
	if i, ok := p.last[p.run.Node]; ok && p.src.Runs[i].Outcome != Skipped {
		// pytest-rerunfailures writes one testcase per run: a later
		// testcase of the same test means the earlier run failed.
		p.src.Runs[i].Outcome = Rerun
	}
	p.src.Runs = append(p.src.Runs, p.reruns...)
	p.last[p.run.Node] = len(p.src.Runs)
	p.src.Runs = append(p.src.Runs, p.run)
	p.src.Clues = append(p.src.Clues, p.clues...)
}

// junitNode rebuilds a pytest node id from a testcase's classname and
// name: "tests.inbox.test_a.TestB" and "test_c" give
// "tests/inbox/test_a.py::TestB::test_c". A dotted part that starts with
// an upper-case letter is taken for a class, as pytest names them.
func junitNode(classname, name, file string) string {
	parts := strings.Split(classname, ".")
	mod := len(parts)
	for mod > 1 {
		if r, _ := utf8.DecodeRuneInString(parts[mod-1]); !unicode.IsUpper(r) {
			break
		}
		mod--
	}
	node := cmp.Or(file, strings.Join(parts[:mod], "/")+".py")
	for _, cls := range parts[mod:] {
		node += "::" + cls
	}
	return node + "::" + name
}
