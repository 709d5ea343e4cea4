package x12

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// Field is one element value for WriteSegmentFields: a simple value, a
// composite of components, or repetitions of either.
type Field struct {
	parts []string // components; one part for a simple element
	reps  []Field  // repetitions, when set
}

// Simple is an element holding one value.
func Simple(s string) Field { return Field{parts: []string{s}} }

// Composite is an element made of components; trailing empty components are
// dropped when written.
func Composite(parts ...string) Field { return Field{parts: parts} }

// Repeated is an element holding repetitions (5010 repetition separator).
func Repeated(reps ...Field) Field { return Field{reps: reps} }

// IsEmpty reports whether the field writes nothing.
func (f Field) IsEmpty() bool {
	if f.reps != nil {
		for _, r := range f.reps {
			if !r.IsEmpty() {
				return false
			}
		}
		return true
	}
	for _, p := range f.parts {
		if p != "" {
			return false
		}
	}
	return true
}

// Writer writes X12 segments with chosen delimiters. Output is
// deterministic: trailing empty elements and components are omitted, and a
// value that contains a delimiter is refused with a *DataError instead of
// being written. Call Flush when done.
type Writer struct {
	w *bufio.Writer
	// mem is the destination when it is a *bytes.Buffer: segments are
	// appended to it directly (w is then nil), without a buffer in front
	// that copies every segment once more and the memory once it fills.
	mem       *bytes.Buffer
	d         Delimiters
	bad       *[256]bool // badChar's bytes (bad[c]: a delimiter or line break)
	lineBreak bool
	err       error
	count     int   // segments written
	written   int64 // bytes written
	scratch   []byte
}

// WriterOption configures a Writer.
type WriterOption func(*Writer)

// WithLineBreaks writes a LF after every segment terminator (for people;
// X12 readers skip it).
func WithLineBreaks() WriterOption { return func(w *Writer) { w.lineBreak = true } }

// NewWriter returns a Writer writing to w with delimiters d. Invalid
// delimiters make every write fail (see Delimiters.Validate).
func NewWriter(w io.Writer, d Delimiters, opts ...WriterOption) *Writer {
	wr := &Writer{d: d, bad: badBytes(d)}
	if mem, ok := w.(*bytes.Buffer); ok && mem != nil {
		// Writes to memory gain nothing from a buffer in front (two
		// messages per eligibility check).
		wr.mem = mem
	} else {
		wr.w = bufio.NewWriterSize(w, 4096)
	}
	for _, o := range opts {
		o(wr)
	}
	if err := d.Validate(); err != nil {
		wr.err = err
	}
	return wr
}

// Delimiters returns the writer's delimiters.
func (w *Writer) Delimiters() Delimiters { return w.d }

// BytesWritten returns the number of bytes written so far (including what
// is still buffered).
func (w *Writer) BytesWritten() int64 { return w.written }

// Count returns the number of segments written so far.
func (w *Writer) Count() int { return w.count }

// DataError reports a value that cannot be written because it contains a
// delimiter (or a line break) of the output.
type DataError struct {
	Segment string // segment id
	Element int    // 1-based element position (0: the id itself)
	Char    byte   // the offending character
}

func (e *DataError) Error() string {
	if e.Element == 0 {
		return fmt.Sprintf("x12: segment id %q is not 2-3 letters or digits", e.Segment)
	}
	return fmt.Sprintf("x12: %s%02d contains %q, a delimiter of this interchange; remove it from the value", e.Segment, e.Element, e.Char)
}

// WriteSegment writes a segment of simple elements.
func (w *Writer) WriteSegment(id string, elems ...string) error {
	if w.err != nil {
		return w.err
	}
	if err := checkID(id); err != nil {
		return err
	}
	last := len(elems)
	for last > 0 && elems[last-1] == "" {
		last--
	}
	b := append(w.scratch[:0], id...)
	for i, e := range elems[:last] {
		if c, bad := w.badChar(e); bad {
			return &DataError{Segment: id, Element: i + 1, Char: c}
		}
		b = append(b, w.d.Element)
		b = append(b, e...)
	}
	return w.emit(b)
}

