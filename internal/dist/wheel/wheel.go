// Package wheel writes a Python wheel: a zip file that pip, pipx and uv
// install. A binary-only wheel holds one or more executables installed as
// scripts and no Python code, as binary tools such as ruff ship; a
// pure-Python wheel (py3-none-any) holds modules installed into
// site-packages, with the entry points that make one a pytest plugin.
//
// The layout follows the wheel format (PEP 427, with PEP 491's .data
// folder): each executable is stored under NAME-VERSION.data/scripts/, which
// installers copy into the environment's bin (Scripts on Windows) folder,
// and NAME-VERSION.dist-info/ holds METADATA (core metadata 2.4, PEP 639
// licence fields), WHEEL, the licence files and RECORD, which lists every
// file with its SHA-256 hash and size. The archive is deterministic: the
// same input gives the same bytes, so a release can be rebuilt and checked.
package wheel

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/fixturegen/fixturegen/internal/lazyregexp"
	"github.com/fixturegen/fixturegen/internal/version"
)

// Metadata is the core metadata written to METADATA.
type Metadata struct {
	Name    string // the distribution name, such as "fixturegen-cli"
	Version string // a normalized PEP 440 version, such as "0.4.0"
	Summary string // one line
	// License is an SPDX license expression, such as "MIT".
	License     string
	Keywords    []string
	Classifiers []string
	// URLs are the project's links, label first: {"Repository", "https://..."}.
	URLs [][2]string
	// Description is the long description, in Markdown (the README).
	Description string
	// RequiresPython is the Python versions the wheel installs on, such as
	// ">=3.9"; RequiresDist the distributions it needs, such as
	// "pytest>=7.4".
	RequiresPython string
	RequiresDist   []string
}

// EntryPoint is one entry point of entry_points.txt: Name = Object in the
// section Group, such as pytest11's "import_shield = pytest_import_shield".
type EntryPoint struct {
	Group, Name, Object string
}

// File is one file of the wheel.
type File struct {
	Name    string // a file name, without folders
	Content []byte
}

// Wheel is a binary-only wheel for one platform.
type Wheel struct {
	Metadata Metadata
	// Platform is the platform tag, or several joined by dots (PEP 425's
	// compressed tag set): "win_amd64",
	// "manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_2_x86_64".
	Platform string
	Scripts  []File // installed into the environment's scripts folder, executable
	Licenses []File // stored in dist-info/licenses and named in METADATA
	// Modules are Python files installed into site-packages: a wheel that
	// holds them is pure (Root-Is-Purelib), for the platform "any".
	Modules     []File
	EntryPoints []EntryPoint
}

// Time is the modification time of every entry, fixed so that a wheel's
// bytes depend on its content alone. Zip cannot store times before 1980.
var Time = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

var validName = lazyregexp.New(`^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$`)

var validPlatform = lazyregexp.New(`^[a-z0-9_]+(\.[a-z0-9_]+)*$`)

// Filename is the wheel's file name: NAME-VERSION-py3-none-PLATFORM.whl,
// with NAME escaped (fixturegen_cli).
func (w *Wheel) Filename() string {
	return fmt.Sprintf("%s-%s-py3-none-%s.whl", escapedName(w.Metadata.Name), w.Metadata.Version, w.Platform)
}

// escapedName is a distribution name as wheel file names and folders spell
// it: lower case, with each run of "-", "_" and "." as one "_".
func escapedName(name string) string {
	return regexp.MustCompile(`[-_.]+`).ReplaceAllString(strings.ToLower(name), "_")
}

func (w *Wheel) check() error {
	m := w.Metadata
	switch {
	case !validName().MatchString(m.Name):
		return fmt.Errorf("wheel: %q is not a distribution name", m.Name)
	case !version.IsRelease(m.Version):
		return fmt.Errorf("wheel: %q is not a release version such as 0.4.0", m.Version)
	case !validPlatform().MatchString(w.Platform):
		return fmt.Errorf("wheel: %q is not a platform tag", w.Platform)
	case len(w.Scripts) == 0 && len(w.Modules) == 0:
		return fmt.Errorf("wheel: no executable or module to install")
	case strings.ContainsAny(m.Summary, "\r\n"):
		return fmt.Errorf("wheel: the summary must be one line")
	}
	for _, e := range w.EntryPoints {
		if e.Group == "" || e.Name == "" || e.Object == "" || strings.ContainsAny(e.Group+e.Name+e.Object, "[]=\r\n") {
			return fmt.Errorf("wheel: entry point %q = %q in [%s] is not one", e.Name, e.Object, e.Group)
		}
	}
	for _, f := range slices.Concat(w.Scripts, w.Licenses, w.Modules) {
		if f.Name == "" || strings.ContainsAny(f.Name, `/\,`) || f.Name == "." || f.Name == ".." {
			return fmt.Errorf("wheel: %q is not a plain file name", f.Name)
		}
	}
	return nil
}

