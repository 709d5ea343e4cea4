package x12

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"strings"
)

// Segment is one X12 segment as read: its bytes (without the terminator),
// the delimiters in force and its byte offset in the input.
//
// A *Segment returned by Reader.Next is a view into the reader's buffer and
// is valid only until the next call to Next; use Clone to keep one.
// Elements are located lazily on the first accessor call that needs them, so
// a consumer that only looks at IDBytes pays for nothing else.
//
// Element numbers are 1-based like X12 references ("NM103" is Element(3));
// Element(0) is the segment id.
type Segment struct {
	raw    []byte
	offset int64
	end    int64 // input offset of the terminator (see End)
	d      Delimiters
	// elems holds the id (trimmed) and then every element, as views into
	// raw: element n is elems[n]. It is empty until the split, so the
	// bounds test of ElementBytes is also its "split" test, and that
	// accessor stays small enough to be inlined.
	elems [][]byte
	split bool
	id    string
	// unterminated is set on a final segment that ended at EOF without a
	// segment terminator.
	unterminated bool
	// scratch receives raw with line breaks removed (hard-wrapped files).
	scratch []byte
	// breaks is false when the reader knows raw holds no CR or LF.
	breaks bool
	intern *internTable
	// countElements sizes the element index by count, not by length
	// (growIndex).
	countElements bool
}

// Offset is the byte offset of the segment's first byte in the input (after
// any BOM, counted in the original bytes).
func (s *Segment) Offset() int64 { return s.offset }

// End is the byte offset of the segment's terminator in the input, in the
// same bytes as Offset: line breaks inside a hard-wrapped segment and
// blanks padding a line count, unlike len(Raw()). For a final segment the
// input ended without a terminator (Unterminated), End is just past its
// last byte, where the terminator would be.
func (s *Segment) End() int64 { return s.end }

// Delimiters are the delimiters in force for this segment.
func (s *Segment) Delimiters() Delimiters { return s.d }

// Raw returns the segment's bytes without the terminator. Line breaks that
// hard-wrapped files put inside a segment are removed. The slice aliases the
// reader's buffer: do not modify it and do not keep it past the next Next.
func (s *Segment) Raw() []byte {
	s.ensureSplit()
	return s.raw
}

// Unsplit returns the segment's bytes without locating its elements: Raw
// without its cost, but a hard-wrapped segment's line breaks may still be
// in it. It is for consumers that scan the bytes themselves (the guide
// validator) and go through Raw or the element accessors when they meet a
// line break. The slice aliases the reader's buffer, as Raw's does.
func (s *Segment) Unsplit() []byte { return s.raw }

// Unterminated reports whether the input ended inside this segment, before
// its segment terminator.
func (s *Segment) Unterminated() bool { return s.unterminated }

// IDBytes returns the segment id without allocating.
func (s *Segment) IDBytes() []byte {
	if len(s.elems) > 0 {
		return s.elems[0]
	}
	// Fast path: ids are 2 or 3 characters, followed by the element
	// separator, unless a line break or padding interferes (then, or for
	// odd ids, the full split decides).
	raw, e := s.raw, s.d.Element
	if len(raw) >= 3 && raw[2] == e && idByte(raw[0], e) && idByte(raw[1], e) && raw[1] != ' ' {
		return raw[:2]
	}
	if len(raw) >= 4 && raw[3] == e && idByte(raw[0], e) && idByte(raw[1], e) && idByte(raw[2], e) && raw[2] != ' ' {
		return raw[:3]
	}
	s.ensureSplit()
	return s.elems[0]
}

// idByte reports whether c can belong to a segment id read by the fast
// path of IDBytes: not the element separator, not a line break.
func idByte(c, e byte) bool { return c != e && c != '\n' && c != '\r' }

// ID returns the segment id ("NM1"). Common ids are interned, so the call
// does not allocate after the first occurrence of an id.
func (s *Segment) ID() string {
	if s.id == "" {
		b := s.IDBytes()
		if s.intern != nil {
			s.id = s.intern.get(b)
		} else {
			s.id = string(b)
		}
	}
	return s.id
}

