// Package dist builds fixturegen's release files: for each platform a
// static, version-stamped binary, packed into a wheel of the distribution
// fixturegen-cli (so pip, pipx and uv install it without Go) and into a
// .tar.gz or .zip archive; the pytest plugin pytest-import-shield, one
// pure-Python wheel; a SHA256SUMS file over all of them, and the
// pre-commit hooks' repository pinned to the release. scripts/wheels runs
// it.
package dist

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/fixturegen/fixturegen/internal/dist/wheel"
	"github.com/fixturegen/fixturegen/internal/gen/render"
	"github.com/fixturegen/fixturegen/internal/gen/write"
	"github.com/fixturegen/fixturegen/internal/lazyregexp"
	"github.com/fixturegen/fixturegen/internal/pytext"
	"github.com/fixturegen/fixturegen/internal/version"
)

// Target is one platform fixturegen is released for.
type Target struct {
	GOOS, GOARCH string
	// Platform is the wheel's platform tag. A static Go binary runs on
	// every Linux C library, so one Linux wheel carries both the manylinux
	// and the musllinux tags (PEP 425's compressed tag set).
	Platform string
}

// Name is the target as archives name it: "linux-amd64".
func (t Target) Name() string { return t.GOOS + "-" + t.GOARCH }

// exe is the binary's file name on the target.
func (t Target) exe() string {
	if t.GOOS == "windows" {
		return "fixturegen.exe"
	}
	return "fixturegen"
}

// Targets are the released platforms. The macOS tags name macOS 12, the
// oldest the Go toolchain supports; the Linux tags name glibc 2.17 and musl
// 1.2, which the static binary does not use but installers ask about.
var Targets = []Target{
	{"linux", "amd64", "manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_2_x86_64"},
	{"linux", "arm64", "manylinux_2_17_aarch64.manylinux2014_aarch64.musllinux_1_2_aarch64"},
	{"darwin", "amd64", "macosx_12_0_x86_64"},
	{"darwin", "arm64", "macosx_12_0_arm64"},
	{"windows", "amd64", "win_amd64"},
	{"windows", "arm64", "win_arm64"},
}

// Release describes one release build.
type Release struct {
	Root    string // the repository's root: the module, README.md and LICENSE
	Version string // "0.4.0", stamped into the binaries
	Out     string // the folder the release files are written to (dist)
}

// Check reports a version that is not a release number.
func (r Release) Check() error {
	if !version.IsRelease(r.Version) {
		return fmt.Errorf("%q is not a release version such as 0.4.0 or 1.0.0rc1 (no leading v)", r.Version)
	}
	return nil
}

// Binary cross-compiles fixturegen for t into the folder dir: static
// (CGO_ENABLED=0), with paths trimmed and the version stamped, and returns
// its path.
func (r Release) Binary(ctx context.Context, t Target, dir string) (string, error) {
	out := filepath.Join(dir, t.exe())
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-buildvcs=false",
		"-ldflags", "-s -w -X github.com/fixturegen/fixturegen/internal/version.stamp="+r.Version,
		"-o", out, "./cmd/fixturegen")
	cmd.Dir = r.Root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+t.GOOS, "GOARCH="+t.GOARCH)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build for %s: %v\n%s", t.Name(), err, msg)
	}
	return out, nil
}

// Wheel packs the binary for t into a wheel in r.Out and returns its path.
func (r Release) Wheel(t Target, binary string) (string, error) {
	exe, readme, license, err := r.contents(binary)
	if err != nil {
		return "", err
	}
	w := &wheel.Wheel{
		Metadata: r.metadata(readme),
		Platform: t.Platform,
		Scripts:  []wheel.File{{Name: t.exe(), Content: exe}},
		Licenses: []wheel.File{{Name: "LICENSE", Content: license}},
	}
	return r.writeWheel(w)
}

const repository = "https://github.com/fixturegen/fixturegen"

