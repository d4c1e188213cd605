package triage

import (
	"bytes"
	"io"
	"slices"
	"strconv"
	"strings"
)

// The sections of pytest's terminal output that the log parser tells
// apart, by the "=== title ===" lines that start them.
type logSection int

const (
	secProgress logSection = iota
	secFailures
	secShortSummary
	secRerunSummary
	secDurations
	secWarnings
	secOther
)

// gapDurations is the gap of output without --durations; JUnit XML and
// pytest-replay files of the same attempt fill it.
const gapDurations = "how long each test ran: pass --durations=0 to pytest"

// failSection is one "___ headline ___" section under FAILURES or ERRORS.
type failSection struct {
	head   string
	worker string
	loc    Loc
	clues  []Clue
	// files are the test files the traceback's location lines name
	// ("tests/a.py:12: AssertionError"); a headline names no file, and
	// they tell apart tests of the same name in different files.
	files []string
}

// maxFiles is how many location lines of one failure are kept.
const maxFiles = 4

// logParser reads pytest's terminal output one line at a time, keeping
// only the runs, the clues and the failure sections still to resolve.
type logParser struct {
	src    *Source
	m      *Matcher
	sec    logSection
	fail   *failSection
	fails  []*failSection
	warnAt string // the node id a warnings summary entry belongs to
	lineNo int
	// nodes interns node ids and worker names, and marks those that
	// progress lines show running.
	nodes   map[string]*name
	reruns  map[string]bool // nodes in the rerun summary
	summary []Run           // runs from the summaries, in order
	scratch []byte          // a line with its colours removed
	// What the output shows at all: pytest-xdist workers, a --durations
	// section, RERUN lines, progress lines that name a test (-v).
	xdist, durations, rerun, verbose bool
}

// name is an interned node id or worker name.
type name struct {
	s   string
	ran bool
}

var outcomeWords = map[string]Outcome{
	"PASSED": Passed, "FAILED": Failed, "ERROR": Errored, "RERUN": Rerun,
	"SKIPPED": Skipped, "XFAIL": XFailed, "XPASS": XPassed,
}

// parseLog reads pytest's terminal output.
func parseLog(src *Source, r io.Reader, m *Matcher) error {
	p := &logParser{src: src, m: m, nodes: map[string]*name{}, reruns: map[string]bool{}}
	src.Durations, src.Setups = map[string]float64{}, map[string]float64{}
	lr := newLineReader(r)
	for line, ok := lr.next(); ok; line, ok = lr.next() {
		if lr.cut {
			// A line cut off part way could name a test by half its id:
			// everything before it is read, and it is left out.
			src.warnf("%s:%d: the file ends in the middle of a line; read up to the line before it", src.Path, lr.n)
			break
		}
		p.lineNo = lr.n
		p.line(line)
	}
	if lr.err != nil {
		return lr.err
	}
	src.Lines = lr.n
	if lr.long > 0 {
		src.warnf("%s: %d lines longer than %d bytes were read only in part", src.Path, lr.long, maxLine)
	}
	p.finish()
	return nil
}

func (p *logParser) loc() Loc { return Loc{File: p.src.Path, Line: p.lineNo} }

func (p *logParser) intern(b []byte) string { return p.name(b).s }

func (p *logParser) name(b []byte) *name {
	if n, ok := p.nodes[string(b)]; ok {
		return n
	}
	n := &name{s: string(b)}
	p.nodes[n.s] = n
	return n
}

// ran tells whether a progress line shows the test running.
func (p *logParser) ran(node string) bool {
	n := p.nodes[node]
	return n != nil && n.ran
}

func (p *logParser) line(line []byte) {
	line = p.clean(line)
	if len(line) == 0 {
		return
	}
	switch line[0] {
	case '=':
		if bytes.HasPrefix(line, []byte("==")) && line[len(line)-1] == '=' {
			p.title(string(bytes.Trim(line, "= ")))
			return
		}
	case '_':
		if p.sec == secFailures && line[len(line)-1] == '_' {
			if head := string(bytes.Trim(line, "_ ")); head != "" {
				p.fail = &failSection{head: head, loc: p.loc()}
				p.fails = append(p.fails, p.fail)
				return
			}
		}
	}
	switch p.sec {
	case secProgress, secOther:
		p.progress(line)
	case secFailures:
		p.failureLine(line)
	case secShortSummary, secRerunSummary:
		p.summaryLine(line)
	case secDurations:
		p.durationLine(line)
	case secWarnings:
		p.warningLine(line)
	}
}

