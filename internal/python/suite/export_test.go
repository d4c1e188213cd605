package suite

// The words of check's rules (rules.Words) for a spec, whose deadline and
// preload fixtures the tests name themselves: the timer calls.
var ruleCalls = []string{"setitimer", "alarm", "ALRM", "SIGPROF"}

// KeepEveryCall makes the Scanners keep every call, not only those the
// model reads (readCalls), or undoes it.
func KeepEveryCall(on bool) {
	if on {
		readCalls = nil
	} else {
		readCalls = keptCalls
	}
}

var keptCalls = readCalls

// FollowEveryDef turns mayReach's shortcut off, or back on.
func FollowEveryDef(on bool) { reachShortcut = !on }
