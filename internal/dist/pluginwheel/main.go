// Pluginwheel writes the pytest-import-shield wheel, as the release builds
// it (version 0.4.0), into the folder its argument names and prints its
// path: bench/plugin_cost.sh and scripts/matrix install it from there
// without building the release's binaries.
//
//	go run ./internal/dist/pluginwheel DIR
package main

import (
	"fmt"
	"os"

	"github.com/fixturegen/fixturegen/internal/dist"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./internal/dist/pluginwheel DIR")
		os.Exit(2)
	}
	wd, err := os.Getwd()
	if err == nil {
		var whl string
		whl, err = dist.Release{Root: wd, Version: "0.4.0", Out: os.Args[1]}.PluginWheel()
		fmt.Println(whl)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pluginwheel:", err)
		os.Exit(1)
	}
}
