package x12

import (
	"bytes"
	"runtime"
	"sync"
	"sync/atomic"
)

// ForkingSetValidator is a SetValidator that can hand out independent
// copies of itself. Validate then checks transaction sets on other
// goroutines while the calling one reads and checks the envelopes, and still
// files every finding in the order, with the values, a sequential run gives.
type ForkingSetValidator interface {
	SetValidator
	// Fork returns a SetValidator that checks sets as this one does and
	// shares no mutable state with it (or with other forks).
	Fork() SetValidator
}

// The pipeline: the calling goroutine (the reader) reads segments and checks
// the envelopes as in a sequential run, but instead of calling the
// SetValidator it records each set's segments and its own findings into
// batches; workers (and the reader itself, between reads) replay the
// batches through forks of the SetValidator.
//
//   - Buffers. The reader's buffer is never overwritten while a worker may
//     still read a segment in it: when the reader is done with a buffer
//     (fill), the pipeline seals it as a chunk and hands the reader another,
//     from a pool bounded in count and bytes, so memory stays flat whatever
//     the input's size. Workers only read sealed chunks (or the last one,
//     after the input ended), so nothing they read is being written.
//   - Order. Sets are grouped into jobs of about one buffer of input each
//     (a larger set is cut into pieces of that size, each a job: see
//     pipeline_split.go), handed to the workers once recorded to the end
//     (a long one sooner) and taken in order; the reader checks jobs too,
//     the oldest no worker took, when it is ahead of the workers or would
//     otherwise wait (help). Each job collects its findings, and the
//     reader delivers them (OnFinding, the report tree) job by job, in input
//     order. The reader's own findings travel in the batches as records,
//     between the segments they were found at, so they keep their place.
//   - Values. A finding's line and column are computed from the chunk its
//     segment was read in, with the counts the reader had then, so they are
//     those a sequential run computes (0, 0 included, for offsets the
//     reader's buffer no longer held).
type pipeline struct {
	v    *validator
	r    *Reader
	fork ForkingSetValidator

	work chan *job
	wg   sync.WaitGroup
	// wake is signalled by workers when a job finishes, findings arrive or a
	// buffer is freed: the reader waits on it for any of them.
	wake chan struct{}

	mu        sync.Mutex // guards free, live, liveBytes and every job's out/done/panicked
	free      [][]byte   // buffers back from the workers
	live      int        // buffers allocated and not dropped
	liveBytes int

	queue    []*job // jobs not yet delivered, oldest first (reader only)
	open     *job   // the job the reader is filling
	openFrom int64  // input offset where open began
	cur      *chunk // the reader's current buffer
	b        *batch // open's batch for cur, nil until a record
	// pend holds batches for cur of jobs closed since cur began: they are
	// sent, and their jobs closed, when cur is sealed.
	pend       []*batch
	maxJobs    int
	maxLive    int
	maxBytes   int
	delivering bool
	stopped    bool

	// Splitting one set between workers (pipeline_split.go): cond is
	// signalled (under mu) when a job publishes a state or finishes.
	cond     *sync.Cond
	splits   bool  // the forks resume (ResumingSetValidator)
	pieceMin int64 // the least input of a piece
	cut      cutter
	stats    splitStats // guarded by mu
	span     openSpan

	// The reader checks jobs too (helper, a worker that runs on the
	// reader's goroutine), when it is ahead of the workers or would
	// otherwise wait: with as many goroutines as cores, each keeps its
	// core, instead of three taking turns on two (each turn a wake-up).
	helper *worker
}

// chunk is one reader buffer of input: base is the input offset of buf[0];
// lines and lastLF the reader's line counts before it.
type chunk struct {
	buf                 []byte
	base, lines, lastLF int64
	refs                atomic.Int32 // the reader's (until sealed) and one per batch
}

// job is a run of consecutive sets checked by one worker, or a piece of
// a set split between workers (pipeline_split.go).
type job struct {
	batches chan *batch
	sent    bool // batches closed (reader only)
	// claimed is set by whoever checks the job: a worker, or the reader
	// (which takes only jobs recorded to the end). Both take them in order.
	claimed atomic.Bool
	handed  bool // in the work queue (reader only)
	nsent   int  // batches sent (reader only)
	// A piece starts inside a set, at a segment prev also checks last:
	// spec is set, and the piece starts from prev's template tmpl.
	spec bool
	tmpl int
	// Guarded by pipeline.mu.
	prev     *job // nil once exact
	out      []pending
	done     bool
	panicked any
	piece
}

