// Package timerexc tells a timer's exception from any other by the names
// it is printed with: the generated runtime's token for an import it
// interrupted and its import-grace message, a fired deadline's failure
// line, pytest-timeout's "Failed: Timeout (>1.0s) from pytest-timeout.",
// and the exception and message a spec's [deadline] names.
//
// triage reads CI logs with it, and probe tells with it a first import a
// timer ended (a late import, which the preload takes out of the timer's
// window) from one that failed on its own (a missing module, mock.patch
// probing a dotted path), which nothing can preload. The runtime's texts
// come from package pytext, where the generated Python gets them too.
package timerexc

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/fixturegen/fixturegen/internal/lazyregexp"
	"github.com/fixturegen/fixturegen/internal/pytext"
	"github.com/fixturegen/fixturegen/schema"
)

// Patterns of the runtime's own messages, each built from the format the
// runtime writes it with.
var (
	// Token matches the runtime's token for an import a timer
	// interrupted; group 1 is the module.
	Token = lazyregexp.New(pytext.Pattern(pytext.InterruptedFormat, map[string]string{"module": pytext.Module}))
	// Grace matches the message of an import that ran past the import
	// grace and was interrupted; group 1 is the module.
	Grace = lazyregexp.New(pytext.Pattern(pytext.GraceFormat, map[string]string{"module": pytext.Module, "grace": pytext.Number}))
	// Generated matches a fired deadline's failure line, whatever
	// exception it raised: one a spec's raises names, or the runtime's own
	// re-raise class, which pytest prints with its module; group 1 is the
	// seconds armed.
	Generated = lazyregexp.New(`(?:` + strings.Join(append(slices.Clone(pytext.Raises),
		`(?:`+regexp.QuoteMeta(pytext.RuntimeModule)+`\.)?`+pytext.DeadlineExceeded), "|") +
		`): ` + pytext.Pattern(pytext.DeadlineFormat, map[string]string{
		"message": `.*`, "seconds": pytext.Number, "timer": `(?:` + strings.Join(pytext.TimerTexts, "|") + `)`}))
)

// Byte strings that occur wherever the patterns above match, for a quick
// test of a line before the regular expression.
var (
	TokenNeedle     = []byte(pytext.Needle(pytext.InterruptedFormat))
	GraceNeedle     = []byte(pytext.Needle(pytext.GraceFormat))
	GeneratedNeedle = []byte(pytext.Needle(pytext.DeadlineFormat))
)

// pytest-timeout's texts: the message of the Failed its signal method
// raises ("Timeout (>1.0s) from pytest-timeout."), and the banner both of
// its methods print above a stack dump ("+++++ Timeout +++++").
var (
	TimeoutNeedle = []byte("Timeout (>")
	TimeoutBanner = []byte("+ Timeout +")
	timeoutFailed = lazyregexp.New(`^Timeout \(>` + pytext.Number + `s\) from pytest-timeout\.`)
)

// Timer is the timer an exception came from, by the names it carries.
type Timer string

const (
	// None: no timer's names.
	None Timer = ""
	// Deadline: a fired deadline, the generated one (its failure line)
	// or the one the spec describes (its exception and message).
	Deadline Timer = "deadline"
	// PytestTimeout: pytest-timeout's signal method.
	PytestTimeout Timer = "pytest-timeout"
	// Interrupted: the runtime's token or grace message, which it writes
	// into whatever a timer raised inside a first import (the deadline's
	// failure, the import shield's report of a rolled-back import).
	Interrupted Timer = "import-interrupted"
)

// Names are what a spec says of its deadline's failure: its exception
// (deadline.raises) and message. The zero Names, for a spec without a
// deadline or no spec at all, leaves the other names to recognise.
type Names struct {
	Exception string
	Message   string
}

// Of returns the timer whose exception an exception of class (its name,
// with or without its module) with message is, or None. message is the
// exception's text as str() gives it.
func Of(class, message string, n Names) Timer {
	short := class[strings.LastIndexByte(class, '.')+1:]
	line := short + ": " + message
	switch {
	case short == pytext.Failed && timeoutFailed().MatchString(message):
		return PytestTimeout
	case short == pytext.DeadlineExceeded, Generated().MatchString(line):
		return Deadline
	case n.Message != "" && short == n.Exception && spec(n.Message).MatchString(message):
		return Deadline
	case bytes.Contains([]byte(message), TokenNeedle) && Token().MatchString(message),
		bytes.Contains([]byte(message), GraceNeedle) && Grace().MatchString(message):
		return Interrupted
	}
	return None
}

// spec returns the pattern of a deadline message as the spec writes it:
// its literal text, each {seconds} field (whatever its format spec)
// matched by any text, as schema.ParseMessage reads the message the
// runtime formats. A message the loader would refuse is all text.
func spec(message string) *regexp.Regexp {
	if re, ok := specs.Load(message); ok {
		return re.(*regexp.Regexp)
	}
	pattern := regexp.QuoteMeta(message)
	if f, p := schema.ParseMessage(message); p == nil {
		var b strings.Builder
		for _, part := range f {
			if part.Field {
				b.WriteString(`.*?`)
			}
			b.WriteString(regexp.QuoteMeta(part.Literal))
		}
		pattern = b.String()
	}
	re, _ := specs.LoadOrStore(message, regexp.MustCompile(pattern))
	return re.(*regexp.Regexp)
}

// specs caches spec's patterns: probe asks about every failed import of a
// run with the same spec.
var specs sync.Map
