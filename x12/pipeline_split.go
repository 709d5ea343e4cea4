package x12

// One transaction set split between workers. A payer's set can hold a
// million claims: checked as one job, it would leave every worker but one
// idle. The reader cuts such a set into pieces at HL segments (claims,
// subscribers: the loops X12 repeats without limit), about a reader buffer
// of input each, and each piece goes to a worker of its own:
//
//   - The piece before checks the cutting HL too (recSplit) and saves its
//     state there (end). The new piece starts from a guess (a template:
//     the state another piece saved after an HL with the same parent and
//     level, its first one), checks the HL with its findings dropped
//     (recResume) and saves the state it reached (start).
//   - When the piece before is exact (it started at its set's ST, or its
//     own start was confirmed) and done, end and start are compared
//     (ResumingSetValidator.Same): equal, the piece's findings and states
//     stand; different, or the guessed run panicked, the piece is checked
//     again from end over the batches it kept. Either way the findings
//     are those of a sequential run, delivered in input order: the reader
//     takes a piece's findings only once it is exact.
//   - A piece keeps its batches (and so their chunks) only until its
//     verdict, which comes once the piece before is done: the pool of
//     buffers bounds memory as before.

// SetState is a ResumingSetValidator's saved state: opaque to Validate.
type SetState any

// ResumingSetValidator is a SetValidator (a fork) that can save where it is
// in a set and go on from a saved state, so that Validate can check one
// large set on several workers.
type ResumingSetValidator interface {
	SetValidator
	// Save returns the state after the last Segment call; it must not
	// change afterwards.
	Save() SetState
	// Resume continues the set of h from s (saved by any fork): the next
	// Segment call is for the segment at position next.
	Resume(h SetHeader, s SetState, next int)
	// Same reports whether the rest of a set is checked alike, with the
	// same findings and states, from a and from b.
	Same(a, b SetState) bool
}

// Piece verdicts.
const (
	verdictOpen = iota
	verdictWrong
)

// piece is what a job shares about a split set, guarded by pipeline.mu.
type piece struct {
	// exact: out holds findings that stand, and the worker goes on from a
	// state known right (a job that does not start from a guess is).
	exact   bool
	verdict uint8
	failed  bool     // the run from the guess panicked
	next    *job     // the piece after this one, once the reader cut
	start   SetState // after the first segment (a piece from a guess)
	end     SetState // after the next piece's first segment
	from    SetState // with verdictWrong: the right state to start from
	tmpls   []SetState
	specOut []pending // a done piece's findings, until its verdict
	kept    []*batch  // a done piece's batches, until its verdict
}

// cutter is the reader's side: where the current set may be cut. The key
// is the parent (HL02) and level (HL03) of the HLs it cuts at; the first
// HL with a parent in the set sets it, and an HL of the same level under
// another parent changes it. The worker saves a template after every HL
// that sets the key (flagTemplate), and a piece's first HL is one.
type cutter struct {
	info      setInfo // the current set's
	keyed     bool
	np, nl    uint8
	parent    [16]byte
	level     [8]byte
	templates int // template records in the open job
	chunks    int // chunks the open job spans, less one
}

// maxKept bounds the batches a piece from a guess keeps: with that many,
// it waits for its verdict, which needs nothing of the reader (the pieces
// before it are all read), so that a piece never holds so many buffers
// that the reader cannot go on. The reader cuts pieces of half as many
// chunks when reads are short (a chunk per read).
const maxKept = 4

func (c *cutter) begin(info setInfo) {
	c.info, c.keyed = info, false
}

// key sets the key; false when it is too long to keep.
func (c *cutter) key(parent, level []byte) bool {
	if len(parent) > len(c.parent) || len(level) > len(c.level) {
		c.keyed = false
		return false
	}
	c.np, c.nl = uint8(copy(c.parent[:], parent)), uint8(copy(c.level[:], level))
	c.keyed = true
	return true
}

