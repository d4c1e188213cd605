package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/fixturegen/fixturegen/internal/check/finding"
	"github.com/fixturegen/fixturegen/internal/cli/color"
	"github.com/fixturegen/fixturegen/internal/cli/completion"
	"github.com/fixturegen/fixturegen/internal/gen/write"
	"github.com/fixturegen/fixturegen/internal/shell"
	"github.com/fixturegen/fixturegen/internal/version"
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

// findingsIf is errFindings when a command found problems, else nil.
func findingsIf(found bool) error {
	if found {
		return errFindings
	}
	return nil
}

// usageError is a mistake in the command line: exit 2 with a hint.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// command is one subcommand.
type command struct {
	name    string
	args    string // synopsis of the arguments after the flags
	summary string
	help    string // paragraphs printed by --help after the synopsis
	// more returns what --help prints after help, when it is built from
	// elsewhere (check's list of rules); nil for none.
	more  func() string
	flags func(*pflag.FlagSet)
	run   func(c *context, args []string) error
}

// context is what every command gets: output streams and the global flags.
type context struct {
	stdout, stderr io.Writer
	dir            string // -C
	spec           string // --spec
	// format is the value of the command's --format flag, if it has one,
	// so errors reach a CI tool in the format it reads.
	format string
	// paint colours what goes to stdout, by the rules of package color.
	paint color.Painter
	// warned is set once the spec's warnings were printed: generate
	// loads the spec again under the lock, and says them once.
	warned bool
}

func run(args []string, stdout, stderr io.Writer) int {
	c := &context{stdout: stdout, stderr: stderr, paint: color.For(stdout)}
	global := topFlags(c)
	global.SetInterspersed(false)
	if err := global.Parse(args); err != nil {
		fmt.Fprintf(stderr, "fixturegen: %v%s\n", err, didYouMean(global, err))
		fmt.Fprint(stderr, "run 'fixturegen --help' for usage\n")
		return exitError
	}
	rest := global.Args()
	help, _ := global.GetBool("help")
	if showVersion, _ := global.GetBool("version"); showVersion {
		fmt.Fprintln(stdout, version.Long())
		return exitOK
	}
	if help || len(rest) == 0 || len(rest) == 1 && rest[0] == "help" {
		printUsage(stdout)
		if len(rest) == 0 && !help {
			return exitError
		}
		return exitOK
	}
	name := rest[0]
	if name == "help" {
		if cmd := lookup(rest[1]); cmd != nil {
			printCommandHelp(stdout, cmd)
			return exitOK
		}
		fmt.Fprintf(stderr, "fixturegen help: unknown command %q%s\nrun 'fixturegen --help' for the list of commands\n", rest[1], commandHint(rest[1]))
		return exitError
	}
	cmd := lookup(name)
	if cmd == nil {
		fmt.Fprintf(stderr, "fixturegen: unknown command %q%s\nrun 'fixturegen --help' for the list of commands\n", name, commandHint(name))
		return exitError
	}
	fs := commandFlags(cmd, c)
	if err := fs.Parse(rest[1:]); err != nil {
		fmt.Fprintf(stderr, "fixturegen %s: %v%s\nrun 'fixturegen %s --help' for usage\n", name, err, didYouMean(fs, err), name)
		return exitError
	}
	if help, _ := fs.GetBool("help"); help {
		printCommandHelp(stdout, cmd)
		return exitOK
	}
	if f := fs.Lookup("format"); f != nil {
		c.format = f.Value.String()
	}
	if c.dir != "" {
		if err := os.Chdir(c.dir); err != nil {
			fmt.Fprintf(stderr, "fixturegen: -C %s: %v\n", c.dir, errors.Unwrap(err))
			return exitError
		}
	}
	return c.exitCode(name, cmd.run(c, fs.Args()))
}

// commandFlags is cmd's flag set, every flag the command accepts: the
// global flags, then its own, then -h/--help. The command line is parsed,
// and help and shell completion are written, from it.
func commandFlags(cmd *command, c *context) *pflag.FlagSet {
	fs := globalFlags(cmd.name, c)
	if cmd.flags != nil {
		cmd.flags(fs)
	}
	fs.BoolP("help", "h", false, "show this help")
	return fs
}

// topFlags is the flag set of the words before the command: the global
// flags, -h/--help and -V/--version. The command line is parsed, and help
// and shell completion are written, from it.
func topFlags(c *context) *pflag.FlagSet {
	fs := globalFlags("fixturegen", c)
	fs.BoolP("help", "h", false, "show this help, or a command's with COMMAND --help")
	fs.BoolP("version", "V", false, "print fixturegen's version and exit")
	return fs
}

