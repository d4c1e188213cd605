package pyscan

import (
	"bytes"
	"math/bits"
)

// Place is where a byte of source lies for Python: in code, in a string
// literal (with its prefix and quotes), or in a comment.
type Place uint8

// Places.
const (
	InCode Place = iota
	InString
	InComment
)

// Places tells, for each of the byte offsets offs (sorted, ascending),
// where it lies in src. It reads strings as the Lexer does, so it agrees
// with Scan, but makes no tokens: it costs a fraction of a Scan, and lets a
// caller that searched the raw bytes for a word drop the files where the
// word is only mentioned in comments or strings.
//
// Where the processor compares 32 bytes at a time (AVX2), it first marks
// the bytes that can change a place (quotes, #, line ends, backslashes,
// braces), 1 KiB at a time, and jumps from mark to mark; elsewhere it
// walks the bytes one by one. Both agree on every input (tests feed them
// random sources). On a module of 4 KB with a hundred strings the jumps
// take 0.4 of the walk's time; on bench/trees.sh's tree where every module
// names the timer calls in a comment and a string, check took 0.78 of the
// CPU time it took with the walk, before SurelyNotCode spared most of
// those modules Places altogether.
func Places(src []byte, offs []int) []Place {
	if haveStopBits {
		return placesByStops(src, offs)
	}
	return placesByByte(src, offs)
}

// placesByByte is Places one byte at a time.
func placesByByte(src []byte, offs []int) []Place {
	out := make([]Place, len(offs))
	// A Lexer of its own, on the stack: Places reads strings with the
	// Lexer's code but keeps no other state.
	var lx Lexer
	lx.reset(src)
	l := &lx
	k := 0
	mark := func(end int, p Place) {
		for k < len(offs) && offs[k] < end {
			out[k] = p
			k++
		}
	}
	for k < len(offs) && l.off < len(src) {
		// Code is skipped to the next byte that can start a comment or a
		// string, in a loop that keeps its offset in a register: only
		// those bytes change the place of the bytes after them.
		start, i := l.off, l.off
		for i < len(src) && !placeStop[src[i]] {
			i++
		}
		if i >= len(src) {
			break
		}
		if src[i] == '#' {
			end := len(src)
			if j := bytes.IndexAny(src[i:], "\r\n"); j >= 0 {
				end = i + j
			}
			mark(i, InCode)
			l.off = end
			mark(end, InComment)
			continue
		}
		open, formatted := stringOpen(src, start, i)
		mark(open, InCode)
		l.off = i
		l.skipString(formatted)
		mark(l.off, InString)
	}
	return out // the rest is code, the zero Place
}

// stringOpen returns where the string whose quote is at src[quote]
// starts, and whether it is formatted. The name right before the quote,
// if any, is the string's prefix when it is one: the name the tokenizer
// would read, which starts after any digits (a number ends there) and
// after from, where the code being skipped began.
func stringOpen(src []byte, from, quote int) (open int, formatted bool) {
	j := quote
	for j > from && isNameByte(src[j-1]) {
		j--
	}
	for j < quote && isDigit(src[j]) {
		j++
	}
	if j < quote {
		if f, ok := stringPrefix(src[j:quote]); ok {
			return j, f
		}
	}
	return quote, false
}

// placeStop marks the bytes Places must look at in code: those that start
// a comment or a string.
var placeStop = func() (t [256]bool) {
	t['#'], t['"'], t['\''] = true, true, true
	return t
}()

// placesByStops is Places jumping from stop byte to stop byte: the same
// walk as placesByByte, with its skipping loops replaced by stopScan's
// jumps. A formatted string whose fields hold a nested string, a comment
// or a format spec is read by the Lexer, as placesByByte reads it.
func placesByStops(src []byte, offs []int) []Place {
	out := make([]Place, len(offs))
	var lx Lexer
	lx.reset(src)
	st := stopScan{src: src}
	k := 0
	mark := func(end int, p Place) {
		for k < len(offs) && offs[k] < end {
			out[k] = p
			k++
		}
	}
	for p := lx.off; k < len(offs) && p < len(src); {
		start := p
		i := st.inSlab(p, &st.quotes)
		if i < 0 {
			i = st.nextSlow(p, &st.quotes)
		}
		if i >= len(src) {
			break
		}
		if src[i] == '#' {
			end := st.next(i, &st.ends)
			for end < len(src) && src[end] != '\n' && src[end] != '\r' {
				end = st.next(end+1, &st.ends)
			}
			mark(i, InCode)
			p = end
			mark(end, InComment)
			continue
		}
		open, formatted := stringOpen(src, start, i)
		mark(open, InCode)
		if p = st.skipString(i, formatted); p < 0 {
			lx.off = i
			lx.skipString(true)
			p = lx.off
		}
		mark(p, InString)
	}
	return out
}

