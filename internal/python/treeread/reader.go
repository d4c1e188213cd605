package treeread

import (
	"path/filepath"
	"runtime"
	"slices"
	"sync"
)

// Reader reads the .py files of a test tree and hands each file's bytes
// to its caller.
type Reader struct {
	// NoRecurse holds the patterns of pytest's norecursedirs: folders
	// whose path they match (pytestcfg.MatchPath) are not entered.
	NoRecurse []string
	// Bounds are the folders a link may point into; each root is one.
	Bounds []string
	// Ignore, when set, is asked about the absolute path of each folder
	// before it is entered and of each .py file before it is read, as
	// pytest asks its pytest_ignore_collect hook.
	Ignore func(abs string) bool
	// Problem is called for each place the walk could not go into. The
	// walk runs on the goroutine that called Read, so Problem is never
	// called from two goroutines at once.
	Problem func(Problem)
	// Unread, when set, is asked about each file before it is read; a
	// file it answers true for is neither read nor handed to look.
	Unread func(f *File) bool
	// Workers is the number of readers; 0 means one per core.
	Workers int
}

// File is one file the Reader read.
type File struct {
	// Name is the file's base name.
	Name string
	// Skipped is the caller's own mark, kept with the file for a second
	// look (ReadAgain).
	Skipped bool
	path    string
}

// Path is the file's path as the user reaches it: joined onto the root
// it was found under.
func (f *File) Path() string { return f.path }

// Look is called once per file, on one of the readers, with the file's
// bytes, or the error that kept it from being read (ErrTooLarge,
// ErrNotRegular, or a *fs.PathError's cause). data is valid only during
// the call. worker, from 0 to the number of readers, says which reader
// calls, so that the caller can keep working memory per reader without a
// lock.
type Look func(f *File, data []byte, err error, worker int)

// batchSize bounds the files handed to a reader at once: large enough that
// handing them over costs little, small enough that a folder of thousands
// of files is still shared among the readers.
const batchSize = 32

// workers returns the number of readers Read and ReadAgain use.
func (r *Reader) workers() int {
	if r.Workers > 0 {
		return r.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// Read reads every .py file under the roots and calls look with each, and
// returns the files it read, for ReadAgain. The calling goroutine walks
// and hands batches of files to the readers as it finds them, so reading
// starts with the first folder. A root that does not exist is an error;
// every other trouble goes to Problem or to look.
func (r *Reader) Read(roots []string, look Look) ([]*File, error) {
	var all []*File
	batches := make(chan []*File, 2*r.workers())
	done := r.start(batches, look)
	var batch []*File
	send := func() {
		if len(batch) > 0 {
			all = append(all, batch...)
			batches <- batch
			batch = nil
		}
	}
	w := &walker{
		NoRecurse: r.NoRecurse,
		Bounds:    r.Bounds,
		Ignore:    r.Ignore,
		Problem:   r.Problem,
		Visit: func(p string) {
			if batch == nil {
				batch = make([]*File, 0, batchSize)
			}
			batch = append(batch, &File{Name: filepath.Base(p), path: p})
			if len(batch) == batchSize {
				send()
			}
		},
	}
	var walkErr error
	for _, root := range roots {
		if walkErr = w.Walk(root); walkErr != nil {
			break
		}
	}
	send()
	close(batches)
	done()
	return all, walkErr
}

// ReadAgain reads files that Read listed, for a second look or for the
// first at those Unread left, and calls look with each: the file itself,
// so that the marks look sets stay on it.
func (r *Reader) ReadAgain(files []*File, look Look) {
	batches := make(chan []*File, 2*r.workers())
	done := r.start(batches, look)
	for b := range slices.Chunk(files, batchSize) {
		batches <- b
	}
	close(batches)
	done()
}

// buffers keeps the readers' buffers from one Read or ReadAgain to the
// next. check reads a tree in up to four passes, and a buffer grown anew
// in each was fresh memory each time: a check ends before the collector
// would free the last.
var buffers sync.Pool

// start starts the readers, which read the files of each batch they
// receive, each into its own buffer, and returns a function that waits
// for them to finish once batches is closed.
func (r *Reader) start(batches <-chan []*File, look Look) (wait func()) {
	var wg sync.WaitGroup
	for k := range r.workers() {
		wg.Go(func() {
			held, _ := buffers.Get().(*[]byte)
			if held == nil {
				held = new([]byte)
			}
			buf := *held
			defer func() { *held = buf; buffers.Put(held) }()
			for batch := range batches {
				for _, f := range batch {
					if r.Unread != nil && r.Unread(f) {
						continue
					}
					data, err := readListed(f.path, buf)
					buf = data[:0]
					if err != nil {
						data = nil
					}
					look(f, data, err, k)
				}
			}
		})
	}
	return wg.Wait
}
