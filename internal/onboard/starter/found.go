package starter

import (
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/fixturegen/fixturegen/internal/onboard/discover"
	"github.com/fixturegen/fixturegen/schema"
)

// For fills a spec from what discover found in the project at root, or
// with defaults when found is nil.
func For(root string, found *discover.Contract) Values {
	if found == nil {
		testDir := "."
		if info, err := os.Stat(filepath.Join(root, "tests")); err == nil && info.IsDir() {
			testDir = "tests"
		}
		return Defaults(testDir)
	}
	v := Defaults(path.Dir(found.Conftest))
	v.From = found.Conftest
	v.Paths.Conftest = found.Conftest
	v.Origin = maps.Clone(found.Origin)
	v.Deadline = found.Spec
	v.Unread = map[string]string{}
	if u := found.UnreadKey("raises"); u != nil {
		v.Unread["raises"] = fmt.Sprintf("# Not read from %s: %s.\n# Until you set it, a fired deadline raises %s.\n# raises = %s",
			u.At, u.Why, schema.DefaultRaises, schema.QuoteTOML(schema.DefaultRaises))
	}
	if u := found.UnreadKey("message"); u != nil {
		v.Unread["message"] = fmt.Sprintf("# Not read from %s: %s.\n# Until you set it, the message is %s.\n# message = \"\"",
			u.At, u.Why, schema.QuoteTOML(schema.DefaultMessage))
	}
	if v.Deadline.Message == "" {
		v.Deadline.Message = schema.DefaultMessage
	}
	if found.Preload != nil {
		v.Preload = schema.Preload{Fixture: found.Preload.Name, Modules: found.Modules}
		v.Origin["preload"] = found.Preload.At
	}
	switch {
	case found.Group != "":
		v.Group = found.Group
		v.Origin["group"] = found.GroupUses[0].At
	case found.Spec.Autouse:
		// Every test below the conftest uses an autouse deadline; a group
		// would put the whole suite on one worker.
		v.Group = ""
	default:
		// Without a group mark to copy, the group is named after the
		// preload, as the reference's mcp_sdk fixture goes with the
		// mcp-sdk group.
		v.Group = strings.ReplaceAll(v.Preload.Fixture, "_", "-")
	}
	seen := map[string]bool{}
	for _, r := range found.Rearms {
		if !r.WholeModule || r.Seconds == 0 || seen[r.Module] {
			continue
		}
		seen[r.Module] = true
		v.Deadline.ModuleSeconds = append(v.Deadline.ModuleSeconds, schema.ModuleSeconds{Pattern: r.Module, Seconds: r.Seconds})
		v.ModuleOrigin = append(v.ModuleOrigin, r.SecondsAt+", in "+r.Fixture)
	}
	// After the modules: the first entry that matches wins, and a module
	// is more particular than a folder.
	for _, o := range found.Overrides {
		if o.Seconds > 0 {
			v.Deadline.ModuleSeconds = append(v.Deadline.ModuleSeconds, schema.ModuleSeconds{Pattern: o.Pattern, Seconds: o.Seconds})
			v.ModuleOrigin = append(v.ModuleOrigin, o.SecondsAt+", in "+found.Deadline.Name+" of "+o.Conftest)
		}
	}
	if p := found.Probe; p != nil && p.Generated && len(p.Tests) == 1 {
		v.Paths.ProbePlugin, v.Paths.ProbeTests = p.Plugin, p.Tests[0]
	} else if p != nil {
		v.HandProbe, v.ProbePlugin = p.Plugin, p.Plugin
		if len(p.Tests) > 0 {
			v.HandProbe += ", loaded by " + strings.Join(p.Tests, ", ")
			v.ProbeTests = p.Tests[0]
		}
	}
	return v
}
