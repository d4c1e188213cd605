package discover

import (
	"slices"

	"github.com/fixturegen/fixturegen/internal/onboard/observe"
)

// secondsMessage returns the spec's message, which says exactly what the
// hand-written one said: where the handler's message states the seconds
// armed, a {seconds} field with the format spec that gives the same text.
// The recording plugin had Python's own str.format try the fields against
// each message the handler raised (observe.Templates); rings holds one per
// run that armed the timer, and the message is the first of the first
// one's templates that every other one has too. When every run armed the
// same seconds, a number that merely equals them proves nothing, so only
// a field a unit of seconds follows counts. changes reports that no
// template gives every message: it states the seconds in some other way.
func secondsMessage(rings []*observe.Ring) (msg string, changes bool) {
	if len(rings) == 0 {
		return "", false
	}
	varied := slices.ContainsFunc(rings, func(r *observe.Ring) bool { return r.Seconds != rings[0].Seconds })
	templates := func(r *observe.Ring) []string {
		if varied {
			return r.Templates.Any
		}
		return r.Templates.Unit
	}
	for _, t := range templates(rings[0]) {
		if !slices.ContainsFunc(rings, func(r *observe.Ring) bool { return !slices.Contains(templates(r), t) }) {
			return t, false
		}
	}
	return "", true
}
