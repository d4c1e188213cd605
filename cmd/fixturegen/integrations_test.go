package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The repository holds files that other tools run: the pre-commit hooks
// (pre-commit/.pre-commit-hooks.yaml, published as the hooks' repository,
// and the root's .pre-commit-hooks.yaml, which says where they moved) and
// the GitHub Action (action.yml). These tests hold them to the keys those
// tools accept and to fixturegen's own commands and flags, so a renamed
// flag or a typo in a key fails here rather than in a user's CI.

// decodeStrict parses YAML into v, refusing keys v does not declare.
func decodeStrict(t *testing.T, path string, v any) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := yaml.NewDecoder(f)
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// preCommitHook has every key pre-commit allows in a hooks file.
type preCommitHook struct {
	ID                      string   `yaml:"id"`
	Name                    string   `yaml:"name"`
	Entry                   string   `yaml:"entry"`
	Language                string   `yaml:"language"`
	Description             string   `yaml:"description"`
	Files                   string   `yaml:"files"`
	Exclude                 string   `yaml:"exclude"`
	Types                   []string `yaml:"types"`
	TypesOr                 []string `yaml:"types_or"`
	ExcludeTypes            []string `yaml:"exclude_types"`
	AlwaysRun               bool     `yaml:"always_run"`
	FailFast                bool     `yaml:"fail_fast"`
	Verbose                 bool     `yaml:"verbose"`
	PassFilenames           *bool    `yaml:"pass_filenames"`
	RequireSerial           bool     `yaml:"require_serial"`
	LanguageVersion         string   `yaml:"language_version"`
	MinimumPreCommitVersion string   `yaml:"minimum_pre_commit_version"`
	Args                    []string `yaml:"args"`
	Stages                  []string `yaml:"stages"`
	AdditionalDependencies  []string `yaml:"additional_dependencies"`
	LogFile                 string   `yaml:"log_file"`
}

func TestPreCommitHooks(t *testing.T) {
	var hooks []preCommitHook
	decodeStrict(t, "../../pre-commit/.pre-commit-hooks.yaml", &hooks)
	var ids []string
	// identify's tags for the files fixturegen reads.
	knownTypes := []string{"python", "toml", "ini", "pyi", "text", "file"}
	for _, h := range hooks {
		ids = append(ids, h.ID)
		if h.Name == "" || h.Description == "" {
			t.Errorf("hook %s lacks a name or a description", h.ID)
		}
		if h.Language != "python" {
			t.Errorf("hook %s: language %q; pre-commit installs fixturegen's wheel only with python", h.ID, h.Language)
		}
		if h.PassFilenames == nil || *h.PassFilenames {
			t.Errorf("hook %s passes file names; fixturegen's commands take none", h.ID)
		}
		for _, typ := range h.TypesOr {
			if !slices.Contains(knownTypes, typ) {
				t.Errorf("hook %s: unknown file type %q", h.ID, typ)
			}
		}
		words := strings.Fields(h.Entry)
		if len(words) < 2 || words[0] != "fixturegen" {
			t.Errorf("hook %s: entry %q does not run fixturegen", h.ID, h.Entry)
			continue
		}
		if "fixturegen-"+words[1] != h.ID {
			t.Errorf("hook %s runs fixturegen %s", h.ID, words[1])
		}
		checkCommandLine(t, words[1:])
	}
	if want := []string{"fixturegen-check", "fixturegen-generate"}; !slices.Equal(ids, want) {
		t.Errorf("hooks %v, want %v", ids, want)
	}

	var moved []preCommitHook
	decodeStrict(t, "../../.pre-commit-hooks.yaml", &moved)
	var movedIDs []string
	for _, h := range moved {
		movedIDs = append(movedIDs, h.ID)
		if h.Language != "fail" || !h.AlwaysRun || h.Name == "" || h.Description == "" {
			t.Errorf("the root's hook %s: language %q, always_run %v; want fail, always, with a name and a description", h.ID, h.Language, h.AlwaysRun)
		}
	}
	if !slices.Equal(movedIDs, ids) {
		t.Errorf("the root's hooks %v, want the hooks' repository's %v", movedIDs, ids)
	}
}

