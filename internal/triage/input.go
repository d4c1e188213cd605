package triage

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Kind is the kind of an input file, told from its content.
type Kind string

// Input kinds.
const (
	KindLog    Kind = "pytest output"
	KindJUnit  Kind = "JUnit XML"
	KindReplay Kind = "pytest-replay"
)

// sniffSize is how much of a file detection looks at.
const sniffSize = 4096

// Detect tells the kind of an input from its first bytes: XML starts with
// "<", a pytest-replay record file with a JSON object per line, and
// anything else is read as pytest's terminal output.
func Detect(head []byte) Kind {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	for line := range bytes.SplitSeq(head, []byte("\n")) {
		line = bytes.TrimSpace(line)
		switch {
		case len(line) == 0, bytes.HasPrefix(line, []byte("#")), bytes.HasPrefix(line, []byte("//")):
			continue
		case line[0] == '<':
			return KindJUnit
		case line[0] == '{' && bytes.Contains(line, []byte(`"nodeid"`)):
			return KindReplay
		}
		return KindLog
	}
	return KindLog
}

// ReadFile reads one input file. label names the run, job or attempt the
// file belongs to. An error means the file could not be read at all; a
// file that stops early is read as far as it goes, with a warning.
func ReadFile(path, label string, m *Matcher) (*Source, error) {
	f, err := os.Open(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.IsDir() {
		return nil, fmt.Errorf("%s is a folder; name the files in it", path)
	}
	return Read(f, path, label, m)
}

// Read reads one input from r; path names it in evidence.
func Read(r io.Reader, path, label string, m *Matcher) (*Source, error) {
	br := bufio.NewReaderSize(r, maxLine)
	head, err := br.Peek(sniffSize)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	src := &Source{Path: path, Label: label, Kind: Detect(head)}
	if len(head) == 0 {
		src.warnf("%s: the file is empty", path)
		return src, nil
	}
	switch src.Kind {
	case KindJUnit:
		err = parseJUnit(src, br, m)
	case KindReplay:
		err = parseReplay(src, br)
	default:
		err = parseLog(src, br, m)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return src, nil
}

// ReadFiles reads the input files of one triage, each labelled by labels
// (one per path) or, without labels, by DefaultLabel, with spec's
// deadline message among the clues.
func ReadFiles(paths, labels []string, spec Spec) ([]*Source, error) {
	m := NewMatcher(spec.DeadlineMessage)
	var sources []*Source
	for i, path := range paths {
		label := DefaultLabel(path)
		if len(labels) > 0 {
			label = labels[i]
		}
		src, err := ReadFile(path, label, m)
		if err != nil {
			return nil, fmt.Errorf("cannot read input: %w", err)
		}
		sources = append(sources, src)
	}
	return sources, nil
}

// DefaultLabel names a file's attempt: its path without the extension, so
// a log and a JUnit XML report of one run share it, or the folder of a
// pytest-replay record file, which holds one file per worker.
func DefaultLabel(path string) string {
	base := filepath.Base(path)
	if strings.HasPrefix(base, ".pytest-replay") {
		return filepath.Dir(path)
	}
	return strings.TrimSuffix(path, filepath.Ext(path))
}
