package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/fixturegen/fixturegen/internal/suggest"
)

// Help and completion are made from the command table and each command's
// flag set, so a new command or flag shows up in both without other edits.

// commands lists every command in the order a user meets them: help and
// completion show them so. It is filled in init because completion's own
// command reads it.
var commands []*command

func init() {
	commands = []*command{
		generateCommand(), checkCommand(), probeCommand(), triageCommand(), initCommand(),
		scaffoldCommand(), docsCommand(), completionCommand(), versionCommand(),
	}
}

func lookup(name string) *command {
	for _, cmd := range commands {
		if cmd.name == name {
			return cmd
		}
	}
	return nil
}

// commandHint is the hint for a command that does not exist, or "".
func commandHint(name string) string {
	var names []string
	for _, cmd := range commands {
		names = append(names, cmd.name)
	}
	if s := suggest.Closest(name, names); s != "" {
		return fmt.Sprintf("; did you mean %s?", s)
	}
	return ""
}

// didYouMean is the hint for a flag that does not exist, naming the flag
// of fs it most likely misspells, or "".
func didYouMean(fs *pflag.FlagSet, err error) string {
	var ne *pflag.NotExistError
	if !errors.As(err, &ne) {
		return ""
	}
	// "-dry-run" is read as the short flags d, r, y...; it was meant long.
	if short := ne.GetSpecifiedShortnames(); short != "" {
		if len(short) > 1 && fs.Lookup(short) != nil {
			return fmt.Sprintf("; did you mean --%s?", short)
		}
		return ""
	}
	var names []string
	fs.VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	if s := suggest.Closest(ne.GetSpecifiedName(), names); s != "" {
		return fmt.Sprintf("; did you mean --%s?", s)
	}
	return ""
}

func printUsage(w io.Writer) {
	fmt.Fprint(w, `fixturegen keeps a pytest suite's SIGALRM deadline from interrupting a module's
first import: it generates the preload and deadline fixtures, the recording
probe and its tests from fixturegen.toml, and checks them in CI.

Usage:
  fixturegen [-C DIR] [--spec FILE] COMMAND [flags]

Commands:
`)
	for _, cmd := range commands {
		fmt.Fprintf(w, "  %-11s %s\n", cmd.name, cmd.summary)
	}
	fmt.Fprintf(w, "\nGlobal flags:\n%s", flagUsages(topFlags(&context{}), nil))
	fmt.Fprint(w, `
Exit status: 0 all is well; 1 drift, a contract finding or a late import;
2 usage, spec or internal error.

Run 'fixturegen COMMAND --help' for a command's flags and examples.
`)
}

// printCommandHelp prints a command's synopsis and help text, then its own
// flags and the global ones apart.
func printCommandHelp(w io.Writer, cmd *command) {
	synopsis := "fixturegen " + cmd.name + " [flags]"
	if cmd.args != "" {
		synopsis += " " + cmd.args
	}
	fmt.Fprintf(w, "Usage: %s\n\n%s\n", synopsis, strings.TrimSpace(cmd.help))
	if cmd.more != nil {
		fmt.Fprintf(w, "\n%s", cmd.more())
	}
	own := commandFlags(cmd, &context{})
	global := globalFlags("fixturegen", &context{})
	fmt.Fprintf(w, "\nFlags:\n%s", flagUsages(own, global))
	fmt.Fprintf(w, "\nGlobal flags:\n%s", flagUsages(global, nil))
}

// flagUsages lists the flags of fs, leaving out those defined in skip.
// One style throughout: a
// boolean flag is just its name, any other flag is followed by its value's
// placeholder in capitals (the back-quoted word of its usage), and a
// default worth knowing is named at the end.
func flagUsages(fs, skip *pflag.FlagSet) string {
	type row struct{ left, usage string }
	var rows []row
	width := 0
	fs.VisitAll(func(f *pflag.Flag) {
		if skip != nil && skip.Lookup(f.Name) != nil {
			return
		}
		left := "    "
		if f.Shorthand != "" {
			left = "-" + f.Shorthand + ", "
		}
		left += "--" + f.Name
		placeholder, usage := pflag.UnquoteUsage(f)
		if f.Value.Type() != "bool" {
			left += " " + strings.ToUpper(placeholder)
			if f.DefValue != "" && f.DefValue != "[]" {
				usage += fmt.Sprintf(" (default: %s)", f.DefValue)
			}
		}
		rows = append(rows, row{left, usage})
		width = max(width, len(left))
	})
	var b strings.Builder
	for _, r := range rows {
		indent := 2 + width + 3
		fmt.Fprintf(&b, "  %-*s   %s\n", width, r.left, wrap(r.usage, 80-indent, strings.Repeat(" ", indent)))
	}
	return b.String()
}

// wrap breaks s into lines of at most width bytes, indenting each line
// after the first.
func wrap(s string, width int, indent string) string {
	var b strings.Builder
	n := 0
	for i, word := range strings.Fields(s) {
		switch {
		case i == 0:
		case n+1+len(word) > width:
			b.WriteString("\n" + indent)
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(word)
		n += len(word)
	}
	return b.String()
}