// actionFile has the keys GitHub allows in a composite action's metadata.
type actionFile struct {
	Name        string                 `yaml:"name"`
	Description string                 `yaml:"description"`
	Author      string                 `yaml:"author"`
	Branding    map[string]string      `yaml:"branding"`
	Inputs      map[string]actionInput `yaml:"inputs"`
	Outputs     map[string]any         `yaml:"outputs"`
	Runs        struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionInput struct {
	Description        string  `yaml:"description"`
	Required           bool    `yaml:"required"`
	Default            *string `yaml:"default"`
	DeprecationMessage string  `yaml:"deprecationMessage"`
}

type actionStep struct {
	Name             string            `yaml:"name"`
	ID               string            `yaml:"id"`
	If               string            `yaml:"if"`
	Run              string            `yaml:"run"`
	Shell            string            `yaml:"shell"`
	Uses             string            `yaml:"uses"`
	With             map[string]string `yaml:"with"`
	Env              map[string]string `yaml:"env"`
	WorkingDirectory string            `yaml:"working-directory"`
	ContinueOnError  bool              `yaml:"continue-on-error"`
}

var expression = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

func TestAction(t *testing.T) {
	var a actionFile
	decodeStrict(t, "../../action.yml", &a)
	if a.Name == "" || a.Description == "" {
		t.Error("action.yml lacks a name or a description")
	}
	if a.Runs.Using != "composite" {
		t.Errorf("runs.using is %q, want composite", a.Runs.Using)
	}
	if in, ok := a.Inputs["version"]; !ok || !in.Required {
		t.Error("the action must require a version input, so every run installs a pinned fixturegen")
	}
	used := map[string]bool{}
	checked := false
	for i, s := range a.Runs.Steps {
		if (s.Run == "") == (s.Uses == "") {
			t.Errorf("step %d needs exactly one of run and uses", i)
		}
		if s.Run != "" && s.Shell == "" {
			t.Errorf("step %d: a composite action's run step needs a shell", i)
		}
		// Inputs reach scripts through env, never spliced into the script
		// itself, where a quote in an input could run as code.
		if expression.MatchString(s.Run) {
			t.Errorf("step %d splices an expression into its script; pass it through env", i)
		}
		for _, text := range append([]string{s.Name, s.If, s.WorkingDirectory}, mapValues(s.Env)...) {
			for _, m := range expression.FindAllStringSubmatch(text, -1) {
				name, ok := strings.CutPrefix(m[1], "inputs.")
				if !ok {
					t.Errorf("step %d uses ${{ %s }}; only inputs are expected", i, m[1])
					continue
				}
				if _, declared := a.Inputs[name]; !declared {
					t.Errorf("step %d uses undeclared input %s", i, name)
				}
				used[name] = true
			}
		}
		for _, line := range strings.Split(s.Run, "\n") {
			if words := strings.Fields(line); len(words) > 1 && words[0] == "fixturegen" {
				if len(words) >= 4 && slices.Equal(words[1:4], []string{"check", "--format", "github"}) {
					checked = true
				}
				// Words from shell variables are the user's own flags.
				checkCommandLine(t, slices.DeleteFunc(slices.Clone(words[1:]), func(w string) bool { return strings.HasPrefix(w, "$") }))
			}
		}
	}
	for name, in := range a.Inputs {
		if !used[name] {
			t.Errorf("input %s is declared but never used", name)
		}
		if in.Description == "" {
			t.Errorf("input %s lacks a description", name)
		}
	}
	if !checked {
		t.Error("no step runs fixturegen check --format github")
	}
}

func mapValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// checkCommandLine fails the test unless args (after "fixturegen") name a
// command, or a global flag alone, with flags that command accepts.
func checkCommandLine(t *testing.T, args []string) {
	t.Helper()
	if len(args) == 1 && (args[0] == "--version" || args[0] == "-V") {
		return
	}
	cmd := lookup(args[0])
	if cmd == nil {
		t.Errorf("fixturegen has no command %q", args[0])
		return
	}
	fs := commandFlags(cmd, &context{})
	if err := fs.Parse(args[1:]); err != nil {
		t.Errorf("fixturegen %s: %v", strings.Join(args, " "), err)
	}
}