// pending is a finding on its way to OnFinding and, unless NoTree, the
// envelope record's list dst.
type pending struct {
	f   Finding
	dst *[]Finding
}

// batch holds what one job needs of one chunk, in input order.
type batch struct {
	j    *job
	c    *chunk
	recs []rec
	fs   []pending // the reader's findings (recFinding)
	sets []setInfo // set headers (recBegin)
	ids  []string  // ids of the segments that ended sets (recEnd)
	lens []uint16  // the lengths of the segments of spans (recSpan)
}

// Record kinds.
const (
	recSegment = iota // a segment of a set: Segment(seg, pos)
	recBegin          // a set's ST: BeginSet(sets[idx]), then Segment(ST, 1)
	recFinding        // a finding of the reader's: fs[idx]
	recEnd            // EndSet; off, pos and ids[idx] are the current segment's
	recSplit          // the last segment of a piece: Segment, then Save
	recResume         // a piece's first segment: Resume from sets[idx] before it
	recSpan           // n segments in a row from off, positions pos on, lengths lens[idx:]: Segment each
)

// Record flags.
const (
	flagBreaks = 1 << iota
	flagUnterminated
	flagTemplate // the worker saves its state after the segment (pipeline_split.go)
)

// rec is one event of a batch. A segment is described by where it lies in
// its chunk: raw is chunk.buf[off-base:][:n], as the reader returned it.
type rec struct {
	off   int64
	n     int32 // length of raw; for recSpan, the segments
	end   int32 // End() - off
	pos   int32
	idx   int32
	kind  uint8
	flags uint8
	d     Delimiters
}

// setInfo is what a set's BeginSet receives and where its findings are
// kept in the report tree (all nil with NoTree).
type setInfo struct {
	h   SetHeader
	ic  *InterchangeReport
	grp *GroupReport
	set *SetReport
}

// dst is the list file would keep f in while this set is the current one.
func (s *setInfo) dst(f *Finding) *[]Finding {
	switch {
	case s.set == nil:
		return nil
	case f.Level() == LevelInterchange:
		return &s.ic.Findings
	case f.Level() == LevelGroup:
		return &s.grp.Findings
	}
	return &s.set.Findings
}

// usePipeline says, at an ST with no set open, whether sets are checked on
// other goroutines from there on. never is set when they never will be: the
// SetValidator does not fork, something watches the segments as they are
// read (OnSegment's calls would no longer interleave with OnFinding's as
// before), Workers says 1, or there is no second core. Otherwise, unless
// Workers asks for the pipeline, it waits for more input than a claim or an
// inquiry: a reader buffer filled (64 KiB), so that small inputs, most of
// them, do not pay for the goroutines and the handover.
func (v *validator) usePipeline() (fork ForkingSetValidator, workers int, never bool) {
	fork, ok := v.opts.Sets.(ForkingSetValidator)
	if !ok || v.opts.OnSegment != nil || v.opts.Workers == 1 || v.opts.Workers < 0 {
		return nil, 0, true
	}
	if v.opts.Workers > 1 {
		return fork, v.opts.Workers, false
	}
	n := min(runtime.GOMAXPROCS(0), 4)
	if n < 2 {
		return nil, 0, true
	}
	if r := v.r; r.base == 0 && r.end < len(r.buf) {
		return nil, 0, false // everything read so far fits one buffer
	}
	return fork, n, false
}

