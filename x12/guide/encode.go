package guide

import (
	"io"

	"github.com/clearhouse/clearhouse/x12"
)

// JSONEncoder writes one transaction set at a time as Guide JSON (see
// api-contract §5.4): {"heading":{…},"detail":{…},"summary":{…}} with keys
// derived from the guide's names, loops nested as in X12, arrays for
// repeatable loops and segments, composites as objects and repeated
// elements as arrays. Output is streamed: nothing is kept per segment.
//
// Values: codes and text are strings; amounts and quantities (R, Nn) are
// JSON numbers when their X12 text is already a valid JSON number (else
// strings, so nothing is lost); DT dates are "YYYY-MM-DD" and TM times
// "HH:MM[:SS[.d]]". A segment the guide does not place is kept under
// "_unrecognized" with its elements keyed by position, so X12 → JSON → X12
// gives back the same segments.
type JSONEncoder struct {
	j      *jsonWriter
	v      *Validator
	frames []jframe
	area   int // current area of the root object, -1 before the first
	// validate: run element checks (the walker always runs); check is set
	// while a set's segment is written, so its elements are checked in the
	// same pass.
	validate, check bool
	cls             classTable
	// last is the JSON object of the segment last written (compact output
	// only; a view of the output buffer, valid until the encoder writes
	// again), lastSeg, lastOff and lastDef the segment and the guide segment
	// it was written as: what SegmentFrom copies. from is the object to
	// copy instead of encoding one, when the segment lands on fromDef.
	last, from       []byte
	lastSeg          *x12.Segment
	lastOff          int64
	lastDef, fromDef *Segment
}

// jframe is the JSON side of an open loop: the member last written and
// whether its array is still open.
type jframe struct {
	lastKey   string
	arrayOpen bool
}

// NewJSONEncoder returns an encoder writing to w. Call Flush when done.
func NewJSONEncoder(w io.Writer) *JSONEncoder {
	return &JSONEncoder{j: newJSONWriter(w), v: structureWalker()}
}

// structureWalker is the validator of an encoder that does not validate:
// it places segments and nothing more (no rules, no findings at a loop's
// close, which nobody would read).
func structureWalker() *Validator {
	v := NewValidator(Options{SkipElements: true, SkipBusiness: true})
	v.onSkip, v.onClose = nil, nil
	return v
}

// SetIndent makes the output indented (two spaces per level).
func (e *JSONEncoder) SetIndent(on bool) { e.j.indent = on }

// SetValidation makes the encoder validate while it encodes, with opts; the
// findings go to report. Without it, only the structure is followed.
func (e *JSONEncoder) SetValidation(opts Options, report func(x12.Finding)) {
	e.v = NewValidator(opts)
	e.v.report = report
	e.validate = true
}

// Flush writes buffered output.
func (e *JSONEncoder) Flush() error { return e.j.flush() }

// Reset makes the encoder write its next document to w, keeping its
// settings (indentation, validation) and its buffers (a large output buffer
// and the walker's stack).
func (e *JSONEncoder) Reset(w io.Writer) {
	e.j.reset(w)
	e.frames, e.area, e.last, e.lastSeg, e.lastDef = e.frames[:0], -1, nil, nil, nil
}

// Begin starts a transaction set with its ST segment.
func (e *JSONEncoder) Begin(g *Guide, st *x12.Segment) {
	report := e.v.report
	e.v.Begin(g, st, report)
	e.frames = append(e.frames[:0], jframe{})
	e.area = -1
	e.j.beginObject()
	e.place(0, g.root.Children[0].Segment, nil, st)
	e.j.maybeFlush()
}

// Segment encodes the next segment of the set (up to and including SE).
func (e *JSONEncoder) Segment(seg *x12.Segment) {
	st := e.v.structure(seg)
	if st.Segment != nil && e.validate {
		e.v.applyRules(seg, st)
	}
	e.check = e.validate
	for range st.Closed {
		e.closeFrame()
	}
	e.place(len(e.frames)-1, st.Segment, st.Opened, seg)
	e.check = false
	e.j.maybeFlush()
}

