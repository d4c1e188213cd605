package render

import (
	"regexp"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/pytext"
	"github.com/fixturegen/fixturegen/schema"
)

// TestTemplatesSpellNoCrossingText keeps the names and message formats
// that fixturegen's Go reads back out of the templates' literal text: each
// reaches the generated Python only through the view, from package pytext,
// so the Go that reads the output and the Python that writes it have one
// spelling.
func TestTemplatesSpellNoCrossingText(t *testing.T) {
	actions := regexp.MustCompile(`\{\{.*?\}\}`)
	crossing := []string{
		pytext.RuntimeModule, pytext.RegionPytest, pytext.DeadlineExceeded, pytext.LateImportWarning, pytext.InterruptedImportWarning,
		pytext.Needle(pytext.InterruptedFormat), pytext.Needle(pytext.GraceFormat),
		pytext.DeadlineFormat, pytext.LateImportFormat, pytext.LateModuleFormat,
	}
	for _, src := range sources {
		literal := actions.ReplaceAllString(*src.text, "")
		for _, text := range crossing {
			if strings.Contains(literal, text) {
				t.Errorf("%s spells %q itself; render it from package pytext through the view", src.name, text)
			}
		}
	}
}

// TestGeneratedPythonWritesTheFormats checks the other side: the rendered
// runtime holds each format as pytext has it, for a spec that uses every
// part of the runtime.
func TestGeneratedPythonWritesTheFormats(t *testing.T) {
	spec, err := schema.Load("../../../examples/inbox/fixturegen.toml")
	if err != nil {
		t.Fatal(err)
	}
	spec.Shield = schema.Shield{On: true, Signals: []string{schema.SignalAlarm}, ImportGrace: 30, PastGrace: schema.PastGraceDeliver, Rollback: true}
	files, err := Render(spec)
	if err != nil {
		t.Fatal(err)
	}
	var runtime string
	for _, f := range files {
		if strings.HasSuffix(f.Path, "_fixturegen_runtime.py") {
			runtime = string(f.Content)
		}
	}
	for _, format := range []string{pytext.DeadlineFormat, pytext.InterruptedFormat, pytext.GraceFormat, pytext.LateImportFormat, pytext.LateModuleFormat} {
		if !strings.Contains(runtime, `"`+format+`"`) {
			t.Errorf("the runtime does not hold the format %q", format)
		}
	}
	for _, class := range []string{"class " + pytext.DeadlineExceeded + "(", "class " + pytext.LateImportWarning + "(", "class " + pytext.InterruptedImportWarning + "("} {
		if !strings.Contains(runtime, class) {
			t.Errorf("the runtime does not define %q", class)
		}
	}
}