// newPipeline starts checking sets on workers goroutines: the reader's and
// workers-1 others.
func newPipeline(v *validator, fork ForkingSetValidator, workers int) *pipeline {
	const maxLive = 16
	p := &pipeline{v: v, r: v.r, fork: fork, wake: make(chan struct{}, 1),
		maxJobs: 2*workers + 2, maxLive: maxLive, maxBytes: 2 << 20}
	// Room for every job that may be queued: rotate waits at maxJobs unless
	// the oldest is still being recorded, and a job spans a buffer of input,
	// so only a few more can close within one chunk. Jobs the reader checked
	// itself stay queued until a worker skips them: room for many more, so
	// that a worker kept off its core (a busy machine) does not stop the
	// reader, which then checks them all.
	p.work = make(chan *job, p.maxJobs+256)
	p.live, p.liveBytes = 1, len(v.r.buf)
	p.cur = p.newChunk(v.r.buf, v.r.base)
	p.cond = sync.NewCond(&p.mu)
	p.pieceMin = int64(len(v.r.buf))
	p.splits = true
	ws := make([]*worker, workers)
	for i := range ws {
		w := &worker{p: p, sv: fork.Fork()}
		w.rs, _ = w.sv.(ResumingSetValidator)
		p.splits = p.splits && w.rs != nil
		w.seg.intern = &w.intern
		w.reportFn = w.report
		ws[i] = w
	}
	p.helper, ws = ws[0], ws[1:]
	for _, w := range ws {
		p.wg.Add(1)
		go w.run(p.work)
	}
	v.r.pipe = p
	return p
}

func (p *pipeline) newChunk(buf []byte, base int64) *chunk {
	c := &chunk{buf: buf, base: base, lines: p.r.lines, lastLF: p.r.lastLF}
	c.refs.Store(1)
	return c
}

// signal wakes the reader if it waits.
func (p *pipeline) signal() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// ---- the reader's side ----

// batch returns the open job's batch for the current chunk.
func (p *pipeline) batch() *batch {
	if p.b != nil {
		if p.span.open {
			p.closeSpan()
		}
		return p.b
	}
	b := batchPool.Get().(*batch)
	if cap(b.recs) == 0 {
		// Room for a buffer of short segments at once, rather than
		// append's doublings.
		b.recs = make([]rec, 0, len(p.cur.buf)/256)
	}
	b.j, b.c = p.open, p.cur
	p.cur.refs.Add(1)
	p.b = b
	return b
}

func (p *pipeline) record(seg *Segment, pos int, kind uint8, idx int) {
	p.recordFlags(seg, pos, kind, idx, 0)
}

// recordFlags is record with extra flags (flagTemplate: the open job's
// templates count it).
func (p *pipeline) recordFlags(seg *Segment, pos int, kind uint8, idx int, fl uint8) {
	b := p.batch()
	b.recs = append(b.recs, rec{})
	r := &b.recs[len(b.recs)-1]
	p.fill(r, seg, pos, kind, idx)
	if fl != 0 {
		r.flags |= fl
		p.cut.templates++
	}
}

func (p *pipeline) fill(r *rec, seg *Segment, pos int, kind uint8, idx int) {
	var fl uint8
	if seg.breaks {
		fl = flagBreaks
	}
	if seg.unterminated {
		fl |= flagUnterminated
	}
	*r = rec{off: seg.offset, end: int32(seg.end - seg.offset), n: int32(p.v.rawLen), pos: int32(pos), idx: int32(idx),
		kind: kind, flags: fl, d: seg.d}
}

// segment records a segment of the current set (not its ST). Nearly every
// one only adds its length to the open span (recSpan): the segments that
// follow one another in the chunk with nothing recorded between them,
// which the worker finds again in the chunk's bytes as the reader did. A
// record per segment, written on one core and read on the other, cost more
// than finding the segment again.
func (p *pipeline) segment(seg *Segment, pos int) {
	if raw := seg.raw; p.splits && len(raw) > 2 && raw[0] == 'H' && raw[1] == 'L' && raw[2] == seg.d.Element {
		p.hl(seg, pos)
		return
	}
	n := p.v.rawLen
	if sp := &p.span; sp.open && seg.breaks == sp.breaks && seg.d == sp.d && !seg.unterminated && n <= maxSpanLen {
		p.b.lens = append(p.b.lens, uint16(n))
		return
	}
	if seg.unterminated || n > maxSpanLen {
		p.record(seg, pos, recSegment, 0)
		return
	}
	b := p.batch()
	p.span = openSpan{open: true, breaks: seg.breaks, d: seg.d, off: seg.offset, pos: int32(pos), idx: int32(len(b.lens))}
	b.lens = append(b.lens, uint16(n))
}