func (r Release) metadata(readme []byte) wheel.Metadata {
	return wheel.Metadata{
		Name:     version.Distribution,
		Version:  r.Version,
		Summary:  "Generate and check the pytest fixtures that keep a SIGALRM deadline from interrupting a module's first import",
		License:  "MIT",
		Keywords: []string{"pytest", "pytest-xdist", "sigalrm", "deadline", "fixtures", "code-generation"},
		Classifiers: []string{
			"Development Status :: 4 - Beta",
			"Environment :: Console",
			"Framework :: Pytest",
			"Intended Audience :: Developers",
			"Operating System :: MacOS",
			"Operating System :: Microsoft :: Windows",
			"Operating System :: POSIX :: Linux",
			"Programming Language :: Go",
			"Programming Language :: Python :: 3",
			"Topic :: Software Development :: Code Generators",
			"Topic :: Software Development :: Testing",
		},
		URLs:        r.urls(repository + "/tree/v" + r.Version + "#readme"),
		Description: absoluteLinks(string(readme), repository+"/blob/v"+r.Version+"/"),
	}
}

// urls are a distribution's links, with its documentation at doc.
func (r Release) urls(doc string) [][2]string {
	return [][2]string{
		{"Homepage", repository},
		{"Documentation", doc},
		{"Repository", repository},
		{"Issues", repository + "/issues"},
		{"Changelog", repository + "/releases/tag/v" + r.Version},
	}
}

// PluginDoc is the plugin's documentation in the repository, which its
// wheel carries as the long description shown on its index page.
const PluginDoc = "docs/plugin.md"

// PluginWheel writes the wheel of the pytest plugin pytest-import-shield
// into r.Out and returns its path: one pure-Python module, rendered from the
// runtime's templates (render.Plugin), registered as the pytest11 entry
// point import_shield, needing pytest alone. Every target shares it, so a
// release of any of them holds it.
func (r Release) PluginWheel() (string, error) {
	module, err := render.Plugin(r.Version)
	if err != nil {
		return "", err
	}
	doc, err := os.ReadFile(filepath.Join(r.Root, filepath.FromSlash(PluginDoc)))
	if err != nil {
		return "", err
	}
	license, err := os.ReadFile(filepath.Join(r.Root, "LICENSE"))
	if err != nil {
		return "", err
	}
	w := &wheel.Wheel{
		Metadata: r.pluginMetadata(doc),
		Platform: "any",
		Modules:  []wheel.File{{Name: pytext.PluginModule + ".py", Content: module}},
		EntryPoints: []wheel.EntryPoint{
			{Group: "pytest11", Name: pytext.PluginName, Object: pytext.PluginModule},
		},
		Licenses: []wheel.File{{Name: "LICENSE", Content: license}},
	}
	return r.writeWheel(w)
}

// PluginPythons and PluginPytest are what the plugin supports, as
// scripts/matrix runs it: the wheel's classifiers and requirements say so.
var (
	PluginPythons = []string{"3.9", "3.10", "3.11", "3.12", "3.13"}
	PluginPytest  = "pytest>=7.4"
)

func (r Release) pluginMetadata(doc []byte) wheel.Metadata {
	classifiers := []string{
		"Development Status :: 4 - Beta",
		"Framework :: Pytest",
		"Intended Audience :: Developers",
		"Operating System :: MacOS",
		"Operating System :: POSIX :: Linux",
		"Programming Language :: Python :: 3",
		"Programming Language :: Python :: 3 :: Only",
	}
	for _, v := range PluginPythons {
		classifiers = append(classifiers, "Programming Language :: Python :: "+v)
	}
	classifiers = append(classifiers, "Topic :: Software Development :: Testing")
	return wheel.Metadata{
		Name:           pytext.PluginDistribution,
		Version:        r.Version,
		Summary:        "Keep pytest-timeout and other timer signals from leaving a module half imported: the import shield of fixturegen, as a pytest plugin",
		License:        "MIT",
		Keywords:       []string{"pytest", "pytest-timeout", "pytest-xdist", "sigalrm", "import"},
		Classifiers:    classifiers,
		URLs:           r.urls(repository + "/blob/v" + r.Version + "/" + PluginDoc),
		Description:    absoluteLinks(string(doc), repository+"/blob/v"+r.Version+"/"+path.Dir(PluginDoc)+"/"),
		RequiresPython: ">=" + PluginPythons[0],
		RequiresDist:   []string{PluginPytest},
	}
}

// relativeLink matches a Markdown link or image whose target is a path in
// the repository, not a URL or an anchor.
var relativeLink = lazyregexp.New(`\]\(([^)#:\s][^):\s]*)\)`)