// SegmentFrom encodes seg like Segment, copying the JSON that src wrote for
// the same segment in its last Segment call instead of formatting the
// elements again: for an encoder writing a part of the set src encodes
// whole (a fragment). The output is the same as Segment's; the elements are
// not checked again, so e must not validate (else this is Segment). Both
// must write compact JSON with the same guide.
func (e *JSONEncoder) SegmentFrom(src *JSONEncoder, seg *x12.Segment) {
	if e.validate || e.j.indent || src.last == nil || src.lastSeg != seg || src.lastOff != seg.Offset() {
		e.Segment(seg)
		return
	}
	e.from, e.fromDef = src.last, src.lastDef
	e.Segment(seg)
	e.from, e.fromDef = nil, nil
}

// SegmentAt encodes seg like SegmentFrom, placed by step (where src's
// guide walk put it: src.LastStep()) instead of walking the guide again.
// Only for an encoder whose open loops are those src had before seg (a
// fragment past the start of its first repetition: the same segments since
// then); its own walk is left behind, so from then on every segment must
// come through SegmentAt until Reset. Without validation only.
// src may be nil: the segment is formatted.
func (e *JSONEncoder) SegmentAt(src *JSONEncoder, seg *x12.Segment, step Step) {
	if src != nil && src.last != nil && src.lastSeg == seg && src.lastOff == seg.Offset() && !e.j.indent {
		e.from, e.fromDef = src.last, src.lastDef
	}
	for range step.Closed {
		e.closeFrame()
	}
	e.place(len(e.frames)-1, step.Segment, step.Opened, seg)
	e.from, e.fromDef = nil, nil
	e.j.maybeFlush()
}

// LastStep says where the segment last given to Segment landed in the
// guide (valid until the next call). Callers that cut a set's output into
// fragments follow the loops with it.
func (e *JSONEncoder) LastStep() Step { return e.v.last }

// End closes the set: the open loops, the area and the transaction object.
// It returns the number of findings that reject the set (0 without
// validation).
func (e *JSONEncoder) End() int {
	n := e.v.End()
	if !e.validate {
		n = 0
	}
	for len(e.frames) > 1 {
		e.closeFrame()
	}
	e.closeMembers(&e.frames[0])
	if e.area >= 0 {
		e.j.endObject()
	}
	e.j.endObject()
	e.frames = e.frames[:0]
	e.last, e.lastSeg = nil, nil
	return n
}

func (e *JSONEncoder) closeFrame() {
	f := &e.frames[len(e.frames)-1]
	e.closeMembers(f)
	e.j.endObject()
	e.frames = e.frames[:len(e.frames)-1]
}

func (e *JSONEncoder) closeMembers(f *jframe) {
	if f.arrayOpen {
		e.j.endArray()
		f.arrayOpen = false
	}
	f.lastKey = ""
}

var areaNames = [...]string{"heading", "detail", "summary"}

// place writes a segment (and the loop it opens) into frame fi.
func (e *JSONEncoder) place(fi int, s *Segment, opened *Loop, seg *x12.Segment) {
	if fi == 0 {
		a := Heading
		switch {
		case opened != nil:
			a = opened.Area
		case s != nil:
			a = s.area
		}
		if int(a) != e.area {
			e.closeMembers(&e.frames[0])
			if e.area >= 0 {
				e.j.endObject()
			}
			e.area = int(a)
			e.j.key(areaNames[a])
			e.j.beginObject()
		}
	}
	f := &e.frames[fi]
	switch {
	case s == nil:
		e.member(f, "_unrecognized", true)
		e.object(seg, nil)
		return
	case opened != nil:
		e.memberRaw(f, opened.Key, opened.keyJSON, opened.Max != 1)
		e.j.beginObject()
		e.frames = append(e.frames, jframe{})
		f = &e.frames[len(e.frames)-1]
	}
	e.memberRaw(f, s.Key, s.keyJSON, s.Max != 1)
	e.object(seg, s)
}

