package dist

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/testenv"
	"github.com/fixturegen/fixturegen/internal/version"
)

// takenName is the distribution the name "fixturegen" fetches from the
// package index: an unrelated project, whose setup runs on install. No
// text fixturegen shows its users may tell them to install it; fixturegen
// is version.Distribution there.
const takenName = "fixturegen"

// takenRequirement finds the taken name written as a requirement with a
// version: fixturegen==0.4.0, 'fixturegen>=0.5', fixturegen[x]~=1, as
// requirement files, pyproject dependencies, pre-commit's
// additional_dependencies and installers' arguments spell it. A path
// (cmd/fixturegen@v0.4.0) or a longer name (fixturegen-cli==0.4.0) is not
// one.
var takenRequirement = regexp.MustCompile(`(?i)(?:^|[^A-Za-z0-9._/@-])(` + takenName + `(?:\[[^\]]*\])?\s*(?:===|==|~=|!=|<=|>=|[<>]\s*[0-9]))`)

// installer is a command word that fetches distributions by name: pip (as
// pip, pip3, pip3.12, .venv/bin/pip, python -m pip), pipx, uv and uvx.
var installer = regexp.MustCompile(`^(pip(3(\.[0-9]+)?)?|pipx|uv|uvx)$`)

// valueOptions are installer options whose value is the next word and no
// requirement; requirementOptions are those whose value is one (uvx --from,
// pipx run --spec, uv run --with).
var (
	valueOptions = strings.Fields(`-r --requirement -c --constraint -e --editable -f --find-links
		-i --index-url --extra-index-url --index --default-index -p --python -t --target -d --dest
		--prefix --root --src --group --optional --directory --project --python-version --platform
		--implementation --abi --only-binary --no-binary --upgrade-package -P --suffix --pip-args
		--index-strategy --cache-dir --log --proxy --cert --client-cert --trusted-host
		--config-settings --global-option --exclude-newer --keyring-provider --resolution
		--prerelease --with-requirements --with-editable`)
	requirementOptions = []string{"--from", "--spec", "--with", "-w"}
)

// segmentEnd splits a line where a command ends: Markdown's backticks and
// table bars, shell separators and parentheses, and a comment.
var segmentEnd = regexp.MustCompile("[`|;&()]|\\s#")

// installsTaken returns each place in line that tells an installer to
// fetch the taken name from the package index, as the words that do.
// Words after an install command are read as requirements up to the end of
// the command, so a command in prose belongs in backticks.
func installsTaken(line string) []string {
	var found []string
	if m := takenRequirement.FindStringSubmatch(line); m != nil {
		found = append(found, m[1])
	}
	for _, segment := range segmentEnd.Split(line, -1) {
		words := strings.Fields(segment)
		for i := 0; i < len(words); i++ {
			tool := filepath.Base(unquote(words[i]))
			if !installer.MatchString(tool) {
				continue
			}
			mode, rest := command(tool, words[i+1:])
			if mode == "" {
				continue
			}
			if w := takenIn(mode, rest); w != "" {
				found = append(found, strings.Join(words[i:], " "))
			}
		}
	}
	return found
}

// command reads the subcommand after an installer's name and returns how
// its arguments name distributions, with the arguments: "install" (every
// argument is a requirement), "run" (the first argument is the package,
// unless an option named it) or "with" (only options name requirements);
// "" for a command that installs nothing by name.
func command(tool string, args []string) (string, []string) {
	sub := func(n int) string {
		if len(args) < n {
			return ""
		}
		return strings.Join(args[:n], " ")
	}
	switch {
	case tool == "uvx":
		return "run", args
	case strings.HasPrefix(tool, "pip") && tool != "pipx":
		for len(args) > 0 && strings.HasPrefix(args[0], "-") {
			args = args[1:]
		}
		switch sub(1) {
		case "install", "download", "wheel":
			return "install", args[1:]
		}
	case tool == "pipx":
		switch sub(1) {
		case "install":
			return "install", args[1:]
		case "run":
			return "run", args[1:]
		case "inject":
			// The first argument names the tool's venv, the rest are
			// installed into it.
			rest := args[1:]
			for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
				rest = rest[1:]
			}
			if len(rest) > 0 {
				return "install", rest[1:]
			}
		}
	case tool == "uv":
		switch {
		case sub(2) == "pip install", sub(2) == "tool install":
			return "install", args[2:]
		case sub(2) == "tool run":
			return "run", args[2:]
		case sub(1) == "add":
			return "install", args[1:]
		case sub(1) == "run":
			return "with", args[1:]
		}
	}
	return "", nil
}

