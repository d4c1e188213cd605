package triage

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// maxLine is the longest line the parsers look at whole; the rest of a
// longer line is skipped. Every signature fits well inside it, and it keeps
// memory bounded whatever the input holds.
const maxLine = 64 << 10

// lineReader hands out the lines of a stream without copying them: each
// line is valid until the next call.
type lineReader struct {
	r    *bufio.Reader
	n    int   // number of the line last returned, from 1
	cut  bool  // the stream ended without a final newline
	long int   // lines longer than maxLine
	err  error // the read error that stopped the stream, if one did
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, maxLine)}
}

// next returns the next line without its line ending, and false at the
// end of the stream or at a read error, which it keeps in lr.err.
func (lr *lineReader) next() ([]byte, bool) {
	line, err := lr.r.ReadSlice('\n')
	long := errors.Is(err, bufio.ErrBufferFull)
	if long {
		lr.long++
		// Keep the first maxLine bytes and drop the rest of the line.
		// Skipping the rest reuses the buffer, so the head is copied.
		line = append([]byte(nil), line...)
		for errors.Is(err, bufio.ErrBufferFull) {
			_, err = lr.r.ReadSlice('\n')
		}
	}
	if err != nil && !errors.Is(err, io.EOF) {
		lr.err = err
		return nil, false
	}
	if err != nil && len(line) == 0 {
		return nil, false
	}
	lr.n++
	lr.cut = err != nil
	if !long && !lr.cut {
		line = bytes.TrimSuffix(line[:len(line)-1], []byte("\r"))
	}
	return line, true
}