// spans reads, while a span is open, the segments that only extend it, in
// one loop over the reader's buffer: what Reader.Next, validator.segment
// and pipeline.segment do for such a segment (the bytes before it
// skipped, its terminator found, an id of two or three letters or digits,
// neither an envelope's nor an HL, no trailing separator: counted, its
// length added to the span), without their calls. It stops at any segment that needs more, or at the end of
// the buffer, which then takes the usual path; the reader's segment is left
// as the last one read, as Next leaves it.
func (v *validator) spans() {
	r, p := v.r, v.pipe
	if !p.span.open || r.err != nil || !r.haveD || r.lineTerm || r.breaks != p.span.breaks || v.set == nil {
		return
	}
	b := p.b
	buf, pos := r.buf[:r.end], r.pos
	e, t := r.d.Element, r.d.Segment
	n, last, lastLen := 0, 0, 0
loop:
	for pos < len(buf) {
		c := buf[pos]
		if r.skip[c] {
			pos++ // line breaks and blanks between segments, as Next skips them
			continue
		}
		if c == 'I' || c == 'H' && p.splits {
			break // a possible ISA or IEA, a possible HL
		}
		i := bytes.IndexByte(buf[pos:], t)
		if i < 3 || i > maxSpanLen {
			break
		}
		raw := buf[pos : pos+i]
		if !idChars[raw[0]] || !idChars[raw[1]] || raw[0] == e || raw[1] == e || raw[i-1] == e {
			break
		}
		switch {
		case raw[2] == e:
			if d := raw[1]; c == 'S' && (d == 'T' || d == 'E') || c == 'G' && (d == 'S' || d == 'E') {
				break loop
			}
		case i >= 4 && raw[3] == e && idChars[raw[2]]:
		default:
			break loop
		}
		b.lens = append(b.lens, uint16(i))
		n++
		last, lastLen = pos, i
		pos += i + 1
	}
	if n == 0 {
		return
	}
	v.position += n
	v.set.Segments += n
	v.rep.Segments += int64(n)
	r.seg.reset(buf[last:last+lastLen], r.base+int64(last), r.base+int64(last+lastLen), r.d, r.breaks)
	r.pos = pos
	v.seg, v.rawLen = &r.seg, lastLen
}

// maxSpanLen is the longest segment a span holds (its length a uint16).
const maxSpanLen = 1<<16 - 1

// openSpan is the span the reader is adding segments to, recorded when
// anything else is (batch) or the batch is sent.
type openSpan struct {
	open   bool
	breaks bool
	d      Delimiters
	off    int64
	pos    int32
	idx    int32 // its first length in the batch's lens
}

// closeSpan records the open span.
func (p *pipeline) closeSpan() {
	sp, b := &p.span, p.b
	var fl uint8
	if sp.breaks {
		fl = flagBreaks
	}
	b.recs = append(b.recs, rec{off: sp.off, n: int32(len(b.lens)) - sp.idx, pos: sp.pos, idx: sp.idx, kind: recSpan, flags: fl, d: sp.d})
	sp.open = false
}

// begin records a set's start: st is its ST.
func (p *pipeline) begin(st *Segment, info setInfo) {
	p.cut.begin(info)
	b := p.batch()
	b.sets = append(b.sets, info)
	p.record(st, 1, recBegin, len(b.sets)-1)
}

// end records the end of the current set, with the segment the reader is at.
func (p *pipeline) end(off int64, id string, pos int) {
	b := p.batch()
	b.ids = append(b.ids, id)
	b.recs = append(b.recs, rec{off: off, pos: int32(pos), idx: int32(len(b.ids) - 1), kind: recEnd})
}

// finding records a finding of the reader's (line and column filled).
func (p *pipeline) finding(f Finding, dst *[]Finding) {
	b := p.batch()
	b.fs = append(b.fs, pending{f, dst})
	b.recs = append(b.recs, rec{idx: int32(len(b.fs) - 1), kind: recFinding})
}

