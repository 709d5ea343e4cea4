package core

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

// trackedElements are the business identifiers kept per transaction: what
// clients search transactions by (api-contract §5.3 businessIdentifiers).
var trackedElements = map[string]int{
	"BHT": 3, // originator application transaction identifier (837, 277)
	"TRN": 2, // trace number (835 check/EFT, 277CA claim trace)
	"CLM": 1, // patient control number (837)
	"CLP": 1, // patient control number (835)
}

// identifierSpill keeps the business identifiers of a file's sets in a
// temporary file, so memory stays flat whatever their number; they are read
// back set by set for the metadata document and the records.
type identifierSpill struct {
	f   *os.File
	w   *bufio.Writer
	enc *json.Encoder
}

type spilledIdentifier struct {
	Set int    `json:"s"`
	E   string `json:"e"`
	ID  string `json:"i"`
	N   string `json:"n"`
	V   string `json:"v"`
}

func newIdentifierSpill() (*identifierSpill, error) {
	f, err := os.CreateTemp("", "clearhouse-identifiers-*")
	if err != nil {
		return nil, fmt.Errorf("core: identifiers spill: %w", err)
	}
	os.Remove(f.Name()) // unlinked: gone with the descriptor, even after a crash
	w := bufio.NewWriterSize(f, 64<<10)
	return &identifierSpill{f: f, w: w, enc: json.NewEncoder(w)}, nil
}

// add records seg's identifier, if it is a tracked one.
func (s *identifierSpill) add(set int, seg *x12.Segment, def *guide.Segment) error {
	pos, ok := trackedElements[string(seg.IDBytes())]
	if !ok {
		return nil
	}
	v := seg.ElementBytes(pos)
	if len(v) == 0 {
		return nil
	}
	id := spilledIdentifier{Set: set, E: fmt.Sprintf("%s-%02d", seg.ID(), pos), V: string(v)}
	if def != nil && pos <= len(def.Elements) {
		id.ID, id.N = def.Elements[pos-1].DE, def.Elements[pos-1].Name
	}
	return s.enc.Encode(id)
}

// reader rewinds the spill for reading set by set.
func (s *identifierSpill) reader() (*identifierReader, error) {
	if err := s.w.Flush(); err != nil {
		return nil, err
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return &identifierReader{dec: json.NewDecoder(bufio.NewReaderSize(s.f, 64<<10))}, nil
}

func (s *identifierSpill) close() { s.f.Close() }

// identifierReader returns the identifiers of set 0, 1, 2... in turn.
type identifierReader struct {
	dec  *json.Decoder
	next *spilledIdentifier
	done bool
}

// set returns the identifiers of set i (sets must be asked in order).
func (r *identifierReader) set(i int) ([]store.BusinessIdentifier, error) {
	var out []store.BusinessIdentifier
	for {
		if r.next == nil && !r.done {
			var id spilledIdentifier
			if err := r.dec.Decode(&id); err == io.EOF {
				r.done = true
			} else if err != nil {
				return nil, err
			} else {
				r.next = &id
			}
		}
		if r.next == nil || r.next.Set != i {
			return out, nil
		}
		out = append(out, store.BusinessIdentifier{Element: r.next.E, ElementID: r.next.ID, Name: r.next.N, Value: r.next.V})
		r.next = nil
	}
}
