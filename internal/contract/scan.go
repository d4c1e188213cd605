package contract

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/fixturegen/fixturegen/internal/finding"
	"github.com/fixturegen/fixturegen/internal/pyscan"
	"github.com/fixturegen/fixturegen/internal/pytree"
	"github.com/fixturegen/fixturegen/internal/region"
	"github.com/fixturegen/fixturegen/internal/render"
)

// maxFileSize bounds one file in memory. A test module of 16 MiB is not a
// test module; such a file is reported and skipped rather than read.
const maxFileSize = 16 << 20

var (
	errTooLarge   = fmt.Errorf("is larger than %d MiB; not read", maxFileSize>>20)
	errNotRegular = errors.New("is not a regular file (a FIFO, a socket or a device); not read")
)

// source is one Python file that check read and tokenized.
type source struct {
	path     string // as the user reaches it, for messages
	abs      string
	dir      string // absolute folder
	conftest bool
	test     bool // its name makes it a test module (python_files)
	mod      *pyscan.Module
	// regionFirst and regionLast are the lines of the generated region's
	// markers, in the conftest that holds it; 0 elsewhere.
	regionFirst, regionLast int
	// holdsRegion marks the conftest the spec plans the region in,
	// however the walk reached it.
	holdsRegion bool
	// facts is what the latest index knows of the module.
	facts *facts
	// knownCases are the dotted names, as the module's imports give them,
	// of the classes in other modules that are unittest test cases.
	knownCases map[string]bool
}

// inRegion reports whether line lies in the generated region, whose code
// is checked by comparing it with the spec, not by the rules.
func (s *source) inRegion(line int) bool {
	return s.regionFirst > 0 && line >= s.regionFirst && line <= s.regionLast
}

// scan is one walk over the test tree.
type scan struct {
	opts    *Options
	cwd     string
	needles *prefilter // the files it rejects cannot matter to a rule
	// specialNames are the base names of the files the scan treats apart.
	specialNames map[string]bool
	pats         *testPatterns

	mu      sync.Mutex
	sources []*source
	// done holds the batches the readers finished; the files in them that
	// were read but not tokenized are marked skipped, for a second look.
	done      [][]job
	generated []string
	warnings  []finding.Finding

	// cases follows base classes into other modules; basesDone counts
	// the sources followBases has looked at.
	cases     caseFinder
	basesDone int

	// coll decides which files are test modules; ignoreFile, once the
	// conftests are read, tells the files their collect_ignore lists
	// leave out.
	coll       *collection
	ignoreFile func(abs string) bool
}

// abs returns the absolute form of a path from the walk without asking the
// system: the working directory is known.
func (s *scan) abs(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(s.cwd, p)
}

func (s *scan) warn(path string, line, col int, rule, msg, fix string) {
	s.report(finding.Warning, path, line, col, rule, msg, fix)
}

// report records a finding of the scan itself, not of a rule.
func (s *scan) report(sev finding.Severity, path string, line, col int, rule, msg, fix string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.warnings = append(s.warnings, finding.Finding{Rule: rule, Severity: sev, Path: path,
		Line: max(line, 1), Col: max(col, 1), Message: msg, Fix: fix})
}

// planned reports whether the file at p is one generate writes, reached
// by a name other than the one the spec gives it.
func (s *scan) planned(p string) bool {
	for abs := range s.opts.Planned {
		if sameFile(p, abs) {
			return true
		}
	}
	return false
}

// sameFile reports whether two paths name the same file.
func sameFile(a, b string) bool {
	ia, err := os.Stat(a)
	if err != nil {
		return false
	}
	ib, err := os.Stat(b)
	return err == nil && os.SameFile(ia, ib)
}

var regionBegin = []byte(region.Begin)

// job is one file to read: the folder that holds it, as the walk reached
// it, and its name there, with the open folder when the system lets files
// be opened relative to it. A root that is a file has only its path.
type job struct {
	dir     string
	name    string
	h       *dirHandle
	whole   string // the path of a root that is a file
	skipped bool   // read, and found not to matter
}

// path is the file's path as the user reaches it. It is worked out only
// where it is needed: most files are read, found not to matter, and never
// named.
func (j *job) path() string {
	if j.whole != "" {
		return j.whole
	}
	return filepath.Join(j.dir, j.name)
}

// dirHandle is an open folder shared by the batches of its files; the
// last one to finish closes it.
type dirHandle struct {
	fd   int
	refs atomic.Int32
	// shortIsEOF is shortReadIsEOF for the folder's file system.
	shortIsEOF bool
}

func (h *dirHandle) release() {
	if h != nil && h.refs.Add(-1) == 0 {
		closeDir(h.fd)
	}
}

