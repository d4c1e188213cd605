package main

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/fixturegen/fixturegen/internal/cli/color"
	"github.com/fixturegen/fixturegen/internal/probe"
	"github.com/fixturegen/fixturegen/schema"
)

// probeGrace is how long the inner pytest gets to stop after a forwarded
// Ctrl-C or SIGTERM before it is killed.
const probeGrace = 2 * time.Second

// interrupted is a run stopped by a signal: exit 128 plus its number, as
// a shell reports it.
type interrupted struct{ sig syscall.Signal }

func (e interrupted) Error() string { return "interrupted by " + signalName(e.sig) }

// signalNames are the names a shell gives the signals probe forwards.
var signalNames = map[syscall.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM"}

func signalName(sig syscall.Signal) string { return cmp.Or(signalNames[sig], sig.String()) }

// runProbe runs the probe with progress on stderr and the signals
// forwarded, and turns what stopped it into an error: a node that does not
// collect (exit 2), or a signal (exit 130 or 143).
func runProbe(c *context, spec *schema.Spec, python string, nodes []string, quiet bool) (*probe.Report, error) {
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(stop)

	pr := newProgress(c.stderr, quiet)
	pr.start()
	report, err := probe.Run(spec, python, nodes, probe.Options{Progress: pr.result, Stop: stop, Grace: probeGrace})
	pr.stop()
	if err != nil {
		return nil, err
	}
	if report.Interrupted != nil {
		sig, _ := report.Interrupted.(syscall.Signal)
		printFinished(c.stderr, report.Results, signalName(sig))
		return nil, interrupted{sig}
	}
	if nc := report.NotCollected(); nc != nil {
		return nil, nc
	}
	return report, nil
}

// printFinished lists what finished before a signal stopped the run.
func printFinished(w io.Writer, results []probe.Result, sig string) {
	if len(results) == 0 {
		fmt.Fprintf(w, "interrupted by %s before any test finished\n", sig)
		return
	}
	fmt.Fprintf(w, "interrupted by %s; finished before it:\n", sig)
	for _, r := range results {
		fmt.Fprintf(w, "  %-7s %6.2f s  %s\n", r.Outcome, r.Seconds, r.Node)
	}
}

// progress prints a line per test as its result arrives and, on a
// terminal, a live counter of the seconds the inner pytest has run.
type progress struct {
	w      io.Writer
	quiet  bool
	live   bool
	paint  color.Painter
	begin  time.Time
	tick   time.Duration
	mu     sync.Mutex
	done   chan struct{}
	ticker sync.WaitGroup // the counter's goroutine
	ticked bool           // the counter is on screen and must be cleared first
}

func newProgress(w io.Writer, quiet bool) *progress {
	return &progress{w: w, quiet: quiet, live: !quiet && color.IsTerminal(w), paint: color.For(w),
		tick: 200 * time.Millisecond, done: make(chan struct{})}
}

func (p *progress) start() {
	p.begin = time.Now()
	if !p.live {
		return
	}
	p.ticker.Go(func() {
		t := time.NewTicker(p.tick)
		defer t.Stop()
		for {
			select {
			case <-p.done:
				return
			case <-t.C:
				p.mu.Lock()
				fmt.Fprintf(p.w, "\r\x1b[Kpytest running: %.1f s", time.Since(p.begin).Seconds())
				p.ticked = true
				p.mu.Unlock()
			}
		}
	})
}

func (p *progress) clear() {
	if p.ticked {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.ticked = false
	}
}

func (p *progress) result(r probe.Result) {
	if p.quiet {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	style := color.Green
	switch r.Outcome {
	case "failed", "error":
		style = color.Red
	case "skipped":
		style = color.Yellow
	}
	fmt.Fprintf(p.w, "  %s %6.2f s  %s\n", p.paint.Paint(style, fmt.Sprintf("%-7s", r.Outcome)), r.Seconds, r.Node)
}

func (p *progress) stop() {
	close(p.done)
	p.ticker.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
}
