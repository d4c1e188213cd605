package main

import (
	"fmt"
	"io"

	"github.com/fixturegen/fixturegen/internal/cli/completion"
)

// shells are the shells completion writes a script for.
var shells = &completion.Choice{Name: "shell", Values: []string{"bash", "zsh", "fish"}}

// scripts writes the completion script of each of shells.
var scripts = map[string]func(io.Writer, completion.Model){"bash": completion.Bash, "zsh": completion.Zsh, "fish": completion.Fish}

func completionCommand() *command {
	return &command{
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
			script, ok := scripts[args[0]]
			if !ok {
				return usageError{fmt.Sprintf("completion knows bash, zsh and fish, not %q", args[0])}
			}
			script(c.stdout, completionModel())
			return nil
		},
	}
}

// completionModel reads the command table and the flag sets the command
// line is parsed with: before a command, the flags run accepts there
// (topFlags); after one, exactly the flags that command accepts
// (commandFlags), so completion offers no flag the command would refuse.
func completionModel() completion.Model {
	global := topFlags(&context{})
	global.SortFlags = false
	var cmds []completion.Command
	for _, cmd := range commands {
		cc := completion.Command{Name: cmd.name, Summary: cmd.summary, Flags: commandFlags(cmd, &context{}), Files: cmd.args != ""}
		if cmd.name == "completion" {
			cc.Files, cc.Choice = false, shells
		}
		cmds = append(cmds, cc)
	}
	return completion.New(global, cmds)
}
