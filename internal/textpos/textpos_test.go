package textpos

import "testing"

func TestLineCol(t *testing.T) {
	for _, tt := range []struct {
		src            string
		off, line, col int
	}{
		{"abc", 0, 1, 1},
		{"abc", 2, 1, 3},
		{"abc", 3, 1, 4},
		{"abc", 99, 1, 4},
		{"abc", -1, 1, 1},
		{"a\nbc", 2, 2, 1},
		{"a\nbc", 3, 2, 2},
		{"a\r\nbc", 1, 1, 2},
		{"a\r\nbc", 3, 2, 1},
		{"é = f(1", 6, 1, 6},              // é is two bytes, one character
		{"x = '日本' + f(", 16, 1, 13},      // three bytes each
		{"\xef\xbb\xbfkey = 1", 3, 1, 1},  // a byte order mark is no character
		{"\xef\xbb\xbfkey = 1", 9, 1, 7},  //
		{"\xef\xbb\xbfa\nkey", 5, 2, 1},   // nor on a later line's count
		{"caf\xe9 = 1", 4, 1, 5},          // an invalid byte is one character
		{"\tx", 1, 1, 2},                  // a tab is one character
		{"a\n\xef\xbb\xbfb", 5, 2, 1 + 1}, // a BOM after the start is a character
	} {
		line, col := LineCol([]byte(tt.src), tt.off)
		if line != tt.line || col != tt.col {
			t.Errorf("LineCol(%q, %d) = %d:%d, want %d:%d", tt.src, tt.off, line, col, tt.line, tt.col)
		}
		line, col = NewIndex([]byte(tt.src)).LineCol(tt.off)
		if line != tt.line || col != tt.col {
			t.Errorf("Index(%q).LineCol(%d) = %d:%d, want %d:%d", tt.src, tt.off, line, col, tt.line, tt.col)
		}
	}
}

func TestCol(t *testing.T) {
	if got := Col([]byte("héllo wörld"), 8); got != 8 {
		t.Errorf("Col = %d, want 8", got)
	}
	if got := Col([]byte("0123456789abcdef0123"), 18); got != 19 {
		t.Errorf("Col over eight-byte words = %d, want 19", got)
	}
}
