package core

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

// trackedElements are the business identifiers kept per transaction: what
// clients search transactions by (api-contract §5.3 businessIdentifiers).
var trackedElements = map[string]trackedElement{
	"BHT": {3, "BHT-03"}, // originator application transaction identifier (837, 277)
	"TRN": {2, "TRN-02"}, // trace number (835 check/EFT, 277CA claim trace)
	"CLM": {1, "CLM-01"}, // patient control number (837)
	"CLP": {1, "CLP-01"}, // patient control number (835)
}

// trackedElement is the position of a tracked element and its name
// ("CLM-01").
type trackedElement struct {
	pos  int
	name string
}

// identifierSpill keeps the business identifiers of a file's sets in a
// temporary file, so memory stays flat whatever their number, even in one
// set of a million claims; they are read back set by set, a record at a
// time, for the metadata document and the records. Records are
// length-prefixed: element, element id, name, value. spans says where each
// set's records are.
type identifierSpill struct {
	f     *os.File
	w     *bufio.Writer
	n     int64 // bytes written
	tmp   []byte
	spans []spillSpan // in set order
	r     *bufio.Reader
}

// spillSpan is where one set's identifiers are in the spill, and which
// elements they are of (in the order first seen).
type spillSpan struct {
	set        int
	start, end int64
	elements   []string
}

// identifierBatch is how many identifiers are read into memory at once to
// be stored (under a megabyte for claim payments). The store sorts a
// batch's values for the search index: the bigger the batch, the closer
// together its inserts land (321,512 random numbers cost 1.6 times as much
// 5,000 at a time as 50,000 at a time), but memory must stay flat.
const identifierBatch = 10000

func newIdentifierSpill() (*identifierSpill, error) {
	f, err := os.CreateTemp("", "clearhouse-identifiers-*")
	if err != nil {
		return nil, fmt.Errorf("core: identifiers spill: %w", err)
	}
	os.Remove(f.Name()) // unlinked: gone with the descriptor, even after a crash
	return &identifierSpill{f: f, w: bufio.NewWriterSize(f, 64<<10)}, nil
}

// add records seg's identifier, if it is a tracked one, and returns it
// (ok false: none).
func (s *identifierSpill) add(set int, seg *x12.Segment, def *guide.Segment) (id store.BusinessIdentifier, ok bool, err error) {
	el, ok := trackedElements[string(seg.IDBytes())]
	if !ok {
		return id, false, nil
	}
	pos := el.pos
	v := seg.ElementBytes(pos)
	if len(v) == 0 {
		return id, false, nil
	}
	id.Element, id.Value = el.name, string(v)
	if len(s.spans) == 0 || s.spans[len(s.spans)-1].set != set {
		s.spans = append(s.spans, spillSpan{set: set, start: s.n, end: s.n})
	}
	span := &s.spans[len(s.spans)-1]
	if !slices.Contains(span.elements, el.name) {
		span.elements = append(span.elements, el.name)
	}
	b := appendString(s.tmp[:0], el.name)
	if def != nil && pos <= len(def.Elements) {
		id.ElementID, id.Name = def.Elements[pos-1].DE, def.Elements[pos-1].Name
		b = appendString(b, id.ElementID)
		b = appendString(b, id.Name)
	} else {
		b = appendString(appendString(b, ""), "")
	}
	b = binary.AppendUvarint(b, uint64(len(v)))
	b = append(b, v...)
	s.tmp = b
	n, err := s.w.Write(b)
	s.n += int64(n)
	span.end = s.n
	return id, true, err
}

func appendString(b []byte, v string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(v))), v...)
}

func (s *identifierSpill) close() { s.f.Close() }

// span returns where set's identifiers are (zero: it has none).
func (s *identifierSpill) span(set int) spillSpan {
	i, ok := slices.BinarySearchFunc(s.spans, set, func(sp spillSpan, set int) int { return sp.set - set })
	if !ok {
		return spillSpan{set: set}
	}
	return s.spans[i]
}

// each calls fn with set's identifiers in the order they came. fn must not
// keep id: it is reused, though its strings are fn's to keep.
func (s *identifierSpill) each(set int, fn func(id *store.BusinessIdentifier) error) error {
	if err := s.w.Flush(); err != nil {
		return err
	}
	sp := s.span(set)
	sr := io.NewSectionReader(s.f, sp.start, sp.end-sp.start)
	if s.r == nil {
		s.r = bufio.NewReaderSize(sr, 64<<10)
	} else {
		s.r.Reset(sr)
	}
	d := identifierDecoder{r: s.r}
	for {
		more, err := d.read()
		if err != nil || !more {
			return err
		}
		if err := fn(&d.id); err != nil {
			return err
		}
	}
}

// batches calls fn with set's identifiers, at most identifierBatch at a
// time; fn may keep nothing of the slice beyond its strings.
func (s *identifierSpill) batches(set int, fn func(ids []store.BusinessIdentifier) error) error {
	var batch []store.BusinessIdentifier
	err := s.each(set, func(id *store.BusinessIdentifier) error {
		batch = append(batch, *id)
		if len(batch) < identifierBatch {
			return nil
		}
		err := fn(batch)
		batch = batch[:0]
		return err
	})
	if err == nil && len(batch) > 0 {
		err = fn(batch)
	}
	return err
}

// identifierDecoder reads the records of one set.
type identifierDecoder struct {
	r   *bufio.Reader
	id  store.BusinessIdentifier
	buf []byte
}

// read decodes the next record into d.id; false at the end.
func (d *identifierDecoder) read() (bool, error) {
	// The element, its id and name repeat from one identifier to the next:
	// the previous strings are reused when they are the same.
	prev := d.id
	fields := [4]*string{&d.id.Element, &d.id.ElementID, &d.id.Name, &d.id.Value}
	for i, f := range fields {
		n, err := binary.ReadUvarint(d.r)
		if i == 0 && err == io.EOF {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		if uint64(cap(d.buf)) < n {
			d.buf = make([]byte, n)
		}
		b := d.buf[:n]
		if _, err := io.ReadFull(d.r, b); err != nil {
			return false, err
		}
		switch {
		case i == 0 && string(b) == prev.Element:
		case i == 1 && string(b) == prev.ElementID:
		case i == 2 && string(b) == prev.Name:
		default:
			*f = string(b)
		}
	}
	return true, nil
}