// batchSize bounds the files handed to a reader at once: large enough that
// handing them over costs little, small enough that a folder of thousands
// of files is still shared among the readers.
const batchSize = 64

// run reads every file under the roots on all cores. The walk hands the
// readers batches of files of one folder through a channel, each folder's
// files before its subfolders are walked, so reading starts with the first
// folder; the readers open the files relative to the folder the walk
// listed; and each reader keeps one buffer, so memory does not grow with
// the tree.
func (s *scan) run(roots []string, noRecurse []string) error {
	batches := make(chan []job, 64)
	var walkErr error
	go func() {
		defer close(batches)
		w := &pytree.Walker{
			NoRecurse: noRecurse,
			Bounds:    roots,
			Ignore:    s.coll.walkIgnore(),
			Visit: func(p string) {
				batches <- []job{{whole: p, name: filepath.Base(p)}}
			},
			Folder: func(dir string, fd int, names []string) {
				var h *dirHandle
				if fd >= 0 {
					h = &dirHandle{fd: fd, shortIsEOF: shortReadIsEOF(fd)}
					h.refs.Store(1) // the walk's own hold, until every batch is sent
				}
				for len(names) > 0 {
					n := min(len(names), batchSize)
					batch := make([]job, n)
					for i, name := range names[:n] {
						batch[i] = job{dir: dir, name: name, h: h}
					}
					if h != nil {
						h.refs.Add(1)
					}
					batches <- batch
					names = names[n:]
				}
				h.release()
			},
			Problem: func(p pytree.Problem) {
				s.warn(p.Path, 1, 1, p.Kind, p.Msg, problemFix[p.Kind])
			},
		}
		for _, root := range roots {
			if err := w.Walk(root); err != nil {
				walkErr = err
				return
			}
		}
	}()
	s.parallel(batches, s.first)
	return walkErr
}

var problemFix = map[string]string{
	WarnUnreadable:      "make it readable (chmod), or leave it out of --scan",
	WarnSymlinkLoop:     "remove the link, or point it outside the tree",
	WarnSymlinkOutside:  "scan the folder it points to too (--scan), or replace the link with the folder",
	WarnDanglingSymlink: "remove the link, or restore the file it points to",
}

// worker is one reader's own state: its buffer, and the batches it
// finished, kept apart from the other readers' so that no lock is taken per
// file.
type worker struct {
	buf     []byte
	done    [][]job
	scanner pyscan.Scanner // reuses its working memory from file to file
}

// parallel runs look on every job, on one goroutine per core.
func (s *scan) parallel(batches <-chan []job, look func(j *job, w *worker)) {
	n := s.opts.Workers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	workers := make([]*worker, n)
	var wg sync.WaitGroup
	for i := range workers {
		w := &worker{buf: make([]byte, 0, 64<<10)}
		workers[i] = w
		wg.Add(1)
		go func() {
			defer wg.Done()
			for batch := range batches {
				for i := range batch {
					look(&batch[i], w)
				}
				batch[0].h.release()
				w.done = append(w.done, batch)
			}
		}()
	}
	wg.Wait()
	for _, w := range workers {
		s.done = append(s.done, w.done...)
	}
}

// special reports whether a file's name is that of a file the scan treats
// apart (a planned file, the conftest, a probe case's file), so that only
// those need their absolute path worked out before reading.
func (s *scan) special(base string) bool {
	return s.specialNames[base]
}

// first is the first look at a file: read it, note a generated header,
// check its encoding, and tokenize it only when it can matter to a rule.
func (s *scan) first(j *job, w *worker) {
	base := j.name
	p, abs := "", ""
	if s.special(base) {
		p = j.path()
		abs = s.abs(p)
	}
	fd, shortIsEOF := -1, false
	if j.h != nil {
		fd, shortIsEOF = j.h.fd, j.h.shortIsEOF
	} else if p == "" {
		p = j.path()
	}
	data, err := readFileAt(fd, j.name, p, w.buf, shortIsEOF)
	w.buf = data[:0]
	if err != nil {
		s.readError(j.path(), err)
		return
	}
	if abs != "" && s.opts.Planned[abs] {
		return // generated: compared with the spec, not scanned
	}
	// The first byte rules out most files without a call to compare.
	if len(data) > 0 && data[0] == generatedHeader[0] && bytes.HasPrefix(data, generatedHeader) {
		if s.planned(j.path()) {
			return // a planned file reached by another name
		}
		s.mu.Lock()
		s.generated = append(s.generated, j.path())
		s.mu.Unlock()
		return
	}
	// Every file's encoding is checked, not only the ones the rules read:
	// Python cannot import a file it cannot decode, wherever it is. A
	// file in another encoding that it declares is read decoded; the
	// words the needles look for are ASCII, which every encoding Python
	// accepts for source keeps as it is, so they are looked for in the
	// bytes as read.
	text, prob := pyscan.Decode(data)
	if prob != nil {
		if abs == "" || abs != s.opts.Conftest { // the drift report covers the planned conftest
			s.warn(j.path(), prob.Pos.Line, prob.Pos.Col, WarnUndecodable, prob.Msg, "save the file as UTF-8, or declare its encoding as Python expects")
		}
		return
	}
	if base != "conftest.py" && !(abs != "" && s.opts.Forced[abs]) && !(s.opts.ListTests && s.coll.isTestFile(s.abs(j.path()))) && !s.needles.match(data) {
		j.skipped = true
		return
	}
	if p == "" {
		p = j.path()
	}
	if abs == "" {
		abs = s.abs(p)
	}
	s.tokenize(p, abs, text, &w.scanner)
}

