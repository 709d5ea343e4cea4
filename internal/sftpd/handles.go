package sftpd

import "sync"

// openWrites tracks the write handles open on each in-place upload (a
// temporary name written in inbound/), so a file is handed over only when
// every handle on it is closed: a client that renames "x.part" to "x"
// before closing "x.part" would otherwise hand over the part written so
// far, and its close would still report success.
type openWrites struct {
	mu    sync.Mutex
	files map[string]*openFile // local path → the file's handles
}

// openFile is one in-place upload with handles open.
type openFile struct {
	path    string // where it is now (a rename to a temporary name moves it)
	handles int
	// handOver is the final name a rename gave the file while it was
	// open: it is handed over under it when the last handle closes.
	handOver string
}

// open counts a new write handle on path.
func (o *openWrites) open(path string) *openFile {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.files == nil {
		o.files = map[string]*openFile{}
	}
	f := o.files[path]
	if f == nil {
		f = &openFile{path: path}
		o.files[path] = f
	}
	f.handles++
	return f
}

// close counts one of f's handles closed. last reports whether it was the
// last; then path is where the file is and handOver the final name a
// rename left for it ("" for none).
func (o *openWrites) close(f *openFile) (last bool, path, handOver string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if f.handles--; f.handles > 0 {
		return false, f.path, ""
	}
	delete(o.files, f.path)
	return true, f.path, f.handOver
}

// rename handles a rename of from while it has write handles open: to a
// final name, the hand-over is deferred to the last close (the file stays
// where it is); to another temporary name, move renames it on disk and the
// handles follow. open false: from has no handle open, rename it as usual.
func (o *openWrites) rename(from, to, finalName string, move func() error) (open bool, err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	f := o.files[from]
	if f == nil {
		return false, nil
	}
	if finalName != "" {
		f.handOver = finalName
		return true, nil
	}
	if err := move(); err != nil {
		return true, err
	}
	delete(o.files, from)
	f.path = to
	o.files[to] = f
	return true, nil
}
