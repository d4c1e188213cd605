package main

import (
	"fmt"

	"github.com/fixturegen/fixturegen/internal/cli/completion"
)

// shells are the shells completion writes a script for.
var shells = &completion.Choice{Name: "shell", Values: []string{"bash", "zsh", "fish"}}

func init() {
	commands = append(commands, &command{
		name:    "completion",
		args:    "bash|zsh|fish",
		summary: "print a shell completion script",
		help: `
Prints a script that completes fixturegen's commands, their flags, the
values of --format, folders for -C and spec files for --spec in the given
shell. Load it from the shell's start-up file.

Examples:
  echo 'source <(fixturegen completion bash)' >> ~/.bashrc
  fixturegen completion zsh > "${fpath[1]}/_fixturegen"
  fixturegen completion fish > ~/.config/fish/completions/fixturegen.fish`,
		run: func(c *context, args []string) error {
			if len(args) != 1 {
				return usageError{"completion takes one shell: bash, zsh or fish"}
			}
			model := completionModel()
			switch args[0] {
			case "bash":
				completion.Bash(c.stdout, model)
			case "zsh":
				completion.Zsh(c.stdout, model)
			case "fish":
				completion.Fish(c.stdout, model)
			default:
				return usageError{fmt.Sprintf("completion knows bash, zsh and fish, not %q", args[0])}
			}
			return nil
		},
	})
}

// completionModel reads the command table and the flag sets: the global
// flags in the order they are defined, with --help and --version last,
// then each command with its own flags.
func completionModel() completion.Model {
	global := globalFlags()
	global.SortFlags = false
	global.BoolP("help", "h", false, "show help")
	global.BoolP("version", "V", false, "print the version")
	var cmds []completion.Command
	for _, cmd := range orderedCommands() {
		cc := completion.Command{Name: cmd.name, Summary: cmd.summary, Flags: commandFlags(cmd, &context{}), Files: cmd.args != ""}
		if cmd.name == "completion" {
			cc.Files, cc.Choice = false, shells
		}
		cmds = append(cmds, cc)
	}
	return completion.New(global, cmds)
}
