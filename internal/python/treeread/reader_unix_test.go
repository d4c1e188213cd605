//go:build unix

package treeread

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// The Reader reads every file of a tree pytest would collect, with one
// reader or several: the same files, their bytes as they are on disk, the
// same errors and problems, and a second read of the files marked.
func TestReaderReadsTheTree(t *testing.T) {
	root := t.TempDir()
	write := func(rel string, data []byte) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, rel string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(root, rel)); err != nil {
			t.Fatal(err)
		}
	}
	write("tests/conftest.py", []byte("import pytest\n"))
	write("tests/test_empty.py", nil)
	for i := range 150 { // more than one batch in one folder
		write(fmt.Sprintf("tests/many/test_%03d.py", i), []byte(fmt.Sprintf("def test_%d():\n    pass\n", i)))
	}
	// Sizes around the buffer's growth.
	for _, size := range []int{1<<16 - 1, 1 << 16, 1<<16 + 1, 3<<16 + 7} {
		write(fmt.Sprintf("tests/big/test_%d.py", size), bytes.Repeat([]byte("x = 'abcdefghijklmnop'\n"), size/23+1)[:size])
	}
	write("tests/big/test_huge.py", make([]byte, MaxFileSize+1))
	// Encodings are bytes to the reader: they come back as they are.
	write("tests/enc/test_latin1.py", []byte("# -*- coding: latin-1 -*-\nname = '\xe9t\xe9'\n"))
	write("tests/enc/test_utf16.py", []byte("\xff\xfe#\x00 \x00x\x00\n\x00"))
	write("tests/enc/test_bom.py", []byte("\xef\xbb\xbfx = 1\n"))
	write("tests/enc/test_nul.py", []byte("x = 1\x00\n"))
	// Folders pytest never enters.
	write("tests/.git/test_hidden.py", []byte("x = 1\n"))
	write("tests/__pycache__/test_cached.py", []byte("x = 1\n"))
	write("tests/node_modules/test_node.py", []byte("x = 1\n"))
	write("tests/venv/test_venv.py", []byte("x = 1\n"))
	write("tests/env/pyvenv.cfg", []byte("home = /usr\n"))
	write("tests/env/test_in_env.py", []byte("x = 1\n"))
	write("tests/not_python.txt", []byte("x = 1\n"))
	// Links: to a file, to a folder inside and outside the tree, back up
	// the tree, and to nothing.
	link("conftest.py", "tests/test_link.py")
	link("many", "tests/many_again")
	link("..", "tests/many/up")
	link("/", "tests/outside")
	link("missing.py", "tests/test_dangling.py")
	if err := syscall.Mkfifo(filepath.Join(root, "tests/test_fifo.py"), 0o644); err != nil {
		t.Fatal(err)
	}
	link("test_fifo.py", "tests/test_fifo_link.py")

	read := func(workers int) (map[string]string, []string, []string) {
		var mu sync.Mutex
		got := map[string]string{}
		var problems []string
		r := &Reader{
			Workers:   workers,
			NoRecurse: DefaultNoRecurse,
			Problem: func(p Problem) {
				mu.Lock()
				problems = append(problems, p.Kind+" "+p.Path)
				mu.Unlock()
			},
		}
		files, err := r.Read([]string{filepath.Join(root, "tests")}, func(f *File, data []byte, err error, worker int) {
			if worker < 0 || worker >= workers {
				t.Errorf("worker %d of %d", worker, workers)
			}
			v := string(data)
			if err != nil {
				v = "error: " + kind(err)
			}
			mu.Lock()
			got[f.Path()] = v
			mu.Unlock()
			f.Skipped = len(data)%2 == 0
		})
		if err != nil {
			t.Fatal(err)
		}
		var again []string
		var skipped []*File
		for _, f := range files {
			if f.Skipped {
				skipped = append(skipped, f)
			}
		}
		r.ReadAgain(skipped, func(f *File, data []byte, err error, worker int) {
			mu.Lock()
			again = append(again, fmt.Sprintf("%s %d %v", f.Path(), len(data), err != nil))
			mu.Unlock()
			f.Skipped = false
		})
		// The second read marks the files Read listed, not copies.
		for _, f := range files {
			if f.Skipped {
				t.Errorf("%s: still marked after the second read", f.Path())
			}
		}
		sort.Strings(problems)
		sort.Strings(again)
		return got, problems, again
	}
	fast, fastProblems, fastAgain := read(3)
	one, oneProblems, oneAgain := read(1)
	if len(fast) < 160 {
		t.Fatalf("three readers read %d files; want the whole tree", len(fast))
	}
	for p, v := range one {
		if fast[p] != v {
			t.Errorf("%s: three readers read %.40q, one %.40q", p, fast[p], v)
		}
		if !strings.HasPrefix(v, "error: ") {
			if disk, err := os.ReadFile(p); err != nil || string(disk) != v {
				t.Errorf("%s: read %.40q, on disk %.40q (%v)", p, v, disk, err)
			}
		}
	}
	for p := range fast {
		if _, ok := one[p]; !ok {
			t.Errorf("%s: read by three readers only", p)
		}
	}
	if !slices.Equal(fastProblems, oneProblems) {
		t.Errorf("problems differ:\nthree %q\none   %q", fastProblems, oneProblems)
	}
	if !slices.Equal(fastAgain, oneAgain) {
		t.Errorf("second reads differ:\nthree %q\none   %q", fastAgain, oneAgain)
	}
	for _, p := range []string{"tests/.git/test_hidden.py", "tests/__pycache__/test_cached.py", "tests/node_modules/test_node.py", "tests/venv/test_venv.py", "tests/env/test_in_env.py"} {
		if _, ok := fast[filepath.Join(root, p)]; ok {
			t.Errorf("%s was read; pytest never enters its folder", p)
		}
	}
	if v := fast[filepath.Join(root, "tests/big/test_huge.py")]; v != "error: too large" {
		t.Errorf("a file over the limit: %.40q, want an error", v)
	}
}

// kind names the errors the readers must agree on.
func kind(err error) string {
	switch {
	case errors.Is(err, ErrTooLarge):
		return "too large"
	case errors.Is(err, ErrNotRegular):
		return "not regular"
	default:
		return err.Error()
	}
}