// absoluteLinks points the README's links into the repository at the
// release's tag, so they work where the README is shown away from the
// repository, on the package index.
func absoluteLinks(readme, base string) string {
	return relativeLink().ReplaceAllString(readme, "]("+base+"$1)")
}

// contents reads what every package of a release holds: the binary, the
// README and the LICENSE.
func (r Release) contents(binary string) (exe, readme, license []byte, err error) {
	if exe, err = os.ReadFile(binary); err != nil {
		return nil, nil, nil, err
	}
	if readme, err = os.ReadFile(filepath.Join(r.Root, "README.md")); err != nil {
		return nil, nil, nil, err
	}
	if license, err = os.ReadFile(filepath.Join(r.Root, "LICENSE")); err != nil {
		return nil, nil, nil, err
	}
	return exe, readme, license, nil
}

// Archive packs the binary for t, with the README and LICENSE, into
// fixturegen-VERSION-OS-ARCH.tar.gz (.zip for Windows) in r.Out, under a
// folder of the same name, and returns its path.
func (r Release) Archive(t Target, binary string) (string, error) {
	exe, readme, license, err := r.contents(binary)
	if err != nil {
		return "", err
	}
	dir := "fixturegen-" + r.Version + "-" + t.Name()
	files := []archived{{t.exe(), exe, 0o755}, {"README.md", readme, 0o644}, {"LICENSE", license, 0o644}}
	var buf bytes.Buffer
	name := dir + ".tar.gz"
	if t.GOOS == "windows" {
		name = dir + ".zip"
		err = writeZip(&buf, dir, files)
	} else {
		err = writeTarGz(&buf, dir, files)
	}
	if err != nil {
		return "", err
	}
	path := filepath.Join(r.Out, name)
	return path, write.File(path, buf.Bytes())
}

type archived struct {
	name    string
	content []byte
	mode    int64
}

func writeTarGz(buf *bytes.Buffer, dir string, files []archived) error {
	gz := gzip.NewWriter(buf)
	tw := tar.NewWriter(gz)
	for _, f := range files {
		h := &tar.Header{Name: dir + "/" + f.name, Mode: f.mode, Size: int64(len(f.content)),
			ModTime: wheel.Time, Typeflag: tar.TypeReg, Format: tar.FormatPAX}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if _, err := tw.Write(f.content); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

func writeZip(buf *bytes.Buffer, dir string, files []archived) error {
	z := zip.NewWriter(buf)
	for _, f := range files {
		h := &zip.FileHeader{Name: dir + "/" + f.name, Method: zip.Deflate, Modified: wheel.Time}
		h.SetMode(os.FileMode(f.mode))
		w, err := z.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := w.Write(f.content); err != nil {
			return err
		}
	}
	return z.Close()
}

// PreCommitDir is the folder of the repository root that holds the
// pre-commit hooks' repository, and the folder of r.Out it is written to.
const PreCommitDir = "pre-commit"

// preCommitStamps are the places where the hooks' repository names a
// fixturegen version, VERSION standing for the release's. A place that is
// not found is an error, so the published hooks cannot pin another
// release than their tag names.
var preCommitStamps = []struct {
	file    string
	pattern func() *regexp.Regexp
	replace string
	once    bool // exactly one match, not one or more
}{
	{"pyproject.toml", lazyregexp.New(`(?m)^version = "[^"]*"$`), `version = "VERSION"`, true},
	{"pyproject.toml", lazyregexp.New(`"` + regexp.QuoteMeta(version.Distribution) + `==[^"]*"`), `"` + version.Distribution + `==VERSION"`, true},
	{"README.md", lazyregexp.New(`rev: v\S+`), `rev: vVERSION`, false},
	{"README.md", lazyregexp.New(regexp.QuoteMeta(version.Distribution) + `==[0-9][0-9A-Za-z.]*`), version.Distribution + `==VERSION`, false},
}

// PreCommit writes the pre-commit hooks' repository for the release into
// r.Out/pre-commit and returns that folder: the files of the repository's
// pre-commit folder, with the release's version stamped where they name
// one, and the LICENSE. pre-commit reads hooks from a repository's root,
// so the folder is published as a repository of its own
// (fixturegen-pre-commit) and tagged vVERSION; its pyproject.toml makes
// pre-commit's pip install fixturegen-cli==VERSION, the wheel, and no Go.
func (r Release) PreCommit() (string, error) {
	src := filepath.Join(r.Root, PreCommitDir)
	entries, err := os.ReadDir(src)
	if err != nil {
		return "", err
	}
	files := map[string][]byte{}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			return "", fmt.Errorf("%s: %s is not a regular file; the hooks' repository holds only files", src, e.Name())
		}
		if files[e.Name()], err = os.ReadFile(filepath.Join(src, e.Name())); err != nil {
			return "", err
		}
	}
	for _, st := range preCommitStamps {
		content, ok := files[st.file]
		if !ok {
			return "", fmt.Errorf("%s lacks %s", src, st.file)
		}
		n := len(st.pattern().FindAllIndex(content, -1))
		want := "one or more"
		if st.once {
			want = "exactly one"
		}
		if n == 0 || st.once && n > 1 {
			return "", fmt.Errorf("%s: %d matches of %s, where the release stamps its version; want %s",
				filepath.Join(src, st.file), n, st.pattern(), want)
		}
		files[st.file] = st.pattern().ReplaceAllLiteral(content, []byte(strings.ReplaceAll(st.replace, "VERSION", r.Version)))
	}
	if files["LICENSE"], err = os.ReadFile(filepath.Join(r.Root, "LICENSE")); err != nil {
		return "", err
	}
	out := filepath.Join(r.Out, PreCommitDir)
	// A file the hooks' repository no longer holds must not linger from
	// an earlier build into the published copy.
	if err := os.RemoveAll(out); err != nil {
		return "", err
	}
	for name, content := range files {
		if err := write.File(filepath.Join(out, name), content); err != nil {
			return "", err
		}
	}
	return out, nil
}