// WriteSegmentFields writes a segment whose elements may be composite or
// repeated.
func (w *Writer) WriteSegmentFields(id string, fields ...Field) error {
	if w.err != nil {
		return w.err
	}
	if err := checkID(id); err != nil {
		return err
	}
	last := len(fields)
	for last > 0 && fields[last-1].IsEmpty() {
		last--
	}
	b := append(w.scratch[:0], id...)
	for i, f := range fields[:last] {
		b = append(b, w.d.Element)
		var err error
		if b, err = w.appendField(b, id, i+1, f); err != nil {
			return err
		}
	}
	return w.emit(b)
}

func (w *Writer) appendField(b []byte, id string, n int, f Field) ([]byte, error) {
	if f.reps != nil {
		if w.d.Repetition == 0 && len(f.reps) > 1 {
			return b, fmt.Errorf("x12: %s%02d has %d repetitions but the delimiters have no repetition separator", id, n, len(f.reps))
		}
		last := len(f.reps)
		for last > 0 && f.reps[last-1].IsEmpty() {
			last--
		}
		for i, r := range f.reps[:last] {
			if r.reps != nil {
				return b, fmt.Errorf("x12: %s%02d: repetitions cannot nest", id, n)
			}
			if i > 0 {
				b = append(b, w.d.Repetition)
			}
			var err error
			if b, err = w.appendField(b, id, n, r); err != nil {
				return b, err
			}
		}
		return b, nil
	}
	last := len(f.parts)
	for last > 0 && f.parts[last-1] == "" {
		last--
	}
	for i, p := range f.parts[:last] {
		if c, bad := w.badChar(p); bad {
			return b, &DataError{Segment: id, Element: n, Char: c}
		}
		if i > 0 {
			b = append(b, w.d.Component)
		}
		b = append(b, p...)
	}
	return b, nil
}

// badChar finds a delimiter or line break in a value. Even a simple element
// may not contain the component separator, since readers would split it.
// A byte's test is one look-up in w.bad, where it was six compares (every
// byte of both messages of an eligibility check is tested).
func (w *Writer) badChar(s string) (byte, bool) {
	bad := w.bad
	for i := 0; i < len(s); i++ {
		if c := s[i]; bad[c] {
			return c, true
		}
	}
	return 0, false
}

// badBytes marks the bytes badChar refuses with delimiters d: the four
// delimiters (the repetition separator when there is one) and the line
// breaks. The table of the usual delimiters is shared.
func badBytes(d Delimiters) *[256]bool {
	if d == usualDelimiters {
		return &usualBad
	}
	t := new([256]bool)
	markBad(t, d)
	return t
}

// usualDelimiters are DefaultDelimiters' values (a variable callers could
// change).
var usualDelimiters = Delimiters{Element: '*', Repetition: '^', Component: ':', Segment: '~'}

var usualBad = func() (t [256]bool) {
	markBad(&t, usualDelimiters)
	return t
}()

func markBad(t *[256]bool, d Delimiters) {
	t[d.Element], t[d.Segment], t[d.Component] = true, true, true
	if d.Repetition != 0 {
		t[d.Repetition] = true
	}
	t['\n'], t['\r'] = true, true
}

// WriteRaw writes a segment given as bytes without terminator, already
// using the writer's delimiters (for copying segments from a Reader with
// the same delimiters).
func (w *Writer) WriteRaw(seg []byte) error {
	if w.err != nil {
		return w.err
	}
	return w.emit(append(w.scratch[:0], seg...))
}

// emit terminates and writes one segment.
func (w *Writer) emit(b []byte) error {
	b = append(b, w.d.Segment)
	if w.lineBreak && w.d.Segment != '\n' {
		b = append(b, '\n')
	}
	w.scratch = b[:0]
	if w.mem != nil {
		w.mem.Write(b) // never fails (it panics when memory runs out)
		w.written += int64(len(b))
		w.count++
		return nil
	}
	n, err := w.w.Write(b)
	w.written += int64(n)
	if err != nil {
		w.err = err
		return err
	}
	w.count++
	return nil
}

// Flush writes buffered output to the underlying writer.
func (w *Writer) Flush() error {
	if w.w == nil {
		return w.err
	}
	if err := w.w.Flush(); err != nil && w.err == nil {
		w.err = err
	}
	if w.err != nil {
		return w.err
	}
	return nil
}

func checkID(id string) error {
	if len(id) < 2 || len(id) > 3 {
		return &DataError{Segment: id}
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return &DataError{Segment: id}
		}
	}
	return nil
}
