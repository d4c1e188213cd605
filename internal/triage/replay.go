package triage

import (
	"bytes"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
)

// replayRecord is one line of a pytest-replay record file. pytest-replay
// writes a line when a test starts ("start" only, or with the finish of
// the run before it when the test is rerun) and one when its teardown
// ends ("finish" and "outcome").
type replayRecord struct {
	NodeID  string   `json:"nodeid"`
	Start   *float64 `json:"start"`
	Finish  *float64 `json:"finish"`
	Outcome string   `json:"outcome"`
}

// replayWorker names the worker of a record file from its name:
// ".pytest-replay-gw1.txt" is gw1's; a file without a worker suffix
// recorded a run without pytest-xdist.
func replayWorker(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if i := strings.LastIndex(base, "-gw"); i >= 0 {
		return base[i+1:]
	}
	return "main"
}

// parseReplay reads one pytest-replay record file.
func parseReplay(src *Source, r io.Reader) error {
	worker := replayWorker(src.Path)
	lr := newLineReader(r)
	open := map[string]int{}   // node → index of its run that has not finished
	latest := map[string]int{} // node → index of its latest run
	starts := map[string]float64{}
	for line, ok := lr.next(); ok; line, ok = lr.next() {
		trimmed := bytes.TrimSpace(line)
		if len(trimmed) == 0 || trimmed[0] == '#' || bytes.HasPrefix(trimmed, []byte("//")) {
			continue
		}
		var rec replayRecord
		if err := json.Unmarshal(trimmed, &rec); err != nil || rec.NodeID == "" || rec.Start == nil {
			if !lr.cut {
				src.warnf("%s:%d: not a pytest-replay record; skipped", src.Path, lr.n)
			}
			continue
		}
		loc := Loc{File: src.Path, Line: lr.n}
		finished := rec.Finish != nil && *rec.Finish >= *rec.Start && starts[rec.NodeID] == *rec.Start
		if !finished {
			// A test starts (again). pytest-replay keeps a run's outcome
			// once it failed, so the outcome of a rerun's last run is the
			// log's or the XML's to tell.
			if i, ok := latest[rec.NodeID]; ok {
				src.Runs[i].Outcome = Rerun
			}
			starts[rec.NodeID] = *rec.Start
			open[rec.NodeID] = len(src.Runs)
			latest[rec.NodeID] = len(src.Runs)
			src.Runs = append(src.Runs, Run{Node: rec.NodeID, Worker: worker, Duration: -1, Loc: loc})
			continue
		}
		i, ok := open[rec.NodeID]
		if !ok {
			continue
		}
		delete(open, rec.NodeID)
		src.Runs[i].Duration = *rec.Finish - *rec.Start
		src.Runs[i].Outcome = Outcome(rec.Outcome)
		src.Runs[i].Loc = loc
	}
	if lr.err != nil {
		return lr.err
	}
	src.Lines = lr.n
	if lr.cut {
		src.warnf("%s:%d: the file ends in the middle of a line; read as far as it goes", src.Path, lr.n)
	}
	for _, r := range src.Runs {
		if i, ok := open[r.Node]; ok && src.Runs[i].Loc == r.Loc {
			src.warnf("%s:%d: %s started and never finished: the worker stopped, or the file was cut", src.Path, r.Loc.Line, r.Node)
		}
	}
	src.gap("pytest-replay records no failure messages; pass the log or the JUnit XML of the same attempt for the signatures")
	return nil
}
