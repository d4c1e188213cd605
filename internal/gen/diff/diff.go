// Package diff prints unified diffs of the small files fixturegen owns.
package diff

import (
	"bytes"
	"fmt"
	"strings"
)

// context is the number of unchanged lines shown around each change.
const context = 3

// Unified returns the unified diff from old to new, with "--- a/name" and
// "+++ b/name" headers, or nil when they are equal. The files fixturegen
// diffs are a few hundred lines, so a quadratic longest-common-subsequence
// table is simple and fast enough.
func Unified(name string, old, new []byte) []byte {
	if bytes.Equal(old, new) {
		return nil
	}
	a, b := splitLines(old), splitLines(new)
	ops := edits(a, b)
	var out bytes.Buffer
	fmt.Fprintf(&out, "--- a/%s\n+++ b/%s\n", name, name)
	for start := 0; start < len(ops); {
		// Find the next change, then grow the hunk while changes are
		// within 2*context lines of each other.
		for start < len(ops) && ops[start].kind == ' ' {
			start++
		}
		if start == len(ops) {
			break
		}
		end := start
		for i := start; i < len(ops); i++ {
			if ops[i].kind != ' ' {
				end = i + 1
			} else if i-end >= 2*context {
				break
			}
		}
		lo, hi := max(start-context, 0), min(end+context, len(ops))
		writeHunk(&out, ops[lo:hi])
		start = hi
	}
	return out.Bytes()
}

type op struct {
	kind         byte // ' ', '-' or '+'
	line         string
	aLine, bLine int // 1-based line numbers before the op in a and b
}

func edits(a, b []string) []op {
	// lcs[i][j] is the length of the longest common subsequence of a[i:] and b[j:].
	lcs := make([][]int32, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []op
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ops = append(ops, op{' ', a[i], i + 1, j + 1})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, op{'-', a[i], i + 1, j + 1})
			i++
		default:
			ops = append(ops, op{'+', b[j], i + 1, j + 1})
			j++
		}
	}
	return ops
}

func writeHunk(out *bytes.Buffer, ops []op) {
	aStart, bStart := ops[0].aLine, ops[0].bLine
	aCount, bCount := 0, 0
	for _, o := range ops {
		if o.kind != '+' {
			aCount++
		}
		if o.kind != '-' {
			bCount++
		}
	}
	if aCount == 0 {
		aStart--
	}
	if bCount == 0 {
		bStart--
	}
	fmt.Fprintf(out, "@@ -%d,%d +%d,%d @@\n", aStart, aCount, bStart, bCount)
	for _, o := range ops {
		out.WriteByte(o.kind)
		out.WriteString(o.line)
		if !strings.HasSuffix(o.line, "\n") {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// splitLines splits s after each newline, keeping the newlines.
func splitLines(s []byte) []string {
	var lines []string
	for len(s) > 0 {
		i := bytes.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, string(s))
			break
		}
		lines = append(lines, string(s[:i+1]))
		s = s[i+1:]
	}
	return lines
}
