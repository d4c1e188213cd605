package probe

import (
	"strings"
	"testing"
)

func TestParseReport(t *testing.T) {
	r := &Report{Code: 1, Stdout: ".F\n" +
		`{"code": 1, "armed": [{"stdio": false}], "armed_nodes": ["t.py::a"], "imports": [{"node": "t.py::a", "module": "sdk.msg", "seconds": 1.5}, {"node": "t.py::b", "module": "sdk.msg", "seconds": 0.1}]}` +
		"\n1 failed\n"}
	if err := r.parse(); err != nil {
		t.Fatal(err)
	}
	if r.OK() {
		t.Error("a report with a false record and late imports is OK")
	}
	if got := strings.Join(r.LateModules(), ","); got != "sdk.msg" {
		t.Errorf("LateModules = %s", got)
	}
	if r.ArmedNodes[0] != "t.py::a" || r.Armed[0]["stdio"] {
		t.Errorf("armed = %v at %v", r.Armed, r.ArmedNodes)
	}

	missing := &Report{Code: 4, Stdout: "ERROR: not found\n", Stderr: "boom\n"}
	err := missing.parse()
	if err == nil || !strings.Contains(err.Error(), "exited 4 and printed no probe report") || !strings.Contains(err.Error(), "boom") {
		t.Errorf("error for a missing report: %v", err)
	}
}

func TestOK(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    Report
		ok   bool
	}{
		{"all true", Report{Armed: []map[string]bool{{"a": true}}}, true},
		{"never armed", Report{}, false},
		{"tests failed", Report{Code: 1, Armed: []map[string]bool{{"a": true}}}, false},
		{"late import", Report{Armed: []map[string]bool{{"a": true}}, Late: []Import{{Module: "m"}}}, false},
	} {
		if got := tc.r.OK(); got != tc.ok {
			t.Errorf("%s: OK() = %t", tc.name, got)
		}
	}
}

func TestParseImportTime(t *testing.T) {
	out := "import time: self [us] | cumulative | imported package\n" +
		"import time:       100 |        100 | encodings\n" +
		marker + "\n" +
		"import time:       200 |        200 |   sdk._cold\n" +
		"import time:      1500000 |    1500000 |     sdk.server.fastmcp\n" +
		"import time:       300 |    1500500 | sdk\n" +
		"import time:        50 |         50 | extra\n"
	got, err := parseImportTime("sdk", out)
	if err != nil {
		t.Fatal(err)
	}
	if got.Seconds != 1.50055 || got.Heaviest != "sdk.server.fastmcp" || got.HeaviestSeconds != 1.5 {
		t.Errorf("got %+v", got)
	}
	if _, err := parseImportTime("sdk", "no marker\n"); err == nil {
		t.Error("output without the marker parsed")
	}
}