// hlParts returns HL02 and HL03 of an HL segment's bytes.
func hlParts(raw []byte, e byte) (parent, level []byte) {
	var el [4][]byte
	n, start := 0, 0
	for i := 0; i <= len(raw) && n < len(el); i++ {
		if i == len(raw) || raw[i] == e {
			el[n] = raw[start:i]
			n++
			start = i + 1
		}
	}
	return el[2], el[3]
}

// hl records an HL segment of a set, cutting the set there when the open
// job covers a reader buffer of input and the HL has the key's parent and
// level.
func (p *pipeline) hl(seg *Segment, pos int) {
	c := &p.cut
	big := seg.offset-p.openFrom >= p.pieceMin || c.chunks >= maxKept/2
	var fl uint8
	if (!c.keyed || big) && !seg.breaks {
		parent, level := hlParts(seg.raw, seg.d.Element)
		sameLevel := string(level) == string(c.level[:c.nl])
		switch {
		case !c.keyed:
			if len(parent) > 0 && c.key(parent, level) {
				fl = flagTemplate
			}
		case sameLevel && string(parent) == string(c.parent[:c.np]):
			if c.templates > 0 {
				p.split(seg, pos)
				return
			}
		case sameLevel && len(parent) > 0:
			if c.key(parent, level) {
				fl = flagTemplate
			}
		}
	}
	p.recordFlags(seg, pos, recSegment, 0, fl)
}

// split ends the open job with seg and starts a piece of the set at it.
func (p *pipeline) split(seg *Segment, pos int) {
	p.record(seg, pos, recSplit, 0)
	prev := p.open
	j := &job{spec: true, tmpl: p.cut.templates - 1, prev: prev}
	p.mu.Lock()
	prev.next = j
	p.stats.pieces++
	p.mu.Unlock()
	p.newJob(seg.offset, j)
	b := p.batch()
	b.sets = append(b.sets, p.cut.info)
	p.recordFlags(seg, pos, recResume, len(b.sets)-1, flagTemplate)
}

// ---- the workers' side ----

// template saves the state after a template HL for the next piece.
func (w *worker) template() {
	if w.rerun {
		return
	}
	s := w.rs.Save()
	w.p.mu.Lock()
	w.j.tmpls = append(w.j.tmpls, s)
	w.p.cond.Broadcast()
	w.p.mu.Unlock()
}

// resume starts a piece at its first segment (w.seg): from the piece
// before's end when that is known right already, else from a template,
// checking the segment with its findings dropped.
func (w *worker) resume() {
	p, j := w.p, w.j
	p.mu.Lock()
	var s SetState
	exact := false
	for s == nil {
		prev := j.prev
		switch {
		case prev.panicked != nil:
			// The caller gets that panic before this piece's findings.
			w.dead, w.spec = true, false
			j.exact, j.prev = true, nil
			p.mu.Unlock()
			return
		case prev.exact && prev.done && prev.end == nil:
			// The piece before never got here: nothing to check.
			w.dead, w.spec = true, false
			j.exact, j.prev = true, nil
			p.mu.Unlock()
			return
		case prev.exact && prev.done:
			s, exact = prev.end, true
		case len(prev.tmpls) > j.tmpl:
			s = prev.tmpls[j.tmpl]
		default:
			p.stats.templateWaits++
			p.cond.Wait()
		}
	}
	p.mu.Unlock()
	h := w.info.h
	if exact {
		w.rs.Resume(h, s, w.pos+1)
	} else {
		w.rs.Resume(h, s, w.pos)
		w.drop = true
		w.sv.Segment(&w.seg, w.pos, w.reportFn)
		w.drop = false
		if splitTest.fail != nil && splitTest.fail() {
			panic("split test: a guess fails")
		}
		s = w.rs.Save()
	}
	p.mu.Lock()
	j.start = s
	j.tmpls = append(j.tmpls, s)
	if exact {
		j.exact, j.prev = true, nil
		p.stats.exactStarts++
	} else {
		w.decide(j)
		if j.verdict == verdictWrong {
			// The piece before is done: go on from its end right away.
			w.rs.Resume(h, j.from, w.pos+1)
			j.exact, j.prev, j.from = true, nil, nil
		}
	}
	w.spec = !j.exact
	p.cond.Broadcast()
	p.mu.Unlock()
}

