package discover

import (
	"testing"

	"github.com/fixturegen/fixturegen/internal/testenv"
)

// TestFindWalksAsPytest: init reads the tree as check does, so a
// hand-written deadline in a folder pytest never enters is not the
// suite's contract. The folders pytest leaves out are norecursedirs (a
// vendored copy of another project here), the ones outside testpaths, and
// the ones its defaults name; the contract found is the one pytest runs.
func TestFindWalksAsPytest(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string // the conftest found, "" for none
	}{
		{"norecursedirs", map[string]string{
			"pytest.ini":                   "[pytest]\nnorecursedirs = vendor\n",
			"vendor/sdk/tests/conftest.py": handwritten,
			"vendor/sdk/tests/test_x.py":   reconnect,
			"tests/test_plain.py":          "def test_plain():\n    pass\n",
		}, ""},
		{"norecursedirs, and the suite's own", map[string]string{
			"pytest.ini":                   "[pytest]\nnorecursedirs = vendor\n",
			"vendor/sdk/tests/conftest.py": handwritten,
			"tests/conftest.py":            handwritten,
			"tests/test_x.py":              reconnect,
		}, "tests/conftest.py"},
		{"testpaths", map[string]string{
			"pytest.ini":          "[pytest]\ntestpaths = tests\n",
			"attic/conftest.py":   handwritten,
			"tests/test_plain.py": "def test_plain():\n    pass\n",
		}, ""},
		{"testpaths, with the conftest above them", map[string]string{
			"pytest.ini":           "[pytest]\ntestpaths = tests/unit\n",
			"tests/conftest.py":    handwritten,
			"tests/unit/test_x.py": reconnect,
		}, "tests/conftest.py"},
		{"pytest's default norecursedirs", map[string]string{
			"build/lib/tests/conftest.py": handwritten,
			"tests/test_plain.py":         "def test_plain():\n    pass\n",
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := testenv.WriteTree(t, tc.files)
			c, _, err := Find(root, testenv.Python(t))
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if c != nil {
				got = c.Conftest
			}
			if got != tc.want {
				t.Errorf("Find found the contract in %q, want %q", got, tc.want)
			}
		})
	}
}
