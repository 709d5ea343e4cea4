package x12

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
)

// Reader reads segments from an X12 stream, one at a time, like
// encoding/xml's Token. It detects the delimiters of every interchange from
// its ISA header, skips a UTF-8 BOM, decodes UTF-16 input, and skips line
// breaks and indentation between segments. Memory stays bounded by the
// largest segment: the buffer is reused and segments are views into it.
//
// Segments carry their byte offset. Line and column are computed only on
// request (LineCol), for messages.
type Reader struct {
	src  io.Reader
	buf  []byte
	pos  int   // start of unread data in buf
	end  int   // end of valid data in buf
	base int64 // input offset of buf[0]
	eof  bool
	err  error // sticky error returned by Next

	d        Delimiters
	haveD    bool // delimiters known (from an ISA or supplied)
	lineTerm bool // the segment terminator is CR or LF
	supplied *Delimiters
	strict   bool
	maxSeg   int
	skip     [256]bool // bytes skipped between segments

	started bool
	seg     Segment
	intern  internTable

	// Line bookkeeping for LineCol: LF count and last LF offset before buf[0].
	lines  int64
	lastLF int64

	notes []Finding
	lc    lineCache
	// breaks is set when the buffer holds a CR or LF; only then can a
	// segment contain line breaks to remove (single-line files skip the
	// check in the element split).
	breaks bool
	// pipe, when set (Validate checking sets on other goroutines), takes
	// every buffer the reader is done with instead of letting fill
	// overwrite it: the segments in it are still being checked.
	pipe *pipeline
	// borrowed is set while buf is the caller's input (NewBytesReader):
	// fill copies it before it would write to it.
	borrowed bool
}

// ReaderOption configures a Reader.
type ReaderOption func(*Reader)

// WithDelimiters supplies the delimiters for input without an ISA header (a
// bare ST..SE fragment). An ISA in the input still defines its own
// interchange's delimiters.
func WithDelimiters(d Delimiters) ReaderOption {
	return func(r *Reader) { r.supplied = &d }
}

// WithStrictISA accepts only the fixed 106-character ISA layout; any other
// header makes Next fail with a *SyntaxError. The default (relaxed) mode
// finds the fields by counting separators and reports deviations as
// findings (see TakeFindings).
func WithStrictISA() ReaderOption {
	return func(r *Reader) { r.strict = true }
}

// WithMaxSegmentSize bounds the size of one segment (default 16 MiB); a
// longer segment fails with a *SyntaxError. It is the reader's memory bound.
func WithMaxSegmentSize(n int) ReaderOption {
	return func(r *Reader) { r.maxSeg = n }
}

// WithBufferSize sets the initial buffer size (default 64 KiB).
func WithBufferSize(n int) ReaderOption {
	return func(r *Reader) {
		if n >= isaWindow {
			r.buf = make([]byte, n)
		}
	}
}

// ErrSegmentTooLong is wrapped by the error for a segment over the maximum size.
var ErrSegmentTooLong = errors.New("x12: segment too long")

// NewReader returns a Reader reading X12 from src.
func NewReader(src io.Reader, opts ...ReaderOption) *Reader {
	r := &Reader{src: src, maxSeg: 16 << 20, lastLF: -1}
	for _, o := range opts {
		o(r)
	}
	if r.buf == nil {
		r.buf = make([]byte, 64<<10)
	}
	r.seg.intern = &r.intern
	return r
}

// NewBytesReader returns a Reader reading X12 from b, the whole input
// already in memory. It reads segments from b itself instead of copying it
// into a buffer of its own (a real-time 270 or 271 is read whole, and the
// copy was most of what reading one allocated); b must not change while
// the reader is in use. What it returns is what NewReader over a
// bytes.Reader of b returns, errors and findings included: an input of
// the maximum segment size or more (WithMaxSegmentSize) is read the
// buffered way, so that a segment too long fails as it does there.
func NewBytesReader(b []byte, opts ...ReaderOption) *Reader {
	r := &Reader{maxSeg: 16 << 20, lastLF: -1}
	for _, o := range opts {
		o(r)
	}
	if len(b) >= r.maxSeg {
		return NewReader(bytes.NewReader(b), opts...)
	}
	// The capacity is cut to the input: the element split may load a word
	// past a segment's end, which must stay inside b.
	r.buf, r.borrowed = b[:len(b):len(b)], true
	r.src, r.end, r.eof = eofReader{}, len(b), true
	r.breaks = bytes.IndexByte(b, '\n') >= 0 || bytes.IndexByte(b, '\r') >= 0
	r.seg.intern = &r.intern
	r.seg.countElements = true
	return r
}

