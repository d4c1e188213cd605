// Package starter writes a new spec, fixturegen init's job: commented,
// beginning with a #:schema line for TOML editors, and valid as written.
//
// init fills it with the contract package discover found in a project,
// each value with a comment saying where it came from, or with defaults
// when it found none (For); Write refuses a second spec, checks that the
// text loads and writes it; its Report says what was found, at which
// position.
package starter

import (
	"bytes"
	_ "embed"
	"path"
	"strings"
	"sync"
	"text/template"

	"github.com/fixturegen/fixturegen/internal/pytext"
	"github.com/fixturegen/fixturegen/internal/python/pyquote"
	"github.com/fixturegen/fixturegen/internal/version"
	"github.com/fixturegen/fixturegen/schema"
)

//go:embed spec.toml.tmpl
var specTemplate string

// tmpl parses the template when init first needs it, not at start-up of
// every command.
var tmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("spec").
		Option("missingkey=zero").
		Funcs(template.FuncMap{"toml": schema.QuoteTOML, "num": pyquote.Number}).
		Parse(specTemplate))
})

// Values are what a new spec says.
type Values struct {
	Deadline schema.Deadline // Fixture, Seconds, Timer and Message are written
	Preload  schema.Preload
	Group    string
	Paths    schema.Paths // Conftest, and ProbePlugin with ProbeTests when both are set

	// From names the hand-written conftest the values come from; "" for
	// a starter spec.
	From string
	// Origin holds, by key (deadline, seconds, timer, message, autouse,
	// seconds_env, raises, dump_threads, preload, group), the
	// path:line:col a value was read from.
	Origin map[string]string
	// Unread holds, by key (message, raises), the comment lines written
	// instead of a key whose value could not be read: the key stays
	// commented out rather than take a value the code does not say.
	Unread map[string]string
	// ModuleOrigin says, for each entry of Deadline.ModuleSeconds, where
	// its seconds were read.
	ModuleOrigin []string
	// HandProbe describes a hand-written probe that was found, for a
	// comment; its paths are suggested (commented out) as ProbePlugin and
	// ProbeTests when Paths has none.
	HandProbe               string
	ProbePlugin, ProbeTests string

	// Shield is the [shield] table, written when Shield.On.
	Shield schema.Shield
	// ShieldOnly leaves [deadline], [preload], [group] and the probe out:
	// the project has no deadline of its own, only a timer to shield.
	// Timeout says where that timer is set, for the spec's comment.
	ShieldOnly bool
	Timeout    string
}

// Defaults returns the values of a starter spec for a project whose tests
// live in testDir ("." for the project folder itself).
func Defaults(testDir string) Values {
	return Values{
		Deadline:    schema.Deadline{Fixture: "deadline", Seconds: 5, Timer: schema.DefaultTimer, Message: schema.DefaultMessage},
		Preload:     schema.Preload{Fixture: "preload", Modules: []string{}},
		Group:       "preload",
		Paths:       schema.Paths{Conftest: path.Join(testDir, "conftest.py")},
		ProbePlugin: path.Join(testDir, "alarm_probe.py"),
		ProbeTests:  path.Join(testDir, "test_alarm_probe.py"),
	}
}

// Text renders v as a spec. prefix is the table that holds the spec
// (schema.PyprojectTable for a pyproject.toml, nil for a spec file of its
// own); a pyproject's tables get no #:schema line, since the comment would
// claim the whole file.
func Text(v Values, prefix []string) []byte {
	found := func(at string) string { return "\n# Found at " + at + "." }
	table := strings.Join(prefix, ".")
	data := struct {
		Values
		SchemaURL, Table, Prefix, DefaultRaises, RaisesChoice string
		// Origin holds, by key, the comment line that says where its
		// value was found; ModuleSeconds the module_seconds entries with
		// theirs.
		Origin        map[string]string
		ModuleSeconds []moduleLine
	}{Values: v, SchemaURL: schema.URLFor(version.Version()), Table: table, DefaultRaises: schema.DefaultRaises,
		RaisesChoice: strings.Join(pytext.Raises, " | "), Origin: map[string]string{}}
	if table != "" {
		data.Prefix = table + "."
	}
	for k, at := range v.Origin {
		data.Origin[k] = found(at)
	}
	for i, m := range v.Deadline.ModuleSeconds {
		l := moduleLine{Pattern: m.Pattern, Seconds: m.Seconds}
		if i < len(v.ModuleOrigin) {
			l.Origin = found(v.ModuleOrigin[i])
		}
		data.ModuleSeconds = append(data.ModuleSeconds, l)
	}
	var buf bytes.Buffer
	if err := tmpl().Execute(&buf, data); err != nil {
		// The template and its data are fixed by this package; a failure
		// is a bug in it, not a problem with the user's project.
		panic("starter: " + err.Error())
	}
	return buf.Bytes()
}

// moduleLine is one key of [deadline.module_seconds] in a new spec.
type moduleLine struct {
	Pattern string
	Seconds float64
	Origin  string // "\n# Found at ..." or ""
}
