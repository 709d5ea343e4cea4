package core

import (
	"context"
	"errors"
	"sync"

	"github.com/clearhouse/clearhouse/internal/blob"
)

// writeQueue moves a pass's blob writes (the Guide JSON, the fragments and
// the enveloped input: about fifteen times the size of the X12) to a goroutine
// of their own, so the write system calls run beside the parsing and
// encoding instead of after each buffer. Writes are copied into a few
// reusable buffers (bounded memory: writeBuffers of them) and done in order,
// one writer after another as they were queued; Commit and Abort wait for
// the writer's queued writes, so what a pass commits is whole.
type writeQueue struct {
	blobs blob.Store
	reqs  chan writeReq
	free  chan []byte
	done  chan struct{}
	once  sync.Once
	// pending are the background commits (commitAsync) of stores other
	// than the directory (an object store's upload) waiting for one of
	// maxBackgroundCommits committers: at most maxPendingCommits, so a slow
	// disk holds the writer back. Their blobs are finished (blob.Finish) on
	// the writer goroutine before they wait: a waiting commit holds an open
	// file, not an encoder's or a direct write's buffers.
	pending    chan writeReq
	committers sync.WaitGroup
	started    int
	// batch holds the background commits of the directory store, renamed
	// into place on the writer goroutine, until sync makes them durable
	// together (blob.Batch: their fsyncs in groups that share the file
	// system's journal commits, instead of two journal commits a blob).
	batch *blob.Batch
	// creates are the blobs to open, on a goroutine of their own (create).
	creates     chan *queuedWriter
	createsDone chan struct{}
}

// maxQueuedCreates bounds the blobs waiting to be opened.
const maxQueuedCreates = 16

// maxBackgroundCommits bounds the blobs being fsynced at once.
const maxBackgroundCommits = 4

// maxPendingCommits bounds the finished blobs waiting for their fsync. A
// file of sets of 1,000 claims finishes four small blobs a set; with only
// the committers' four slots, the writer waited for an fsync (and the pass
// for the writer) at nearly every set.
const maxPendingCommits = 64

// writeBuffers bounds the bytes waiting to be written (each buffer holds one
// Write, at most about 256 KiB from the encoders).
const writeBuffers = 8

type writeOp int

const (
	opWrite writeOp = iota
	opCommit
	opCommitAsync
	opAbort
)

type writeReq struct {
	w     *queuedWriter
	op    writeOp
	buf   []byte
	reply chan error // for commit and abort
}

// blobCreator opens blob writers: a blob.Store, or a writeQueue in front of one.
type blobCreator interface {
	Create(ctx context.Context, key, contentType string) (blob.Writer, error)
}

func newWriteQueue(blobs blob.Store) *writeQueue {
	q := &writeQueue{blobs: blobs, reqs: make(chan writeReq, writeBuffers), free: make(chan []byte, writeBuffers), done: make(chan struct{}),
		pending: make(chan writeReq, maxPendingCommits), creates: make(chan *queuedWriter, maxQueuedCreates), createsDone: make(chan struct{}),
		batch: blob.NewBatch()}
	for range writeBuffers {
		q.free <- nil // allocated on first use, at the size of the first write
	}
	go q.run()
	go q.create()
	return q
}

// create opens the queued blobs, one after another, ahead of the writer:
// on the file store a directory and a temporary file, system calls that
// wait for the file system's journal while other blobs' fsyncs commit it
// (a file of sets of 1,000 claims opens four blobs a set; on the writer's
// goroutine they took about a third of its time, and the pass waited).
func (q *writeQueue) create() {
	defer close(q.createsDone)
	for w := range q.creates {
		bw, err := q.blobs.Create(w.ctx, w.key, w.contentType)
		if err != nil {
			w.setError(err)
		} else {
			w.w = bw
		}
		close(w.created)
	}
}