// decide gives the piece w checks its verdict when the piece before is
// exact and done (under mu).
func (w *worker) decide(j *job) {
	prev := j.prev
	if j.exact || j.verdict != verdictOpen || prev == nil || !prev.exact || !prev.done || prev.panicked != nil {
		return
	}
	w.decideFor(j, prev)
}

// check runs after each batch of a piece from a guess: once its verdict
// is known, its findings go to the job (right) or it is checked again from
// the right state (wrong).
func (w *worker) check(j *job) {
	p := w.p
	p.mu.Lock()
	w.decide(j)
	exact, wrong, from := j.exact, j.verdict == verdictWrong, j.from
	if exact {
		j.out = append(j.out, w.out...)
	}
	p.mu.Unlock()
	switch {
	case exact:
		w.clearOut()
		w.spec = false
		w.release()
		p.signal()
	case wrong:
		w.again(j, from)
	}
}

// await waits for the verdict of the piece w runs, then acts on it as
// check does.
func (w *worker) await(j *job) {
	p := w.p
	p.mu.Lock()
	for w.decide(j); !j.exact && j.verdict == verdictOpen; w.decide(j) {
		if j.prev != nil && j.prev.panicked != nil {
			// The caller gets that panic before this piece's findings,
			// and never waits for them: nor does this piece.
			j.exact, j.prev = true, nil
			break
		}
		p.stats.verdictWaits++
		p.cond.Wait()
	}
	p.mu.Unlock()
	w.check(j)
}

// again checks the piece w runs again from the right state from, over the
// batches it kept, and goes on from there as an exact job.
func (w *worker) again(j *job, from SetState) {
	p := w.p
	w.checkAgain(from)
	p.mu.Lock()
	j.exact, j.prev, j.from = true, nil, nil
	j.out = append(j.out, w.out...)
	p.cond.Broadcast()
	p.mu.Unlock()
	w.clearOut()
	w.spec = false
	w.release()
	p.signal()
}

// checkAgain replays the kept batches from state from (the state after the
// piece's first segment), findings in w.out, the end state in w.end.
func (w *worker) checkAgain(from SetState) {
	w.clearOut()
	w.spec, w.failed = false, false
	first := &w.kept[0].recs[0] // the piece's recResume
	w.info = w.kept[0].sets[first.idx]
	w.pos = int(first.pos)
	w.rs.Resume(w.info.h, from, w.pos+1)
	w.rerun = true
	defer func() { w.rerun = false }()
	for _, b := range w.kept {
		w.replay(b)
	}
}

// release recycles the kept batches.
func (w *worker) release() {
	for i, b := range w.kept {
		w.p.recycle(b)
		w.kept[i] = nil
	}
	w.kept = w.kept[:0]
}

// complete marks the job done. A piece still without a verdict leaves its
// findings and batches to whoever decides it; an exact job decides the
// pieces after it that it can, and checks again those found wrong.
func (w *worker) complete(j *job) {
	p := w.p
	if w.spec && w.leave(j) {
		return
	}
	p.mu.Lock()
	j.out = append(j.out, w.out...)
	j.done, j.end = true, w.end
	var again *job
	if j.panicked == nil {
		again = w.settle(j)
	}
	p.cond.Broadcast()
	p.mu.Unlock()
	w.clearOut()
	w.recycleFreed()
	p.signal()
	for again != nil {
		again = w.recheck(again)
	}
}

// recycleFreed recycles the batches settle freed.
func (w *worker) recycleFreed() {
	for i, b := range w.freed {
		w.p.recycle(b)
		w.freed[i] = nil
	}
	w.freed = w.freed[:0]
}

