package dist

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAbsoluteLinks(t *testing.T) {
	base := "https://github.com/fixturegen/fixturegen/blob/v0.4.0/"
	for _, tt := range []struct{ in, want string }{
		{"see [check](docs/check.md).", "see [check](" + base + "docs/check.md)."},
		{"[`examples/inbox`](examples/inbox)", "[`examples/inbox`](" + base + "examples/inbox)"},
		{"[rules](docs/check.md#rules)", "[rules](" + base + "docs/check.md#rules)"},
		{"[site](https://example.invalid/x)", "[site](https://example.invalid/x)"},
		{"[below](#the-spec)", "[below](#the-spec)"},
	} {
		if got := absoluteLinks(tt.in, base); got != tt.want {
			t.Errorf("absoluteLinks(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCheckRefusesNonReleaseVersions(t *testing.T) {
	for _, v := range []string{"v0.4.0", "dev", "0.4.0-rc1", ""} {
		if err := (Release{Version: v}).Check(); err == nil {
			t.Errorf("Check accepts version %q", v)
		}
	}
	if err := (Release{Version: "1.0.0rc1"}).Check(); err != nil {
		t.Error(err)
	}
}

// fakeRelease is a Release over a temporary root with a README and a
// LICENSE, and a stand-in binary.
func fakeRelease(t *testing.T) (Release, string) {
	root := t.TempDir()
	for name, content := range map[string]string{"README.md": "# fixturegen\n", "LICENSE": "MIT License\n", "bin": "binary"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return Release{Root: root, Version: "0.4.0", Out: filepath.Join(root, "dist")}, filepath.Join(root, "bin")
}

func TestArchives(t *testing.T) {
	r, bin := fakeRelease(t)
	if err := os.MkdirAll(r.Out, 0o755); err != nil {
		t.Fatal(err)
	}
	tgz, err := r.Archive(Target{GOOS: "linux", GOARCH: "arm64"}, bin)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(tgz) != "fixturegen-0.4.0-linux-arm64.tar.gz" {
		t.Errorf("archive %s", tgz)
	}
	f, err := os.Open(tgz)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var got []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s %o", h.Name, h.Mode))
	}
	want := "fixturegen-0.4.0-linux-arm64/fixturegen 755\nfixturegen-0.4.0-linux-arm64/README.md 644\nfixturegen-0.4.0-linux-arm64/LICENSE 644"
	if strings.Join(got, "\n") != want {
		t.Errorf("tar entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}

	zipPath, err := r.Archive(Target{GOOS: "windows", GOARCH: "amd64"}, bin)
	if err != nil {
		t.Fatal(err)
	}
	z, err := zip.OpenReader(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	if filepath.Base(zipPath) != "fixturegen-0.4.0-windows-amd64.zip" || len(z.File) != 3 || z.File[0].Name != "fixturegen-0.4.0-windows-amd64/fixturegen.exe" {
		t.Errorf("zip %s holds %d entries, the first %q", zipPath, len(z.File), z.File[0].Name)
	}
}

func TestChecksums(t *testing.T) {
	r, _ := fakeRelease(t)
	if err := os.MkdirAll(r.Out, 0o755); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, name := range []string{"b.whl", "a.tar.gz"} {
		p := filepath.Join(r.Out, name)
		if err := os.WriteFile(p, []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	sums, err := r.Checksums(paths)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(sums)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%x  a.tar.gz\n%x  b.whl\n", sha256.Sum256([]byte("a.tar.gz")), sha256.Sum256([]byte("b.whl")))
	if string(got) != want {
		t.Errorf("SHA256SUMS:\n%s\nwant:\n%s", got, want)
	}
}

func TestTargetsAreUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, tgt := range Targets {
		if seen[tgt.Name()] || seen[tgt.Platform] {
			t.Errorf("target %s or tag %s listed twice", tgt.Name(), tgt.Platform)
		}
		seen[tgt.Name()], seen[tgt.Platform] = true, true
	}
	if len(Targets) != 6 {
		t.Errorf("%d targets, want linux, macOS and Windows on amd64 and arm64", len(Targets))
	}
}
