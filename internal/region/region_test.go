package region

import (
	"fmt"
	"testing"
)

func TestUserDefs(t *testing.T) {
	block := string(Block("fixturegen.toml", []byte("def deadline(preload):\n    pass\n")))
	src := "import pytest\n" +
		"deadline = 1\n" + // line 2: a module-level assignment clashes
		"'''\ndef deadline():\n'''\n" + // lines 3-5: inside a string, not a definition
		"class Helper:\n    def deadline(self):\n        pass\n" + // line 7: a method, not module level
		block + // lines 9-12: the region's own definition
		"@pytest.fixture\nasync def preload():\n    pass\n" + // line 14
		"if True:\n    def preload(): pass\n" // line 17: an if block at module level binds a module-level name
	got := fmt.Sprint(UserDefs([]byte(src), []string{"deadline", "preload"}))
	want := "[{deadline 2} {preload 14} {preload 17}]"
	if got != want {
		t.Errorf("UserDefs = %s, want %s", got, want)
	}
}

func TestLines(t *testing.T) {
	src := []byte("a = 1\n\n" + string(Block("s.toml", []byte("x = 1\ny = 2\n"))) + "b = 2\n")
	if first, last := Lines(src); first != 3 || last != 6 {
		t.Errorf("Lines = %d, %d; want 3, 6", first, last)
	}
	if first, last := Lines([]byte(Begin + "\n" + Begin + "\n")); first != 0 || last != 0 {
		t.Errorf("Lines of broken markers = %d, %d; want 0, 0", first, last)
	}
}
