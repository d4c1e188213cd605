package treeread

import (
	"iter"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
)

// Reader reads the .py files of a test tree on every core and hands each
// file's bytes to its caller. It owns the open folders and the buffers;
// the caller sees only paths and bytes.
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
	// Problem is called for each place the walk could not go into.
	Problem func(Problem)
	// Unread, when set, is asked about each file before it is read; a
	// file it answers true for is neither read nor handed to look.
	Unread func(f *File) bool
	// Workers is the number of readers; 0 means one per core.
	Workers int
	// Plain reads the portable way, as where the fast path does not
	// build: folders listed with os.ReadDir, files opened by their paths
	// and read until a read returns nothing. Tests use it to check that
	// both paths read the same tree alike.
	Plain bool
}

// File is one file the Reader read.
type File struct {
	// Dir is the folder that holds the file, as the walk reached it, and
	// Name its name there; a root that is a file has only Whole, its path.
	Dir, Name, Whole string
	// Skipped is the caller's own mark, kept with the file for a second
	// look (ReadAgain).
	Skipped bool
	h       *dirHandle
}

// Path is the file's path as the user reaches it. It is worked out only
// where it is needed: most files are read, found not to matter, and never
// named.
func (f *File) Path() string {
	if f.Whole != "" {
		return f.Whole
	}
	return filepath.Join(f.Dir, f.Name)
}

// Look is called once per file, on one of the readers, with the file's
// bytes, or the error that kept it from being read (ErrTooLarge,
// ErrNotRegular, or a *fs.PathError's cause). data is valid only during
// the call. worker, from 0 to the number of readers, says which reader
// calls, so that the caller can keep working memory per reader without a
// lock.
type Look func(f *File, data []byte, err error, worker int)

// dirHandle is an open folder shared by the batches of its files; the
// last one to finish closes it.
type dirHandle struct {
	fd   int
	refs atomic.Int32
	open *atomic.Int32 // the walk's count of open folders
}

func (h *dirHandle) release() {
	if h != nil && h.refs.Add(-1) == 0 {
		closeDir(h.fd)
		h.open.Add(-1)
	}
}

// maxOpenFolders bounds the folders held open for their batches at once;
// the files of a folder listed beyond it are opened by their paths. A
// process starts with a table of 64 descriptors, and the kernel grows it
// for a process of several threads only after waiting for every CPU to
// pass a quiescent state (synchronize_rcu): 10 ms on this project's
// machine, as long as check takes on all of sympy. A shell hands its
// children a table it has grown already, which hides the cost; Python's
// subprocess, as pre-commit uses it, does not.
const maxOpenFolders = 32

// readerBuffer is the room each reader's buffer starts with: more than
// any test module of sympy or CPython's Lib/test holds (the largest, 295
// KB). Memory the kernel hands out is given pages only where it is
// written, so a small file costs the pages it fills, as in a buffer of
// its size; but a buffer that grows leaves its pages behind, and a larger
// one must fault in as many anew. Lib/test has 73 modules over 64 KB;
// with buffers that started at 64 KB and doubled, their growth took 1.2
// MB, and check 160 to 210 page faults more of its 2,100 to 2,300.
const readerBuffer = 1 << 20

// batchSize bounds the files handed to a reader at once: large enough that
// handing them over costs little, small enough that a folder of thousands
// of files is still shared among the readers.
const batchSize = 64

