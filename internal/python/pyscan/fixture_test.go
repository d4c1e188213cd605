package pyscan

import "testing"

func TestIsFixture(t *testing.T) {
	src := `import pytest
import pytest as pt
import pytest_asyncio
from pytest import fixture


@pytest.fixture
def plain(): pass


@pytest.fixture(autouse=True, scope="module")
def called(): pass


@pt.fixture
def aliased(): pass


@fixture
def imported(): pass


@pytest_asyncio.fixture(autouse=True)
async def coroutine(): yield


@pytest.mark.usefixtures("plain")
def test_marked(): pass


@pytest.fixture
class NotAFunction: pass


def undecorated(): pass
`
	m := Scan([]byte(src))
	want := map[string]bool{
		"plain": true, "called": true, "aliased": true, "imported": true, "coroutine": true,
		"test_marked": false, "NotAFunction": false, "undecorated": false,
	}
	for i, d := range m.Defs {
		if got := m.IsFixture(i); got != want[d.Name] {
			t.Errorf("IsFixture(%s) = %v, want %v", d.Name, got, want[d.Name])
		}
		delete(want, d.Name)
	}
	if len(want) > 0 {
		t.Errorf("definitions not found: %v", want)
	}
}

func TestFixtureName(t *testing.T) {
	src := `import pytest
from pytest import fixture


@pytest.fixture(autouse=True, name="deadline")
def _deadline_fixture(): pass


@fixture(name="preload")
def _preload(): pass


@pytest.fixture(scope="module")
def unnamed(): pass


@pytest.fixture
def bare(): pass


@pytest.mark.parametrize("name", ["x"])
def test_x(name): pass
`
	m := Scan([]byte(src))
	want := map[string]string{
		"_deadline_fixture": "deadline", "_preload": "preload",
		"unnamed": "unnamed", "bare": "bare", "test_x": "test_x",
	}
	for i, d := range m.Defs {
		if got := m.FixtureName(i); got != want[d.Name] {
			t.Errorf("FixtureName(%s) = %q, want %q", d.Name, got, want[d.Name])
		}
	}
}

// FixtureArg reads the fixture decorator's own keywords, and Fixtures
// lists the module-level fixtures by the name tests request them by, the
// later of two with one name.
func TestFixtureArgAndFixtures(t *testing.T) {
	src := `import pytest


@pytest.fixture(autouse=True, scope="module")
def armed(): pass


@pytest.mark.foo(autouse=True)
@pytest.fixture
def plain(): pass


@pytest.fixture(name="plain")
def replaces(): pass


class TestX:
    @pytest.fixture(autouse=True)
    def method(self): pass
`
	m := Scan([]byte(src))
	def := map[string]int{}
	for i, d := range m.Defs {
		def[d.Name] = i
	}
	for _, tc := range []struct {
		def, keyword, want string
		ok                 bool
	}{
		{"armed", "autouse", "True", true},
		{"armed", "scope", "module", true},
		{"armed", "name", "", false},
		{"plain", "autouse", "", false}, // a mark's keyword, not the fixture's
		{"TestX", "autouse", "", false},
	} {
		a, ok := m.FixtureArg(def[tc.def], tc.keyword)
		if ok != tc.ok || a.Value != tc.want {
			t.Errorf("FixtureArg(%s, %s) = %q, %v; want %q, %v", tc.def, tc.keyword, a.Value, ok, tc.want, tc.ok)
		}
	}
	got := m.Fixtures()
	want := map[string]int{"armed": def["armed"], "plain": def["replaces"]}
	if len(got) != len(want) || got["armed"] != want["armed"] || got["plain"] != want["plain"] {
		t.Errorf("Fixtures() = %v, want %v", got, want)
	}
}