// Checksums writes SHA256SUMS into r.Out: one "HASH  NAME" line per file,
// sorted by name, as sha256sum -c reads them.
func (r Release) Checksums(paths []string) (string, error) {
	var lines []string
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return "", err
		}
		lines = append(lines, fmt.Sprintf("%x  %s", sha256.Sum256(data), filepath.Base(p)))
	}
	sort.Slice(lines, func(i, j int) bool { return lines[i][66:] < lines[j][66:] })
	path := filepath.Join(r.Out, "SHA256SUMS")
	return path, write.File(path, []byte(strings.Join(lines, "\n")+"\n"))
}

// All builds every target's binary, wheel and archive, the plugin's wheel
// (whatever the targets), then SHA256SUMS and the pre-commit hooks'
// repository, and returns the paths written. Binaries are built in a temporary folder
// and left out of r.Out.
func (r Release) All(ctx context.Context, targets []Target, progress func(string)) ([]string, error) {
	if err := r.Check(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(r.Out, 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "fixturegen-dist-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	var written []string
	for _, t := range targets {
		bin, err := r.Binary(ctx, t, filepath.Join(tmp, t.Name()))
		if err != nil {
			return nil, err
		}
		whl, err := r.Wheel(t, bin)
		if err != nil {
			return nil, err
		}
		arc, err := r.Archive(t, bin)
		if err != nil {
			return nil, err
		}
		written = append(written, whl, arc)
		progress(filepath.Base(whl))
		progress(filepath.Base(arc))
	}
	plugin, err := r.PluginWheel()
	if err != nil {
		return nil, err
	}
	written = append(written, plugin)
	progress(filepath.Base(plugin))
	sums, err := r.Checksums(written)
	if err != nil {
		return nil, err
	}
	progress(filepath.Base(sums))
	hooks, err := r.PreCommit()
	if err != nil {
		return nil, err
	}
	progress(PreCommitDir + "/")
	return append(written, sums, hooks), nil
}

// writeWheel writes w into the release folder under its file name and
// returns the path.
func (r Release) writeWheel(w *wheel.Wheel) (string, error) {
	var buf bytes.Buffer
	if err := w.Write(&buf); err != nil {
		return "", err
	}
	path := filepath.Join(r.Out, w.Filename())
	return path, write.File(path, buf.Bytes())
}