// rotate starts a new job at a set's ST (offset off) once the open job
// covers a buffer of input: jobs big enough that handing one over costs
// little, small enough that both workers have work.
func (p *pipeline) rotate(off int64) {
	if p.open != nil && off-p.openFrom < int64(len(p.r.buf)) {
		return
	}
	p.newJob(off, nil)
}

// newJob closes the open job and opens j (a new one when nil) at input
// offset off.
func (p *pipeline) newJob(off int64, j *job) {
	if old := p.open; old != nil {
		if p.b != nil {
			if p.span.open {
				p.closeSpan()
			}
			p.pend = append(p.pend, p.b)
			p.b = nil
		} else {
			close(old.batches)
			old.sent = true
			p.hand(old)
		}
	}
	// Bound the jobs in flight (and so the findings held for delivery);
	// only a job whose batches are all sent can be waited for.
	for len(p.queue) >= p.maxJobs && p.queue[0].sent {
		if p.deliver(); len(p.queue) < p.maxJobs {
			break
		}
		if p.help(1) {
			continue
		}
		<-p.wake
	}
	if j == nil {
		j = &job{}
	}
	j.batches = make(chan *batch, p.maxLive+1)
	j.exact = !j.spec
	p.cut.templates, p.cut.chunks = 0, 0
	p.queue = append(p.queue, j)
	p.open, p.openFrom = j, off
}

// hand gives job j to the workers, once: when it is recorded to the end,
// or, a long one, once it spans handOn chunks. A worker that takes only
// jobs recorded to the end never waits for the reader in the middle of one
// (each wait, a wake-up).
func (p *pipeline) hand(j *job) {
	if !j.handed {
		j.handed = true
		p.work <- j
	}
}

// handOn is the chunks a job spans before the workers get it unfinished.
const handOn = 2

// helpAhead is how many jobs recorded to the end and taken by no worker
// make the reader check the oldest of them: it leaves the others to the
// workers, enough to keep them busy while it does.
const helpAhead = 3

// help checks jobs on the reader's goroutine while at least ahead of them
// are recorded to the end and taken by no worker: the oldest such job
// first, as the workers take them, so that every job the reader checks has
// the jobs before it recorded and begun, and whatever it waits for (their
// templates and verdicts) needs nothing more of the reader.
func (p *pipeline) help(ahead int) (helped bool) {
	for {
		var oldest *job
		n := 0
		for _, j := range p.queue {
			if j.sent && !j.claimed.Load() {
				if oldest == nil {
					oldest = j
				}
				n++
			}
		}
		if splitTest.help != nil && oldest != nil {
			ahead = splitTest.help(ahead)
		}
		if n < ahead || oldest == nil {
			return helped
		}
		if oldest.claimed.CompareAndSwap(false, true) {
			helped = true
			p.mu.Lock()
			p.stats.helped++
			p.mu.Unlock()
			p.helper.do(oldest)
		}
	}
}

// seal sends every batch of the current chunk, closing the jobs that ended
// in it, and gives up the reader's reference.
func (p *pipeline) seal() {
	for _, b := range p.pend {
		j := b.j // b is the worker's once sent
		j.batches <- b
		close(j.batches)
		j.sent = true
		p.hand(j)
	}
	clear(p.pend)
	p.pend = p.pend[:0]
	if p.b != nil {
		if p.span.open {
			p.closeSpan()
		}
		j := p.open
		j.batches <- p.b
		p.b = nil
		if j.nsent++; j.nsent >= handOn {
			p.hand(j)
		}
	}
	p.unref(p.cur)
	if !p.stopped {
		p.help(helpAhead)
	}
}

// swap is the reader's fill when the pipeline runs: old holds the unread
// bytes old[pos:end]; the chunk is sealed and the reader continues in
// another buffer of the same size, holding them at its start.
func (p *pipeline) swap(old []byte, pos, end int) []byte {
	sealed := p.cur
	sealed.refs.Add(1) // old is read below
	p.seal()
	p.cut.chunks++
	nb := p.acquire(len(old))
	copy(nb, old[pos:end])
	p.unref(sealed)
	p.cur = p.newChunk(nb, p.r.base+int64(pos))
	return nb
}

