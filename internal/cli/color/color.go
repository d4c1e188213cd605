// Package color decides whether fixturegen's output gets colour, and
// paints it.
//
// The rules are pytest's (its terminal writer's should_do_markup), in its
// order, so a project's CI settings mean the same to both tools:
//
//  1. PY_COLORS=1 turns colour on, PY_COLORS=0 turns it off (pytest's own
//     variable; any other value is not read);
//  2. otherwise NO_COLOR, set and not empty, turns it off;
//  3. otherwise FORCE_COLOR, set and not empty, turns it on;
//  4. otherwise output gets colour only when it goes to a terminal whose
//     TERM is not "dumb".
//
// A pipe or a file never gets escape codes unless PY_COLORS=1 or
// FORCE_COLOR asks for them.
package color

import (
	"io"
	"os"
	"strings"
)

// Enabled applies the rules to an output that is, or is not, a terminal,
// with getenv reading the environment.
func Enabled(terminal bool, getenv func(string) string) bool {
	switch {
	case getenv("PY_COLORS") == "1":
		return true
	case getenv("PY_COLORS") == "0":
		return false
	case getenv("NO_COLOR") != "":
		return false
	case getenv("FORCE_COLOR") != "":
		return true
	}
	return terminal && getenv("TERM") != "dumb"
}

// IsTerminal reports whether w is a terminal (a character device such as
// a tty, not a pipe or a regular file).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// For is the Painter for output written to w, by the rules above.
func For(w io.Writer) Painter {
	return Painter{On: Enabled(IsTerminal(w), os.Getenv)}
}

// Painter adds ANSI colour to text when On, and leaves it as it is
// otherwise.
type Painter struct{ On bool }

// Styles, as SGR parameters.
const (
	Bold   = "1"
	Red    = "31"
	Green  = "32"
	Yellow = "33"
	Cyan   = "36"
	Dim    = "2"
)

// Paint wraps s in the style's escape codes.
func (p Painter) Paint(style, s string) string {
	if !p.On || s == "" {
		return s
	}
	return "\x1b[" + style + "m" + s + "\x1b[0m"
}

// Diff colours a unified diff line by line: file headers bold, hunk
// headers cyan, removed lines red, added lines green.
func (p Painter) Diff(diff string) string {
	if !p.On {
		return diff
	}
	var b strings.Builder
	for line := range strings.Lines(diff) {
		body := strings.TrimSuffix(line, "\n")
		style := ""
		switch {
		case strings.HasPrefix(body, "--- ") || strings.HasPrefix(body, "+++ "):
			style = Bold
		case strings.HasPrefix(body, "@@"):
			style = Cyan
		case strings.HasPrefix(body, "-"):
			style = Red
		case strings.HasPrefix(body, "+"):
			style = Green
		}
		if style == "" {
			b.WriteString(line)
			continue
		}
		b.WriteString(p.Paint(style, body))
		b.WriteString(line[len(body):])
	}
	return b.String()
}