// eofReader is the source of a reader whose input is all in its buffer.
type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// Delimiters returns the delimiters in force: those of the current
// interchange, or the supplied ones before any ISA.
func (r *Reader) Delimiters() Delimiters {
	if !r.haveD && r.supplied != nil {
		return *r.supplied
	}
	return r.d
}

// TakeFindings returns what the reader noticed while reading (relaxed ISA
// layouts, ignored repetition separators, UTF-16 decoding, unterminated
// final segment) since the last call, and forgets them. The slice is reused:
// use it before the next call to Next.
func (r *Reader) TakeFindings() []Finding {
	n := r.notes
	r.notes = r.notes[:0]
	return n
}

// LineCol returns the 1-based line and byte column of an input offset. Lines
// are counted by LF. It is exact for offsets in the segment last returned by
// Next (and anything still in the buffer); for older offsets it returns 0, 0.
// Successive calls with increasing offsets count each byte once.
func (r *Reader) LineCol(offset int64) (line, col int) {
	if offset < r.base || offset > r.base+int64(r.end) {
		return 0, 0
	}
	return lineColIn(&r.lc, r.buf, r.base, r.lines, r.lastLF, offset)
}

// lineColIn is LineCol for an offset within buf, whose first byte is at
// input offset base, after lines LFs the last of which was at lastLF; c
// remembers the last answer within buf.
func lineColIn(c *lineCache, buf []byte, base, lines, lastLF, offset int64) (line, col int) {
	if !c.valid || c.base != base || c.offset > offset {
		*c = lineCache{valid: true, base: base, offset: base, lines: lines, lastLF: lastLF}
	}
	in := buf[c.offset-base : offset-base]
	if n := bytes.Count(in, []byte{'\n'}); n > 0 {
		c.lines += int64(n)
		c.lastLF = c.offset + int64(bytes.LastIndexByte(in, '\n'))
	}
	c.offset = offset
	return int(c.lines) + 1, int(offset - c.lastLF)
}

// lineCache remembers the last LineCol answer within the current buffer.
type lineCache struct {
	valid         bool
	base, offset  int64
	lines, lastLF int64
}

// Next returns the next segment, or io.EOF after the last one. The segment
// is valid until the following call. After an error other than io.EOF the
// reader is stuck: every further call returns the same error.
func (r *Reader) Next() (*Segment, error) {
	if r.err != nil {
		return nil, r.err
	}
	// The common case, without next's call: delimiters known, a segment
	// (not an ISA, nothing to skip) starting at pos and its terminator in
	// the buffer. A line-break terminator goes the long way (padding).
	if r.haveD && !r.lineTerm && r.pos < r.end {
		if c := r.buf[r.pos]; !r.skip[c] && c != 'I' {
			if i := bytes.IndexByte(r.buf[r.pos:r.end], r.d.Segment); i >= 0 {
				end := r.pos + i
				r.seg.reset(r.buf[r.pos:end], r.offset(), r.base+int64(end), r.d, r.breaks)
				r.pos = end + 1
				return &r.seg, nil
			}
		}
	}
	seg, err := r.next()
	if err != nil {
		if se, ok := err.(*SyntaxError); ok && se.Line == 0 {
			se.Line, se.Column = r.LineCol(se.Offset)
		}
		r.err = err
		return nil, err
	}
	return seg, nil
}

