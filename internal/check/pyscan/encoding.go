package pyscan

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/ianaindex"
)

// Decode returns src as Python reads it, in UTF-8: UTF-8 unless a coding
// declaration (PEP 263) in its first two lines names another encoding,
// which is decoded with golang.org/x/text (koi8-r, cp1251, shift_jis,
// euc-jp, gbk, latin-1 and the rest of what the WHATWG and IANA indexes
// know). Source already in UTF-8 is returned as it is, not copied. It
// returns a Problem at the first offending place when Python could not
// read src, or when fixturegen does not know the encoding it declares.
func Decode(src []byte) ([]byte, *Problem) {
	return DecodeASCII(src, false)
}

// DecodeASCII is Decode for a source its caller already found to hold
// only ASCII bytes (ascii true), as a search that reads every byte can
// tell at no cost: such a source is valid UTF-8, and is not read again to
// learn it. With ascii false it is Decode.
func DecodeASCII(src []byte, ascii bool) ([]byte, *Problem) {
	if bytes.HasPrefix(src, []byte{0xFF, 0xFE}) || bytes.HasPrefix(src, []byte{0xFE, 0xFF}) {
		return nil, &Problem{Pos: Pos{1, 1}, Msg: "starts with a UTF-16 byte order mark; Python source must be UTF-8 unless it declares an encoding"}
	}
	bom := bytes.HasPrefix(src, []byte{0xEF, 0xBB, 0xBF})
	if name, line := codingDeclaration(src); name != "" {
		switch norm := normalizeEncoding(name); norm {
		case "utf8", "utf8sig", "u8", "utf", "cp65001", "ascii", "usascii", "646":
		default:
			if bom {
				return nil, &Problem{Pos: Pos{line, 1}, Msg: fmt.Sprintf("starts with a UTF-8 byte order mark but declares encoding %q", name)}
			}
			enc := lookupEncoding(name)
			if enc == nil {
				return nil, &Problem{Pos: Pos{line, 1}, Msg: fmt.Sprintf("declares encoding %q, which fixturegen does not know; save it as UTF-8", name)}
			}
			out, err := enc.NewDecoder().Bytes(src)
			if err != nil {
				return nil, &Problem{Pos: Pos{line, 1}, Msg: fmt.Sprintf("cannot be decoded as %q, the encoding it declares: %v", name, err)}
			}
			return out, nil
		}
	}
	if ascii || utf8.Valid(src) {
		return src, nil
	}
	line, col := 1, 1
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size <= 1 {
			return nil, &Problem{Pos: Pos{line, col}, Msg: fmt.Sprintf("is not valid UTF-8 (byte 0x%02x) and declares no other encoding", src[i])}
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i += size
	}
	return src, nil
}

// CheckEncoding reports whether src can be read as Python reads it (see
// Decode): nil when it can, a Problem at the first offending place
// otherwise.
func CheckEncoding(src []byte) *Problem {
	_, prob := Decode(src)
	return prob
}

// lookupEncoding finds the decoder for an encoding name as Python spells
// it. Python's names and the indexes' differ in punctuation ("koi8_r",
// "KOI8-R") and in a few families ("cp1251" is "windows-1251", "latin_1"
// is "ISO-8859-1"); the IANA index, whose names are exact, is asked
// before the WHATWG one, which reads "latin1" as windows-1252 as browsers
// do. It returns nil for a name neither index knows.
func lookupEncoding(name string) encoding.Encoding {
	n := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(name), "_", "-"))
	bare := strings.ReplaceAll(n, "-", "")
	candidates := []string{n, bare}
	switch {
	case strings.HasPrefix(bare, "cp") && isDigits(bare[2:]):
		candidates = append(candidates, "windows-"+bare[2:], "ibm"+bare[2:])
	case strings.HasPrefix(bare, "windows") && isDigits(bare[7:]):
		candidates = append(candidates, "windows-"+bare[7:])
	case strings.HasPrefix(bare, "iso8859") && isDigits(bare[7:]):
		candidates = append(candidates, "iso-8859-"+bare[7:])
	case strings.HasPrefix(bare, "latin") && isDigits(bare[5:]):
		candidates = append(candidates, "latin"+bare[5:])
	case bare == "latin" || bare == "l1":
		candidates = append(candidates, "latin1")
	case bare == "sjis" || bare == "shiftjis" || bare == "mskanji":
		candidates = append(candidates, "shift_jis")
	case bare == "macroman" || bare == "macintosh":
		candidates = append(candidates, "macintosh")
	case strings.HasPrefix(bare, "euc") && len(bare) > 3:
		candidates = append(candidates, "euc-"+bare[3:])
	case strings.HasPrefix(bare, "koi8") && len(bare) > 4:
		candidates = append(candidates, "koi8-"+bare[4:])
	}
	if alias, ok := pythonAliases[bare]; ok {
		candidates = append(candidates, alias)
	}
	for _, c := range candidates {
		if e, err := ianaindex.IANA.Encoding(c); err == nil && e != nil {
			return e
		}
	}
	for _, c := range candidates {
		if e, err := htmlindex.Get(c); err == nil && e != nil {
			return e
		}
	}
	return nil
}

// pythonAliases are Python's names, without punctuation, for the
// encodings the indexes know by other names only.
var pythonAliases = map[string]string{
	"cp932": "shift_jis", "ms932": "shift_jis", "mskanji": "shift_jis", // the WHATWG's Shift_JIS is Windows-31J
	"cp950": "big5", "ms950": "big5", "big5hkscs": "big5", // and its Big5 is Big5-HKSCS
	"cp858":       "IBM00858",
	"maccyrillic": "x-mac-cyrillic",
	"iso2022jp":   "iso-2022-jp",
	"hz":          "hz-gb-2312", "hzgb2312": "hz-gb-2312",
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
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
