package pyscan

import (
	"cmp"
	"slices"
	"strings"
	"sync"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
)

// codecs are the codecs Python reads source files with that fixturegen
// knows, by their names in Python's encodings package, each with its
// aliases there (CPython's Lib/encodings/aliases.py): UTF-8 and ASCII,
// which are read as UTF-8, and the ASCII-compatible codecs that
// golang.org/x/text decodes (enc). Python's other codecs, and
// names Python does not know, are reported as unknown.
//
// It is a table, not a map, so that nothing is built when the program
// starts: it is read only for a file that declares an encoding. enc is
// the golang.org/x/text decoder, nil for UTF-8 and ASCII, which need none.
var codecs = []codec{
	{"utf_8", "cp65001 u8 utf utf8 utf8_ucs2 utf8_ucs4", nil},
	{"ascii", "646 ansi_x3.4_1968 ansi_x3.4_1986 ansi_x3_4_1968 cp367 csascii ibm367 iso646_us iso_646.irv_1991 iso_ir_6 us us_ascii", nil},
	{"latin_1", "8859 cp819 csisolatin1 ibm819 iso8859 iso8859_1 iso_8859_1 iso_8859_1_1987 iso_ir_100 l1 latin latin1", charmap.ISO8859_1},
	{"iso8859_2", "csisolatin2 iso_8859_2 iso_8859_2_1987 iso_ir_101 l2 latin2", charmap.ISO8859_2},
	{"iso8859_3", "csisolatin3 iso_8859_3 iso_8859_3_1988 iso_ir_109 l3 latin3", charmap.ISO8859_3},
	{"iso8859_4", "csisolatin4 iso_8859_4 iso_8859_4_1988 iso_ir_110 l4 latin4", charmap.ISO8859_4},
	{"iso8859_5", "csisolatincyrillic cyrillic iso_8859_5 iso_8859_5_1988 iso_ir_144", charmap.ISO8859_5},
	{"iso8859_6", "arabic asmo_708 csisolatinarabic ecma_114 iso_8859_6 iso_8859_6_1987 iso_ir_127", charmap.ISO8859_6},
	{"iso8859_7", "csisolatingreek ecma_118 elot_928 greek greek8 iso_8859_7 iso_8859_7_1987 iso_ir_126", charmap.ISO8859_7},
	{"iso8859_8", "csisolatinhebrew hebrew iso_8859_8 iso_8859_8_1988 iso_ir_138", charmap.ISO8859_8},
	{"iso8859_9", "csisolatin5 iso_8859_9 iso_8859_9_1989 iso_ir_148 l5 latin5", charmap.ISO8859_9},
	{"iso8859_10", "csisolatin6 iso_8859_10 iso_8859_10_1992 iso_ir_157 l6 latin6", charmap.ISO8859_10},
	{"iso8859_13", "iso_8859_13 l7 latin7", charmap.ISO8859_13},
	{"iso8859_14", "iso_8859_14 iso_8859_14_1998 iso_celtic iso_ir_199 l8 latin8", charmap.ISO8859_14},
	{"iso8859_15", "iso_8859_15 l9 latin9", charmap.ISO8859_15},
	{"iso8859_16", "iso_8859_16 iso_8859_16_2001 iso_ir_226 l10 latin10", charmap.ISO8859_16},
	{"iso8859_11", "iso_8859_11 iso_8859_11_2001 thai", charmap.Windows874},
	{"tis_620", "iso_ir_166 tis620 tis_620_0 tis_620_2529_0 tis_620_2529_1", charmap.Windows874},
	{"cp874", "", charmap.Windows874},
	{"cp1250", "1250 windows_1250", charmap.Windows1250},
	{"cp1251", "1251 windows_1251", charmap.Windows1251},
	{"cp1252", "1252 windows_1252", charmap.Windows1252},
	{"cp1253", "1253 windows_1253", charmap.Windows1253},
	{"cp1254", "1254 windows_1254", charmap.Windows1254},
	{"cp1255", "1255 windows_1255", charmap.Windows1255},
	{"cp1256", "1256 windows_1256", charmap.Windows1256},
	{"cp1257", "1257 windows_1257", charmap.Windows1257},
	{"cp1258", "1258 windows_1258", charmap.Windows1258},
	{"cp437", "437 cspc8codepage437 ibm437", charmap.CodePage437},
	{"cp850", "850 cspc850multilingual ibm850", charmap.CodePage850},
	{"cp852", "852 cspcp852 ibm852", charmap.CodePage852},
	{"cp855", "855 csibm855 ibm855", charmap.CodePage855},
	{"cp858", "858 csibm858 ibm858", charmap.CodePage858},
	{"cp860", "860 csibm860 ibm860", charmap.CodePage860},
	{"cp862", "862 cspc862latinhebrew ibm862", charmap.CodePage862},
	{"cp863", "863 csibm863 ibm863", charmap.CodePage863},
	{"cp865", "865 csibm865 ibm865", charmap.CodePage865},
	{"cp866", "866 csibm866 ibm866", charmap.CodePage866},
	{"koi8_r", "cskoi8r", charmap.KOI8R},
	{"koi8_u", "", charmap.KOI8U},
	{"mac_roman", "macintosh macroman", charmap.Macintosh},
	{"mac_cyrillic", "maccyrillic", charmap.MacintoshCyrillic},
	{"shift_jis", "csshiftjis s_jis shiftjis sjis x_mac_japanese", japanese.ShiftJIS},
	{"cp932", "932 ms932 ms_kanji mskanji", japanese.ShiftJIS},
	{"euc_jp", "eucjp u_jis ujis", japanese.EUCJP},
	{"iso2022_jp", "csiso2022jp iso2022jp iso_2022_jp", japanese.ISO2022JP},
	{"euc_kr", "euckr korean ks_c_5601 ks_c_5601_1987 ks_x_1001 ksc5601 ksx1001 x_mac_korean", korean.EUCKR},
	{"cp949", "949 ms949 uhc", korean.EUCKR},
	{"gbk", "936 cp936 ms936", simplifiedchinese.GBK},
	{"gb2312", "chinese csiso58gb231280 euc_cn euccn eucgb2312_cn gb2312_1980 gb2312_80 iso_ir_58 x_mac_simp_chinese", simplifiedchinese.GBK},
	{"gb18030", "gb18030_2000", simplifiedchinese.GB18030},
	{"hz", "hz_gb hz_gb_2312 hzgb", simplifiedchinese.HZGB2312},
	{"big5", "big5_tw csbig5 x_mac_trad_chinese", traditionalchinese.Big5},
	{"cp950", "950 ms950", traditionalchinese.Big5},
	{"big5hkscs", "big5_hkscs hkscs", traditionalchinese.Big5},
}

