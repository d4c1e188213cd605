package pyscan

import "testing"

// What a signal handler's def tells of it: whether it raises, calls, and
// whether a lambda handler calls.
func TestRaisesCallsAndLambdas(t *testing.T) {
	m := Scan([]byte(`def a(s, f):
    raise TimeoutError("x")


def b(s, f):
    b.n += 1


def c():
    if x: raise E


def d():
    def e():
        print("x")
    x = 1; raise Y


signal.signal(signal.SIGALRM, lambda *a: None)
signal.signal(signal.SIGALRM, lambda *a: [fail("x")])
`))
	want := map[string][2]bool{"a": {true, true}, "b": {false, false}, "c": {true, false}, "d": {true, false}, "e": {false, true}}
	for _, d := range m.Defs {
		if got := [2]bool{d.Raises, d.HasCalls}; got != want[d.Name] {
			t.Errorf("%s: raises, calls = %v, want %v", d.Name, got, want[d.Name])
		}
	}
	var lambdas []string
	for _, c := range m.Calls {
		if c.Callee == "signal.signal" && len(c.Args) == 2 && c.Args[1].Kind == ArgLambda {
			lambdas = append(lambdas, c.Args[1].Value)
		}
	}
	if len(lambdas) != 2 || lambdas[0] != "" || lambdas[1] != "call" {
		t.Errorf("lambda arguments %q, want [\"\" \"call\"]", lambdas)
	}
}