// takenIn returns the argument that names the taken distribution, or "".
func takenIn(mode string, args []string) string {
	named := false // an option named the package a run mode runs
	for i := 0; i < len(args); i++ {
		a := unquote(args[i])
		if strings.HasPrefix(a, "-") {
			opt, value, inline := strings.Cut(a, "=")
			isReq := contains(requirementOptions, opt)
			if !inline && (isReq || contains(valueOptions, opt)) && i+1 < len(args) {
				i++
				value = unquote(args[i])
			}
			if isReq {
				named = named || opt != "--with" && opt != "-w"
				if isTaken(value) {
					return a
				}
			}
			continue
		}
		switch mode {
		case "install":
			if isTaken(a) {
				return a
			}
		case "run":
			if !named && isTaken(a) {
				return a
			}
			return ""
		case "with":
			return ""
		}
	}
	return ""
}

// isTaken reports whether a requirement (name, then extras, a version or
// @version) names the taken distribution; a path or a URL names none.
func isTaken(req string) bool {
	if strings.ContainsAny(req, `/\:`) || strings.HasPrefix(req, ".") {
		return false
	}
	name := strings.TrimRight(leadingName.FindString(req), "._-")
	return normalize(name) == takenName
}

var (
	leadingName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*`)
	separators  = regexp.MustCompile(`[-_.]+`)
)

// normalize is a distribution name as the package index compares names.
func normalize(name string) string {
	return separators.ReplaceAllString(strings.ToLower(name), "-")
}

func unquote(w string) string { return strings.Trim(w, `"'`) }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestInstallsTaken(t *testing.T) {
	taken := []string{
		// What fixturegen's own files said before it had a name of its own.
		"| pip, into the project's venv | `pip install fixturegen==0.4.0` |",
		"| pipx, as a tool | `pipx install fixturegen==0.4.0` |",
		"| uv, as a tool | `uv tool install fixturegen==0.4.0` |",
		"| uv, in a project | `uv add --dev fixturegen==0.4.0` |",
		"pip install fixturegen",
		`fixturegen.toml:2:1: required_version = ">=0.5" excludes this fixturegen, 0.4.0; install a version it allows (pip install 'fixturegen>=0.5'), or change required_version`,
		`	c.errorf(n, "%s = %q excludes this fixturegen, %s; install a version it allows (pip install 'fixturegen%s'), or change %s",`,
		`            "$bin/python" -m pip install --disable-pip-version-check --quiet "fixturegen==$version"`,
		"      - run: pip install fixturegen==0.4.0",
		"go to the Python package index, so `pip install fixturegen` works without Go;",
		// Other forms.
		"pip3 install -U fixturegen",
		"python -m pip install --upgrade 'fixturegen[extra]'",
		"pip download --no-deps fixturegen",
		"pip install -r requirements.txt fixturegen",
		"pip install --index-url https://pypi.org/simple FixtureGen",
		"pipx install fixturegen",
		"pipx run fixturegen check",
		"pipx run --spec fixturegen fixturegen check",
		"pipx inject tools fixturegen",
		"uv pip install fixturegen",
		"uv tool install fixturegen",
		"uv tool run fixturegen check",
		"uv run --with fixturegen fixturegen check",
		"uvx fixturegen check",
		"uvx fixturegen@0.4.0 check",
		"uvx --from fixturegen fixturegen check",
		"uvx --from=fixturegen fixturegen check",
		"  additional_dependencies: [fixturegen==0.4.0]",
		`dependencies = ["fixturegen>=0.4"]`,
		"fixturegen ~= 0.4",
		"fixturegen<1",
	}
	legal := []string{
		"go install github.com/fixturegen/fixturegen/cmd/fixturegen@v0.4.0",
		"GOBIN=\"$bin\" go install \"github.com/fixturegen/fixturegen/cmd/fixturegen@v$version\"",
		"| pip, into the project's venv | `pip install fixturegen-cli==0.4.0` |",
		"pipx install fixturegen-cli==0.4.0",
		"uv tool install fixturegen-cli==0.4.0",
		"uv add --dev fixturegen-cli==0.4.0",
		"uvx --from fixturegen-cli fixturegen check",
		"uvx --from fixturegen-cli==0.4.0 fixturegen check --scan fixturegen",
		"uv tool run --from fixturegen-cli fixturegen",
		"pipx run --spec fixturegen-cli fixturegen check",
		"uv run fixturegen check",
		"pip install 'fixturegen-cli>=0.5'",
		`"$bin/python" -m pip install --quiet "fixturegen-cli==$version"`,
		"pip install dist/fixturegen_cli-0.4.0-py3-none-any.whl",
		"pip install --no-index --find-links dist/ fixturegen-cli",
		"pip installs the wheel into its own venv; `fixturegen check` runs",
		"installs it with pip into a fresh venv, and runs the installed `fixturegen`",
		"`fixturegen --version` (or `-V`, or `fixturegen version`) prints the version",
		"fixturegen generate    # writes the region into the conftest, and its runtime",
		`required_version = ">=0.5" excludes this fixturegen, 0.4.0`,
		"the version of `fixturegen` <kbd>x</kbd>",
	}
	for _, line := range taken {
		if got := installsTaken(line); len(got) == 0 {
			t.Errorf("installsTaken misses the install of %s in %q", takenName, line)
		}
	}
	for _, line := range legal {
		if got := installsTaken(line); len(got) > 0 {
			t.Errorf("installsTaken(%q) = %q, but the line installs no %s from the package index", line, got, takenName)
		}
	}
}

