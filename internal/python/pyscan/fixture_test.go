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
