package wheel

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"strings"
	"testing"
)

func sample() *Wheel {
	return &Wheel{
		Metadata: Metadata{
			Name: "fixturegen-cli", Version: "0.4.0", Summary: "one line", License: "MIT",
			Keywords: []string{"pytest", "sigalrm"}, Classifiers: []string{"Framework :: Pytest"},
			URLs:        [][2]string{{"Repository", "https://example.invalid/fixturegen"}},
			Description: "# fixturegen\n\nText.\n",
		},
		Platform: "manylinux_2_17_x86_64.musllinux_1_2_x86_64",
		Scripts:  []File{{Name: "fixturegen", Content: []byte("\x7fELF binary")}},
		Licenses: []File{{Name: "LICENSE", Content: []byte("MIT License\n")}},
	}
}

func build(t *testing.T, w *Wheel) ([]byte, *zip.Reader) {
	t.Helper()
	var buf bytes.Buffer
	if err := w.Write(&buf); err != nil {
		t.Fatal(err)
	}
	z, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), z
}

func read(t *testing.T, z *zip.Reader, name string) string {
	t.Helper()
	f, err := z.Open(name)
	if err != nil {
		t.Fatalf("wheel lacks %s: %v", name, err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestLayout(t *testing.T) {
	w := sample()
	if got, want := w.Filename(), "fixturegen_cli-0.4.0-py3-none-manylinux_2_17_x86_64.musllinux_1_2_x86_64.whl"; got != want {
		t.Errorf("Filename() = %s, want %s", got, want)
	}
	_, z := build(t, w)
	var names []string
	for _, f := range z.File {
		names = append(names, f.Name)
	}
	want := []string{
		"fixturegen_cli-0.4.0.data/scripts/fixturegen",
		"fixturegen_cli-0.4.0.dist-info/licenses/LICENSE",
		"fixturegen_cli-0.4.0.dist-info/METADATA",
		"fixturegen_cli-0.4.0.dist-info/WHEEL",
		"fixturegen_cli-0.4.0.dist-info/RECORD",
	}
	if strings.Join(names, "\n") != strings.Join(want, "\n") {
		t.Errorf("entries:\n%s\nwant:\n%s", strings.Join(names, "\n"), strings.Join(want, "\n"))
	}
	if mode := z.File[0].Mode(); mode.Perm() != 0o755 || !mode.IsRegular() {
		t.Errorf("the script's mode is %v, want an executable regular file", mode)
	}
	if mode := z.File[2].Mode(); mode.Perm() != 0o644 {
		t.Errorf("METADATA's mode is %v, want 0644", mode)
	}
	if got, want := read(t, z, "fixturegen_cli-0.4.0.dist-info/WHEEL"), "Wheel-Version: 1.0\nGenerator: fixturegen internal/dist/wheel\nRoot-Is-Purelib: false\nTag: py3-none-manylinux_2_17_x86_64\nTag: py3-none-musllinux_1_2_x86_64\n"; got != want {
		t.Errorf("WHEEL:\n%s\nwant:\n%s", got, want)
	}
	wantMeta := `Metadata-Version: 2.4
Name: fixturegen-cli
Version: 0.4.0
Summary: one line
Keywords: pytest,sigalrm
License-Expression: MIT
License-File: LICENSE
Classifier: Framework :: Pytest
Project-URL: Repository, https://example.invalid/fixturegen
Description-Content-Type: text/markdown; charset=UTF-8; variant=GFM

# fixturegen

Text.
`
	if got := read(t, z, "fixturegen_cli-0.4.0.dist-info/METADATA"); got != wantMeta {
		t.Errorf("METADATA:\n%s\nwant:\n%s", got, wantMeta)
	}
}

// TestRecord checks RECORD against the files as an installer does: every
// other entry listed once with its SHA-256 (urlsafe base64, unpadded) and
// size, and RECORD itself without either.
func TestRecord(t *testing.T) {
	_, z := build(t, sample())
	record := read(t, z, "fixturegen_cli-0.4.0.dist-info/RECORD")
	lines := strings.Split(strings.TrimSuffix(record, "\n"), "\n")
	if len(lines) != len(z.File) {
		t.Fatalf("RECORD has %d lines for %d entries:\n%s", len(lines), len(z.File), record)
	}
	for i, f := range z.File {
		if f.Name == "fixturegen_cli-0.4.0.dist-info/RECORD" {
			if lines[i] != f.Name+",," {
				t.Errorf("RECORD's own line is %q", lines[i])
			}
			continue
		}
		content := read(t, z, f.Name)
		sum := sha256.Sum256([]byte(content))
		want := fmt.Sprintf("%s,sha256=%s,%d", f.Name, base64.RawURLEncoding.EncodeToString(sum[:]), len(content))
		if lines[i] != want {
			t.Errorf("RECORD line %q, want %q", lines[i], want)
		}
	}
}

func TestDeterministic(t *testing.T) {
	a, _ := build(t, sample())
	b, _ := build(t, sample())
	if !bytes.Equal(a, b) {
		t.Error("two builds of the same wheel differ")
	}
}

func TestRefusesBadInput(t *testing.T) {
	for _, tt := range []struct {
		name string
		edit func(*Wheel)
		want string
	}{
		{"name", func(w *Wheel) { w.Metadata.Name = "fixture gen" }, `"fixture gen" is not a distribution name`},
		{"version", func(w *Wheel) { w.Metadata.Version = "v0.4.0" }, `"v0.4.0" is not a release version`},
		{"dev version", func(w *Wheel) { w.Metadata.Version = "dev" }, `"dev" is not a release version`},
		{"platform", func(w *Wheel) { w.Platform = "linux x86" }, `"linux x86" is not a platform tag`},
		{"no script", func(w *Wheel) { w.Scripts = nil }, "no executable or module to install"},
		{"summary", func(w *Wheel) { w.Metadata.Summary = "two\nlines" }, "the summary must be one line"},
		{"script path", func(w *Wheel) { w.Scripts[0].Name = "../fixturegen" }, `"../fixturegen" is not a plain file name`},
	} {
		w := sample()
		tt.edit(w)
		var buf bytes.Buffer
		err := w.Write(&buf)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
		if buf.Len() != 0 {
			t.Errorf("%s: %d bytes written despite the error", tt.name, buf.Len())
		}
	}
}

func TestPureWheel(t *testing.T) {
	w := &Wheel{
		Metadata: Metadata{Name: "pytest-import-shield", Version: "0.4.0", Summary: "one line",
			RequiresPython: ">=3.9", RequiresDist: []string{"pytest>=7.4"}},
		Platform:    "any",
		Modules:     []File{{Name: "pytest_import_shield.py", Content: []byte("x = 1\n")}},
		EntryPoints: []EntryPoint{{Group: "pytest11", Name: "import_shield", Object: "pytest_import_shield"}},
	}
	if got, want := w.Filename(), "pytest_import_shield-0.4.0-py3-none-any.whl"; got != want {
		t.Errorf("Filename() = %s, want %s", got, want)
	}
	_, z := build(t, w)
	info := "pytest_import_shield-0.4.0.dist-info/"
	if got := read(t, z, "pytest_import_shield.py"); got != "x = 1\n" {
		t.Errorf("the module holds %q", got)
	}
	if got, want := read(t, z, info+"entry_points.txt"), "[pytest11]\nimport_shield = pytest_import_shield\n"; got != want {
		t.Errorf("entry_points.txt:\n%s\nwant:\n%s", got, want)
	}
	if got := read(t, z, info+"WHEEL"); !strings.Contains(got, "Root-Is-Purelib: true\nTag: py3-none-any\n") {
		t.Errorf("WHEEL:\n%s", got)
	}
	meta := read(t, z, info+"METADATA")
	if !strings.Contains(meta, "Requires-Python: >=3.9\nRequires-Dist: pytest>=7.4\n") {
		t.Errorf("METADATA:\n%s", meta)
	}
	record := read(t, z, info+"RECORD")
	for _, name := range []string{"pytest_import_shield.py,sha256=", info + "entry_points.txt,sha256="} {
		if !strings.Contains(record, name) {
			t.Errorf("RECORD lacks %s:\n%s", name, record)
		}
	}
	bad := *w
	bad.EntryPoints = []EntryPoint{{Group: "pytest11", Name: "a=b", Object: "m"}}
	if err := bad.Write(io.Discard); err == nil || !strings.Contains(err.Error(), "is not one") {
		t.Errorf("an entry point named a=b: error %v", err)
	}
}