// leave ends a piece still from a guess: its verdict known, it goes on as
// an exact job (false); else it is marked done, its findings and batches
// left to whoever decides (true), as when checking it again panicked.
func (w *worker) leave(j *job) bool {
	p := w.p
	p.mu.Lock()
	if j.prev != nil && j.prev.panicked != nil {
		j.exact, j.prev = true, nil // never delivered
		w.clearOut()
	}
	w.decide(j)
	if j.exact {
		j.out = append(j.out, w.out...)
		p.mu.Unlock()
		w.clearOut()
		w.spec = false
		w.release()
		return false
	}
	if j.verdict == verdictWrong {
		from := j.from
		p.mu.Unlock()
		e := protect(func() { w.again(j, from) })
		if e == nil {
			return false
		}
		w.release()
		p.mu.Lock()
		j.exact = true
		j.done, j.panicked = true, e
		p.cond.Broadcast()
		p.mu.Unlock()
		w.clearOut()
		p.signal()
		return true
	}
	j.specOut, w.out = w.out, nil
	j.kept = append([]*batch(nil), w.kept...)
	clear(w.kept)
	w.kept = w.kept[:0]
	j.failed = w.failed
	j.done, j.end = true, w.end
	p.cond.Broadcast()
	p.mu.Unlock()
	p.signal()
	return true
}

// settle decides the verdicts that follow from j being exact and done
// (under mu): pieces found right become exact in turn; a done piece found
// wrong is returned, to be checked again (recheck); a running one is left
// to its worker, which checks its verdict after every batch.
func (w *worker) settle(j *job) *job {
	for j.exact && j.done && j.next != nil && j.panicked == nil {
		n := j.next
		if n.exact || n.verdict != verdictOpen || (!n.done && n.start == nil) {
			return nil
		}
		if !n.done {
			w.decideFor(n, j)
			return nil
		}
		if !w.p.same(!n.failed && n.start != nil && w.rs.Same(j.end, n.start)) {
			n.verdict, n.from = verdictWrong, j.end
			return n
		}
		n.exact, n.prev = true, nil
		n.out = append(n.out, n.specOut...)
		n.specOut = nil
		w.freed = append(w.freed, n.kept...) // recycled outside mu
		n.kept = nil
		j = n
	}
	return nil
}

// decideFor gives running piece n its verdict from j, the piece before.
func (w *worker) decideFor(n, j *job) {
	if w.p.same(!w.failed && n.start != nil && w.rs.Same(j.end, n.start)) {
		n.exact, n.prev = true, nil
		return
	}
	n.verdict, n.from = verdictWrong, j.end
}

// splitStats counts what became of one Validate's pieces.
type splitStats struct {
	pieces      int // cut by the reader
	exactStarts int // started from the state before, known right
	right       int // started from a guess, found right
	wrong       int // started from a guess, checked again
	// Waits of workers: for a template, for a verdict (maxKept).
	templateWaits, verdictWaits int
	helped                      int // jobs the reader checked
}

// splitTest lets tests turn verdicts wrong (same) and read the counts.
var splitTest struct {
	same func(right bool) bool
	fail func() bool         // a guessed start panics
	help func(ahead int) int // how far ahead the reader checks jobs
	done func(splitStats)
}

// same is a verdict (under mu): counted, and overridden by tests.
func (p *pipeline) same(right bool) bool {
	if splitTest.same != nil {
		right = splitTest.same(right)
	}
	if right {
		p.stats.right++
	} else {
		p.stats.wrong++
	}
	return right
}

// recheck checks done piece n again from the right state, over the batches
// it kept, and settles what follows; it returns the next piece to check
// again, if any.
func (w *worker) recheck(n *job) *job {
	p := w.p
	p.mu.Lock()
	from := n.from
	w.kept = append(w.kept[:0], n.kept...)
	n.kept, n.specOut = nil, nil
	p.mu.Unlock()
	w.j, w.end = n, nil
	e := protect(func() { w.checkAgain(from) })
	w.release()
	p.mu.Lock()
	n.exact, n.prev, n.from = true, nil, nil
	n.out = append(n.out, w.out...)
	n.end = w.end
	var again *job
	if e != nil {
		n.panicked = e
	} else {
		again = w.settle(n)
	}
	p.cond.Broadcast()
	p.mu.Unlock()
	w.clearOut()
	w.recycleFreed()
	p.signal()
	return again
}
