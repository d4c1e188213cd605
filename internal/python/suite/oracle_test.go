package suite

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf16"

	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/testenv"
	"github.com/fixturegen/fixturegen/schema"
)

// oracleEvery is the default sample of TestScannerAgreesWithPythonsParser:
// every oracleEvery-th file of the sorted list. FIXTUREGEN_ORACLE=all reads
// every file; FIXTUREGEN_ORACLE=N, every N-th.
const oracleEvery = 12

// TestScannerAgreesWithPythonsParser compares what check's scanner reports
// with what CPython's own parser (testdata/oracle.py, ast only) reports,
// on the .py files of the standard library and of the test venv's
// site-packages, through check's prefilter:
//
//   - a file the prefilter drops must be one in which ast finds nothing
//     the rules read (a timer call in a module that imports signal, a
//     group mark, a fixture the spec names requested, defined or used);
//   - for every file, the facts the rules consume must be the same:
//     the calls of the names the rules read (position, callee, enclosing
//     def or class, the def it decorates, the arguments as the rules read
//     them), defs and classes with their parameters, decorators and
//     bases, imports and star imports, and the assignments at module and
//     class level with their string lists.
//
// The spec's fixtures are "timeout" and "request", names common in those
// files, so that the prefilter's reading of fixture names is put to work.
// Every difference fails the test and is printed.
//
// The files are sorted by path and every oracleEvery-th is read, about
// 370 of this machine's 4,450, in about 3 s; FIXTUREGEN_ORACLE=all reads
// them all (about 35 s), FIXTUREGEN_ORACLE=N every N-th.
func TestScannerAgreesWithPythonsParser(t *testing.T) {
	python := testenv.Python(t)
	files := oracleFiles(t, python)
	every := oracleEvery
	switch v := os.Getenv("FIXTUREGEN_ORACLE"); v {
	case "":
	case "all":
		every = 1
	default:
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("FIXTUREGEN_ORACLE=%q: want all or a number of files to step by", v)
		}
		every = n
	}
	// testdata/oracle holds a timer call in each form Python runs it in
	// (f-string fields, lambdas, match arms, comprehensions, async tests,
	// aliases and star imports) and in files whose bytes differ from the
	// common case (CRLF, a BOM, a Latin-1 coding line, tabs and form feeds,
	// characters beyond one UTF-8 byte before a call), which the libraries
	// seldom hold; they are always read.
	sample, err := filepath.Glob("testdata/oracle/*.py")
	if err != nil || len(sample) == 0 {
		t.Fatalf("testdata/oracle: %v", err)
	}
	for i := range sample {
		sample[i], _ = filepath.Abs(sample[i])
	}
	for i, f := range files {
		if i%every == 0 {
			sample = append(sample, f)
		}
	}

	spec := &schema.Spec{}
	spec.Deadline.Fixture, spec.Preload.Fixture = "timeout", "request"
	opts := Options{Spec: spec, ListGroup: true, Fixtures: []string{"timeout", "request"}, Calls: ruleCalls}
	fixtures, marks, calls := opts.words()
	filter := newPrefilter(fixtures, marks, calls, opts.testPatterns())
	var read []string
	for name := range readCalls.Last {
		read = append(read, name)
	}
	slices.Sort(read)

	want := runOracle(t, python, sample, map[string]any{"calls": read, "fixtures": fixtures, "marks": marks})
	var sc needleScratch
	var scanner pyscan.Scanner
	scanner.Keep = readCalls
	var failures []string
	unparsed, dropped, compared, reading := 0, 0, 0, 0
	for _, path := range sample {
		py, ok := want[path]
		if !ok {
			t.Fatalf("the oracle said nothing of %s", path)
		}
		if py.Error != "" {
			unparsed++
			continue
		}
		if len(py.Reads) > 0 {
			reading++
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		text, prob := pyscan.Decode(data)
		if prob != nil {
			failures = append(failures, fmt.Sprintf("%s: ast reads it, check cannot decode it: %s", path, prob.Msg))
			continue
		}
		if filepath.Base(path) != "conftest.py" && !filter.match(text, &sc) {
			dropped++
			if len(py.Reads) > 0 {
				failures = append(failures, fmt.Sprintf("%s: the prefilter drops it, but ast finds what the rules read: %s", path, strings.Join(py.Reads, ", ")))
			}
		}
		// Every file's facts are compared, not only the kept ones': the
		// scanner reads whatever the prefilter lets through.
		compared++
		m := scanner.Scan(text)
		got := scannerFacts(m, readCalls.Last)
		for _, p := range m.Problems {
			got = append(got, fmt.Sprintf("problem %d:%d %s", p.Pos.Line, p.Pos.Col, p.Msg))
		}
		slices.Sort(got)
		if d := factDiff(py.Facts, got); d != "" {
			failures = append(failures, fmt.Sprintf("%s (- ast only, + check only):\n%s", path, d))
		}
	}
	t.Logf("%d files (every %d-th of %d, and testdata/oracle): %d hold what the rules read, %d dropped by the prefilter, %d compared, %d that ast cannot parse",
		len(sample), every, len(files), reading, dropped, compared, unparsed)
	if compared == 0 {
		t.Fatal("no file was compared; the test says nothing")
	}
	if len(failures) > 0 {
		shown := failures[:min(len(failures), 40)]
		t.Errorf("%d of %d files differ:\n%s", len(failures), len(sample), strings.Join(shown, "\n"))
	}
}