// object writes a set's segment as an object (def nil: one the guide does
// not place), or copies the one SegmentFrom was given, and keeps it for
// SegmentFrom calls of other encoders.
func (e *JSONEncoder) object(seg *x12.Segment, def *Segment) {
	j := e.j
	if e.from != nil && def == e.fromDef {
		// src placed it on the same guide segment: the same object.
		j.buf = append(j.buf, e.from...)
		return
	}
	start := len(j.buf)
	if def == nil {
		e.genericSegment(seg)
	} else {
		e.segment(seg, def, false)
	}
	if !j.indent {
		e.last, e.lastSeg, e.lastOff, e.lastDef = j.buf[start:len(j.buf):len(j.buf)], seg, seg.Offset(), def
	}
}

// member starts the value of key in the object of frame f: repeated keys
// in a row share one array.
func (e *JSONEncoder) member(f *jframe, key string, repeatable bool) {
	e.memberRaw(f, key, quoteKey(key), repeatable)
}

// memberRaw is member with the key already quoted (`"key":`).
func (e *JSONEncoder) memberRaw(f *jframe, key, quoted string, repeatable bool) {
	if f.arrayOpen && f.lastKey == key {
		e.j.item()
		return
	}
	if f.arrayOpen {
		e.j.endArray()
		f.arrayOpen = false
	}
	e.j.keyRaw(quoted)
	f.lastKey = key
	if repeatable {
		e.j.beginArray()
		e.j.item()
		f.arrayOpen = true
	}
}

// segment writes a segment as an object of its non-empty elements. raw
// keeps values as written (envelope segments, where ISA16 is a delimiter).
func (e *JSONEncoder) segment(seg *x12.Segment, def *Segment, raw bool) {
	j := e.j
	d := seg.Delimiters()
	j.beginObject()
	check := e.check && def != nil && !raw
	cls := e.classes(d)
	first := true // no member yet: the compact key needs no comma
	// The reader has located the element separators already: no second
	// scan of the bytes for them.
	n := seg.Len()
	var present uint64 // non-empty elements, for the syntax rules
	for i := 1; i <= n; i++ {
		v := seg.ElementBytes(i)
		if len(v) == 0 {
			// Only a required element can be wrong by being empty.
			if check && i <= len(def.Elements) && def.Elements[i-1].Usage == Required {
				e.v.checkElementAt(def, i, v, 0)
			}
			continue
		}
		present |= 1 << min(i, 63) // later ones share bit 63 (see maxSyntaxPos)
		bits := cls.scan(v)
		var el *Element
		if def != nil && i <= len(def.Elements) {
			el = &def.Elements[i-1]
			// The common cases: a text or number value without special
			// bytes, checked here (the validator only runs to report, see
			// fastcheck.go).
			text := el.text && bits == 0 && !raw
			number := el.number && bits == 0 && !raw
			if check && !(text && el.textValid(v) || number && el.numberValid(v)) {
				e.v.checkElementAt(def, i, v, bits)
			}
			if j.indent || first {
				j.keyRaw(el.keyJSON)
			} else {
				j.buf = appendName(j.buf, &el.next, el.keyNext)
			}
			first = false
			switch {
			case text:
				j.plainStr(v)
				continue
			case number && jsonNumber(v):
				j.raw(v)
				continue
			}
			if !raw && bits&(clsRep|clsComp) == 0 && el.Repeat <= 1 && el.Components == nil {
				e.scalar(el, v, bits&clsEscape == 0) // the common case: a simple value
				continue
			}
		} else {
			if check {
				e.v.checkElementAt(def, i, v, bits)
			}
			j.key(twoDigits(i))
			first = false
		}
		if raw {
			j.str(v)
			continue
		}
		e.element(el, v, d, bits)
	}
	if check {
		e.v.checkTail(seg, def, n, present)
	}
	j.endObject()
}