type codec struct {
	name, aliases string
	enc           encoding.Encoding
}

// pythonCodec returns the codec Python reads a source file with when its
// coding declaration names name (koi8_r for "KOI8-R"), or the zero codec,
// named "" and with no decoder, when it is not among codecs. It resolves
// the name as Python does: the tokenizer's own spellings of UTF-8 and
// Latin-1 first, then the name normalized as the codec registry does
// (normalizeCodecName), looked up among the aliases, with "." read as "_"
// when that fails, and last as a codec's own name.
func pythonCodec(name string) codec {
	switch tokenizerName(name) {
	case "utf-8":
		name = "utf_8"
	case "iso-8859-1":
		name = "latin_1"
	default:
		// An alias names a codec of the table; no codec's name holds a
		// ".", so a name that still does names none.
		norm := normalizeCodecName(name)
		name = cmp.Or(codecAliases()[norm], codecAliases()[strings.ReplaceAll(norm, ".", "_")], norm)
	}
	if i := slices.IndexFunc(codecs, func(c codec) bool { return c.name == name }); i >= 0 {
		return codecs[i]
	}
	return codec{}
}

// codecAliases maps each alias of codecs to its codec, built when a file
// first declares an encoding other than UTF-8 or Latin-1: reading every
// codec's aliases for each such file was 0.2% of check's CPU time on
// CPython's Lib/test. The first codec that lists an alias has it.
var codecAliases = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, c := range codecs {
		for a := range strings.FieldsSeq(c.aliases) {
			if _, ok := m[a]; !ok {
				m[a] = c.name
			}
		}
	}
	return m
})

// tokenizerName is how Python's tokenizer spells the UTF-8 and Latin-1
// names before it asks the codec registry (get_normal_name in CPython's
// Parser/tokenizer.c): it reads the first 12 bytes, lower-cased, with "_"
// as "-", and answers "utf-8" for "utf-8" and "utf-8-...", "iso-8859-1"
// for "latin-1", "iso-8859-1", "iso-latin-1" and those followed by "-...";
// any other name comes back as it is.
func tokenizerName(name string) string {
	buf := []byte(name[:min(len(name), 12)])
	for i, c := range buf {
		if c == '_' {
			buf[i] = '-'
		} else if 'A' <= c && c <= 'Z' {
			buf[i] = c + 'a' - 'A'
		}
	}
	s := string(buf)
	switch {
	case s == "utf-8" || strings.HasPrefix(s, "utf-8-"):
		return "utf-8"
	case s == "latin-1" || s == "iso-8859-1" || s == "iso-latin-1" ||
		strings.HasPrefix(s, "latin-1-") || strings.HasPrefix(s, "iso-8859-1-") || strings.HasPrefix(s, "iso-latin-1-"):
		return "iso-8859-1"
	}
	return name
}

// normalizeCodecName is Python's encodings.normalize_encoding after the
// registry has lower-cased the name: each run of bytes other than ASCII
// letters, digits and "." becomes one "_", and none is kept at the start
// or the end ("KOI8-R" is "koi8_r", "Shift JIS" is "shift_jis").
func normalizeCodecName(name string) string {
	var b strings.Builder
	punct := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' {
			if punct && b.Len() > 0 {
				b.WriteByte('_')
			}
			b.WriteByte(c)
			punct = false
		} else {
			punct = true
		}
	}
	return b.String()
}