func (q *writeQueue) run() {
	defer close(q.done)
	for r := range q.reqs {
		<-r.w.created // the blob is open, or w holds why not
		switch r.op {
		case opWrite:
			if r.w.error() == nil {
				if _, err := r.w.w.Write(r.buf); err != nil {
					r.w.setError(err)
				}
			}
			q.free <- r.buf[:0]
		case opCommit:
			err := r.w.error()
			if err == nil {
				err = r.w.w.Commit()
			} else {
				r.w.abortBlob()
			}
			r.reply <- err
		case opCommitAsync:
			if err := r.w.error(); err != nil {
				r.w.abortBlob()
				r.reply <- err
				continue
			}
			// The fsyncs run beside the next writes: a blob's commit no
			// longer stalls the writes queued behind it. On the directory
			// store they are left to the batch (sync).
			if blob.Defers(r.w.w) {
				r.reply <- q.batch.Commit(r.w.w)
				continue
			}
			if err := blob.Finish(r.w.w); err != nil { // aborted
				r.reply <- err
				continue
			}
			if q.started < maxBackgroundCommits {
				q.started++
				q.committers.Add(1)
				go q.commit()
			}
			q.pending <- r
		case opAbort:
			r.w.abortBlob()
			r.reply <- nil
		}
	}
	close(q.pending)
	q.committers.Wait()
}

// commit runs pending commits until the queue closes.
func (q *writeQueue) commit() {
	defer q.committers.Done()
	for r := range q.pending {
		r.reply <- r.w.w.Commit()
	}
}

// close ends the goroutine once the queued requests are done. Writers must
// be committed or aborted before.
func (q *writeQueue) close() {
	q.once.Do(func() {
		close(q.reqs)
		close(q.creates)
	})
	<-q.done
	<-q.createsDone
	q.batch.Sync() // closes what sync was not called for
}

// sync returns once every blob committed in the background (commitAsync,
// whose outcome was nil) is durable. Call it after their outcomes arrived
// and before anything names them.
func (q *writeQueue) sync() error {
	return q.batch.Sync()
}

// Create opens key in the blob store with its writes queued. The blob is
// created ahead of the writer goroutine (writeQueue.create: a directory and
// a temporary file on the file store, system calls neither the pass nor
// the writer need wait for); if that fails, the writes stop and Commit
// returns the error.
func (q *writeQueue) Create(ctx context.Context, key, contentType string) (blob.Writer, error) {
	w := &queuedWriter{q: q, ctx: ctx, key: key, contentType: contentType, created: make(chan struct{})}
	q.creates <- w
	return w, nil
}

// queuedWriter is a blob.Writer whose writes go through a writeQueue.
type queuedWriter struct {
	q                *writeQueue
	ctx              context.Context
	key, contentType string
	w                blob.Writer   // set by writeQueue.create; nil if Create failed
	created          chan struct{} // closed once w is set, or the error
	mu               sync.Mutex
	err              error // the first failed write's: later writes stop early
	closed           bool
}

// abortBlob discards the blob, if it was created (writer goroutine only).
func (w *queuedWriter) abortBlob() {
	if w.w != nil {
		w.w.Abort()
	}
}

func (w *queuedWriter) error() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

func (w *queuedWriter) setError(err error) {
	w.mu.Lock()
	w.err = err
	w.mu.Unlock()
}

func (w *queuedWriter) Write(p []byte) (int, error) {
	if err := w.error(); err != nil {
		return 0, err
	}
	buf := <-w.q.free
	buf = append(buf[:0], p...)
	w.q.reqs <- writeReq{w: w, op: opWrite, buf: buf}
	return len(p), nil
}

func (w *queuedWriter) Commit() error {
	if w.closed {
		return errors.New("core: blob writer already finished")
	}
	w.closed = true
	reply := make(chan error, 1)
	w.q.reqs <- writeReq{w: w, op: opCommit, reply: reply}
	return <-reply
}

// commitAsync queues the commit and returns at once; the channel gets its
// outcome. Nothing may name the blob before that outcome is nil.
func (w *queuedWriter) commitAsync() <-chan error {
	reply := make(chan error, 1)
	if w.closed {
		reply <- errors.New("core: blob writer already finished")
		return reply
	}
	w.closed = true
	w.q.reqs <- writeReq{w: w, op: opCommitAsync, reply: reply}
	return reply
}

func (w *queuedWriter) Abort() {
	if w.closed {
		return
	}
	w.closed = true
	reply := make(chan error, 1)
	w.q.reqs <- writeReq{w: w, op: opAbort, reply: reply}
	<-reply
}
