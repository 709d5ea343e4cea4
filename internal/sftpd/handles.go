package sftpd

import (
	"os"
	"sync"
)

// openWrites tracks the write handles open on each upload, so a file is
// handed over only when every handle on it is closed: a client that
// renames "x.part" to "x" before closing "x.part", or that writes one file
// through several handles, would otherwise hand over the part written so
// far, and its close would still report success.
//
// An upload under a temporary name is written in place in inbound/ and
// keyed by its path there; one under its final name is written to a
// staging file, shared by every handle open on that name, and keyed by
// the final path (in a namespace of its own, so a rename never finds it).
type openWrites struct {
	mu    sync.Mutex
	files map[string]*openFile
}

// openFile is one upload with handles open.
type openFile struct {
	key     string
	file    string // where its bytes are (a rename to a temporary name moves it)
	handles int
	// handOver is the final name a rename gave a temporary upload while it
	// was open: it is handed over under it when the last handle closes.
	handOver string
	// aborted: a handle's transfer failed (the session dropped, the size
	// limit passed); the upload is incomplete and is never handed over.
	aborted bool
}

// stagedKey is the key of an upload under its final name at path.
func stagedKey(path string) string { return "staged:" + path }

// open opens a handle on the upload keyed key: the first with create, the
// others with reopen (of the file the first created), as one upload.
func (o *openWrites) open(key string, create func() (*os.File, error), reopen func(file string) (*os.File, error)) (*openFile, *os.File, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if of := o.files[key]; of != nil {
		f, err := reopen(of.file)
		if err != nil {
			return nil, nil, err
		}
		of.handles++
		return of, f, nil
	}
	f, err := create()
	if err != nil {
		return nil, nil, err
	}
	if o.files == nil {
		o.files = map[string]*openFile{}
	}
	of := &openFile{key: key, file: f.Name(), handles: 1}
	o.files[key] = of
	return of, f, nil
}

// abort marks of's upload incomplete.
func (o *openWrites) abort(of *openFile) {
	o.mu.Lock()
	of.aborted = true
	o.mu.Unlock()
}

// closed counts one of of's handles closed. When it was the last, it
// returns the upload as it stands (last true): its file, its hand-over
// name and whether it was aborted.
func (o *openWrites) closed(of *openFile) (last bool, done openFile) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if of.handles--; of.handles > 0 {
		return false, openFile{}
	}
	delete(o.files, of.key)
	return true, *of
}

// rename handles a rename of the temporary upload at from while it has
// handles open: to a final name, the hand-over waits for the last close
// (the file stays where it is); to another temporary name, move renames
// it on disk and the handles follow. open false: no handle is open on
// from; rename it as usual.
func (o *openWrites) rename(from, to, finalName string, move func() error) (open bool, err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	of := o.files[from]
	if of == nil {
		return false, nil
	}
	if finalName != "" {
		of.handOver = finalName
		return true, nil
	}
	if err := move(); err != nil {
		return true, err
	}
	delete(o.files, from)
	of.key, of.file = to, to
	o.files[to] = of
	return true, nil
}
