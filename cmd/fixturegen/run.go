package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/fixturegen/fixturegen/schema"
)

// Exit codes that CI can rely on.
const (
	exitOK       = 0
	exitFindings = 1 // drift, a contract finding, or a probe mismatch
	exitError    = 2 // usage, spec or internal error
)

// errFindings reports that a command ran and found problems it has already
// printed: exit 1 with nothing more to say.
var errFindings = errors.New("findings")

// usageError is a mistake in the command line: exit 2 with a hint.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// command is one subcommand.
type command struct {
	name    string
	args    string // synopsis of the arguments after the flags
	summary string
	help    string // paragraphs printed by --help after the synopsis
	flags   func(*pflag.FlagSet)
	run     func(c *context, args []string) error
}

var commands []*command

// context is what every command gets: output streams and the global flags.
type context struct {
	stdout, stderr io.Writer
	dir            string // -C
	spec           string // --spec
}

func run(args []string, stdout, stderr io.Writer) int {
	c := &context{stdout: stdout, stderr: stderr}
	global := pflag.NewFlagSet("fixturegen", pflag.ContinueOnError)
	global.SetInterspersed(false)
	global.SetOutput(io.Discard)
	addGlobalFlags(global, c)
	help := global.BoolP("help", "h", false, "")
	if err := global.Parse(args); err != nil {
		fmt.Fprintf(stderr, "fixturegen: %v\n", err)
		fmt.Fprint(stderr, "run 'fixturegen --help' for usage\n")
		return exitError
	}
	rest := global.Args()
	if *help || len(rest) == 0 {
		printUsage(stdout)
		if len(rest) == 0 && !*help {
			return exitError
		}
		return exitOK
	}
	name := rest[0]
	if name == "help" {
		if len(rest) > 1 {
			if cmd := lookup(rest[1]); cmd != nil {
				printCommandHelp(stdout, cmd)
				return exitOK
			}
		}
		printUsage(stdout)
		return exitOK
	}
	cmd := lookup(name)
	if cmd == nil {
		fmt.Fprintf(stderr, "fixturegen: unknown command %q\nrun 'fixturegen --help' for the list of commands\n", name)
		return exitError
	}
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addGlobalFlags(fs, c)
	if cmd.flags != nil {
		cmd.flags(fs)
	}
	cmdHelp := fs.BoolP("help", "h", false, "show this help")
	if err := fs.Parse(rest[1:]); err != nil {
		fmt.Fprintf(stderr, "fixturegen %s: %v\nrun 'fixturegen %s --help' for usage\n", name, err, name)
		return exitError
	}
	if *cmdHelp {
		printCommandHelp(stdout, cmd)
		return exitOK
	}
	if c.dir != "" {
		if err := os.Chdir(c.dir); err != nil {
			fmt.Fprintf(stderr, "fixturegen: -C %s: %v\n", c.dir, errors.Unwrap(err))
			return exitError
		}
	}
	return exitCode(stderr, name, cmd.run(c, fs.Args()))
}

func addGlobalFlags(fs *pflag.FlagSet, c *context) {
	fs.StringVarP(&c.dir, "directory", "C", c.dir, "change to `DIR` before doing anything")
	fs.StringVar(&c.spec, "spec", c.spec, "read the spec from `FILE` (default: "+schema.DefaultFile+", or [tool.fixturegen] in "+schema.PyprojectFile+", in the working directory)")
}

// exitCode prints err, if any, and maps it to an exit code.
func exitCode(stderr io.Writer, name string, err error) int {
	var ue usageError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errFindings):
		return exitFindings
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "fixturegen %s: %s\nrun 'fixturegen %s --help' for usage\n", name, ue.msg, name)
	default:
		var se *schema.Error
		var ses schema.Errors
		if errors.As(err, &se) || errors.As(err, &ses) {
			fmt.Fprintln(stderr, err)
		} else {
			fmt.Fprintf(stderr, "fixturegen %s: %v\n", name, err)
		}
	}
	return exitError
}

// loadSpec loads the spec named by --spec, or the one schema.Find finds in
// the working directory: fixturegen.toml, or pyproject.toml's
// [tool.fixturegen].
func (c *context) loadSpec() (*schema.Spec, error) {
	path, err := c.specPath()
	if err != nil {
		return nil, err
	}
	return schema.Load(path)
}

// specPath is the path of the spec that loadSpec loads.
func (c *context) specPath() (string, error) {
	if c.spec != "" {
		return filepath.Clean(c.spec), nil
	}
	return schema.Find(".")
}

func lookup(name string) *command {
	for _, cmd := range commands {
		if cmd.name == name {
			return cmd
		}
	}
	return nil
}

func printUsage(w io.Writer) {
	fmt.Fprint(w, `fixturegen keeps a pytest suite's SIGALRM deadline from interrupting a module's
first import: it generates the preload and deadline fixtures, the recording
probe and its tests from fixturegen.toml, and checks them in CI.

Usage:
  fixturegen [-C DIR] [--spec FILE] COMMAND [flags]

Commands:
`)
	// Commands register themselves from their files' init functions, in
	// file-name order; list them in the order a user meets them.
	for _, name := range []string{"generate", "check", "probe", "triage", "init", "scaffold", "docs", "version"} {
		if cmd := lookup(name); cmd != nil {
			fmt.Fprintf(w, "  %-10s %s\n", cmd.name, cmd.summary)
		}
	}
	fmt.Fprint(w, `
Global flags:
  -C, --directory DIR   change to DIR before doing anything
      --spec FILE       read the spec from FILE (default: fixturegen.toml, or
                        [tool.fixturegen] in pyproject.toml)

Exit status: 0 all is well; 1 drift, a contract finding, a late import or a
poisoned worker; 2 usage, spec or internal error.

Run 'fixturegen COMMAND --help' for a command's flags and examples.
`)
}

func printCommandHelp(w io.Writer, cmd *command) {
	fmt.Fprintf(w, "Usage: fixturegen %s [flags] %s\n\n%s\n", cmd.name, cmd.args, strings.TrimSpace(cmd.help))
	fs := pflag.NewFlagSet(cmd.name, pflag.ContinueOnError)
	var c context
	addGlobalFlags(fs, &c)
	if cmd.flags != nil {
		cmd.flags(fs)
	}
	fs.BoolP("help", "h", false, "show this help")
	fmt.Fprintf(w, "\nFlags:\n%s", fs.FlagUsages())
}