// genericSegment writes a segment the guide does not place: its id and its
// elements keyed by position.
func (e *JSONEncoder) genericSegment(seg *x12.Segment) {
	j := e.j
	d := seg.Delimiters()
	j.beginObject()
	j.key("id")
	j.str(seg.IDBytes())
	for i := 1; i <= seg.Len(); i++ {
		if v := seg.ElementBytes(i); len(v) > 0 {
			j.key(twoDigits(i))
			e.element(nil, v, d, e.classes(d).scan(v))
		}
	}
	j.endObject()
}

var positions = func() (out [100]string) {
	for i := range out {
		out[i] = string([]byte{byte('0' + i/10), byte('0' + i%10)})
	}
	return out
}()

func twoDigits(i int) string {
	if i < len(positions) {
		return positions[i]
	}
	return "99"
}

// classes returns the byte classes of delimiters d.
func (e *JSONEncoder) classes(d x12.Delimiters) *classTable { return e.cls.table(d) }

// element writes one element value (whose byte classes are bits): an
// array when it repeats, an object when it has components, else a scalar.
func (e *JSONEncoder) element(el *Element, v []byte, d x12.Delimiters, bits uint8) {
	cls := e.classes(d)
	if bits&clsRep == 0 && (el == nil || el.Repeat <= 1 || d.Repetition == 0) {
		e.occurrence(el, v, d, bits)
		return
	}
	rep := d.Repetition
	e.j.beginArray()
	for {
		part := v
		k := indexByte(v, rep)
		if k >= 0 {
			part, v = v[:k], v[k+1:]
		}
		e.j.item()
		e.occurrence(el, part, d, cls.scan(part))
		if k < 0 {
			break
		}
	}
	e.j.endArray()
}

func (e *JSONEncoder) occurrence(el *Element, v []byte, d x12.Delimiters, bits uint8) {
	composite := el != nil && el.IsComposite()
	if !composite && bits&clsComp == 0 {
		e.scalar(el, v, bits&clsEscape == 0)
		return
	}
	cs := d.Component
	j := e.j
	j.beginObject()
	for c := 1; ; c++ {
		part := v
		k := -1
		if cs != 0 {
			k = indexByte(v, cs)
		}
		if k >= 0 {
			part, v = v[:k], v[k+1:]
		}
		if len(part) > 0 {
			var comp *Element
			if composite && c <= len(el.Components) {
				comp = &el.Components[c-1]
				j.keyRaw(comp.keyJSON)
			} else {
				j.key(twoDigits(c))
			}
			e.scalar(comp, part, bits&clsEscape == 0)
		}
		if k < 0 {
			break
		}
	}
	j.endObject()
}

// scalar writes a simple value with the formatting of its data type;
// plain says it needs no escaping.
func (e *JSONEncoder) scalar(el *Element, v []byte, plain bool) {
	j := e.j
	if el != nil {
		switch {
		case el.kind == kindDate && len(v) == 8 && allDigits(v):
			var b [12]byte
			b[0] = '"'
			copy(b[1:5], v[:4])
			b[5] = '-'
			copy(b[6:8], v[4:6])
			b[8] = '-'
			copy(b[9:11], v[6:8])
			b[11] = '"'
			j.raw(b[:])
			return
		case el.kind == kindTime && len(v) >= 4 && len(v) != 5 && len(v) <= 8 && allDigits(v):
			var b [14]byte
			n := 0
			b[n] = '"'
			n++
			for i, c := range v {
				if i == 2 || i == 4 {
					b[n] = ':'
					if i == 4 {
						b[n] = ':'
					}
					n++
				}
				if i == 6 {
					b[n] = '.'
					n++
				}
				b[n] = c
				n++
			}
			b[n] = '"'
			j.raw(b[:n+1])
			return
		case (el.kind == kindDecimal || el.kind == kindInteger) && jsonNumber(v):
			j.raw(v)
			return
		}
	}
	if plain {
		j.plainStr(v)
		return
	}
	j.str(v)
}

func allDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}
