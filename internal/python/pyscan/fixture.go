package pyscan

// IsFixture reports whether Defs[i] is a pytest fixture: a function
// decorated with pytest.fixture, called or not, under any name an import
// gives it ("@fixture" after "from pytest import fixture", "@pt.fixture"
// after "import pytest as pt").
func (m *Module) IsFixture(i int) bool {
	d := m.Defs[i]
	if d.Kind != Function {
		return false
	}
	for _, dec := range d.Decorators {
		if name := m.Resolve(dec.Name); name == "pytest.fixture" || name == "pytest.yield_fixture" {
			return true
		}
	}
	return false
}