// Write writes the wheel to out.
func (w *Wheel) Write(out io.Writer) error {
	if err := w.check(); err != nil {
		return err
	}
	base := escapedName(w.Metadata.Name) + "-" + w.Metadata.Version
	dataDir, infoDir := base+".data", base+".dist-info"
	type entry struct {
		name    string
		content []byte
		mode    int
	}
	var entries []entry
	add := func(dir string, files []File, mode int) {
		for _, f := range files {
			entries = append(entries, entry{dir + f.Name, f.Content, mode})
		}
	}
	add(dataDir+"/scripts/", w.Scripts, 0o755)
	add("", w.Modules, 0o644)
	add(infoDir+"/licenses/", w.Licenses, 0o644)
	if len(w.EntryPoints) > 0 {
		entries = append(entries, entry{infoDir + "/entry_points.txt", w.entryPoints(), 0o644})
	}
	entries = append(entries, entry{infoDir + "/METADATA", w.metadata(), 0o644}, entry{infoDir + "/WHEEL", w.wheelFile(), 0o644})
	// RECORD lists every file with its hash, and itself without one: it
	// cannot hold its own.
	var record bytes.Buffer
	for _, e := range entries {
		sum := sha256.Sum256(e.content)
		fmt.Fprintf(&record, "%s,sha256=%s,%d\n", e.name, base64.RawURLEncoding.EncodeToString(sum[:]), len(e.content))
	}
	fmt.Fprintf(&record, "%s/RECORD,,\n", infoDir)
	entries = append(entries, entry{infoDir + "/RECORD", record.Bytes(), 0o644})

	z := zip.NewWriter(out)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: Time}
		// Unix permissions in the upper half of the external attributes,
		// with the regular-file type bits, as installers read them.
		h.CreatorVersion = 3<<8 | 20
		h.ExternalAttrs = uint32(0o100000|e.mode) << 16
		f, err := z.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := f.Write(e.content); err != nil {
			return err
		}
	}
	return z.Close()
}

// metadata renders METADATA: core metadata 2.4 in its email-header form,
// with the README as the body.
func (w *Wheel) metadata() []byte {
	m := w.Metadata
	var b bytes.Buffer
	field := func(k, v string) { fmt.Fprintf(&b, "%s: %s\n", k, v) }
	field("Metadata-Version", "2.4")
	field("Name", m.Name)
	field("Version", m.Version)
	if m.Summary != "" {
		field("Summary", m.Summary)
	}
	if len(m.Keywords) > 0 {
		field("Keywords", strings.Join(m.Keywords, ","))
	}
	if m.License != "" {
		field("License-Expression", m.License)
	}
	for _, l := range w.Licenses {
		field("License-File", l.Name)
	}
	for _, c := range m.Classifiers {
		field("Classifier", c)
	}
	for _, u := range m.URLs {
		field("Project-URL", u[0]+", "+u[1])
	}
	if m.RequiresPython != "" {
		field("Requires-Python", m.RequiresPython)
	}
	for _, r := range m.RequiresDist {
		field("Requires-Dist", r)
	}
	if m.Description != "" {
		field("Description-Content-Type", "text/markdown; charset=UTF-8; variant=GFM")
		b.WriteByte('\n')
		b.WriteString(m.Description)
		if !strings.HasSuffix(m.Description, "\n") {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// entryPoints renders entry_points.txt: an INI file, one section a group,
// in the order the entry points are listed.
func (w *Wheel) entryPoints() []byte {
	var b bytes.Buffer
	group := ""
	for _, e := range w.EntryPoints {
		if e.Group != group {
			if group != "" {
				b.WriteByte('\n')
			}
			group = e.Group
			fmt.Fprintf(&b, "[%s]\n", group)
		}
		fmt.Fprintf(&b, "%s = %s\n", e.Name, e.Object)
	}
	return b.Bytes()
}

// wheelFile renders WHEEL. Root-Is-Purelib is true for a wheel of modules;
// a binary-only wheel is for one platform and installs nothing into
// site-packages.
func (w *Wheel) wheelFile() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "Wheel-Version: 1.0\nGenerator: fixturegen internal/dist/wheel\nRoot-Is-Purelib: %t\n", len(w.Modules) > 0)
	// One tag per platform of a compressed set.
	for _, p := range strings.Split(w.Platform, ".") {
		fmt.Fprintf(&b, "Tag: py3-none-%s\n", p)
	}
	return b.Bytes()
}
