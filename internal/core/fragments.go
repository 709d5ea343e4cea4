package core

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

// maxFragmentContext bounds the segments kept to open every fragment with
// (the heading and the loops around the current key loop).
const maxFragmentContext = 16 << 20

// fragmenter cuts a transaction set's Guide JSON into fragments: each one is
// a Guide JSON document of the set holding at most batchSize repetitions of
// the loop keyName, with the segments around them (the heading, the
// enclosing loops of its first repetition, and, in the last fragment, the
// trailer). It follows the guide's loops through the main encoder's steps,
// and streams each fragment into the blob store as it goes.
//
// Context segments (outside any repetition) are kept as raw bytes per open
// loop, and parsed again only when a fragment starts: one append per
// segment instead of a copy of its parsed form. Every other segment's JSON
// is copied from the main encoder's (guide.JSONEncoder.SegmentFrom): the
// fragments follow the loops but format no element a second time.
type fragmenter struct {
	ctx       context.Context
	blobs     blobCreator
	g         *guide.Guide
	main      *guide.JSONEncoder // the set's encoder, which saw the segment first
	enc       *guide.JSONEncoder // reused from fragment to fragment
	txID      string
	suffix    string // of the fragments' keys (Service.docSuffix)
	keyName   string
	batchSize int
	d         x12.Delimiters

	// levels mirrors the open loops of the set (levels[0] is the set): the
	// raw segments each contributed outside any repetition of keyName.
	levels      []fragLevel
	contextSize int
	iterDepth   int    // depth of the repetition being read, 0 outside one
	pending     []byte // context read after a full fragment's last repetition
	// pendingSteps are where the main encoder placed the segments of pending.
	pendingSteps []guide.Step
	// placed: the current fragment's loops are the main encoder's (its
	// first repetition has started), so its segments go where the main
	// encoder's steps put them, without a second walk of the guide
	// (guide.JSONEncoder.SegmentAt).
	placed bool

	cur     *fragmentOut
	results []fragmentResult
	commits []<-chan error // fragments committing in the background
}

type fragLevel struct {
	raw     []byte // segments, each with its terminator
	hasIter bool   // holds (or held) a repetition of keyName
}

type fragmentOut struct {
	w     blob.Writer
	n     countingWriter
	iters int
}

type fragmentResult struct {
	key  string
	size int64
}

func newFragmenter(ctx context.Context, blobs blobCreator, g *guide.Guide, main *guide.JSONEncoder, txID, suffix, keyName string, batchSize int) *fragmenter {
	return &fragmenter{ctx: ctx, blobs: blobs, g: g, main: main, txID: txID, suffix: suffix, keyName: keyName, batchSize: batchSize}
}

// begin takes the set's ST.
func (f *fragmenter) begin(st *x12.Segment) error {
	f.d = st.Delimiters()
	f.levels = f.levels[:0]
	f.push()
	return f.keep(st)
}

// push opens a level, reusing the buffer an earlier level left in its slot:
// loops open and close for every claim.
func (f *fragmenter) push() {
	n := len(f.levels)
	if n == cap(f.levels) {
		f.levels = append(f.levels, fragLevel{})
		return
	}
	f.levels = f.levels[:n+1]
	f.levels[n] = fragLevel{raw: f.levels[n].raw[:0]}
}

// segment takes the next segment and where the main encoder placed it.
func (f *fragmenter) segment(seg *x12.Segment, step guide.Step) error {
	for range step.Closed {
		f.closeLevel()
	}
	if step.Opened != nil {
		f.push()
		if step.Opened.Key == f.keyName {
			return f.startRepetition(seg, step)
		}
	}
	if f.iterDepth > 0 {
		return f.copy(seg, step)
	}
	if err := f.keep(seg); err != nil {
		return err
	}
	switch {
	case f.cur == nil:
	case f.cur.iters < f.batchSize:
		// The next repetition comes into this fragment: so does this.
		return f.copy(seg, step)
	default:
		// The next repetition opens a new fragment, which replays the
		// context; only the trailer (if no repetition follows) comes here.
		f.pending = appendRaw(f.pending, seg)
		f.pendingSteps = append(f.pendingSteps, step)
	}
	return nil
}

func appendRaw(b []byte, seg *x12.Segment) []byte {
	return append(append(b, seg.Raw()...), seg.Delimiters().Segment)
}

func (f *fragmenter) top() *fragLevel { return &f.levels[len(f.levels)-1] }

// keep records a context segment in the innermost open loop.
func (f *fragmenter) keep(seg *x12.Segment) error {
	f.contextSize += len(seg.Raw()) + 1
	if f.contextSize > maxFragmentContext {
		return fmt.Errorf("the segments around the %s loops exceed %d bytes; fragments cannot repeat them", f.keyName, maxFragmentContext)
	}
	top := f.top()
	top.raw = appendRaw(top.raw, seg)
	return nil
}

// closeLevel ends the innermost loop: a repetition ends; a loop that held
// none stays context of its parent; one that held some is done with.
func (f *fragmenter) closeLevel() {
	n := len(f.levels)
	if n <= 1 {
		return
	}
	if f.iterDepth == n {
		f.iterDepth = 0
	}
	closed := f.levels[n-1]
	f.levels = f.levels[:n-1]
	parent := f.top()
	if closed.hasIter {
		parent.hasIter = true
		f.contextSize -= len(closed.raw)
		return
	}
	parent.raw = append(parent.raw, closed.raw...)
}

