package pytestrun

import (
	"bytes"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/fixturegen/fixturegen/internal/textpos"
)

// CI files are read by a YAML parser and turned into ynodes: mappings
// with their keys in file order, sequences, and scalars whose value keeps
// the position of each of its characters in the file, so a "--timeout=1"
// in the middle of a multi-line run: block is named where it stands.
// Aliases and merge keys ("<<: *defaults") are resolved as the CI system
// resolves them. A file that is not YAML reads as nothing: the CI system
// would not run it either.

type ykind uint8

const (
	yScalar ykind = iota + 1
	yMap
	ySeq
)

type ynode struct {
	kind ykind
	Pos
	tag   string // the node's tag, as written ("!reference"), or ""
	val   text   // a scalar's value
	keys  []Word
	vals  []*ynode
	items []*ynode
}

// get returns the value of key in a mapping, or nil.
func (n *ynode) get(key string) *ynode {
	if n == nil || n.kind != yMap {
		return nil
	}
	for i, k := range n.keys {
		if k.Text == key {
			return n.vals[i]
		}
	}
	return nil
}

// str is a scalar's value, "" for anything else.
func (n *ynode) str() string {
	if n == nil || n.kind != yScalar {
		return ""
	}
	return string(n.val.b)
}

// strs is a scalar's value, or the values of a sequence's scalars.
func (n *ynode) strs() []string {
	if n != nil && n.kind == yScalar {
		return []string{n.str()}
	}
	var out []string
	for _, it := range n.seq() {
		if it.kind == yScalar {
			out = append(out, it.str())
		}
	}
	return out
}

// seq is a sequence's items, nil for anything else.
func (n *ynode) seq() []*ynode {
	if n == nil || n.kind != ySeq {
		return nil
	}
	return n.items
}

// parseYAML reads the first document of src, or returns nil when src is
// not YAML or is empty.
func parseYAML(file string, src []byte) *ynode {
	var doc yaml.Node
	if yaml.Unmarshal(src, &doc) != nil || doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil
	}
	r := &yreader{file: file, src: src, index: textpos.NewIndex(src), lines: []int{0}, done: map[*yaml.Node]*ynode{}}
	if bytes.HasPrefix(src, []byte("\uFEFF")) {
		r.lines[0] = len("\uFEFF")
	}
	for i, c := range src {
		if c == '\n' {
			r.lines = append(r.lines, i+1)
		}
	}
	return r.node(doc.Content[0])
}

type yreader struct {
	file  string
	src   []byte
	index *textpos.Index
	lines []int // the offset of each line's first character
	// done holds each node read, so an alias shares what its anchor
	// read: a file of aliases of aliases costs its size, not the size of
	// its expansion.
	done map[*yaml.Node]*ynode
}

func (r *yreader) node(n *yaml.Node) *ynode {
	if y, ok := r.done[n]; ok {
		return y
	}
	y := &ynode{Pos: r.pos(r.offset(n))}
	if n.Style&yaml.TaggedStyle != 0 {
		y.tag = n.Tag
	}
	r.done[n] = y
	switch n.Kind {
	case yaml.AliasNode:
		*y = *r.node(n.Alias)
	case yaml.ScalarNode:
		y.kind = yScalar
		y.val = r.value(n)
		if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 && len(y.val.pos) > 0 {
			y.Pos = y.val.pos[0] // where the value starts, below the "|"
		}
	case yaml.SequenceNode:
		y.kind = ySeq
		for _, c := range n.Content {
			y.items = append(y.items, r.node(c))
		}
	case yaml.MappingNode:
		y.kind = yMap
		r.mapping(y, n)
	}
	return y
}

// mapping reads a mapping's pairs into y, those of "<<" merge keys after
// its own, each key only once: a key written in the mapping wins over a
// merged one, and an earlier merged mapping over a later one.
func (r *yreader) mapping(y *ynode, n *yaml.Node) {
	var merged []*ynode
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			m := r.node(v)
			if m.kind == ySeq {
				merged = append(merged, m.items...)
			} else {
				merged = append(merged, m)
			}
			continue
		}
		if y.get(k.Value) == nil {
			y.keys = append(y.keys, Word{Text: k.Value, Pos: r.pos(r.offset(k))})
			y.vals = append(y.vals, r.node(v))
		}
	}
	for _, m := range merged {
		if m.kind != yMap {
			continue
		}
		for i, k := range m.keys {
			if y.get(k.Text) == nil {
				y.keys = append(y.keys, k)
				y.vals = append(y.vals, m.vals[i])
			}
		}
	}
}

// offset is the byte offset in the file of the node's first character
// (for a block scalar, its "|" or ">").
func (r *yreader) offset(n *yaml.Node) int {
	if n.Line < 1 || n.Line > len(r.lines) {
		return len(r.src)
	}
	off := r.lines[n.Line-1]
	for col := 1; col < n.Column && off < len(r.src) && r.src[off] != '\n'; col++ {
		_, size := utf8.DecodeRune(r.src[off:])
		off += size
	}
	return off
}

// value is a scalar's value with the position of each of its characters:
// each character that is not blank is the next one like it in the file
// from the node's start on (past quotes, escapes, indentation and line
// breaks the scalar's style leaves out), and a blank one, which folding
// or an escape may have made, stands where the file is when it comes.
func (r *yreader) value(n *yaml.Node) text {
	var t text
	at := r.offset(n)
	if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		// The value starts on the line after the "|" or ">" and a
		// comment there.
		if nl := bytes.IndexByte(r.src[at:], '\n'); nl >= 0 {
			at += nl + 1
		}
	}
	for _, c := range []byte(n.Value) {
		if c != ' ' && c != '\t' && c != '\n' {
			if i := bytes.IndexByte(r.src[at:], c); i >= 0 {
				at += i
			}
		}
		t.b = append(t.b, c)
		t.pos = append(t.pos, r.pos(at))
		if at < len(r.src) && r.src[at] == c {
			at++
		}
	}
	return t
}

func (r *yreader) pos(off int) Pos {
	line, col := r.index.LineCol(off)
	return Pos{File: r.file, Line: line, Col: col}
}
