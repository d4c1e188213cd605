package triage

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// FuzzRead feeds arbitrary bytes to every parser and the analysis: a
// mangled CI log must give a report, never a panic.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"testdata/red.log", "testdata/red.xml", "testdata/token.log", "testdata/replay/.pytest-replay-gw0.txt"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data[:min(len(data), 3000)])
	}
	f.Add([]byte("[gw1] [ 5%] RERUN a.py::t@g\n___ t ___\n"))
	f.Add([]byte("<testsuite><testcase classname=\"\" name=\"\"><rerunFailure message=\"x\"/></testcase>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m := &Matcher{Deadline: []byte("deadline")}
		src, err := Read(bytes.NewReader(data), "f.log", "f", m)
		if err != nil {
			return
		}
		r := Analyze([]*Source{src}, Spec{DeadlineSeconds: 1, Preload: []string{"a.b"}})
		var out strings.Builder
		r.Text(&out)
		r.GitHub(&out)
		if err := r.JSON(&out); err != nil {
			t.Fatal(err)
		}
	})
}