// sectionTitles are the titles of the sections told apart by title alone.
var sectionTitles = map[string]logSection{
	"FAILURES": secFailures, "ERRORS": secFailures, "warnings summary": secWarnings, "test session starts": secProgress,
	"short test summary info": secShortSummary, "rerun test summary info": secRerunSummary,
}

func (p *logParser) title(t string) {
	p.fail = nil
	sec, ok := sectionTitles[t]
	switch {
	case ok:
		p.sec = sec
	case strings.HasPrefix(t, "slowest") && strings.HasSuffix(t, "durations"):
		p.sec = secDurations
		p.durations = true
	default:
		p.sec = secOther
	}
}

// progress reads the lines pytest prints while tests run.
func (p *logParser) progress(line []byte) {
	if bytes.HasPrefix(line, []byte("[gw")) {
		p.xdist = true
		// "[gw1] [ 50%] RERUN tests/a.py::test_b@group"
		end := bytes.IndexByte(line, ']')
		if end < 0 {
			return
		}
		worker := p.intern(line[1:end])
		rest := bytes.TrimLeft(line[end+1:], " ")
		if len(rest) > 0 && rest[0] == '[' {
			if e := bytes.IndexByte(rest, ']'); e >= 0 {
				rest = bytes.TrimLeft(rest[e+1:], " ")
			}
		}
		word, node, _ := bytes.Cut(rest, []byte(" "))
		if outcome, ok := outcomeWords[string(word)]; ok {
			if node = bytes.TrimSpace(node); len(node) > 0 {
				p.addRun(node, worker, outcome)
			}
		}
		return
	}
	if bytes.HasPrefix(line, []byte("created: ")) {
		p.xdist = true
		return
	}
	if bytes.HasPrefix(line, []byte("timeout: ")) && bytes.HasSuffix(line, []byte("s")) {
		// pytest-timeout's header line: "timeout: 5.0s".
		if secs, err := strconv.ParseFloat(string(line[len("timeout: "):len(line)-1]), 64); err == nil {
			p.src.Timeout = secs
		}
		return
	}
	if bytes.Contains(line, []byte("::")) {
		// Without pytest-xdist, -v prints "tests/a.py::test_b PASSED [ 12%]".
		// The node id runs up to the first space; an outcome word must
		// follow it.
		if node, rest, _ := bytes.Cut(line, []byte(" ")); len(node) > 0 {
			word, _, _ := bytes.Cut(rest, []byte(" "))
			if outcome, ok := outcomeWords[string(word)]; ok {
				p.addRun(node, "", outcome)
				return
			}
		}
	}
	if bytes.Contains(line, bFixturegen) {
		p.src.Clues = p.m.matchAt(p.src.Clues, line, "", p.loc())
		return
	}
	if isPlainProgress(line) {
		p.src.gap("output without -v names no test that passed or was rerun on its line; pass -v to pytest for each test's worker and order")
	}
}

// clean removes what CI adds to pytest's lines: the timestamp GitHub
// Actions puts before each line of a downloaded log
// ("2026-11-30T17:40:40.8190180Z "), and the colours of --color=yes.
func (p *logParser) clean(line []byte) []byte {
	if len(line) > 20 && line[4] == '-' && line[7] == '-' && line[10] == 'T' && line[13] == ':' && isDigits(line[:4]) {
		if sp := bytes.IndexByte(line[:min(len(line), 40)], ' '); sp > 0 && line[sp-1] == 'Z' {
			line = line[sp+1:]
		}
	}
	if bytes.IndexByte(line, 0x1b) < 0 {
		return line
	}
	// Drop each "ESC [ parameters letter" sequence.
	out := p.scratch[:0]
	for i := 0; i < len(line); i++ {
		if line[i] == 0x1b && i+1 < len(line) && line[i+1] == '[' {
			j := i + 2
			for j < len(line) && (line[j] >= '0' && line[j] <= '9' || line[j] == ';') {
				j++
			}
			i = j
			continue
		}
		out = append(out, line[i])
	}
	p.scratch = out
	return out
}

func isDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// isPlainProgress tells a line of pytest's progress characters, as
// printed without -v: "tests/a.py ..F.R [ 50%]" or "..F.R".
func isPlainProgress(line []byte) bool {
	line = bytes.TrimSpace(line)
	if i := bytes.LastIndexByte(line, '['); i > 0 && line[len(line)-1] == ']' {
		line = bytes.TrimSpace(line[:i])
	}
	if i := bytes.LastIndexByte(line, ' '); i >= 0 && bytes.HasSuffix(line[:i], []byte(".py")) {
		line = line[i+1:]
	}
	if len(line) == 0 {
		return false
	}
	return len(bytes.Trim(line, ".FERsxX")) == 0
}

func (p *logParser) addRun(node []byte, worker string, outcome Outcome) {
	n := p.name(node)
	n.ran = true
	p.verbose = true
	p.rerun = p.rerun || outcome == Rerun
	p.src.Runs = append(p.src.Runs, Run{Node: n.s, Worker: worker, Outcome: outcome, Duration: -1, Loc: p.loc()})
}

// failureLine reads a line of a FAILURES or ERRORS section.
func (p *logParser) failureLine(line []byte) {
	f := p.fail
	if f == nil {
		return
	}
	if f.worker == "" && bytes.HasPrefix(line, []byte("[gw")) && bytes.Contains(line, []byte(" -- Python")) {
		// "[gw1] linux -- Python 3.11.7 /usr/bin/python"
		if end := bytes.IndexByte(line, ']'); end > 0 {
			f.worker = string(line[1:end])
			p.xdist = true
		}
		return
	}
	if len(f.files) < maxFiles && line[0] != ' ' && line[0] != 'E' {
		if i := bytes.Index(line, []byte(".py:")); i > 0 && bytes.IndexByte(line[:i], ' ') < 0 {
			f.files = append(f.files, string(line[:i+3]))
		}
	}
	if bytes.HasPrefix(line, []byte("E ")) || bytes.Contains(line, bFixturegen) {
		f.clues = p.m.matchAt(f.clues, line, "", p.loc())
	}
}

// summaryLine reads "FAILED node - message" and the like.
func (p *logParser) summaryLine(line []byte) {
	word, rest, _ := bytes.Cut(line, []byte(" "))
	outcome, ok := outcomeWords[string(word)]
	if !ok || outcome == Skipped {
		return
	}
	rest, msg, _ := bytes.Cut(rest, []byte(" - "))
	node := p.intern(bytes.TrimSpace(rest))
	if node == "" {
		return
	}
	if p.sec == secRerunSummary {
		p.reruns[node] = true
	}
	if p.sec == secRerunSummary || !p.reruns[node] {
		p.summary = append(p.summary, Run{Node: node, Outcome: outcome, Duration: -1, Loc: p.loc()})
	}
	if len(msg) > 0 {
		p.src.Clues = p.m.matchAt(p.src.Clues, msg, node, p.loc())
	}
}

// durationLine reads "1.00s call     tests/a.py::test_b".
func (p *logParser) durationLine(line []byte) {
	fields := bytes.Fields(line)
	if len(fields) != 3 || !bytes.HasSuffix(fields[0], []byte("s")) {
		return
	}
	secs, err := strconv.ParseFloat(string(fields[0][:len(fields[0])-1]), 64)
	if err != nil {
		return
	}
	durations := p.src.Durations
	switch string(fields[1]) {
	case "call":
	case "setup":
		durations = p.src.Setups
	default:
		return
	}
	node := p.intern(fields[2])
	durations[node] = max(durations[node], secs)
}