// grow is the reader replacing its buffer by a larger one (a segment longer
// than the buffer); nothing in old was handed out since the last swap.
func (p *pipeline) grow(old, nb []byte) {
	p.seal()
	p.mu.Lock()
	p.live++
	p.liveBytes += len(nb)
	p.mu.Unlock()
	p.cur = p.newChunk(nb, p.r.base)
}

// acquire returns a buffer of n bytes, waiting for the workers to free one
// when the pool is at its bound; while it waits it delivers findings.
func (p *pipeline) acquire(n int) []byte {
	for {
		p.mu.Lock()
		for len(p.free) > 0 {
			b := p.free[len(p.free)-1]
			p.free = p.free[:len(p.free)-1]
			if cap(b) >= n {
				p.mu.Unlock()
				return b[:n]
			}
			p.live--
			p.liveBytes -= cap(b)
		}
		if p.live <= 1 || (p.live < p.maxLive && p.liveBytes+n <= p.maxBytes) {
			p.live++
			p.liveBytes += n
			p.mu.Unlock()
			if n == bufSize {
				return *bufPool.Get().(*[]byte)
			}
			return make([]byte, n)
		}
		p.mu.Unlock()
		p.deliver()
		if p.help(1) {
			continue
		}
		<-p.wake
	}
}

// unref drops a reference to c; the last one returns its buffer to the pool.
func (p *pipeline) unref(c *chunk) {
	if c.refs.Add(-1) != 0 {
		return
	}
	p.mu.Lock()
	p.free = append(p.free, c.buf[:cap(c.buf)])
	p.mu.Unlock()
	p.signal()
}

// deliver files the findings of finished jobs, and those found so far by
// the oldest unfinished one, in input order.
func (p *pipeline) deliver() {
	if p.delivering { // OnFinding cannot reach here, but be safe
		return
	}
	p.delivering = true
	defer func() { p.delivering = false }()
	for len(p.queue) > 0 {
		j := p.queue[0]
		p.mu.Lock()
		out, done, panicked, exact := j.out, j.done, j.panicked, j.exact
		j.out = nil
		p.mu.Unlock()
		for i := range out {
			p.v.deliver(out[i].f, out[i].dst)
		}
		if panicked != nil {
			p.stop()
			panic(panicked)
		}
		if !done || !exact {
			return
		}
		p.queue[0] = nil
		p.queue = p.queue[1:]
	}
}

// finish ends the pipeline when the input ended (or failed): the last
// batches go out, then the reader delivers until every job is done.
func (p *pipeline) finish() {
	p.stop()
	for {
		if p.deliver(); len(p.queue) == 0 {
			break
		}
		if p.help(1) {
			continue
		}
		<-p.wake
	}
	p.wg.Wait()
	p.r.pipe = nil
	if splitTest.done != nil {
		splitTest.done(p.stats)
	}
	// Every chunk is back (the workers are gone, findings hold copies):
	// keep the buffers of the usual size for the next Validate.
	for _, b := range p.free {
		if len(b) == bufSize {
			bufPool.Put(&b)
		}
	}
	p.free = nil
}

// bufSize is the reader's default buffer size, the size bufPool keeps.
const bufSize = 64 << 10

var bufPool = sync.Pool{New: func() any { b := make([]byte, bufSize); return &b }}

// stop sends what is recorded and closes every job and the work queue.
func (p *pipeline) stop() {
	if p.stopped {
		return
	}
	p.stopped = true
	p.seal()
	if p.open != nil && !p.open.sent {
		close(p.open.batches)
		p.open.sent = true
		p.hand(p.open)
	}
	close(p.work)
}

// ---- the workers' side ----

