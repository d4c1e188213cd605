// Package templates holds the Python that fixturegen writes, as text/template
// files embedded into the binary.
//
// The templates live in their own package because //go:embed cannot reach
// files above the embedding package's folder. Package render executes them.
package templates

import _ "embed" // for the //go:embed strings

// Each template is a string, named as its file: text/template parses a
// string where it lies, while a file read from an embed.FS is copied, and
// copied again into the string the parser takes.
var (
	//go:embed conftest_region.py.tmpl
	ConftestRegion string
	//go:embed runtime.py.tmpl
	Runtime string
	//go:embed runtime_deadline.py.tmpl
	RuntimeDeadline string
	//go:embed runtime_loadgroup.py.tmpl
	RuntimeLoadgroup string
	//go:embed runtime_shield.py.tmpl
	RuntimeShield string
	//go:embed runtime_plugin.py.tmpl
	RuntimePlugin string
	//go:embed probe_plugin.py.tmpl
	ProbePlugin string
	//go:embed probe_tests.py.tmpl
	ProbeTests string
	//go:embed scaffold_module.py.tmpl
	ScaffoldModule string
)