// warningLine reads the warnings summary: node ids at the margin, each
// followed by its indented warnings.
func (p *logParser) warningLine(line []byte) {
	if line[0] != ' ' {
		if bytes.Contains(line, []byte("::")) {
			p.warnAt = p.intern(bytes.TrimSpace(line))
		}
		return
	}
	p.src.Clues = p.m.matchAt(p.src.Clues, line, p.warnAt, p.loc())
}

// finish resolves each failure section's headline to a node id, and adds
// the runs only the summaries show.
func (p *logParser) finish() {
	// Only failed tests have failure sections: index those by headline,
	// and every test only when a headline matches none of them.
	byHead := map[string][]string{}
	ranOn := map[string]string{}
	bad := map[string]bool{}
	for _, runs := range [][]Run{p.src.Runs, p.summary} {
		for _, r := range runs {
			if !r.Outcome.bad() || bad[r.Node] {
				continue
			}
			bad[r.Node] = true
			if r.Worker != "" {
				ranOn[r.Node] = r.Worker
			}
			k := headKey(r.Node)
			byHead[k] = append(byHead[k], r.Node)
		}
	}
	var everyHead map[string][]string
	candidates := func(head string) []string {
		if c := byHead[head]; len(c) > 0 {
			return c
		}
		if everyHead == nil {
			everyHead = map[string][]string{}
			for _, runs := range [][]Run{p.src.Runs, p.summary} {
				for _, r := range runs {
					if k := headKey(r.Node); !slices.Contains(everyHead[k], r.Node) {
						everyHead[k] = append(everyHead[k], r.Node)
					}
				}
			}
		}
		return everyHead[head]
	}
	workerOf := map[string]string{}
	for _, f := range p.fails {
		head := f.head
		for _, prefix := range []string{"ERROR at setup of ", "ERROR at teardown of ", "ERROR collecting "} {
			head = strings.TrimPrefix(head, prefix)
		}
		// Tests of one name in several files share a headline: pick the
		// one that failed, on the section's worker, in a file the
		// traceback names.
		node, best := head, -1
		for _, n := range candidates(head) {
			score := 0
			if bad[n] {
				score += 4
			}
			if f.worker != "" && ranOn[n] == f.worker {
				score += 2
			}
			file, _, _ := strings.Cut(n, "::")
			if slices.Contains(f.files, file) {
				score++
			}
			if score > best {
				node, best = n, score
			}
		}
		if f.worker != "" {
			workerOf[node] = f.worker
		}
		if !p.ran(node) && !bad[node] {
			// Only the failure section shows this test ran.
			p.summary = append(p.summary, Run{Node: node, Outcome: Failed, Duration: -1, Loc: f.loc})
			bad[node] = true
		}
		for _, c := range f.clues {
			c.Node, c.Worker = node, f.worker
			p.src.Clues = append(p.src.Clues, c)
		}
	}
	for _, r := range p.summary {
		if p.ran(r.Node) {
			continue
		}
		r.Worker = workerOf[r.Node]
		p.src.Runs = append(p.src.Runs, r)
	}
	if !p.durations && len(p.src.Runs) > 0 {
		p.src.gap(gapDurations)
	}
	if p.rerun || len(p.reruns) > 0 {
		p.src.gap("why a rerun test's earlier runs failed: pytest prints only its last run's failure, so a rerun is judged by its duration")
	}
	if !p.xdist {
		// One process ran every test.
		for i := range p.src.Runs {
			p.src.Runs[i].Worker = "main"
		}
		for i := range p.src.Clues {
			p.src.Clues[i].Worker = "main"
		}
		return
	}
	for i := range p.src.Clues {
		if c := &p.src.Clues[i]; c.Worker == "" {
			c.Worker = workerOf[c.Node]
		}
	}
	if !p.verbose && len(p.src.Runs) > 0 {
		p.src.gap("output without -v places only failed tests on a worker, from their failure sections")
	}
}

// headKey is the headline pytest prints above a test's failure: the node
// id after its file, with "." for "::" and without the loadgroup suffix.
func headKey(node string) string {
	node = stripGroup(node)
	if i := strings.Index(node, "::"); i >= 0 {
		node = node[i+2:]
	}
	return strings.ReplaceAll(node, "::", ".")
}
