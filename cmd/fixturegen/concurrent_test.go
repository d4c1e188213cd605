package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/fixturegen/fixturegen/internal/gen/write"
	"github.com/fixturegen/fixturegen/internal/python/region"
	"github.com/fixturegen/fixturegen/internal/testenv"
)

// TestGenerateRaces runs two real fixturegen generate processes at once on
// one spec, round after round, each round from a conftest whose region was
// removed. Both must succeed every time (one waits for the other's lock),
// the conftest must end whole and as one generate alone writes it, and a
// reader that reads the conftest all along must only ever see it without
// the region or with all of it.
func TestGenerateRaces(t *testing.T) {
	example, err := filepath.Abs("../../examples/inbox")
	if err != nil {
		t.Fatal(err)
	}
	bin := fixturegenBinary(t)
	dir := t.TempDir()
	if err := testenv.CopyTree(example, dir); err != nil {
		t.Fatal(err)
	}
	conftest := filepath.Join(dir, "tests/inbox/conftest.py")
	whole, err := os.ReadFile(conftest)
	if err != nil {
		t.Fatal(err)
	}
	b, err := region.Find(whole)
	if err != nil || !b.Found {
		t.Fatalf("the example's conftest has no region: %v", err)
	}
	bare := append(append([]byte{}, whole[:b.Start]...), whole[b.End:]...)
	// whole is what one generate writes into the bare conftest.
	writeFile(t, conftest, string(bare))
	if out, err := exec.Command(bin, "-C", dir, "generate").CombinedOutput(); err != nil {
		t.Fatalf("generate: %v\n%s", err, out)
	}
	if whole, err = os.ReadFile(conftest); err != nil {
		t.Fatal(err)
	}

	var torn atomic.Value
	stop := make(chan struct{})
	var reader sync.WaitGroup
	reader.Add(1)
	go func() {
		defer reader.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			got, err := os.ReadFile(conftest)
			if err == nil && !bytes.Equal(got, whole) && !bytes.Equal(got, bare) {
				torn.Store(string(got))
			}
		}
	}()

	const rounds = 40
	for round := range rounds {
		// Atomic too, so that the reader sees no half of the test's own write.
		if err := write.File(conftest, bare); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		outs := make([][]byte, 2)
		errs := make([]error, 2)
		for i := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				outs[i], errs[i] = exec.Command(bin, "-C", dir, "generate").CombinedOutput()
			}()
		}
		wg.Wait()
		for i := range 2 {
			if errs[i] != nil {
				t.Fatalf("round %d: generate %d: %v\n%s", round, i, errs[i], outs[i])
			}
		}
		if got, _ := os.ReadFile(conftest); !bytes.Equal(got, whole) {
			t.Fatalf("round %d: after two generate runs the conftest is not what one writes:\n%s", round, got)
		}
	}
	close(stop)
	reader.Wait()
	if s, ok := torn.Load().(string); ok {
		t.Fatalf("a reader saw the conftest half written:\n%s", s)
	}
	for _, d := range []string{dir, filepath.Dir(conftest)} {
		entries, err := os.ReadDir(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.Name() == write.LockName || strings.Contains(e.Name(), ".fixturegen-") {
				t.Errorf("left behind in %s: %s", d, e.Name())
			}
		}
	}
}
