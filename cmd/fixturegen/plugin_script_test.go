package main

import (
	"archive/zip"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/fixturegen/fixturegen/internal/dist"
	"github.com/fixturegen/fixturegen/internal/testenv"
)

// cmdPlugin builds the release's pytest-import-shield wheel and unpacks
// what it installs into site-packages into the folder DIR: a script that
// sets PYTHONPATH=DIR runs pytest with the plugin installed, found by its
// pytest11 entry point as pip would leave it. (internal/dist's install
// test installs the same wheel with pip.)
func cmdPlugin(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: plugin DIR")
	}
	root, err := testenv.Root()
	ts.Check(err)
	dir := ts.MkAbs(args[0])
	tmp, err := os.MkdirTemp("", "fixturegen-plugin-")
	ts.Check(err)
	defer os.RemoveAll(tmp)
	whl, err := dist.Release{Root: root, Version: "0.4.0", Out: tmp}.PluginWheel()
	ts.Check(err)
	z, err := zip.OpenReader(whl)
	ts.Check(err)
	defer z.Close()
	for _, f := range z.File {
		if strings.Contains(f.Name, "..") {
			ts.Fatalf("plugin: the wheel holds %s", f.Name)
		}
		out := filepath.Join(dir, filepath.FromSlash(f.Name))
		ts.Check(os.MkdirAll(filepath.Dir(out), 0o755))
		r, err := f.Open()
		ts.Check(err)
		data, err := io.ReadAll(r)
		r.Close()
		ts.Check(err)
		ts.Check(os.WriteFile(out, data, 0o644))
	}
}
