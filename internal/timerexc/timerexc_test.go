package timerexc

import "testing"

func TestOf(t *testing.T) {
	spec := Names{Exception: "TimeoutError", Message: "Test exceeded {seconds:g} seconds"}
	literal := Names{Exception: "AssertionError", Message: "recovery loop exceeded its deadline"}
	for _, tc := range []struct {
		class, message string
		names          Names
		want           Timer
	}{
		// pytest-timeout's signal method, by its class and message.
		{"Failed", "Timeout (>1.0s) from pytest-timeout.", Names{}, PytestTimeout},
		{"_pytest.outcomes.Failed", "Timeout (>2.5s) from pytest-timeout.", Names{}, PytestTimeout},
		{"Failed", "Timeout (>1.0s) is what the test checks", Names{}, None},
		{"RuntimeError", "Timeout (>1.0s) from pytest-timeout.", Names{}, None},
		// The generated deadline's failure, with or without a spec.
		{"AssertionError", "recovery loop exceeded its deadline (1 s, real time) [fixturegen:import-interrupted module=toysdk.shared.message]", Names{}, Deadline},
		{"TimeoutError", "test exceeded its deadline (2.5 s, CPU time)", Names{}, Deadline},
		{"_fixturegen_runtime.DeadlineExceeded", "anything", Names{}, Deadline},
		// The spec's own exception and message, placed seconds or not.
		{"TimeoutError", "Test exceeded 10 seconds", spec, Deadline},
		{"TimeoutError", "Test exceeded 2.5 seconds", spec, Deadline},
		{"AssertionError", "Test exceeded 10 seconds", spec, None},
		{"TimeoutError", "Test exceeded 10 seconds", Names{}, None},
		{"AssertionError", "recovery loop exceeded its deadline", literal, Deadline},
		{"AssertionError", "assert 1 == 2", literal, None},
		// The runtime's token or grace message in whatever was raised.
		{"InterruptedImportWarning", "t.py::a: the first import of sdk was interrupted (Failed was raised inside it); it was rolled back [fixturegen:import-interrupted module=sdk]", Names{}, Interrupted},
		{"Failed", "importing sdk took longer than import_grace (30 s)", Names{}, Interrupted},
		// Failures of the import itself.
		{"ModuleNotFoundError", "No module named 'httpcore._sync.connection.HTTPConnection'", literal, None},
		{"ImportError", "cannot import name 'x' from 'y'", Names{}, None},
		{"RuntimeError", "set LOOKUP_MODE before importing lookup.mode", Names{}, None},
		// A message's format spec and literal braces, as the runtime
		// formats them; one the loader would refuse is matched as text.
		{"TimeoutError", "took {  2.5} s", Names{Exception: "TimeoutError", Message: "took {{{seconds:5.1f}}} s"}, Deadline},
		{"TimeoutError", "took 250% of 1 s", Names{Exception: "TimeoutError", Message: "took {seconds:.0%} of 1 s"}, Deadline},
		{"AssertionError", "took {too long", Names{Exception: "AssertionError", Message: "took {too long"}, Deadline},
		{"AssertionError", "took }{ long", Names{Exception: "AssertionError", Message: "took }{ long"}, Deadline},
	} {
		if got := Of(tc.class, tc.message, tc.names); got != tc.want {
			t.Errorf("Of(%q, %q, %+v) = %q, want %q", tc.class, tc.message, tc.names, got, tc.want)
		}
	}
}
