package pytestcfg

import "strings"

// valued are the long options of pytest and of its common plugins that
// take a value as the next argument when it is not attached with "=":
// the next argument is theirs, never a path to collect.
var valued = map[string]bool{
	// pytest
	"--basetemp": true, "--capture": true, "--code-highlight": true, "--color": true, "--confcutdir": true,
	"--config-file": true, "--deselect": true, "--doctest-glob": true, "--doctest-report": true,
	"--durations": true, "--durations-min": true, "--ignore": true, "--ignore-glob": true, "--import-mode": true,
	"--junit-prefix": true, "--junit-xml": true, "--junitxml": true, "--last-failed-no-failures": true, "--lfnf": true,
	"--log-auto-indent": true, "--log-cli-date-format": true, "--log-cli-format": true, "--log-cli-level": true,
	"--log-date-format": true, "--log-disable": true, "--log-file": true, "--log-file-date-format": true,
	"--log-file-format": true, "--log-file-level": true, "--log-file-mode": true, "--log-format": true,
	"--log-level": true, "--maxfail": true, "--override-ini": true, "--pdbcls": true, "--pythonwarnings": true,
	"--report-log": true, "--rootdir": true, "--show-capture": true, "--tb": true, "--verbosity": true,
	"--inifile": true, "--assert": true,
	// pytest-xdist, pytest-timeout, pytest-rerunfailures
	"--numprocesses": true, "--maxprocesses": true, "--dist": true, "--tx": true, "--rsyncdir": true,
	"--rsyncignore": true, "--max-worker-restart": true, "--timeout": true, "--timeout-method": true,
	"--timeout_method": true, "--session-timeout": true, "--reruns": true, "--reruns-delay": true,
	"--only-rerun": true, "--rerun-except": true,
	// pytest-cov, pytest-html, pytest-randomly, pytest-django and others
	"--cov-report": true, "--cov-config": true, "--cov-fail-under": true, "--cov-context": true,
	"--html": true, "--css": true, "--randomly-seed": true, "--ds": true, "--dc": true,
	"--json-report-file": true, "--replay-record-dir": true, "--hypothesis-seed": true,
	"--hypothesis-profile": true, "--splits": true, "--group": true, "--count": true, "--junit-suite-name": true,
}

// optional are the long options whose value is optional (argparse's
// nargs="?"): they take the next argument when it does not start with a
// dash, as argparse does.
var optional = map[string]bool{"--cov": true, "--debug": true, "--cache-show": true}

// valuedShort are the one-letter options that take a value, attached
// ("-n2") or as the next argument.
const valuedShort = "kmpcorWn"

// Invoke returns the invocation of a pytest command line started in dir:
// args are its arguments after "pytest" (or "python -m pytest"). The
// options pytest and its common plugins know are told from the paths as
// pytest's argument parser tells them: an option's value is never a path.
func Invoke(dir string, args []string) Invocation {
	inv := Invocation{Dir: dir}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			inv.Args = append(inv.Args, args[i+1:]...)
			return inv
		case strings.HasPrefix(a, "--"):
			name, _, inline := strings.Cut(a, "=")
			if !inline && (valued[name] || optional[name] && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-")) {
				i++ // the option's value
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			// A cluster of one-letter flags ("-vx"), the last of which
			// may take a value ("-vk", "expr"), or a value attached to the
			// first that takes one ("-n2", "-rA").
			for j := 1; j < len(a); j++ {
				if !strings.ContainsRune(valuedShort, rune(a[j])) {
					continue
				}
				if j == len(a)-1 {
					i++ // the option's value
				}
				break
			}
		default:
			inv.Args = append(inv.Args, a)
		}
	}
	return inv
}