// startRepetition opens a repetition of keyName, in the current fragment
// or, when that one is full, in a new one.
func (f *fragmenter) startRepetition(seg *x12.Segment, step guide.Step) error {
	for i := range f.levels {
		f.levels[i].hasIter = true
	}
	f.iterDepth = step.Depth
	f.pending, f.pendingSteps = f.pending[:0], f.pendingSteps[:0]
	if f.cur != nil && f.cur.iters >= f.batchSize {
		if err := f.finish(); err != nil {
			return err
		}
	}
	if f.cur == nil {
		if err := f.open(); err != nil {
			return err
		}
	}
	f.cur.iters++
	return f.copy(seg, step)
}

// open starts a fragment with the context: the segments of every open loop.
func (f *fragmenter) open() error {
	key := fragmentKey(f.txID, len(f.results), f.suffix)
	w, err := f.blobs.Create(f.ctx, key, "application/json")
	if err != nil {
		return err
	}
	out := &fragmentOut{w: w}
	out.n.w = w
	if f.enc == nil {
		f.enc = guide.NewJSONEncoder(&out.n)
	} else {
		f.enc.Reset(&out.n)
	}
	f.cur = out
	f.placed = false
	var ctx []byte
	for _, l := range f.levels {
		ctx = append(ctx, l.raw...)
	}
	return f.replay(ctx, true, nil)
}

// replay feeds raw context segments to the current fragment, placed by
// its own walk of the guide, or by steps (one a segment) once placed.
func (f *fragmenter) replay(raw []byte, begin bool, steps []guide.Step) error {
	r := x12.NewReader(bytes.NewReader(raw), x12.WithDelimiters(f.d))
	for i := 0; ; i++ {
		seg, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		switch {
		case begin:
			f.enc.Begin(f.g, seg)
			begin = false
			continue
		case f.placed && !walkFragments && i < len(steps):
			f.enc.SegmentAt(nil, seg, steps[i])
		default:
			f.enc.Segment(seg)
		}
		if f.cur.n.err != nil {
			return f.cur.n.err
		}
	}
}

// copy feeds the segment the main encoder has just written, and the step
// that placed it there, to the current fragment. The first segment of its
// first repetition is placed by the fragment's own walk (the main encoder
// closed loops of an earlier repetition there, which the fragment never
// had); after it the fragment's loops are the main encoder's.
func (f *fragmenter) copy(seg *x12.Segment, step guide.Step) error {
	if f.placed && !walkFragments {
		f.enc.SegmentAt(f.main, seg, step)
	} else {
		f.enc.SegmentFrom(f.main, seg)
		f.placed = true
	}
	return f.cur.n.err
}

// walkFragments makes every fragment walk the guide itself, as before
// SegmentAt (tests compare the two).
var walkFragments = false

// finish closes the current fragment and stores it.
func (f *fragmenter) finish() error {
	o := f.cur
	f.cur = nil
	f.enc.End()
	if err := f.enc.Flush(); err != nil {
		o.w.Abort()
		return err
	}
	if qw, ok := o.w.(*queuedWriter); ok {
		// Its fsync runs beside the next fragments; end waits for it.
		f.commits = append(f.commits, qw.commitAsync())
	} else if err := o.w.Commit(); err != nil {
		return err
	}
	f.results = append(f.results, fragmentResult{key: fragmentKey(f.txID, len(f.results), f.suffix), size: o.n.n})
	return nil
}

// committed waits for the fragments committing in the background: the set
// names them only once every one is stored.
func (f *fragmenter) committed() error {
	err := waitCommits(f.commits)
	f.commits = f.commits[:0]
	return err
}

// waitCommits waits for every background commit (queuedWriter.commitAsync)
// and returns the first error.
func waitCommits(commits []<-chan error) error {
	var first error
	for _, c := range commits {
		if err := <-c; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// end closes the set: the trailer goes into the last fragment. The
// fragments may still be committing: the caller takes their outcomes
// (commits) and names no fragment before each one is nil.
func (f *fragmenter) end() (frags []fragmentResult, commits []<-chan error, err error) {
	if f.cur != nil {
		if err := f.replay(f.pending, false, f.pendingSteps); err != nil {
			return nil, nil, err
		}
		if err := f.finish(); err != nil {
			f.committed()
			return nil, nil, err
		}
	}
	commits, f.commits = f.commits, nil
	return f.results, commits, nil
}

// abort discards the fragment being written (and waits for those
// committing, which nothing will name).
func (f *fragmenter) abort() {
	if f.cur != nil {
		f.cur.w.Abort()
		f.cur = nil
	}
	f.committed()
}

// hasLoop reports whether the guide has a loop with the Guide JSON key.
func hasLoop(g *guide.Guide, key string) bool {
	var walk func(l *guide.Loop) bool
	walk = func(l *guide.Loop) bool {
		if l.Key == key {
			return true
		}
		for _, c := range l.Children {
			if c.Loop != nil && walk(c.Loop) {
				return true
			}
		}
		return false
	}
	return walk(g.Root())
}

// countingWriter counts bytes written and keeps the first error.
type countingWriter struct {
	w   interface{ Write([]byte) (int, error) }
	n   int64
	err error
}

func (c *countingWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
	return n, err
}