// oracleFiles lists the .py files of python's standard library (without
// its site-packages) and of its site-packages, sorted by path.
func oracleFiles(t *testing.T, python string) []string {
	out, err := exec.Command(python, "-c", "import json, sysconfig; print(json.dumps([sysconfig.get_path('stdlib'), sysconfig.get_path('purelib')]))").Output()
	if err != nil {
		t.Fatalf("asking %s for its paths: %v", python, err)
	}
	var roots []string
	if err := json.Unmarshal(out, &roots); err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // an unreadable folder is not the scanner's to answer for
			}
			if d.IsDir() && p != root && (d.Name() == "site-packages" || d.Name() == "__pycache__") {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() && strings.HasSuffix(p, ".py") {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(files)
	files = slices.Compact(files)
	if len(files) < 1000 {
		t.Fatalf("found %d .py files under %v; want the standard library's thousands", len(files), roots)
	}
	return files
}

// oracleRecord is what testdata/oracle.py says of one file.
type oracleRecord struct {
	Path  string   `json:"path"`
	Error string   `json:"error"`
	Facts []string `json:"facts"`
	Reads []string `json:"reads"`
}

// runOracle runs testdata/oracle.py over files, in two processes, and
// returns its records by path.
func runOracle(t *testing.T, python string, files []string, words map[string]any) map[string]oracleRecord {
	script, err := filepath.Abs("testdata/oracle.py")
	if err != nil {
		t.Fatal(err)
	}
	const procs = 2
	var mu sync.Mutex
	var wg sync.WaitGroup
	records := map[string]oracleRecord{}
	errs := make([]error, procs)
	for k := range procs {
		var part []string
		for i := k; i < len(files); i += procs {
			part = append(part, files[i])
		}
		req := map[string]any{"files": part}
		for key, v := range words {
			req[key] = v
		}
		in, err := json.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			cmd := exec.Command(python, script)
			cmd.Stdin = bytes.NewReader(in)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				errs[k] = fmt.Errorf("%v: %s", err, stderr.Bytes())
				return
			}
			sc := bufio.NewScanner(bytes.NewReader(out))
			sc.Buffer(nil, 64<<20)
			for sc.Scan() {
				var r oracleRecord
				if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
					errs[k] = err
					return
				}
				mu.Lock()
				records[r.Path] = r
				mu.Unlock()
			}
			errs[k] = sc.Err()
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatalf("testdata/oracle.py: %v", err)
		}
	}
	return records
}