// tokenize scans data, whose encoding was checked, and keeps its facts.
func (s *scan) tokenize(p, abs string, data []byte, sc *pyscan.Scanner) {
	src := &source{path: p, abs: abs, dir: filepath.Dir(abs), conftest: filepath.Base(p) == "conftest.py", test: s.coll.isTestFile(abs)}
	src.mod = sc.Scan(data)
	src.facts = newFacts(src, s.pats)
	// The region is recognised by its markers, so that the conftest that
	// holds it is known whatever name the walk reached it by.
	if abs == s.opts.Conftest || src.conftest && bytes.Contains(data, regionBegin) && sameFile(abs, s.opts.Conftest) {
		src.holdsRegion = true
		src.regionFirst, src.regionLast = region.Lines(data)
	}
	for _, prob := range src.mod.Problems {
		if src.holdsRegion {
			// pytest imports this conftest for every test below it: a
			// syntax error there stops the whole session.
			s.report(finding.Error, p, prob.Pos.Line, prob.Pos.Col, WarnSyntax, prob.Msg+"; pytest cannot import this conftest, which holds fixturegen's region", "fix the syntax error (python -m py_compile "+p+" shows it)")
			break
		}
		s.warn(p, prob.Pos.Line, prob.Pos.Col, WarnSyntax, prob.Msg+"; the rules may miss code after it", "fix the syntax error (python -m py_compile "+p+" shows it)")
		break
	}
	s.mu.Lock()
	s.sources = append(s.sources, src)
	s.mu.Unlock()
}

func (s *scan) readError(p string, err error) {
	msg := "cannot read: "
	var pe *fs.PathError
	switch {
	case errors.Is(err, errTooLarge), errors.Is(err, errNotRegular):
		msg = ""
	case errors.As(err, &pe):
		err = pe.Err
	}
	s.warn(p, 1, 1, WarnUnreadable, msg+err.Error(), "make it readable, or leave it out of --scan")
}

// again takes a second look at the files the first look skipped, for the
// needles only known once every conftest was read: names of conftest
// fixtures that depend on the deadline fixture. want says which files to
// look at again; all reports whether a file in it must be tokenized whatever
// it holds (an autouse fixture reaches every test under its conftest).
func (s *scan) again(needles *prefilter, want func(abs string) (look, all bool)) {
	// parallel adds the batches it runs to s.done; those of the first
	// look are kept apart meanwhile.
	done := s.done
	s.done = nil
	batches := make(chan []job, 64)
	go func() {
		defer close(batches)
		var batch []job
		for _, b := range done {
			for i := range b {
				j := &b[i]
				if !j.skipped || s.ignoreFile != nil && s.ignoreFile(s.abs(j.path())) {
					continue
				}
				if look, _ := want(s.abs(j.path())); look {
					batch = append(batch, job{whole: j.path(), name: j.name})
				}
				if len(batch) == batchSize {
					batches <- batch
					batch = nil
				}
			}
		}
		if len(batch) > 0 {
			batches <- batch
		}
	}()
	s.parallel(batches, func(j *job, w *worker) {
		p := j.path()
		abs := s.abs(p)
		data, err := readFile(abs, w.buf)
		w.buf = data[:0]
		if err != nil {
			s.readError(p, err)
			return
		}
		text, prob := pyscan.Decode(data)
		if prob != nil {
			return // reported by the first look
		}
		if _, all := want(abs); all || needles.match(data) {
			s.tokenize(p, abs, text, &w.scanner)
		}
	})
	s.done = done
}

var generatedHeader = []byte(render.GeneratedHeader)
