package pyscan

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// CheckEncoding reports whether src can be read as Python reads it: UTF-8
// unless a coding declaration (PEP 263) in its first two lines names
// another encoding. Single-byte encodings that agree with ASCII (latin-1,
// the ISO 8859 and Windows code pages) are readable too: every token that
// matters to fixturegen is ASCII. It returns nil when src is readable, and
// a Problem at the first offending place otherwise.
func CheckEncoding(src []byte) *Problem {
	if bytes.HasPrefix(src, []byte{0xFF, 0xFE}) || bytes.HasPrefix(src, []byte{0xFE, 0xFF}) {
		return &Problem{Pos: Pos{1, 1}, Msg: "starts with a UTF-16 byte order mark; Python source must be UTF-8 unless it declares an encoding"}
	}
	bom := bytes.HasPrefix(src, []byte{0xEF, 0xBB, 0xBF})
	if name, line := codingDeclaration(src); name != "" {
		switch norm := normalizeEncoding(name); {
		case norm == "utf8" || norm == "utf8sig":
		case singleByte(norm):
			if bom {
				return &Problem{Pos: Pos{line, 1}, Msg: fmt.Sprintf("starts with a UTF-8 byte order mark but declares encoding %q", name)}
			}
			return nil
		default:
			return &Problem{Pos: Pos{line, 1}, Msg: fmt.Sprintf("declares encoding %q, which fixturegen does not read; save it as UTF-8", name)}
		}
	}
	if utf8.Valid(src) {
		return nil
	}
	line, col := 1, 1
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size <= 1 {
			return &Problem{Pos: Pos{line, col}, Msg: fmt.Sprintf("is not valid UTF-8 (byte 0x%02x) and declares no other encoding", src[i])}
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i += size
	}
	return nil
}

// codingDeclaration returns the encoding named by a "coding[:=]" comment on
// the first line, or on the second when the first is blank or a comment,
// and the line it is on.
func codingDeclaration(src []byte) (string, int) {
	for line := 1; line <= 2 && len(src) > 0; line++ {
		text := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			text, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		trimmed := bytes.TrimLeft(text, " \t\f")
		if line == 1 {
			trimmed = bytes.TrimPrefix(trimmed, []byte{0xEF, 0xBB, 0xBF})
		}
		if len(trimmed) == 0 || trimmed[0] != '#' {
			if len(bytes.TrimSpace(trimmed)) > 0 {
				return "", 0 // code: no declaration can follow
			}
			continue
		}
		i := bytes.Index(trimmed, []byte("coding"))
		if i < 0 || i+6 >= len(trimmed) || trimmed[i+6] != ':' && trimmed[i+6] != '=' {
			continue
		}
		rest := bytes.TrimLeft(trimmed[i+7:], " \t")
		end := 0
		for end < len(rest) && (isNameByte(rest[end]) || rest[end] == '-' || rest[end] == '.') {
			end++
		}
		if end > 0 {
			return string(rest[:end]), line
		}
	}
	return "", 0
}

func normalizeEncoding(name string) string {
	return strings.NewReplacer("-", "", "_", "", ".", "").Replace(strings.ToLower(name))
}

func singleByte(norm string) bool {
	switch norm {
	case "latin1", "l1", "iso88591", "iso8859", "latin", "ascii", "usascii", "646":
		return true
	}
	return strings.HasPrefix(norm, "iso8859") || strings.HasPrefix(norm, "cp125") ||
		strings.HasPrefix(norm, "windows125") || strings.HasPrefix(norm, "latin")
}
