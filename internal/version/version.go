// Package version says which fixturegen is running, and whether a version
// satisfies a spec's required_version.
//
// A release build is stamped by the linker:
//
//	go build -ldflags "-X github.com/fixturegen/fixturegen/internal/version.stamp=0.4.0" ./cmd/fixturegen
//
// A build by "go install github.com/fixturegen/fixturegen/cmd/fixturegen@v0.4.0"
// carries its module version, which Version reads from the build info. Any
// other build (a checkout, a pseudo-version, a tree with uncommitted
// changes) is a development build: its Version is Dev, and Revision names
// the commit it was built from when the Go toolchain recorded one.
package version

import (
	"runtime/debug"
	"strings"

	"github.com/fixturegen/fixturegen/internal/lazyregexp"
)

// Distribution is the name of the Python distribution whose wheels carry
// fixturegen, as pip, pipx and uv install it: "fixturegen" on the package
// index is an unrelated, older project. The command it installs is still
// fixturegen.
const Distribution = "fixturegen-cli"

// Dev is the version of a development build, as printed and as recorded
// in the files it writes.
const Dev = "dev"

// stamp is set by the linker (-X) in release builds.
var stamp string

// release matches the versions fixturegen releases carry: dotted numbers,
// optionally with a PEP 440 pre-release (0.4.0, 1.0.0rc1).
var release = lazyregexp.New(`^[0-9]+(\.[0-9]+)*((a|b|rc)[0-9]+)?$`)

// semverPre matches a Go module version's pre-release suffix, so the
// module version v1.0.0-rc.1 is read as the release 1.0.0rc1.
var semverPre = lazyregexp.New(`^([0-9]+\.[0-9]+\.[0-9]+)-(alpha|beta|rc)\.?([0-9]+)$`)

// pseudo matches the timestamp-and-commit part of a Go pseudo-version
// (v0.0.0-20261130174034-9b2fe42abcde), which names no release.
var pseudo = lazyregexp.New(`[0-9]{14}-[0-9a-f]{12}$`)

// Version is the running fixturegen's version, without a leading "v":
// "0.4.0" for a release, Dev for a development build.
func Version() string {
	if stamp != "" {
		return strings.TrimPrefix(stamp, "v")
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return Dev
	}
	return fromModule(info.Main.Version)
}

// fromModule turns a Go module version into a fixturegen version: a tagged
// release keeps its number, and everything else (empty, "(devel)", a
// pseudo-version, a build from a tree with uncommitted changes) is Dev.
func fromModule(v string) string {
	if v == "" || v == "(devel)" || strings.Contains(v, "+") || pseudo().MatchString(v) {
		return Dev
	}
	v = strings.TrimPrefix(v, "v")
	if m := semverPre().FindStringSubmatch(v); m != nil {
		abbrev := map[string]string{"alpha": "a", "beta": "b", "rc": "rc"}
		return m[1] + abbrev[m[2]] + m[3]
	}
	if !IsRelease(v) {
		return Dev
	}
	return v
}

// IsRelease reports whether v is a release version such as 0.4.0 or
// 1.0.0rc1: the one reading of it that version stamps, release checks and
// wheel metadata share.
func IsRelease(v string) bool { return release().MatchString(v) }

// Tag is the git tag of the release v: "v" and its number, with a
// pre-release written as Go modules want it (1.0.0rc1 is v1.0.0-rc.1, the
// tag "go install ...@v1.0.0-rc.1" fetches and fromModule reads back as
// 1.0.0rc1). It is "" for a development build, which no tag names.
func Tag(v string) string {
	if !IsRelease(v) {
		return ""
	}
	for short, long := range map[string]string{"rc": "rc", "a": "alpha", "b": "beta"} {
		if i := strings.Index(v, short); i > 0 && strings.Count(v[:i], ".") == 2 {
			return "v" + v[:i] + "-" + long + "." + v[i+len(short):]
		}
	}
	return "v" + v
}

// IsDev reports whether v is a development build's version.
func IsDev(v string) bool { return v == Dev }

// Revision names the commit a development build was built from, with
// ", modified" when the tree had uncommitted changes; it is empty when the
// toolchain recorded no revision (go build -buildvcs=false) or the build is
// a release.
func Revision() string {
	if !IsDev(Version()) {
		return ""
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return ""
	}
	rev = rev[:min(len(rev), 12)]
	if modified == "true" {
		rev += ", modified"
	}
	return rev
}

// Long is what fixturegen --version prints: "fixturegen 0.4.0" for a
// release, and for a development build the revision it was built from.
func Long() string {
	v := Version()
	if rev := Revision(); rev != "" {
		return "fixturegen " + v + " (" + rev + ")"
	}
	return "fixturegen " + v
}
