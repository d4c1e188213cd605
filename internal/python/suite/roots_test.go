package suite

import (
	"fmt"
	"testing"

	"github.com/fixturegen/fixturegen/schema"
)

func TestDefaultRoots(t *testing.T) {
	tests := []struct {
		file  string
		paths schema.Paths
		nodes []string
		want  string
	}{
		{"fixturegen.toml", schema.Paths{Conftest: "tests/inbox/conftest.py", ProbePlugin: "tests/inbox/p.py"}, []string{"tests/x/test_a.py::t"}, "[tests]"},
		{"proj/fixturegen.toml", schema.Paths{Conftest: "tests/conftest.py"}, []string{"integration/test_b.py::t"}, "[proj/tests proj/integration]"},
		{"fixturegen.toml", schema.Paths{Conftest: "conftest.py"}, []string{"tests/test_a.py::t"}, "[.]"},
	}
	for _, tt := range tests {
		spec := &schema.Spec{File: tt.file, Paths: tt.paths}
		for _, n := range tt.nodes {
			spec.Probe.Cases = append(spec.Probe.Cases, schema.Case{Node: n})
		}
		if got := fmt.Sprint(DefaultRoots(spec)); got != tt.want {
			t.Errorf("DefaultRoots(%s, %+v) = %s, want %s", tt.file, tt.paths, got, tt.want)
		}
	}
}