// Is reports whether the segment id equals id, without allocating.
func (s *Segment) Is(id string) bool { return string(s.IDBytes()) == id }

// Len returns the number of elements after the id (the position of the last
// element present, empty or not).
func (s *Segment) Len() int {
	if !s.split {
		s.ensureSplit()
	}
	return len(s.elems) - 1
}

// ElementBytes returns element n (1-based) without allocating, or nil if the
// segment has fewer elements. Element 0 is the segment id.
func (s *Segment) ElementBytes(n int) []byte {
	if uint(n) < uint(len(s.elems)) {
		return s.elems[n]
	}
	return s.elementSlow(n)
}

// elementSlow is ElementBytes before the split, or past the last element.
func (s *Segment) elementSlow(n int) []byte {
	if n == 0 {
		return s.IDBytes()
	}
	s.ensureSplit()
	if n < 0 || n >= len(s.elems) {
		return nil
	}
	return s.elems[n]
}

// Element returns element n (1-based) as a string, "" if absent.
func (s *Segment) Element(n int) string { return string(s.ElementBytes(n)) }

// Component returns component c (1-based) of element n, "" if absent. An
// element without component separators is its own first component.
func (s *Segment) Component(n, c int) string {
	return string(nthPart(s.ElementBytes(n), s.d.Component, c))
}

// ComponentBytes is Component without allocating.
func (s *Segment) ComponentBytes(n, c int) []byte {
	return nthPart(s.ElementBytes(n), s.d.Component, c)
}

// Repetitions returns the raw repetitions of element n (each may contain
// component separators). Without a repetition separator, or when the element
// is absent, it returns the element alone (or nil).
func (s *Segment) Repetitions(n int) []string {
	e := s.ElementBytes(n)
	if e == nil {
		return nil
	}
	if s.d.Repetition == 0 {
		return []string{string(e)}
	}
	parts := bytes.Split(e, []byte{s.d.Repetition})
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = string(p)
	}
	return out
}

// Elements returns all elements after the id as strings (allocates).
func (s *Segment) Elements() []string {
	n := s.Len()
	out := make([]string, n)
	for i := range out {
		out[i] = s.Element(i + 1)
	}
	return out
}

// Clone returns a copy that stays valid after the reader moves on.
func (s *Segment) Clone() *Segment {
	s.ensureSplit() // line breaks removed
	c := &Segment{
		raw:          bytes.Clone(s.raw),
		offset:       s.offset,
		end:          s.end,
		d:            s.d,
		id:           s.id,
		unterminated: s.unterminated,
	}
	if c.raw == nil {
		c.raw = []byte{}
	}
	c.ensureSplit()
	return c
}

// String returns the segment as text with its own delimiters, without the
// terminator.
func (s *Segment) String() string { return string(s.Raw()) }

// NewSegment builds a segment from an id and simple elements, for tests and
// for callers that construct segments by hand. It does not check that the
// values are free of delimiters.
func NewSegment(d Delimiters, id string, elems ...string) *Segment {
	var b []byte
	b = append(b, id...)
	for _, e := range elems {
		b = append(b, d.Element)
		b = append(b, e...)
	}
	s := &Segment{raw: b, end: int64(len(b)), d: d, breaks: true}
	s.ensureSplit()
	return s
}

// reset prepares the reusable segment for the next raw bytes.
func (s *Segment) reset(raw []byte, offset, end int64, d Delimiters, breaks bool) {
	s.raw = raw
	s.breaks = breaks
	s.offset, s.end = offset, end
	s.d = d
	s.elems = s.elems[:0]
	s.split = false
	s.id = ""
	s.unterminated = false
}

