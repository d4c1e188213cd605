package starter

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/fixturegen/fixturegen/internal/gen/write"
	"github.com/fixturegen/fixturegen/internal/onboard/discover"
	"github.com/fixturegen/fixturegen/internal/python/venv"
	"github.com/fixturegen/fixturegen/schema"
)

// Write is fixturegen init: it reads the project in target's folder for a
// hand-written contract, and writes target, a spec filled from that
// contract or a starter spec, through package write. A target that is a
// pyproject.toml gets the spec appended as [tool.fixturegen] tables.
//
// It never replaces a spec unless force is set, and never writes one beside
// another. The text must load as a spec before anything is written, so a
// value read from the conftest that the loader refuses writes nothing.
//
// The report says what was found, and is returned as soon as the project
// has been read, with the error of a write that then fails, so the user
// sees what init found either way.
func Write(target string, force bool, python string) (*Report, error) {
	prefix := schema.TablePrefix(target)
	// The spec is written in its folder, never through a link in its
	// place.
	root, err := write.NewRoot(filepath.Dir(target), filepath.Dir(target))
	if err != nil {
		return nil, err
	}
	if err := root.Check(target); err != nil {
		return nil, err
	}
	if err := refuseSecondSpec(target, prefix, force); err != nil {
		return nil, err
	}
	dir, err := filepath.Abs(filepath.Dir(target))
	if err != nil {
		return nil, err
	}
	if python == "" {
		python = venv.Python(dir)
	}
	found, strays, err := discover.Find(dir, python)
	if err != nil {
		return nil, fmt.Errorf("reading the project: %w", err)
	}
	if u := found.UnreadKey("seconds"); u != nil {
		// Every spec needs its seconds, and init invents no deadline.
		return nil, &schema.Error{File: u.At, Msg: fmt.Sprintf(
			"init cannot read the deadline's seconds here: %s; it invents no value, so nothing was written: give them a default, or write %s by hand with [deadline].seconds",
			u.Why, target)}
	}
	timeouts, err := FindTimeouts(dir)
	if err != nil {
		return nil, fmt.Errorf("reading the project's pytest configuration: %w", err)
	}
	v := For(dir, found)
	if len(timeouts.Signal) > 0 {
		v = Shielded(v, found == nil, timeouts)
	}
	var old []byte
	if prefix != nil {
		old, _, err = root.ReadFile(target)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: cannot read: %w", target, err)
		}
	}
	render := func(v Values) ([]byte, *schema.Spec, error) {
		text := Text(v, prefix)
		if prefix != nil {
			text = appendTables(old, text)
		}
		spec, err := schema.ParseTable(text, target, dir, prefix)
		if err != nil {
			return nil, nil, fmt.Errorf("the contract found does not make a valid spec, so nothing was written:\n%v", err)
		}
		return text, spec, nil
	}
	text, spec, err := render(v)
	if err != nil {
		return nil, err
	}
	// What check would report of a test base class's timer, the spec
	// settles: it holds the import shield for it.
	baseTimers, err := FindBaseTimers(spec, dir)
	if err != nil {
		return nil, fmt.Errorf("reading the project's tests: %w", err)
	}
	if len(baseTimers) > 0 {
		v = ShieldBaseTimers(v, baseTimers)
		if text, _, err = render(v); err != nil {
			return nil, err
		}
	}

	r := &Report{Target: target, Found: found, Strays: strays, Group: v.Group, Timeouts: timeouts, Conftest: v.Paths.Conftest, BaseTimers: baseTimers}
	if force || prefix != nil && old != nil {
		err = root.File(target, text)
	} else if err = root.New(target, text); errors.Is(err, fs.ErrExist) {
		return r, existsError(target)
	}
	if err != nil {
		return r, err // it names the file (write.OSError)
	}
	r.Wrote = true
	return r, nil
}

// refuseSecondSpec stops init from replacing a spec, or from writing one
// beside another.
func refuseSecondSpec(target string, prefix []string, force bool) error {
	file, msg := target, "[tool.fixturegen] already holds a spec; init adds one only where there is none, so edit this one or remove it first"
	// A spec file of its own replaces none, and stands beside no
	// pyproject.toml that holds a spec.
	if prefix == nil {
		if _, err := os.Lstat(target); err == nil && !force {
			return existsError(target)
		}
		if filepath.Base(target) != schema.DefaultFile {
			return nil
		}
		file = filepath.Join(filepath.Dir(target), schema.PyprojectFile)
		msg = fmt.Sprintf("[tool.fixturegen] already holds a spec, and a %s beside it would be a second one; edit this one instead", schema.DefaultFile)
	}
	sp, err := schema.PyprojectSpan(file)
	if err != nil {
		return fmt.Errorf("%s: cannot read: %w", file, err)
	}
	if sp != nil {
		return &schema.Error{File: file, Line: sp.Line, Col: sp.Col, Msg: msg}
	}
	return nil
}

func existsError(target string) error {
	return fmt.Errorf("%s already exists; init never replaces a spec, so edit it, or run 'fixturegen init --force' to write a new one over it", target)
}

// appendTables adds the spec's tables to the end of a pyproject.toml.
func appendTables(old, tables []byte) []byte {
	out := append([]byte{}, old...)
	if len(out) > 0 {
		if out[len(out)-1] != '\n' {
			out = append(out, '\n')
		}
		out = append(out, '\n')
	}
	return append(out, tables...)
}
