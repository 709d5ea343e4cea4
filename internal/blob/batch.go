package blob

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// Batch makes many streamed writes durable together. Batch.Commit names a
// blob's bytes under its key at once, without waiting for the disk, and
// Sync returns once every blob the batch committed is on stable storage
// (its bytes fsynced, then each directory that names one fsynced once), so
// a caller records the keys only after Sync. Meanwhile a key may name
// bytes that a power cut takes back: only for keys nothing refers to yet
// (an inbound file's sets, whose records are written after the pass).
//
// Why: a file of sets of 1,000 claims commits four small blobs a set, and
// each Commit's fsyncs (the file's, then its directory's) forced a journal
// commit of the file system; with hundreds of them running beside the
// pass, every file and directory the pass created waited for the journal
// (openat and mkdir took over a third of the blob writer's time). Here
// the fsyncs come in groups of batchFiles, and those of one group share
// the journal's commits. The disk is asked to start writing each blob when
// it is committed (sync_file_range), so the group's fsyncs find little left.
//
// Blobs of other stores, and other writers, are committed by Batch.Commit
// with their own Commit: durable when it returns, as before.
type Batch struct {
	mu      sync.Mutex
	pending []batched
	// syncs are the groups being synced in the background: at most
	// batchSyncs, so a slow disk holds the committer back.
	syncs sync.WaitGroup
	slots chan struct{}
	err   error // the first failed sync's
}

// batched is one committed blob's open file and the directories to sync.
type batched struct {
	f       *os.File
	target  string
	newDirs []string
}

// batchFiles is how many committed blobs a group syncs at once (each holds
// an open file until then).
const batchFiles = 128

// batchSyncs bounds the groups syncing at once.
const batchSyncs = 2

// syncWorkers fsync one group's files side by side, so that their journal
// commits are shared.
const syncWorkers = 8

// NewBatch returns an empty batch.
func NewBatch() *Batch { return &Batch{slots: make(chan struct{}, batchSyncs)} }

// Defers reports whether Commit of w leaves its fsyncs to Sync (a streamed
// write to the directory store); for other writers Commit is w.Commit.
func Defers(w Writer) bool {
	p, ok := w.(publisher)
	return ok && p.publishable()
}

// Commit makes w's content visible under its key, and durable once Sync
// has returned nil; on error nothing is stored (w is aborted).
func (b *Batch) Commit(w Writer) error {
	if !Defers(w) {
		return w.Commit()
	}
	p := w.(publisher)
	item, err := p.publish()
	if err != nil {
		return err
	}
	b.mu.Lock()
	b.pending = append(b.pending, item)
	var group []batched
	if len(b.pending) >= batchFiles {
		group, b.pending = b.pending, nil
	}
	b.mu.Unlock()
	if group != nil {
		b.slots <- struct{}{}
		b.syncs.Add(1)
		go func() {
			defer b.syncs.Done()
			b.fail(syncGroup(group))
			<-b.slots
		}()
	}
	return nil
}

func (b *Batch) fail(err error) {
	if err == nil {
		return
	}
	b.mu.Lock()
	if b.err == nil {
		b.err = err
	}
	b.mu.Unlock()
}

// Sync returns once every blob committed before the call is durable, or
// the first error of any sync of the batch. It closes the files it syncs:
// call it also when the blobs are given up, so that none stays open.
func (b *Batch) Sync() error {
	b.mu.Lock()
	group := b.pending
	b.pending = nil
	b.mu.Unlock()
	b.fail(syncGroup(group))
	b.syncs.Wait()
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err
}

// syncGroup fsyncs the files of group, closes them, then fsyncs each
// directory that names one, and the parents of the directories made for
// them.
func syncGroup(group []batched) error {
	if len(group) == 0 {
		return nil
	}
	errs := make([]error, len(group))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(syncWorkers, len(group)) {
		wg.Go(func() {
			for i := range next {
				err := group[i].f.Sync()
				if cerr := group[i].f.Close(); err == nil {
					err = cerr
				}
				if err != nil {
					errs[i] = fmt.Errorf("blob: put %s: %w", group[i].target, err)
				}
			}
		})
	}
	for i := range group {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	dirs := map[string]bool{}
	for _, it := range group {
		if dir := filepath.Dir(it.target); !dirs[dir] {
			dirs[dir] = true
			if err := syncDir(dir); err != nil {
				return fmt.Errorf("blob: put %s: sync its directory: %w", it.target, err)
			}
		}
		if err := syncParents(it.newDirs); err != nil {
			return fmt.Errorf("blob: put %s: sync its directory's parents: %w", it.target, err)
		}
	}
	return nil
}

// publisher is a writer that Batch can commit without an fsync.
type publisher interface {
	publishable() bool
	// publish writes out what is buffered, starts the disk's writeback
	// and renames the blob into place; its file stays open for the fsync.
	publish() (batched, error)
}

func (w *fileWriter) publishable() bool { return !w.done }

func (w *fileWriter) publish() (batched, error) {
	if !w.finished {
		if err := w.Finish(); err != nil { // aborted
			return batched{}, err
		}
	}
	w.done = true
	startWriteback(w.f, w.flushed, 0) // to the end
	os.Remove(w.target + ".attrs")    // attributes of an earlier version
	if err := os.Rename(w.f.Name(), w.target); err != nil {
		w.f.Close()
		os.Remove(w.f.Name())
		return batched{}, fmt.Errorf("blob: put %s: %w", w.target, err)
	}
	return batched{f: w.f, target: w.target, newDirs: w.newDirs}, nil
}

func (c *compressWriter) publishable() bool {
	p, ok := c.w.(publisher)
	return ok && p.publishable()
}

func (c *compressWriter) publish() (batched, error) {
	if !c.finished {
		if err := c.Finish(); err != nil { // aborted
			return batched{}, err
		}
	}
	c.finished = false
	return c.w.(publisher).publish()
}
