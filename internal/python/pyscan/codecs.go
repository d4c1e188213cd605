package pyscan

import (
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
// golang.org/x/text decodes (codecEncoding). Python's other codecs, and
// names Python does not know, are reported as unknown.
//
// It is a table of strings, not a map, so that nothing is built when the
// program starts: it is read only for a file that declares an encoding.
var codecs = []struct{ name, aliases string }{
	{"utf_8", "cp65001 u8 utf utf8 utf8_ucs2 utf8_ucs4"},
	{"ascii", "646 ansi_x3.4_1968 ansi_x3.4_1986 ansi_x3_4_1968 cp367 csascii ibm367 iso646_us iso_646.irv_1991 iso_ir_6 us us_ascii"},
	{"latin_1", "8859 cp819 csisolatin1 ibm819 iso8859 iso8859_1 iso_8859_1 iso_8859_1_1987 iso_ir_100 l1 latin latin1"},
	{"iso8859_2", "csisolatin2 iso_8859_2 iso_8859_2_1987 iso_ir_101 l2 latin2"},
	{"iso8859_3", "csisolatin3 iso_8859_3 iso_8859_3_1988 iso_ir_109 l3 latin3"},
	{"iso8859_4", "csisolatin4 iso_8859_4 iso_8859_4_1988 iso_ir_110 l4 latin4"},
	{"iso8859_5", "csisolatincyrillic cyrillic iso_8859_5 iso_8859_5_1988 iso_ir_144"},
	{"iso8859_6", "arabic asmo_708 csisolatinarabic ecma_114 iso_8859_6 iso_8859_6_1987 iso_ir_127"},
	{"iso8859_7", "csisolatingreek ecma_118 elot_928 greek greek8 iso_8859_7 iso_8859_7_1987 iso_ir_126"},
	{"iso8859_8", "csisolatinhebrew hebrew iso_8859_8 iso_8859_8_1988 iso_ir_138"},
	{"iso8859_9", "csisolatin5 iso_8859_9 iso_8859_9_1989 iso_ir_148 l5 latin5"},
	{"iso8859_10", "csisolatin6 iso_8859_10 iso_8859_10_1992 iso_ir_157 l6 latin6"},
	{"iso8859_13", "iso_8859_13 l7 latin7"},
	{"iso8859_14", "iso_8859_14 iso_8859_14_1998 iso_celtic iso_ir_199 l8 latin8"},
	{"iso8859_15", "iso_8859_15 l9 latin9"},
	{"iso8859_16", "iso_8859_16 iso_8859_16_2001 iso_ir_226 l10 latin10"},
	{"iso8859_11", "iso_8859_11 iso_8859_11_2001 thai"},
	{"tis_620", "iso_ir_166 tis620 tis_620_0 tis_620_2529_0 tis_620_2529_1"},
	{"cp874", ""},
	{"cp1250", "1250 windows_1250"},
	{"cp1251", "1251 windows_1251"},
	{"cp1252", "1252 windows_1252"},
	{"cp1253", "1253 windows_1253"},
	{"cp1254", "1254 windows_1254"},
	{"cp1255", "1255 windows_1255"},
	{"cp1256", "1256 windows_1256"},
	{"cp1257", "1257 windows_1257"},
	{"cp1258", "1258 windows_1258"},
	{"cp437", "437 cspc8codepage437 ibm437"},
	{"cp850", "850 cspc850multilingual ibm850"},
	{"cp852", "852 cspcp852 ibm852"},
	{"cp855", "855 csibm855 ibm855"},
	{"cp858", "858 csibm858 ibm858"},
	{"cp860", "860 csibm860 ibm860"},
	{"cp862", "862 cspc862latinhebrew ibm862"},
	{"cp863", "863 csibm863 ibm863"},
	{"cp865", "865 csibm865 ibm865"},
	{"cp866", "866 csibm866 ibm866"},
	{"koi8_r", "cskoi8r"},
	{"koi8_u", ""},
	{"mac_roman", "macintosh macroman"},
	{"mac_cyrillic", "maccyrillic"},
	{"shift_jis", "csshiftjis s_jis shiftjis sjis x_mac_japanese"},
	{"cp932", "932 ms932 ms_kanji mskanji"},
	{"euc_jp", "eucjp u_jis ujis"},
	{"iso2022_jp", "csiso2022jp iso2022jp iso_2022_jp"},
	{"euc_kr", "euckr korean ks_c_5601 ks_c_5601_1987 ks_x_1001 ksc5601 ksx1001 x_mac_korean"},
	{"cp949", "949 ms949 uhc"},
	{"gbk", "936 cp936 ms936"},
	{"gb2312", "chinese csiso58gb231280 euc_cn euccn eucgb2312_cn gb2312_1980 gb2312_80 iso_ir_58 x_mac_simp_chinese"},
	{"gb18030", "gb18030_2000"},
	{"hz", "hz_gb hz_gb_2312 hzgb"},
	{"big5", "big5_tw csbig5 x_mac_trad_chinese"},
	{"cp950", "950 ms950"},
	{"big5hkscs", "big5_hkscs hkscs"},
}

// pythonCodec returns the codec Python reads a source file with when its
// coding declaration names name ("koi8_r" for "KOI8-R"), or "" when the
// codec is not among codecs. It resolves the name as Python does: the
// tokenizer's own spellings of UTF-8 and Latin-1 first, then the name
// normalized as the codec registry does (normalizeCodecName), looked up
// among the aliases, with "." read as "_" when that fails, and last as a
// codec's own name.
func pythonCodec(name string) string {
	switch tokenizerName(name) {
	case "utf-8":
		return "utf_8"
	case "iso-8859-1":
		return "latin_1"
	}
	norm := normalizeCodecName(name)
	alias := codecAlias(norm)
	if alias == "" {
		alias = codecAlias(strings.ReplaceAll(norm, ".", "_"))
	}
	for _, c := range []string{alias, norm} {
		if c == "" || strings.Contains(c, ".") {
			continue
		}
		for _, known := range codecs {
			if known.name == c {
				return c
			}
		}
	}
	return ""
}

// codecAlias returns the codec an alias names, or "".
func codecAlias(norm string) string {
	return codecAliases()[norm]
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

// codecEncoding returns the golang.org/x/text decoder for a codec of
// codecs, or nil for UTF-8 and ASCII, which need none, and for a codec
// fixturegen does not know.
func codecEncoding(codec string) encoding.Encoding {
	switch codec {
	case "latin_1":
		return charmap.ISO8859_1
	case "iso8859_2":
		return charmap.ISO8859_2
	case "iso8859_3":
		return charmap.ISO8859_3
	case "iso8859_4":
		return charmap.ISO8859_4
	case "iso8859_5":
		return charmap.ISO8859_5
	case "iso8859_6":
		return charmap.ISO8859_6
	case "iso8859_7":
		return charmap.ISO8859_7
	case "iso8859_8":
		return charmap.ISO8859_8
	case "iso8859_9":
		return charmap.ISO8859_9
	case "iso8859_10":
		return charmap.ISO8859_10
	case "iso8859_13":
		return charmap.ISO8859_13
	case "iso8859_14":
		return charmap.ISO8859_14
	case "iso8859_15":
		return charmap.ISO8859_15
	case "iso8859_16":
		return charmap.ISO8859_16
	case "iso8859_11", "tis_620", "cp874":
		return charmap.Windows874
	case "cp1250":
		return charmap.Windows1250
	case "cp1251":
		return charmap.Windows1251
	case "cp1252":
		return charmap.Windows1252
	case "cp1253":
		return charmap.Windows1253
	case "cp1254":
		return charmap.Windows1254
	case "cp1255":
		return charmap.Windows1255
	case "cp1256":
		return charmap.Windows1256
	case "cp1257":
		return charmap.Windows1257
	case "cp1258":
		return charmap.Windows1258
	case "cp437":
		return charmap.CodePage437
	case "cp850":
		return charmap.CodePage850
	case "cp852":
		return charmap.CodePage852
	case "cp855":
		return charmap.CodePage855
	case "cp858":
		return charmap.CodePage858
	case "cp860":
		return charmap.CodePage860
	case "cp862":
		return charmap.CodePage862
	case "cp863":
		return charmap.CodePage863
	case "cp865":
		return charmap.CodePage865
	case "cp866":
		return charmap.CodePage866
	case "koi8_r":
		return charmap.KOI8R
	case "koi8_u":
		return charmap.KOI8U
	case "mac_roman":
		return charmap.Macintosh
	case "mac_cyrillic":
		return charmap.MacintoshCyrillic
	case "shift_jis", "cp932":
		return japanese.ShiftJIS
	case "euc_jp":
		return japanese.EUCJP
	case "iso2022_jp":
		return japanese.ISO2022JP
	case "euc_kr", "cp949":
		return korean.EUCKR
	case "gbk", "gb2312":
		return simplifiedchinese.GBK
	case "gb18030":
		return simplifiedchinese.GB18030
	case "hz":
		return simplifiedchinese.HZGB2312
	case "big5", "cp950", "big5hkscs":
		return traditionalchinese.Big5
	}
	return nil
}
