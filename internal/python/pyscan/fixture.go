package pyscan

// IsFixtureDecorator reports whether name, a decorator's dotted name as
// Module.Resolve gives it, makes a pytest fixture: pytest's own, or
// pytest-asyncio's for a coroutine.
func IsFixtureDecorator(name string) bool {
	return name == "pytest.fixture" || name == "pytest.yield_fixture" || name == "pytest_asyncio.fixture"
}

// IsFixture reports whether Defs[i] is a pytest fixture: a function
// decorated with pytest.fixture (or pytest_asyncio.fixture), called or
// not, under any name an import gives it ("@fixture" after "from pytest
// import fixture", "@pt.fixture" after "import pytest as pt").
func (m *Module) IsFixture(i int) bool {
	_, ok := m.fixtureDecorator(i)
	return ok
}

// FixtureName returns the name tests request the fixture Defs[i] by: the
// string its decorator's name= argument gives, as in
// @pytest.fixture(name="deadline"), or else the function's own name.
func (m *Module) FixtureName(i int) string {
	if a, ok := m.FixtureArg(i, "name"); ok && a.Kind == ArgString {
		return a.Value
	}
	return m.Defs[i].Name
}

// FixtureArg returns the keyword argument of the fixture Defs[i]'s
// decorator, as autouse=True in @pytest.fixture(autouse=True).
func (m *Module) FixtureArg(i int, keyword string) (Arg, bool) {
	if dec, ok := m.fixtureDecorator(i); ok && dec.Call >= 0 {
		for _, a := range m.Calls[dec.Call].Args {
			if a.Keyword == keyword {
				return a, true
			}
		}
	}
	return Arg{}, false
}

// Fixtures returns the module-level fixtures by the name tests request
// them by (FixtureName), as indexes in Defs; of two with one name, the
// later, which Python binds.
func (m *Module) Fixtures() map[string]int {
	out := map[string]int{}
	for i, d := range m.Defs {
		if d.Parent < 0 && m.IsFixture(i) {
			out[m.FixtureName(i)] = i
		}
	}
	return out
}

// fixtureDecorator returns the pytest.fixture decorator of Defs[i].
func (m *Module) fixtureDecorator(i int) (Decorator, bool) {
	if m.Defs[i].Kind == Function {
		for _, dec := range m.Defs[i].Decorators {
			if IsFixtureDecorator(m.Resolve(dec.Name)) {
				return dec, true
			}
		}
	}
	return Decorator{}, false
}
