package core

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"

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
// temporary file, so memory stays flat whatever their number; they are read
// back set by set for the metadata document and the records. Records are
// length-prefixed: the set index, then element, element id, name, value.
type identifierSpill struct {
	f   *os.File
	w   *bufio.Writer
	tmp []byte
}

func newIdentifierSpill() (*identifierSpill, error) {
	f, err := os.CreateTemp("", "clearhouse-identifiers-*")
	if err != nil {
		return nil, fmt.Errorf("core: identifiers spill: %w", err)
	}
	os.Remove(f.Name()) // unlinked: gone with the descriptor, even after a crash
	return &identifierSpill{f: f, w: bufio.NewWriterSize(f, 64<<10)}, nil
}

// add records seg's identifier, if it is a tracked one.
func (s *identifierSpill) add(set int, seg *x12.Segment, def *guide.Segment) error {
	el, ok := trackedElements[string(seg.IDBytes())]
	if !ok {
		return nil
	}
	pos := el.pos
	v := seg.ElementBytes(pos)
	if len(v) == 0 {
		return nil
	}
	b := binary.AppendUvarint(s.tmp[:0], uint64(set))
	b = appendString(b, el.name)
	if def != nil && pos <= len(def.Elements) {
		b = appendString(b, def.Elements[pos-1].DE)
		b = appendString(b, def.Elements[pos-1].Name)
	} else {
		b = appendString(appendString(b, ""), "")
	}
	b = binary.AppendUvarint(b, uint64(len(v)))
	b = append(b, v...)
	s.tmp = b
	_, err := s.w.Write(b)
	return err
}

func appendString(b []byte, v string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(v))), v...)
}

// reader rewinds the spill for reading set by set.
func (s *identifierSpill) reader() (*identifierReader, error) {
	if err := s.w.Flush(); err != nil {
		return nil, err
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return &identifierReader{r: bufio.NewReaderSize(s.f, 64<<10), at: -1}, nil
}

func (s *identifierSpill) close() { s.f.Close() }

// identifierReader returns the identifiers of set 0, 1, 2... in turn.
type identifierReader struct {
	r    *bufio.Reader
	next store.BusinessIdentifier
	at   int // set of next; -1 when next is not read yet
	done bool
	buf  []byte
}

func (r *identifierReader) read() error {
	set, err := binary.ReadUvarint(r.r)
	if err == io.EOF {
		r.done = true
		return nil
	}
	if err != nil {
		return err
	}
	// The element, its id and name repeat from one identifier to the next:
	// the previous strings are reused when they are the same.
	prev := r.next
	fields := [4]*string{&r.next.Element, &r.next.ElementID, &r.next.Name, &r.next.Value}
	for i, f := range fields {
		n, err := binary.ReadUvarint(r.r)
		if err != nil {
			return err
		}
		if uint64(cap(r.buf)) < n {
			r.buf = make([]byte, n)
		}
		b := r.buf[:n]
		if _, err := io.ReadFull(r.r, b); err != nil {
			return err
		}
		switch {
		case i == 0 && string(b) == prev.Element:
		case i == 1 && string(b) == prev.ElementID:
		case i == 2 && string(b) == prev.Name:
		default:
			*f = string(b)
		}
	}
	r.at = int(set)
	return nil
}

// set returns the identifiers of set i (sets must be asked in order).
func (r *identifierReader) set(i int) ([]store.BusinessIdentifier, error) {
	var out []store.BusinessIdentifier
	for {
		if r.at < 0 && !r.done {
			if err := r.read(); err != nil {
				return nil, err
			}
		}
		if r.done || r.at != i {
			return out, nil
		}
		out = append(out, r.next)
		r.at = -1
	}
}