type worker struct {
	p      *pipeline
	sv     SetValidator
	rs     ResumingSetValidator // sv, when it resumes (nil otherwise)
	seg    Segment
	intern internTable
	c      *chunk  // chunk of the record being replayed
	info   setInfo // the current set
	pos    int     // position of the current segment
	// ending is set during EndSet: the current segment is then the one
	// the reader was at (endOff, endID), not the last of the set.
	ending bool
	endOff int64
	endID  string
	lc     lineCache
	lcOf   *chunk
	// skip is the Reader's table of bytes between segments for skipFor.
	skip    [256]bool
	skipFor Delimiters
	skipSet bool
	out     []pending
	// reportFn is report, bound once: a method value made per call
	// would be allocated per segment.
	reportFn func(Finding)

	// The piece being checked (pipeline_split.go): j is the current job;
	// spec is set while its findings and states rest on a guessed start,
	// kept then holds the batches checked; end is the state saved at its
	// recSplit; drop discards findings (a guessed start's first segment);
	// rerun is set while a piece is checked again from the right state;
	// dead once there is nothing left worth checking; failed when a
	// guessed start panicked.
	j      *job
	spec   bool
	kept   []*batch
	end    SetState
	drop   bool
	rerun  bool
	dead   bool
	failed bool
	freed  []*batch // batches settle freed, recycled outside mu
}

func (w *worker) run(work <-chan *job) {
	defer w.p.wg.Done()
	for j := range work {
		if !j.claimed.CompareAndSwap(false, true) {
			continue // the reader checked it
		}
		w.do(j)
	}
}

// do checks a job's sets. A panic of the SetValidator is handed to the
// reader, which raises it again when it reaches the job's findings; in a
// piece started from a guess, it only says the guess was wrong
// (pipeline_split.go).
func (w *worker) do(j *job) {
	w.j, w.spec, w.end, w.dead, w.failed = j, j.spec, nil, false, false
	var cur *batch
	e := protect(func() { w.batches(j, &cur) })
	w.drop = false
	if e != nil && w.spec {
		// A guessed start can lead where the right one never goes: the
		// piece is checked again from the right state (failed makes its
		// verdict wrong) over the batches it keeps, at most maxKept before
		// it waits for that verdict, as a running piece does. Kept without
		// a bound, they held every buffer the reader could fill: the reader
		// waited for a buffer and this worker for the reader.
		if cur != nil {
			w.kept = append(w.kept, cur)
			cur = nil
		}
		w.failed = true
		e = protect(func() {
			for w.spec {
				if len(w.kept) >= maxKept {
					w.await(j) // wrong: checked again, then exact
					break
				}
				b, ok := <-j.batches
				if !ok {
					return // left to whoever decides (complete)
				}
				w.kept = append(w.kept, b)
			}
			w.batches(j, &cur)
		})
	}
	if e != nil {
		if cur != nil {
			w.p.recycle(cur)
		}
		for b := range j.batches {
			w.p.recycle(b)
		}
		w.p.mu.Lock()
		j.out = append(j.out, w.out...)
		j.done, j.panicked = true, e
		w.p.cond.Broadcast()
		w.p.mu.Unlock()
		w.clearOut()
		w.p.signal()
		return
	}
	w.complete(j)
}

// batches checks the job's batches as they come (cur: the one being
// checked); a piece from a guess keeps them until its verdict is known.
func (w *worker) batches(j *job, cur **batch) {
	for b := range j.batches {
		*cur = b
		w.replay(b)
		*cur = nil
		if w.spec {
			w.kept = append(w.kept, b)
			w.check(j)
			if w.spec && len(w.kept) >= maxKept {
				w.await(j)
			}
			continue
		}
		w.p.recycle(b)
		w.flush(j)
	}
}

// protect runs f and returns what it panicked with, if anything.
func protect(f func()) (e any) {
	defer func() { e = recover() }()
	f()
	return nil
}

// flush hands the findings so far to the job (exact findings only).
func (w *worker) flush(j *job) {
	if len(w.out) > 0 {
		w.p.mu.Lock()
		j.out = append(j.out, w.out...)
		w.p.mu.Unlock()
		w.clearOut()
		w.p.signal()
	}
}

func (w *worker) clearOut() {
	clear(w.out)
	w.out = w.out[:0]
}

// recycle releases a batch's chunk and keeps the batch for reuse.
func (p *pipeline) recycle(b *batch) {
	p.unref(b.c)
	clear(b.fs)
	clear(b.sets)
	clear(b.ids)
	*b = batch{recs: b.recs[:0], fs: b.fs[:0], sets: b.sets[:0], ids: b.ids[:0], lens: b.lens[:0]}
	batchPool.Put(b)
}