func (r *Reader) next() (*Segment, error) {
	if !r.started {
		if err := r.start(); err != nil {
			return nil, err
		}
	}
	// Skip line breaks and indentation before the segment.
	for {
		for r.pos < r.end && r.skip[r.buf[r.pos]] {
			r.pos++
		}
		if r.pos < r.end {
			break
		}
		if r.eof {
			return nil, io.EOF
		}
		if err := r.fill(); err != nil {
			return nil, err
		}
	}
	// An ISA starts a new interchange and defines its delimiters.
	if r.buf[r.pos] == 'I' {
		if err := r.ensure(4); err != nil {
			return nil, err
		}
		if isISAStart(r.buf[r.pos:r.end]) {
			return r.readISA()
		}
	}
	if !r.haveD {
		if r.supplied == nil {
			return nil, &SyntaxError{Offset: r.offset(), Code: CodeNoInterchange,
				Msg: "input does not start with an ISA interchange header (supply delimiters to read a bare ST..SE fragment)"}
		}
		r.setDelimiters(*r.supplied)
	}
	// Find the segment terminator.
	scanned := 0
	for {
		if i := bytes.IndexByte(r.buf[r.pos+scanned:r.end], r.d.Segment); i >= 0 {
			end := r.pos + scanned + i
			raw := r.buf[r.pos:end]
			if r.lineTerm {
				// Text tools pad lines; with a CR or LF terminator, trailing
				// blanks are formatting, not data.
				for len(raw) > 0 && (raw[len(raw)-1] == ' ' || raw[len(raw)-1] == '\t') {
					raw = raw[:len(raw)-1]
				}
			}
			r.seg.reset(raw, r.offset(), r.base+int64(end), r.d, r.breaks)
			r.pos = end + 1
			return &r.seg, nil
		}
		scanned = r.end - r.pos
		if r.eof {
			raw := bytes.TrimRight(r.buf[r.pos:r.end], " \t\r\n")
			r.seg.reset(raw, r.offset(), r.offset()+int64(len(raw)), r.d, r.breaks)
			r.seg.unterminated = true
			r.note(Finding{Severity: Info, Code: CodeUnterminated, Offset: r.offset(),
				Message: fmt.Sprintf("input ends without a segment terminator %q after the last segment", r.d.Segment)})
			r.pos = r.end
			return &r.seg, nil
		}
		if err := r.fill(); err != nil {
			return nil, err
		}
	}
}

// readISA detects the delimiters from the ISA at r.pos and returns the ISA
// segment.
func (r *Reader) readISA() (*Segment, error) {
	for {
		window := r.buf[r.pos:r.end]
		if len(window) > isaWindow {
			window = window[:isaWindow]
		}
		atEOF := r.eof && r.end-r.pos <= isaWindow
		res, needMore, err := detectISA(window, atEOF, r.strict, r.offset())
		if err != nil {
			return nil, err
		}
		if needMore {
			if err := r.fill(); err != nil {
				return nil, err
			}
			continue
		}
		r.setDelimiters(res.d)
		r.notes = append(r.notes, res.notes...)
		r.seg.reset(r.buf[r.pos:r.pos+res.rawEnd], r.offset(), r.offset()+int64(res.rawEnd), r.d, true)
		r.pos += res.n
		return &r.seg, nil
	}
}

// setDelimiters installs d and the table of bytes skipped between segments:
// CR, LF, space and tab, unless one of them is a delimiter.
func (r *Reader) setDelimiters(d Delimiters) {
	r.d, r.haveD = d, true
	r.lineTerm = d.Segment == '\n' || d.Segment == '\r'
	r.skip = skipBytes(d)
}

// skipBytes is the table of the bytes skipped between segments with d:
// line breaks and blanks that are no delimiter.
func skipBytes(d Delimiters) (skip [256]bool) {
	for _, c := range []byte{'\r', '\n', ' ', '\t'} {
		if c != d.Element && c != d.Segment && c != d.Component && c != d.Repetition {
			skip[c] = true
		}
	}
	return skip
}

