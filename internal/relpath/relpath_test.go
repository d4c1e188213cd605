package relpath

import "testing"

func TestRel(t *testing.T) {
	for _, tc := range []struct{ cwd, abs, want string }{
		{"/repo", "/repo/tests/conftest.py", "tests/conftest.py"},
		{"/repo/tests/inbox", "/repo/tests/inbox/conftest.py", "conftest.py"},
		{"/repo/tests/inbox", "/repo/fixturegen.toml", "../../fixturegen.toml"},
		{"/home/someone/work/project/deep", "/tmp/x.py", "/tmp/x.py"},
	} {
		if got := Rel(tc.cwd, tc.abs); got != tc.want {
			t.Errorf("Rel(%q, %q) = %q, want %q", tc.cwd, tc.abs, got, tc.want)
		}
	}
}

func TestTidy(t *testing.T) {
	for _, tc := range []struct{ cwd, path, want string }{
		{"/repo/tests/inbox", "../../tests/inbox/x.py", "x.py"},
		{"/repo/tests/inbox", "../../tests/other/y.py", "../other/y.py"},
		{"/repo", "tests/x.py", "tests/x.py"},
		{"/repo/tests", "/repo/pytest.ini", "../pytest.ini"},
	} {
		if got := Tidy(tc.cwd, tc.path); got != tc.want {
			t.Errorf("Tidy(%q, %q) = %q, want %q", tc.cwd, tc.path, got, tc.want)
		}
	}
}