// ensureSplit locates the element separators, eight bytes at a time,
// removing line breaks first if the segment contains any (hard-wrapped
// files), and records the id and the elements.
func (s *Segment) ensureSplit() {
	if s.split {
		return
	}
	s.split = true
	raw := s.raw
	// Room for every element: the loops store by index, without append's
	// growth path (whose call spills the loop's registers).
	elems := s.elems[:cap(s.elems)]
	if len(elems) <= len(raw) {
		elems = s.growIndex(elems)
	}
	if s.breaks {
		s.splitBreaks(elems)
		return
	}
	// No line breaks to look for (the common case): a loop with fewer
	// live values.
	pe := uint64(s.d.Element) * ones
	k, start := 0, 0 // elements ended so far; start of the next one (the id first)
	i := 0
	for ; i+8 <= len(raw); i += 8 {
		for m := zeroBytes(binary.LittleEndian.Uint64(raw[i:]) ^ pe); m != 0; m &= m - 1 {
			end := i + bits.TrailingZeros64(m)>>3
			elems[k] = raw[start:end]
			k++
			start = end + 1
		}
	}
	if tail := len(raw) - i; tail > 0 {
		// The bytes after raw (its terminator, at least) are still in the
		// buffer: load a whole word and mask off what lies beyond raw.
		if full := raw[:cap(raw)]; len(full)-i >= 8 {
			keep := uint64(1)<<(8*tail) - 1
			for m := zeroBytes(binary.LittleEndian.Uint64(full[i:])^pe) & keep; m != 0; m &= m - 1 {
				end := i + bits.TrailingZeros64(m)>>3
				elems[k] = raw[start:end]
				k++
				start = end + 1
			}
		} else {
			for e := s.d.Element; i < len(raw); i++ {
				if raw[i] == e {
					elems[k] = raw[start:i]
					k++
					start = i + 1
				}
			}
		}
	}
	elems[k] = raw[start:]
	if id := elems[0]; len(id) > 0 && id[len(id)-1] == ' ' {
		trimPaddedID(elems)
	}
	s.elems = elems[:k+1]
}

// growIndex returns an element index with room for every element of raw.
// A reader of a stream sizes it to the segment's length, so that it grows
// seldom; a reader of a message in memory (NewBytesReader: a real-time
// 270 or 271 of a few dozen segments) counts the separators first, so that
// the index holds what a segment has (an ISA's 17 elements, not 107 slices
// of 24 bytes each).
func (s *Segment) growIndex(elems [][]byte) [][]byte {
	n := len(s.raw) + 1
	if s.countElements {
		if n = bytes.Count(s.raw, []byte{s.d.Element}) + 1; n <= len(elems) {
			return elems
		}
		return make([][]byte, max(n, 2*len(elems), 32))
	}
	return make([][]byte, max(n, 2*len(elems), 64))
}

// splitBreaks is ensureSplit for a segment from a buffer that holds line
// breaks: it watches for them in the segment (hard-wrapped files) and
// removes them before splitting. elems has room for every element of raw.
func (s *Segment) splitBreaks(elems [][]byte) {
	s.elems = elems[:0] // stripLineBreaks appends to it
	raw := s.raw
	e := s.d.Element
	checkLF := e != '\n' && s.d.Segment != '\n'
	checkCR := e != '\r' && s.d.Segment != '\r'
	pe := uint64(e) * ones
	k, start := 0, 0 // elements ended so far; start of the next one (the id first)
	i := 0
	for ; i+8 <= len(raw); i += 8 {
		v := binary.LittleEndian.Uint64(raw[i:])
		if lineBreaks(v, checkLF, checkCR) != 0 {
			s.stripLineBreaks()
			return
		}
		for m := zeroBytes(v ^ pe); m != 0; m &= m - 1 {
			end := i + bits.TrailingZeros64(m)>>3
			elems[k] = raw[start:end]
			k++
			start = end + 1
		}
	}
	if tail := len(raw) - i; tail > 0 {
		// The bytes after raw (its terminator, at least) are still in the
		// buffer: load a whole word and mask off what lies beyond raw.
		if full := raw[:cap(raw)]; len(full)-i >= 8 {
			v := binary.LittleEndian.Uint64(full[i:])
			keep := uint64(1)<<(8*tail) - 1
			if lineBreaks(v, checkLF, checkCR)&keep != 0 {
				s.stripLineBreaks()
				return
			}
			for m := zeroBytes(v^pe) & keep; m != 0; m &= m - 1 {
				end := i + bits.TrailingZeros64(m)>>3
				elems[k] = raw[start:end]
				k++
				start = end + 1
			}
		} else {
			for ; i < len(raw); i++ {
				if c := raw[i]; c == e {
					elems[k] = raw[start:i]
					k++
					start = i + 1
				} else if (c == '\n' && checkLF) || (c == '\r' && checkCR) {
					s.stripLineBreaks()
					return
				}
			}
		}
	}
	elems[k] = raw[start:]
	s.elems = trimID(elems[:k+1])
}