// start handles what precedes the first segment: BOM, UTF-16, whitespace.
func (r *Reader) start() error {
	r.started = true
	if err := r.ensure(4); err != nil {
		return err
	}
	b := r.buf[r.pos:r.end]
	if enc := utf16Order(b); enc != nil {
		r.note(Finding{Severity: Warning, Code: CodeUTF16, Offset: 0,
			Message: "input is UTF-16 encoded; it was decoded to UTF-8 and offsets refer to the decoded bytes"})
		rest := io.MultiReader(bytes.NewReader(bytes.Clone(b)), r.src)
		r.src = newUTF16Decoder(rest, enc)
		r.pos, r.end, r.eof = 0, 0, false
		if err := r.ensure(4); err != nil {
			return err
		}
		b = r.buf[r.pos:r.end]
	}
	if bytes.HasPrefix(b, []byte("\xEF\xBB\xBF")) {
		r.pos += 3
	}
	if r.supplied != nil {
		r.setDelimiters(*r.supplied)
		r.haveD = false // an ISA may still define them
	} else {
		r.setDelimiters(Delimiters{Element: 0xFF, Component: 0xFF, Segment: 0xFF})
		r.haveD = false
	}
	return nil
}

// ensure makes at least n unread bytes available, unless the input ends.
func (r *Reader) ensure(n int) error {
	for r.end-r.pos < n && !r.eof {
		if err := r.fill(); err != nil {
			return err
		}
	}
	return nil
}

// fill moves the unread bytes to the front of the buffer (growing it if one
// segment fills it) and reads more input.
func (r *Reader) fill() error {
	if r.borrowed {
		// Only a UTF-16 input, decoded into the buffer, gets here: b is
		// the caller's and stays as it is.
		r.buf, r.borrowed = bytes.Clone(r.buf[:cap(r.buf)]), false
	}
	if r.pos > 0 {
		done := r.buf[:r.pos]
		if n := bytes.Count(done, []byte{'\n'}); n > 0 {
			r.lines += int64(n)
			r.lastLF = r.base + int64(bytes.LastIndexByte(done, '\n'))
		}
		if r.pipe != nil {
			r.buf = r.pipe.swap(r.buf, r.pos, r.end)
		} else {
			copy(r.buf, r.buf[r.pos:r.end])
		}
		r.base += int64(r.pos)
		r.end -= r.pos
		r.pos = 0
		kept := r.buf[:r.end]
		r.breaks = bytes.IndexByte(kept, '\n') >= 0 || bytes.IndexByte(kept, '\r') >= 0
	}
	if r.end == len(r.buf) {
		if len(r.buf) >= r.maxSeg {
			return &SyntaxError{Offset: r.offset(), Code: CodeSegmentTooLong,
				Msg: fmt.Sprintf("%v: no segment terminator %q within %d bytes", ErrSegmentTooLong, r.d.Segment, r.maxSeg)}
		}
		size := 2 * len(r.buf)
		if size > r.maxSeg {
			size = r.maxSeg
		}
		nb := make([]byte, size)
		copy(nb, r.buf[:r.end])
		if r.pipe != nil {
			r.pipe.grow(r.buf, nb)
		}
		r.buf = nb
	}
	for tries := 0; tries < 100; tries++ {
		n, err := r.src.Read(r.buf[r.end:])
		if n > 0 && !r.breaks {
			fresh := r.buf[r.end : r.end+n]
			r.breaks = bytes.IndexByte(fresh, '\n') >= 0 || bytes.IndexByte(fresh, '\r') >= 0
		}
		r.end += n
		if err == io.EOF {
			r.eof = true
			return nil
		}
		if err != nil {
			return err
		}
		if n > 0 {
			return nil
		}
	}
	return io.ErrNoProgress
}

func (r *Reader) offset() int64 { return r.base + int64(r.pos) }

func (r *Reader) note(f Finding) {
	if f.Line == 0 && f.Offset >= 0 {
		f.Line, f.Column = r.LineCol(f.Offset)
	}
	r.notes = append(r.notes, f)
}

// Segments iterates over the remaining segments:
//
//	for seg, err := range r.Segments() {
//		if err != nil { ... } // the last value when reading fails
//		...
//	}
//
// It stops at the end of the input; a read error is yielded once, with a
// nil segment, as the last value. Segments are valid until the next
// iteration, as with Next.
func (r *Reader) Segments() iter.Seq2[*Segment, error] {
	return func(yield func(*Segment, error) bool) {
		for {
			seg, err := r.Next()
			if err == io.EOF {
				return
			}
			if !yield(seg, err) || err != nil {
				return
			}
		}
	}
}