// workers returns the number of readers Read and ReadAgain use.
func (r *Reader) workers() int {
	if r.Workers > 0 {
		return r.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// Files are the files a Read read, in the batches it handed its readers:
// kept as they are, so that remembering ten thousand files for ReadAgain
// copies none of them.
type Files [][]File

// All yields every file, batch after batch.
func (fs Files) All() iter.Seq[*File] {
	return func(yield func(*File) bool) {
		for _, b := range fs {
			for i := range b {
				if !yield(&b[i]) {
					return
				}
			}
		}
	}
}

// Read reads every .py file under the roots and calls look with each, and
// returns the files it read, for ReadAgain. The calling goroutine walks:
// it hands the readers batches of files of one folder, each folder's
// files before its subfolders are walked, so reading starts with the
// first folders; the readers open the files relative to the folder the
// walk listed; and each reader keeps one buffer, so memory does not grow
// with the tree. A root that does not exist is an error; every other
// trouble goes to Problem or to look.
//
// The readers start when a second batch waits for them. A tree of one
// batch, a small project, is walked and then read on the calling
// goroutine alone, without waking another thread.
func (r *Reader) Read(roots []string, look Look) (Files, error) {
	read := func(f *File, buf []byte) ([]byte, error) {
		if r.Plain {
			return readPlain(f.Path(), buf)
		}
		if f.h != nil {
			// Opened by its name in the open folder: the path, which
			// costs a join, is worked out only for a message.
			return readFileAt(f.h.fd, f.Name, "", buf)
		}
		return ReadFile(f.Path(), buf)
	}
	batches := make(chan []File, 64)
	var done Files
	var reading chan struct{} // closed when the readers are done; nil until they start
	send := func(batch []File) {
		if reading == nil && len(batches) > 0 {
			reading = make(chan struct{})
			go func() {
				defer close(reading)
				done = r.parallel(batches, read, look)
			}()
		}
		batches <- batch
	}
	var open atomic.Int32
	w := &walker{
		NoRecurse: r.NoRecurse,
		Bounds:    r.Bounds,
		Ignore:    r.Ignore,
		Problem:   r.Problem,
		Visit: func(p string) {
			send([]File{{Whole: p, Name: filepath.Base(p)}})
		},
		Folder: func(dir string, fd int, names []string) {
			var h *dirHandle
			if fd >= 0 && open.Load() >= maxOpenFolders {
				closeDir(fd)
				fd = -1
			}
			if fd >= 0 {
				open.Add(1)
				h = &dirHandle{fd: fd, open: &open}
				h.refs.Store(1) // the walk's own hold, until every batch is sent
			}
			for len(names) > 0 {
				n := min(len(names), batchSize)
				batch := make([]File, n)
				for i, name := range names[:n] {
					batch[i] = File{Dir: dir, Name: name, h: h}
				}
				if h != nil {
					h.refs.Add(1)
				}
				send(batch)
				names = names[n:]
			}
			h.release()
		},
	}
	if r.Plain {
		w.readDir = plainReadDir
	}
	var walkErr error
	for _, root := range roots {
		if walkErr = w.Walk(root); walkErr != nil {
			break
		}
	}
	close(batches)
	if reading == nil {
		done = r.parallel(batches, read, look)
	} else {
		<-reading
	}
	return done, walkErr
}

// ReadAgain reads the given files again, by path, on every core, and calls
// look with each.
func (r *Reader) ReadAgain(files []File, look Look) {
	batches := make(chan []File, 64)
	go func() {
		defer close(batches)
		for len(files) > 0 {
			n := min(len(files), batchSize)
			batch := make([]File, n)
			for i, f := range files[:n] {
				batch[i] = File{Whole: f.Path(), Name: f.Name, Skipped: f.Skipped}
			}
			batches <- batch
			files = files[n:]
		}
	}()
	r.parallel(batches, func(f *File, buf []byte) ([]byte, error) {
		if r.Plain {
			return readPlain(f.Whole, buf)
		}
		return ReadFile(f.Whole, buf)
	}, look)
}

// parallel reads every file of every batch with read, on up to one
// goroutine per reader, each with its own buffer, and returns the batches
// done.
//
// The calling goroutine is the first reader, and it starts another each
// time it finds batches waiting for one, up to the number of readers: a
// small tree is read without waking another thread, a large one on every
// core from its first batches.
//
// Each batch goes to one reader, which claims its files one at a time;
// once the walk has handed out every batch, a reader with nothing left
// claims files from the batches the others are still at. A batch of 64
// large modules, or one that holds a module worth tokenizing, would
// otherwise keep one reader busy at the end while the other waits.
func (r *Reader) parallel(batches <-chan []File, read func(f *File, buf []byte) ([]byte, error), look Look) Files {
	n := r.workers()
	done := make([][][]File, n)
	var mu sync.Mutex
	var taken []*sharedBatch
	var wg sync.WaitGroup
	started := 1 // readers, counted by the calling goroutine only
	var reader func(k int)
	reader = func(k int) {
		buf := make([]byte, 0, readerBuffer)
		work := func(b *sharedBatch) {
			for {
				i := b.next.Add(1) - 1
				if i >= int64(len(b.files)) {
					return
				}
				f := &b.files[i]
				if r.Unread == nil || !r.Unread(f) {
					data, err := read(f, buf)
					buf = data[:0]
					if err != nil {
						data = nil
					}
					look(f, data, err, k)
				}
				if b.left.Add(-1) == 0 {
					b.files[0].h.release()
				}
			}
		}
		for batch := range batches {
			if k == 0 && started < n && len(batches) > 0 {
				wg.Add(1)
				go func(k int) {
					defer wg.Done()
					reader(k)
				}(started)
				started++
			}
			b := &sharedBatch{files: batch}
			b.left.Store(int64(len(batch)))
			done[k] = append(done[k], batch)
			mu.Lock()
			taken = append(taken, b)
			mu.Unlock()
			work(b)
		}
		mu.Lock()
		others := taken
		mu.Unlock()
		for i := len(others) - 1; i >= 0; i-- {
			work(others[i])
		}
	}
	reader(0)
	wg.Wait()
	var all Files
	for _, d := range done {
		all = append(all, d...)
	}
	return all
}

// sharedBatch is a batch more than one reader may work on: each claims
// the next file with next, and the one that finishes the last releases
// the folder.
type sharedBatch struct {
	files []File
	next  atomic.Int64
	left  atomic.Int64
}
