package main

import (
	"fmt"
	"runtime/debug"
)

func init() {
	commands = append(commands, &command{
		name:    "version",
		summary: "print fixturegen's version",
		help:    "Prints fixturegen's module version (or \"(devel)\" when built from a checkout) and the Go version that built it.",
		run: func(c *context, args []string) error {
			if len(args) > 0 {
				return usageError{"version takes no arguments"}
			}
			version, goVersion := "(devel)", "unknown"
			if info, ok := debug.ReadBuildInfo(); ok {
				version, goVersion = info.Main.Version, info.GoVersion
			}
			fmt.Fprintf(c.stdout, "fixturegen %s (%s)\n", version, goVersion)
			return nil
		},
	})
}