// stopScan finds the stop bytes of a source (see stopBitsGo), marked a
// slab of 1 KiB at a time, as far as Places reads.
type stopScan struct {
	src []byte
	// base and size bound the slab: the bytes the words of quotes, ends
	// and all cover. base is a multiple of 64.
	base int
	size uint
	// Each kind of stop next can look for: quotes and # (what ends
	// code), line ends, backslashes and { (what ends a comment), and
	// both (what can end a string, or start a field of a formatted one).
	quotes, ends, all [16]uint64
}

// next returns the offset of the first stop byte of set (one of s's
// kinds) at or after i, or len(src) when there is none.
func (s *stopScan) next(i int, set *[16]uint64) int {
	if j := s.inSlab(i, set); j >= 0 {
		return j
	}
	return s.nextSlow(i, set)
}

// inSlab is next's common case, small enough to be inlined where it is
// called for every stop: the first stop of set at or after i in the slab
// marked, or -1 when there is none there.
func (s *stopScan) inSlab(i int, set *[16]uint64) int {
	if d := uint(i - s.base); d < s.size {
		if w := set[d>>6&15] >> (d & 63); w != 0 {
			return i + bits.TrailingZeros64(w)
		}
	}
	return -1
}

func (s *stopScan) nextSlow(i int, set *[16]uint64) int {
	for i < len(s.src) {
		d := uint(i - s.base)
		if d >= s.size {
			s.fill(i &^ 63)
			d = uint(i - s.base)
		}
		if w := set[d>>6&15] >> (d & 63); w != 0 {
			return i + bits.TrailingZeros64(w)
		}
		i = i | 63 + 1
	}
	return len(s.src)
}

// fill marks the slab that starts at at.
func (s *stopScan) fill(at int) {
	s.base = at
	rest := len(s.src) - at
	full := min(rest/64, len(s.quotes))
	if full > 0 {
		stopBits(s.src[at:at+full*64], s.quotes[:full], s.ends[:full])
	}
	n := full
	if full < len(s.quotes) && rest > full*64 {
		// The last bytes, less than 64, are marked in a copy padded
		// with zero bytes, which are no stops.
		var pad [64]byte
		copy(pad[:], s.src[at+full*64:])
		stopBits(pad[:], s.quotes[full:full+1], s.ends[full:full+1])
		n++
	}
	for c := range n {
		s.all[c] = s.quotes[c] | s.ends[c]
	}
	s.size = uint(64 * n)
}

// skipString returns the offset just past the string whose quote is at
// i, as Lexer.skipString finds it: past its closing quotes, at the line
// end that leaves it unterminated, or at the end of the source. A
// formatted string's fields are read one byte at a time, as
// Lexer.skipField does; it returns -1 when a field holds a quote, a # or
// a format spec, which the Lexer then reads.
func (s *stopScan) skipString(i int, formatted bool) int {
	src := s.src
	q := src[i]
	triple := i+2 < len(src) && src[i+1] == q && src[i+2] == q
	if triple {
		i += 3
	} else {
		i++
	}
	for {
		if j := s.inSlab(i, &s.all); j >= 0 {
			i = j
		} else {
			i = s.nextSlow(i, &s.all)
		}
		if i >= len(src) {
			return len(src)
		}
		switch c := src[i]; {
		case c == '\\':
			i++
			if i < len(src) {
				if src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n' {
					i++ // a line end of two bytes
				}
				i++
			}
		case c == q:
			if !triple {
				return i + 1
			}
			if i+2 < len(src) && src[i+1] == q && src[i+2] == q {
				return i + 3
			}
			i++
		case c == '\n' || c == '\r':
			if !triple {
				return i
			}
			i++
		case c == '{' && formatted:
			if i+1 < len(src) && src[i+1] == '{' {
				i += 2
				continue
			}
			i++
			for depth := 0; i < len(src); {
				c := src[i]
				if c == '\'' || c == '"' || c == '#' || c == ':' && depth == 0 {
					return -1
				}
				i++
				if c == '(' || c == '[' || c == '{' {
					depth++
				} else if c == ')' || c == ']' {
					depth = max(depth-1, 0)
				} else if c == '}' {
					if depth == 0 {
						break
					}
					depth--
				}
			}
		default:
			i++
		}
	}
}

// stopBitsGo marks the stop bytes of src, the bytes after which a place
// can change: for each 64-byte chunk of src, len(quotes) of them, it sets
// bit i of the chunk's word in quotes when byte i is # " or ', and in ends
// when it is \n \r \ or {.
func stopBitsGo(src []byte, quotes, ends []uint64) {
	for c := range quotes {
		var q, e uint64
		for i, b := range src[c*64 : c*64+64] {
			switch b {
			case '#', '"', '\'':
				q |= 1 << uint(i)
			case '\n', '\r', '\\', '{':
				e |= 1 << uint(i)
			}
		}
		quotes[c], ends[c] = q, e
	}
}
