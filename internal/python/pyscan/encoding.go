package pyscan

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/fixturegen/fixturegen/internal/textpos"
)

// Decode returns src as Python reads it, in UTF-8: UTF-8 unless a coding
// declaration (PEP 263) in its first two lines names another encoding,
// which is resolved as Python resolves it (pythonCodec) and decoded with
// golang.org/x/text (koi8-r, cp1251, shift_jis, euc-jp, gbk, latin-1 and
// the other codecs of the codecs table). Source already in UTF-8 is
// returned as it is, not copied. It returns a Problem at the first
// offending place when Python could not read src, or when fixturegen does
// not know the encoding it declares.
func Decode(src []byte) ([]byte, *Problem) {
	if bytes.HasPrefix(src, []byte{0xFF, 0xFE}) || bytes.HasPrefix(src, []byte{0xFE, 0xFF}) {
		return nil, &Problem{Pos: Pos{1, 1}, Msg: "starts with a UTF-16 byte order mark; Python source must be UTF-8 unless it declares an encoding"}
	}
	if name, line := codingDeclaration(src); name != "" {
		if codec := pythonCodec(name); codec.name != "utf_8" && codec.name != "ascii" {
			if bytes.HasPrefix(src, []byte{0xEF, 0xBB, 0xBF}) {
				return nil, &Problem{Pos: Pos{line, 1}, Msg: fmt.Sprintf("starts with a UTF-8 byte order mark but declares encoding %q", name)}
			}
			if codec.enc == nil {
				return nil, &Problem{Pos: Pos{line, 1}, Msg: fmt.Sprintf("declares encoding %q, which fixturegen does not know; save it as UTF-8", name)}
			}
			out, err := codec.enc.NewDecoder().Bytes(src)
			if err != nil {
				return nil, &Problem{Pos: Pos{line, 1}, Msg: fmt.Sprintf("cannot be decoded as %q, the encoding it declares: %v", name, err)}
			}
			return out, nil
		}
	}
	if utf8.Valid(src) {
		return src, nil
	}
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size <= 1 {
			line, col := textpos.LineCol(src, i)
			return nil, &Problem{Pos: Pos{line, col}, Msg: fmt.Sprintf("is not valid UTF-8 (byte 0x%02x) and declares no other encoding", src[i])}
		}
		i += size
	}
	return src, nil
}

// codingDeclaration returns the encoding named by a "coding[:=]" comment on
// the first line, or on the second when the first is blank or a comment,
// and the line it is on.
func codingDeclaration(src []byte) (string, int) {
	for line := 1; line <= 2 && len(src) > 0; line++ {
		var text []byte
		text, src, _ = bytes.Cut(src, []byte{'\n'})
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
		for end < len(rest) && (nameBytes[rest[end]] || rest[end] == '-' || rest[end] == '.') {
			end++
		}
		if end > 0 {
			return string(rest[:end]), line
		}
	}
	return "", 0
}
