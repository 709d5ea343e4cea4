package core

import (
	"context"
	"fmt"

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
type fragmenter struct {
	ctx       context.Context
	blobs     blob.Store
	g         *guide.Guide
	txID      string
	keyName   string
	batchSize int

	// levels mirrors the open loops of the set (levels[0] is the set):
	// the segments each contributed outside any repetition of keyName.
	levels      []fragLevel
	contextSize int
	iterDepth   int            // depth of the repetition being read, 0 outside one
	pending     []*x12.Segment // context read since the last repetition ended

	cur     *fragmentOut
	results []fragmentResult
}

type fragLevel struct {
	segs    []*x12.Segment
	hasIter bool // holds (or held) a repetition of keyName
}

type fragmentOut struct {
	w     blob.Writer
	n     countingWriter
	enc   *guide.JSONEncoder
	iters int
}

type fragmentResult struct {
	key  string
	size int64
}

func newFragmenter(ctx context.Context, blobs blob.Store, g *guide.Guide, txID, keyName string, batchSize int) *fragmenter {
	return &fragmenter{ctx: ctx, blobs: blobs, g: g, txID: txID, keyName: keyName, batchSize: batchSize}
}

// begin takes the set's ST.
func (f *fragmenter) begin(st *x12.Segment) error {
	f.levels = append(f.levels[:0], fragLevel{})
	return f.keep(st)
}

// segment takes the next segment and where the main encoder placed it.
func (f *fragmenter) segment(seg *x12.Segment, step guide.Step) error {
	for range step.Closed {
		f.closeLevel()
	}
	if step.Opened != nil {
		f.levels = append(f.levels, fragLevel{})
		if step.Opened.Key == f.keyName {
			return f.startRepetition(seg, step.Depth)
		}
	}
	if f.iterDepth > 0 {
		return f.cur.feed(seg)
	}
	if err := f.keep(seg); err != nil {
		return err
	}
	if f.cur != nil {
		f.pending = append(f.pending, f.top().segs[len(f.top().segs)-1])
	}
	return nil
}

func (f *fragmenter) top() *fragLevel { return &f.levels[len(f.levels)-1] }

// keep records a context segment in the innermost open loop.
func (f *fragmenter) keep(seg *x12.Segment) error {
	f.contextSize += len(seg.Raw())
	if f.contextSize > maxFragmentContext {
		return fmt.Errorf("the segments around the %s loops exceed %d bytes; fragments cannot repeat them", f.keyName, maxFragmentContext)
	}
	top := f.top()
	top.segs = append(top.segs, seg.Clone())
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
	switch {
	case closed.hasIter:
		parent.hasIter = true
		for _, s := range closed.segs {
			f.contextSize -= len(s.Raw())
		}
	default:
		parent.segs = append(parent.segs, closed.segs...)
	}
}

// startRepetition opens a repetition of keyName, in the current fragment
// or, when that one is full, in a new one.
func (f *fragmenter) startRepetition(seg *x12.Segment, depth int) error {
	for i := range f.levels {
		f.levels[i].hasIter = true
	}
	f.iterDepth = depth
	if f.cur != nil && f.cur.iters >= f.batchSize {
		if err := f.finish(); err != nil {
			return err
		}
	}
	if f.cur == nil {
		if err := f.open(); err != nil {
			return err
		}
	} else {
		for _, p := range f.pending {
			if err := f.cur.feed(p); err != nil {
				return err
			}
		}
	}
	f.pending = f.pending[:0]
	f.cur.iters++
	return f.cur.feed(seg)
}

// open starts a fragment with the context: the segments of every open loop.
func (f *fragmenter) open() error {
	key := fragmentKey(f.txID, len(f.results))
	w, err := f.blobs.Create(f.ctx, key, "application/json")
	if err != nil {
		return err
	}
	out := &fragmentOut{w: w}
	out.n.w = w
	out.enc = guide.NewJSONEncoder(&out.n)
	first := true
	for _, l := range f.levels {
		for _, s := range l.segs {
			if first {
				out.enc.Begin(f.g, s)
				first = false
				continue
			}
			out.enc.Segment(s)
		}
	}
	f.cur = out
	return nil
}

func (o *fragmentOut) feed(seg *x12.Segment) error {
	o.enc.Segment(seg)
	return o.n.err
}

// finish closes the current fragment and stores it.
func (f *fragmenter) finish() error {
	o := f.cur
	f.cur = nil
	o.enc.End()
	if err := o.enc.Flush(); err != nil {
		o.w.Abort()
		return err
	}
	if err := o.w.Commit(); err != nil {
		return err
	}
	f.results = append(f.results, fragmentResult{key: fragmentKey(f.txID, len(f.results)), size: o.n.n})
	return nil
}

// end closes the set: the trailer goes into the last fragment.
func (f *fragmenter) end() ([]fragmentResult, error) {
	if f.cur != nil {
		for _, p := range f.pending {
			if err := f.cur.feed(p); err != nil {
				return nil, err
			}
		}
		if err := f.finish(); err != nil {
			return nil, err
		}
	}
	return f.results, nil
}

// abort discards the fragment being written.
func (f *fragmenter) abort() {
	if f.cur != nil {
		f.cur.w.Abort()
		f.cur = nil
	}
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