// trimID drops the spaces after the id of a whitespace-padded ISA
// ("ISA *00 *").
func trimID(elems [][]byte) [][]byte {
	if id := elems[0]; len(id) > 0 && id[len(id)-1] == ' ' {
		trimPaddedID(elems)
	}
	return elems
}

// trimPaddedID is the rare part of trimID, kept out of line so the hot
// path of ensureSplit tests the last byte of the id without a call.
//
//go:noinline
func trimPaddedID(elems [][]byte) { elems[0] = bytes.TrimRight(elems[0], " ") }

// lineBreaks marks the bytes of v that are LF or CR, as far as they need
// checking.
func lineBreaks(v uint64, checkLF, checkCR bool) uint64 {
	var lb uint64
	if checkLF {
		lb = zeroBytes(v ^ ('\n' * ones))
	}
	if checkCR {
		lb |= zeroBytes(v ^ ('\r' * ones))
	}
	return lb
}

const (
	ones = 0x0101010101010101
	lo7  = 0x7f7f7f7f7f7f7f7f
)

// zeroBytes has the high bit set in exactly the bytes of v that are zero.
func zeroBytes(v uint64) uint64 { return ^(((v & lo7) + lo7) | v | lo7) }

// stripLineBreaks copies raw without CR and LF into scratch and splits that.
// Line breaks are never data in X12 (they are outside the basic and extended
// character sets), so removing them is safe.
func (s *Segment) stripLineBreaks() {
	s.scratch = s.scratch[:0]
	for _, c := range s.raw {
		if (c == '\n' || c == '\r') && c != s.d.Segment && c != s.d.Element {
			continue
		}
		s.scratch = append(s.scratch, c)
	}
	raw := s.scratch
	s.raw = raw
	elems := s.elems[:0]
	start := 0
	for i, c := range raw {
		if c == s.d.Element {
			elems = append(elems, raw[start:i])
			start = i + 1
		}
	}
	s.elems = trimID(append(elems, raw[start:]))
}

// nthPart returns the c-th (1-based) part of b split on sep.
func nthPart(b []byte, sep byte, c int) []byte {
	if b == nil || c < 1 {
		return nil
	}
	for i := 1; i < c; i++ {
		j := bytes.IndexByte(b, sep)
		if j < 0 {
			return nil
		}
		b = b[j+1:]
	}
	if j := bytes.IndexByte(b, sep); j >= 0 {
		return b[:j]
	}
	return b
}

// internTable maps segment ids to shared strings so Segment.ID does not
// allocate per segment.
type internTable struct{ m map[string]string }

// commonIDs are the segment ids every reader shares (read only), so that
// a reader of a few segments — a real-time 270 or 271 — makes no map and
// no string for them.
var commonIDs = func() map[string]string {
	m := map[string]string{}
	for _, id := range strings.Fields(`ISA IEA GS GE ST SE BHT HL TRN NM1 N3 N4 REF PER PRV DMG INS HI DTP DTM
		EQ AMT III EB HSD MSG LS LE AAA QTY SBR PAT CLM LX SV1 SV2 SV3 SVD CAS BPR N1 CLP SVC PLB TA1 AK1 AK2
		IK3 IK4 IK5 AK9 CTX RMR IT1 TDS CUR PWK CN1 K3 NTE CR1 CRC HCP OI MOA MIA LQ TOO OL CL1 SBR STC QTY`) {
		m[id] = id
	}
	return m
}()

func (t *internTable) get(b []byte) string {
	if s, ok := commonIDs[string(b)]; ok {
		return s
	}
	if s, ok := t.m[string(b)]; ok {
		return s
	}
	if t.m == nil {
		t.m = make(map[string]string)
	}
	s := string(b)
	if len(t.m) < 4096 { // bound memory on garbage input
		t.m[s] = s
	}
	return s
}
