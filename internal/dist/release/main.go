// Release builds fixturegen's release files into dist/: scripts/wheels runs
// it as "go run ./internal/dist/release VERSION [OS-ARCH...]".
//
// With no OS-ARCH it builds every released platform; naming some (such as
// linux-amd64) builds only those. It prints each file it writes.
package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/internal/dist"
)

func main() {
	if len(os.Args) < 2 || strings.HasPrefix(os.Args[1], "-") {
		fmt.Fprintln(os.Stderr, "usage: scripts/wheels VERSION [OS-ARCH...]   (VERSION like 0.4.0; OS-ARCH like linux-amd64)")
		os.Exit(2)
	}
	targets := dist.Targets
	if len(os.Args) > 2 {
		targets = nil
		for _, name := range os.Args[2:] {
			i := slices.IndexFunc(dist.Targets, func(t dist.Target) bool { return t.Name() == name })
			if i < 0 {
				fmt.Fprintf(os.Stderr, "release: unknown target %q; one of %s\n", name, names())
				os.Exit(2)
			}
			targets = append(targets, dist.Targets[i])
		}
	}
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(2)
	}
	r := dist.Release{Root: wd, Version: os.Args[1], Out: "dist"}
	if err := r.Check(); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(2)
	}
	if _, err := r.All(context.Background(), targets, func(name string) { fmt.Println("dist/" + name) }); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

func names() string {
	var out []string
	for _, t := range dist.Targets {
		out = append(out, t.Name())
	}
	return strings.Join(out, ", ")
}