// globalFlags is a flag set named name that holds the flags every command
// takes, alone, and prints nothing itself. Help and shell completion are
// made from it, so a flag added here needs no other edit.
func globalFlags(name string, c *context) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVarP(&c.dir, "directory", "C", c.dir, "change to `DIR` before doing anything")
	fs.StringVar(&c.spec, "spec", c.spec, "read the spec from `FILE` (default: the nearest "+schema.DefaultFile+", or "+schema.PyprojectFile+" with [tool.fixturegen], from the working folder up to the repository root)")
	completion.Dirs(fs, "directory")
	completion.Files(fs, "spec", "toml")
	return fs
}

// exitCode prints err, if any, and maps it to an exit code. Errors that
// are not usage mistakes go out in the command's --format: a JSON document
// or GitHub annotations on stdout, where a CI tool reads the findings.
func (c *context) exitCode(name string, err error) int {
	var ue usageError
	var sig interrupted
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errFindings):
		return exitFindings
	case errors.As(err, &sig):
		return 128 + int(sig.sig)
	case errors.As(err, &ue):
		fmt.Fprintf(c.stderr, "fixturegen %s: %s\nrun 'fixturegen %s --help' for usage\n", name, ue.msg, name)
	case c.format == "json":
		finding.ProblemsJSON(c.stdout, problems(name, err))
	case c.format == "github":
		finding.ProblemsGitHub(c.stdout, problems(name, err))
	default:
		if _, ok := specErrors(err); ok {
			fmt.Fprintln(c.stderr, err)
		} else {
			fmt.Fprintf(c.stderr, "fixturegen %s: %v\n", name, err)
		}
	}
	return exitError
}

// specErrors returns the problems err holds with their positions, each
// in a file; false when it holds none.
func specErrors(err error) (schema.Errors, bool) {
	var se *schema.Error
	if errors.As(err, &se) {
		return schema.Errors{se}, true
	}
	var ses schema.Errors
	return ses, errors.As(err, &ses)
}

// problems turns an error into the problems it holds: one per spec error
// with its position, or one without a place.
func problems(name string, err error) []finding.Problem {
	ses, ok := specErrors(err)
	if !ok {
		return []finding.Problem{{Message: fmt.Sprintf("fixturegen %s: %v", name, err)}}
	}
	var out []finding.Problem
	for _, e := range ses {
		out = append(out, finding.Problem{Path: e.File, Line: e.Line, Col: e.Col, Message: e.Msg})
	}
	return out
}

// loadSpec loads the spec named by --spec, or the one schema.FindUp finds
// from the working folder upwards: fixturegen.toml, or pyproject.toml's
// [tool.fixturegen].
func (c *context) loadSpec() (*schema.Spec, error) {
	path, err := c.specPath()
	if err != nil {
		return nil, err
	}
	spec, err := schema.Load(path)
	if err == nil && !c.warned {
		c.warned = true
		if w := schema.RequiredVersionWarning(spec); w != "" {
			fmt.Fprintf(c.stderr, "fixturegen: warning: %s\n", w)
		}
	}
	return spec, err
}

// lockSpec takes the lock of the spec's folder (see write.LockName) for a
// command that writes the project's files, before it reads the spec: a
// second command on the same spec waits for this one, then plans from
// what it wrote, so two runs at once never fail and never interleave. A
// spec that cannot be found is left for loadSpec to report.
func (c *context) lockSpec() (*write.Lock, error) {
	path, err := c.specPath()
	if err != nil {
		return nil, nil
	}
	if info, err := os.Stat(path); err != nil || !info.Mode().IsRegular() {
		return nil, nil
	}
	return c.lockDir(filepath.Dir(path))
}

// lockDir takes the lock of the spec's folder dir, as lockSpec does.
func (c *context) lockDir(dir string) (*write.Lock, error) {
	return write.AcquireLock(dir, dir, func(msg string) { fmt.Fprintf(c.stderr, "fixturegen: %s\n", msg) })
}

// specPath is the path of the spec that loadSpec loads.
func (c *context) specPath() (string, error) {
	if c.spec != "" {
		return filepath.Clean(c.spec), nil
	}
	return schema.FindUp(".")
}

// commandLine is the fixturegen command line that runs sub with the same
// -C and --spec as this run, so the fix it names works when pasted.
func (c *context) commandLine(sub string) string {
	parts := []string{"fixturegen"}
	if c.dir != "" {
		parts = append(parts, "-C", shell.Quote(c.dir))
	}
	if c.spec != "" {
		parts = append(parts, "--spec", shell.Quote(c.spec))
	}
	return strings.Join(append(parts, sub), " ")
}