// skippedDirs hold no text fixturegen shows its users: tools, build
// output, and test input.
var skippedDirs = map[string]bool{".git": true, ".venv": true, "dist": true, "bin": true, ".matrix": true, "testdata": true, "node_modules": true}

// TestNoFileInstallsTheTakenName reads every file of the repository that
// a user reads or runs, or that holds text fixturegen prints (README,
// docs, action.yml, both pre-commit manifests and the hooks' pyproject,
// templates, examples, scripts, testscripts' expected output, and the Go
// sources of --help texts and messages), and fails at each line that tells
// anyone to install the taken name from the package index. Test sources
// are left out: this file's table is made of such lines.
func TestNoFileInstallsTheTakenName(t *testing.T) {
	root, err := testenv.Root()
	if err != nil {
		t.Fatal(err)
	}
	found := takenInTree(t, root)
	for _, f := range found {
		t.Error(f)
	}
	if len(found) > 0 {
		t.Logf("the wheels are the distribution %s: write %s where a line installs fixturegen by pip, pipx or uv", version.Distribution, version.Distribution)
	}
}

// takenInTree returns "path:line: text" for each line below root that
// installs the taken name.
func takenInTree(t *testing.T, root string) []string {
	t.Helper()
	var found []string
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && skippedDirs[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.IndexByte(data, 0) >= 0 {
			return nil // not text
		}
		files++
		rel, _ := filepath.Rel(root, path)
		for i, line := range strings.Split(string(data), "\n") {
			if got := installsTaken(line); len(got) > 0 {
				found = append(found, fmt.Sprintf("%s:%d: %s (installs %s, another project: %q)", filepath.ToSlash(rel), i+1, strings.TrimSpace(line), takenName, got))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The walk must have read the files it exists for.
	for _, f := range []string{"README.md", "action.yml", ".pre-commit-hooks.yaml", "pre-commit/.pre-commit-hooks.yaml", "pre-commit/pyproject.toml", "docs/check.md", "schema/validate.go", "cmd/fixturegen/version.go"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Errorf("%s, which the scan is for, is missing: %v", f, err)
		}
	}
	if files < 100 {
		t.Errorf("read %d files below %s; the repository has hundreds", files, root)
	}
	return found
}
