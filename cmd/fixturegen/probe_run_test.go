package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fixturegen/fixturegen/internal/probe"
)

// lockedBuffer is a bytes.Buffer the counter's goroutine and the test can
// share.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// On a terminal the progress shows a live counter, cleared before each
// result line and at the end; piped, only the result lines; with -q,
// nothing.
func TestProgress(t *testing.T) {
	result := probe.Result{Node: "t.py::a", Outcome: "passed", Seconds: 0.5}
	line := "  passed    0.50 s  t.py::a\n"

	var live lockedBuffer
	p := &progress{w: &live, live: true, tick: time.Millisecond, done: make(chan struct{})}
	p.start()
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(live.String(), "pytest running: "); {
		if time.Now().After(deadline) {
			t.Fatal("the live counter never showed")
		}
		time.Sleep(time.Millisecond)
	}
	p.result(result)
	p.stop()
	out := live.String()
	if !strings.Contains(out, "\r\x1b[K"+line) {
		t.Errorf("the counter is not cleared before the result line:\n%q", out)
	}
	if !strings.HasSuffix(out, line) && !strings.HasSuffix(out, "\r\x1b[K") {
		t.Errorf("the counter is left on screen:\n%q", out)
	}

	var piped bytes.Buffer
	p = newProgress(&piped, false)
	p.start()
	p.result(result)
	p.stop()
	if piped.String() != line {
		t.Errorf("piped progress = %q, want %q", piped.String(), line)
	}

	var quiet bytes.Buffer
	p = newProgress(&quiet, true)
	p.start()
	p.result(result)
	p.stop()
	if quiet.Len() != 0 {
		t.Errorf("-q printed %q", quiet.String())
	}
}
