package docs

import (
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/python/region"
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/schema"
)

func TestCode(t *testing.T) {
	for in, want := range map[string]string{
		"tests/x.py":  "`tests/x.py`",
		"a|b":         "`a\\|b`",
		"a`b":         "`` a`b ``",
		"line\nbreak": "`line break`",
		"`leading":    "`` `leading ``",
	} {
		if got := code(in); got != want {
			t.Errorf("code(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestHow(t *testing.T) {
	spec := &schema.Spec{Deadline: schema.Deadline{Fixture: "recovery_deadline"}}
	tests := []struct {
		user suite.User
		want string
	}{
		{suite.User{Tests: 2, Uses: []suite.Use{{Test: "test_a", How: suite.ViaPytestmark}, {Test: "test_b", How: suite.ViaPytestmark}}},
			"Every test, through `pytestmark`"},
		{suite.User{Tests: 1, Uses: []suite.Use{{Test: "test_a", How: suite.ViaAutouse, Via: "watchdog"}}},
			"Every test, through the autouse `watchdog` fixture"},
		{suite.User{Tests: 3, Uses: []suite.Use{{Test: "test_wake", How: suite.ViaParameter, Via: "recovery_deadline"}}},
			"`test_wake`, as a parameter"},
		{suite.User{Tests: 2, Uses: []suite.Use{
			{Test: "TestX.test_a", How: suite.ViaUsefixtures},
			{Test: "test_b", How: suite.ViaParameter, Via: "channel"}}},
			"`TestX.test_a`, through a `usefixtures` mark; `test_b`, through the `channel` fixture"},
	}
	for _, tt := range tests {
		if got := how(spec, tt.user); got != tt.want {
			t.Errorf("how = %q, want %q", got, tt.want)
		}
	}
}

// TestBlockAutouse: an autouse deadline reaches modules that never name it,
// so the block says every test below the conftest uses it instead of
// listing the modules that name it.
func TestBlockAutouse(t *testing.T) {
	spec := &schema.Spec{
		Deadline: schema.Deadline{Fixture: "recovery_deadline", Seconds: 1, Autouse: true},
		Preload:  schema.Preload{Fixture: "toy_sdk", Modules: []string{"toyredis"}},
		Paths:    schema.Paths{Conftest: "tests/inbox/conftest.py"},
		File:     "fixturegen.toml",
		Dir:      "/project",
	}
	facts := &suite.Facts{Users: []suite.User{{Path: "/project/tests/inbox/test_a.py", Tests: 1,
		Uses: []suite.Use{{Test: "test_a", How: suite.ViaParameter, Via: "recovery_deadline"}}}}}
	b, err := Block(spec, facts)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	if want := "Every test below `tests/inbox/`: `recovery_deadline` is autouse.\n"; !strings.Contains(text, want) {
		t.Errorf("block lacks %q:\n%s", want, text)
	}
	if strings.Contains(text, "test_a.py") {
		t.Errorf("block lists a module as if the others ran without the autouse deadline:\n%s", text)
	}
}

func TestBlock(t *testing.T) {
	spec := &schema.Spec{
		Deadline: schema.Deadline{Fixture: "recovery_deadline", Seconds: 2.5, Timer: schema.TimerVirtual,
			Message: "too | slow", OnImport: schema.OnImportDefer, LateImports: schema.LateImportsFail},
		Preload: schema.Preload{Fixture: "toy_sdk", Modules: []string{"toyredis"}},
		Group:   schema.Group{Name: "toy-sdk"},
		Paths:   schema.Paths{Conftest: "tests/conftest.py"},
		File:    "pyproject.toml",
		Dir:     "/project",
	}
	facts := &suite.Facts{
		Members: []suite.Member{{Path: "/project/tests/test_b.py", Reasons: []suite.Reason{{Kind: "marks"}}}},
	}
	b, err := Block(spec, facts)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	for _, want := range []string{
		region.DocsBeginLine("pyproject.toml") + "\n",
		"| Deadline | 2.5 seconds of user CPU time (`ITIMER_VIRTUAL`, `SIGVTALRM`) | `recovery_deadline` fixture in `tests/conftest.py` | `[tool.fixturegen.deadline].seconds`, `[tool.fixturegen.deadline].timer` |\n",
		"| Deadline failure | `AssertionError: too \\| slow` |",
		"| `tests/test_b.py` | Marks itself, but neither uses `recovery_deadline` nor patches a preloaded module |\n",
		"No test uses `recovery_deadline` yet.\n",
		"\n" + region.DocsEnd + "\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("block lacks %q:\n%s", want, text)
		}
	}
}
