// Package templates holds the Python that fixturegen writes, as text/template
// files embedded into the binary.
//
// The templates live in their own package because //go:embed cannot reach
// files above the embedding package's folder. Package render executes them.
package templates

import "embed"

// FS holds every *.py.tmpl file of this folder.
//
//go:embed *.py.tmpl
var FS embed.FS
