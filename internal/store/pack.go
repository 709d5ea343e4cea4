package store

import (
	"bytes"
	_ "embed"
	"encoding/binary"
	"errors"
	"sync"
	"unsafe"

	"github.com/klauspost/compress/s2"
)

// A check's request JSON, the payer's 271 and the answer's JSON are stored
// in one value, eligibility_checks.payload:
//
//	packS2Dict1, uvarint len(request), uvarint len(271), S2 block of request‖271‖answer
//
// The block is S2 (klauspost/compress: ~1 GB/s to encode, faster to
// decode) against a dictionary, checkdict.s2dict: one check's request, 271
// and answer as the mock payer answers anthem-ca-dependent, a check the
// benchmarks do not send. Most of an answer is the same JSON names, codes
// and 271 segments as in any other, so the dictionary halves S2's output:
// the three parts of a ~13–18 KB check come to 0.7–2.6 KB (2.4–3.9 KB
// without it), and the row, with its 270 and search keys, fits one 4 KiB
// page instead of spilling onto overflow pages — each a WAL frame to
// write, checksum and fsync, and to copy again at the checkpoint. Rows
// stored before the payload column keep the three in their own TEXT
// columns (payload NULL); both are read.
//
// The dictionary is part of the stored format: never change the file
// (TestCheckDictionaryIsFrozen); a new one needs a new format byte, and
// this one must stay to read the rows written with it.
const packS2Dict1 = 1

//go:embed checkdict.s2dict
var checkDictBytes []byte

var checkDict = sync.OnceValue(func() *s2.Dict {
	d := s2.NewDict(checkDictBytes)
	if d == nil {
		panic("store: checkdict.s2dict is not an S2 dictionary")
	}
	return d
})

// packBuffers holds the buffers packing concatenates and encodes into:
// both drivers copy a []byte argument while the statement runs, so a
// buffer goes back as soon as the insert has returned.
var packBuffers = sync.Pool{New: func() any { return new([]byte) }}

// PackedPayload is a check's payload packed before its insert: see Pack.
type PackedPayload struct {
	payload []byte
	// what it was packed from: an insert uses payload only while c's three
	// fields are these same slices (same arrays, same lengths).
	request, x12, answer []byte
}

// Pack packs c's request JSON, 271 and answer JSON into its payload now,
// in the caller's goroutine, so that inserting c does not. In a group
// commit's round (GroupInTx) the insert runs while SQLite's one write
// lock is held and the round's other callers wait for it; the S2 encoding
// (~85 K instructions a check) is then serial work that a core running
// another request could have done beside the round. The stored bytes are
// those the insert would pack. The three fields must not be changed in
// place afterwards; an insert that finds any of them replaced (another
// array or length) packs again. The payload is its own allocation, not a
// pooled buffer: an insert can outlive its caller (a check batched on
// SQLite is committed after a caller that gave up has returned).
func (c *EligibilityCheck) Pack() {
	payload, buf := c.encodePayload()
	c.Packed = &PackedPayload{payload: bytes.Clone(payload), request: c.RequestJSON, x12: c.X12Response, answer: c.ResponseJSON}
	putPacked(buf)
}

// of reports whether p was packed from c's current fields.
func (p *PackedPayload) of(c *EligibilityCheck) bool {
	return p != nil && sameSlice(p.request, c.RequestJSON) && sameSlice(p.x12, c.X12Response) &&
		sameSlice(p.answer, c.ResponseJSON)
}

func sameSlice(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || unsafe.SliceData(a) == unsafe.SliceData(b))
}

// packCheck returns c's payload: the one Pack made (buf nil), or one
// packed now in a buffer of packBuffers. Give buf back with putPacked once
// the insert has run.
func packCheck(c *EligibilityCheck) (payload []byte, buf *[]byte) {
	if c.Packed.of(c) {
		return c.Packed.payload, nil
	}
	return c.encodePayload()
}

// encodePayload packs c's payload in a buffer of packBuffers.
func (c *EligibilityCheck) encodePayload() (payload []byte, buf *[]byte) {
	n := len(c.RequestJSON) + len(c.X12Response) + len(c.ResponseJSON)
	buf = packBuffers.Get().(*[]byte)
	head := 1 + 2*binary.MaxVarintLen64
	need := n + head + s2.MaxEncodedLen(n)
	if cap(*buf) < need {
		*buf = make([]byte, need)
	}
	b := (*buf)[:need]
	plain := append(append(append(b[:0:n], c.RequestJSON...), c.X12Response...), c.ResponseJSON...)
	out := b[n:n]
	out = append(out, packS2Dict1)
	out = binary.AppendUvarint(out, uint64(len(c.RequestJSON)))
	out = binary.AppendUvarint(out, uint64(len(c.X12Response)))
	enc := checkDict().Encode(out[len(out):cap(out)], plain)
	return out[:len(out)+len(enc)], buf
}

func putPacked(buf *[]byte) {
	if buf != nil {
		packBuffers.Put(buf)
	}
}

var errBadPayload = errors.New("store: unreadable eligibility payload")

// unpackCheck fills c's request JSON, 271 and answer JSON from a payload
// packCheck made. The three share one array (each capped at its length, so
// an append copies); an empty one is nil, as for a TEXT column.
func unpackCheck(payload []byte, c *EligibilityCheck) error {
	if len(payload) == 0 || payload[0] != packS2Dict1 {
		return errBadPayload
	}
	p := payload[1:]
	reqLen, k := binary.Uvarint(p)
	if k <= 0 {
		return errBadPayload
	}
	p = p[k:]
	x12Len, k := binary.Uvarint(p)
	if k <= 0 {
		return errBadPayload
	}
	p = p[k:]
	plain, err := checkDict().Decode(nil, p)
	if err != nil || reqLen > uint64(len(plain)) || x12Len > uint64(len(plain))-reqLen {
		return errBadPayload
	}
	x12End := reqLen + x12Len
	c.RequestJSON = nilIfEmpty(plain[:reqLen:reqLen])
	c.X12Response = nilIfEmpty(plain[reqLen:x12End:x12End])
	c.ResponseJSON = nilIfEmpty(plain[x12End:])
	return nil
}

func nilIfEmpty(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return b
}