// batchPool keeps batches, whose record lists grow to a buffer's segments,
// from one Validate to the next.
var batchPool = sync.Pool{New: func() any { return new(batch) }}

func (w *worker) replay(b *batch) {
	c := b.c
	w.c = c
	for i := range b.recs {
		if w.dead {
			return
		}
		r := &b.recs[i]
		switch r.kind {
		case recSpan:
			w.span(c, r, b.lens[r.idx:][:r.n])
		case recSegment:
			w.load(c, r)
			w.sv.Segment(&w.seg, w.pos, w.reportFn)
			if r.flags&flagTemplate != 0 {
				w.template()
			}
		case recBegin:
			w.info = b.sets[r.idx]
			w.load(c, r)
			w.sv.BeginSet(w.info.h, w.reportFn)
			w.sv.Segment(&w.seg, 1, w.reportFn)
		case recFinding:
			w.out = append(w.out, b.fs[r.idx])
		case recEnd:
			w.ending, w.endOff, w.endID, w.pos = true, r.off, b.ids[r.idx], int(r.pos)
			w.sv.EndSet(w.reportFn)
			w.ending = false
		case recSplit:
			w.load(c, r)
			w.sv.Segment(&w.seg, w.pos, w.reportFn)
			w.end = w.rs.Save()
		case recResume:
			w.info = b.sets[r.idx]
			if !w.rerun { // a check again has resumed already
				w.load(c, r)
				w.resume()
			}
		}
	}
}

// span checks the segments of a recSpan, of lengths lens, from r.off: each
// found in the chunk as the Reader found it (Reader.next), past the bytes
// it skips between segments, its terminator right after it (a line-break
// terminator after blanks padding the line).
func (w *worker) span(c *chunk, r *rec, lens []uint16) {
	d := r.d
	if d != w.skipFor || !w.skipSet {
		w.skip = skipBytes(d)
		w.skipFor, w.skipSet = d, true
	}
	lineTerm := d.Segment == '\n' || d.Segment == '\r'
	breaks := r.flags&flagBreaks != 0
	buf := c.buf
	i := int(r.off - c.base)
	for k, n := range lens {
		if w.dead {
			return
		}
		for w.skip[buf[i]] {
			i++
		}
		e := i + int(n)
		raw := buf[i:e]
		if lineTerm {
			e += bytes.IndexByte(buf[e:], d.Segment)
		}
		w.seg.reset(raw, c.base+int64(i), c.base+int64(e), d, breaks)
		w.pos = int(r.pos) + k
		w.sv.Segment(&w.seg, w.pos, w.reportFn)
		i = e + 1
	}
}

// load makes w.seg the segment r describes, as the reader returned it.
func (w *worker) load(c *chunk, r *rec) {
	i := r.off - c.base
	w.seg.reset(c.buf[i:i+int64(r.n)], r.off, r.off+int64(r.end), r.d, r.flags&flagBreaks != 0)
	w.seg.unterminated = r.flags&flagUnterminated != 0
	w.pos = int(r.pos)
}

// report is the report func handed to the SetValidator: what the
// validator's guideFinding and file do, from the worker's current segment
// and chunk.
func (w *worker) report(f Finding) {
	if w.drop {
		return
	}
	off, pos := w.seg.offset, w.pos
	if w.ending {
		off = w.endOff
	}
	if f.Offset == 0 {
		f.Offset = off
	}
	if f.SegmentID == "" {
		if w.ending {
			f.SegmentID = w.endID
		} else {
			f.SegmentID = w.seg.ID()
		}
	}
	if f.Position == 0 {
		f.Position = pos
	}
	if f.Line == 0 && f.Offset >= 0 {
		f.Line, f.Column = w.lineCol(f.Offset)
	}
	w.out = append(w.out, pending{f, w.info.dst(&f)})
}

// lineCol is Reader.LineCol as it answered while the reader was in w.c.
func (w *worker) lineCol(offset int64) (int, int) {
	c := w.c
	if offset < c.base || offset > c.base+int64(len(c.buf)) {
		return 0, 0
	}
	if w.lcOf != c {
		w.lc, w.lcOf = lineCache{}, c
	}
	return lineColIn(&w.lc, c.buf, c.base, c.lines, c.lastLF, offset)
}