// scannerFacts renders a module's facts as oracle.py renders ast's: the
// calls whose last name, or whose bare name's import, is one of read.
func scannerFacts(m *pyscan.Module, read map[string]bool) []string {
	key := func(i int) string {
		if i < 0 {
			return "-"
		}
		return fmt.Sprintf("%s@%d", m.Defs[i].Name, m.Defs[i].Pos.Line)
	}
	pos := func(p pyscan.Pos) string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }
	var out []string
	for i, d := range m.Defs {
		kind := "function"
		if d.Kind == pyscan.Class {
			kind = "class"
		}
		out = append(out, fmt.Sprintf("def %s %s %s in %s", pos(d.Pos), kind, d.Name, key(d.Parent)))
		for _, deco := range d.Decorators {
			name := deco.Name
			if name == "" {
				name = "-"
			}
			called := "False"
			if deco.Call >= 0 {
				called = "True"
			}
			out = append(out, fmt.Sprintf("deco %s %s %s call=%s", key(i), name, pos(deco.Pos), called))
		}
		for _, b := range d.Bases {
			out = append(out, fmt.Sprintf("base %s %s", key(i), b))
		}
		for _, p := range d.Params {
			out = append(out, fmt.Sprintf("param %s %s %s", key(i), p.Name, pos(p.Pos)))
		}
		if d.Yields {
			out = append(out, "yields "+key(i))
		}
	}
	for _, im := range m.Imports {
		name := im.Name
		if name == "" {
			name = "-"
		}
		out = append(out, fmt.Sprintf("import %s %s %s in %s", im.Module, name, im.Bound, key(im.Scope)))
	}
	for _, im := range m.StarImports {
		out = append(out, fmt.Sprintf("star %s in %s", im.Module, key(im.Scope)))
	}
	for _, c := range m.Calls {
		bound := ""
		if !strings.Contains(c.Callee, ".") {
			bound = lastName(m.Resolve(c.Callee))
		}
		if !read[lastName(c.Callee)] && !read[bound] {
			continue
		}
		var args []string
		for _, a := range c.Args {
			var v string
			switch a.Kind {
			case pyscan.ArgString:
				v = "str:" + pyJSON(a.Value)
			case pyscan.ArgName:
				v = "name:" + a.Value
			case pyscan.ArgNumber:
				v = "number:" + a.Value
			default:
				v = "other"
			}
			args = append(args, a.Keyword+"="+v)
		}
		out = append(out, fmt.Sprintf("call %s %s in %s deco=%s args=%s", pos(c.Pos), c.Callee, key(c.Scope), key(c.Decorates), strings.Join(args, " ")))
	}
	for _, a := range m.Assigns {
		listed := "-"
		if a.Literal {
			var vs []string
			for _, s := range a.Strings {
				vs = append(vs, pyJSON(s))
			}
			listed = strings.Join(vs, " ")
		}
		out = append(out, fmt.Sprintf("assign %s %s in %s strings=%s", pos(a.Pos), a.Name, key(a.Scope), listed))
	}
	return out
}

// pyJSON is s as Python's json.dumps writes it: ASCII only, with \uXXXX
// escapes in lower case.
func pyJSON(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20 || r >= 0x7f && r < 0x10000:
			fmt.Fprintf(&b, `\u%04x`, r)
		case r >= 0x10000:
			hi, lo := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, hi, lo)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// factDiff lists the lines only in want (-) and only in got (+), both
// sorted; "" when they are the same.
func factDiff(want, got []string) string {
	var b strings.Builder
	i, j := 0, 0
	for i < len(want) || j < len(got) {
		switch {
		case j >= len(got) || i < len(want) && want[i] < got[j]:
			fmt.Fprintf(&b, "  - %s\n", want[i])
			i++
		case i >= len(want) || got[j] < want[i]:
			fmt.Fprintf(&b, "  + %s\n", got[j])
			j++
		default:
			i++
			j++
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}
