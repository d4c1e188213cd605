package adopt

import (
	"strings"

	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/python/suite"
)

// Kept is a handler of a timer's signal that the conftest installs for the
// whole process, at import or in its pytest_configure: adoption keeps it,
// since code that arms the timer outside the generated deadline (a test
// module's signal.alarm(120)) relies on it, and says so.
type Kept struct {
	Handler string // the handler as written
	Line    int    // of the signal.signal call, in the adopted conftest
	// InConfigure is set for an install in pytest_configure.
	InConfigure bool
}

// KeptHandlers returns the installs of a timer signal's handler that src,
// the adopted conftest, makes outside every function but
// pytest_configure, in source order.
func KeptHandlers(src []byte) []Kept {
	m := pyscan.Scan(src)
	var out []Kept
	for _, c := range m.Calls {
		configure := c.Scope >= 0 && m.Defs[m.Under(c.Scope, -1)].Name == "pytest_configure"
		if c.Scope >= 0 && !configure || len(c.Args) < 2 {
			continue
		}
		if what, ok := suite.ArmsTimer(m, c); !ok || !strings.HasPrefix(what, "signal.signal") {
			continue
		}
		h := c.Args[1].Value
		if c.Args[1].Kind != pyscan.ArgName {
			h = "its handler"
		}
		out = append(out, Kept{Handler: h, Line: c.Pos.Line, InConfigure: configure})
	}
	return out
}
