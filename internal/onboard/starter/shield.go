package starter

import (
	"os"
	"path/filepath"

	"github.com/fixturegen/fixturegen/internal/onboard/discover"
	"github.com/fixturegen/fixturegen/schema"
)

// Shielded adds the import shield to v, for a project whose pytest runs
// pytest-timeout's signal method (timeout). alone says the project has no
// deadline of its own: the spec then holds only the shield, in a conftest
// every test is below (the project's top conftest.py when it has one).
func Shielded(root string, v Values, alone bool, timeout *discover.Timeout) Values {
	v.Shield = schema.Shield{On: true, Signals: schema.DefaultShieldSignals(),
		ImportGrace: schema.DefaultShieldGrace, PastGrace: schema.DefaultPastGrace, Rollback: true}
	if v.Origin == nil {
		v.Origin = map[string]string{}
	}
	v.Origin["shield"] = timeout.At
	if !alone {
		return v
	}
	v.ShieldOnly, v.Timeout, v.Group = true, timeout.At, ""
	if info, err := os.Stat(filepath.Join(root, "conftest.py")); err == nil && info.Mode().IsRegular() {
		v.Paths.Conftest = "conftest.py"
	}
	return v
}
