package store

import (
	"crypto/rand"
	"encoding/binary"
	"sync"
	"time"
)

// crockford is Crockford's base32 alphabet in lower case: no i, l, o, u.
const crockford = "0123456789abcdefghjkmnpqrstvwxyz"

var (
	idMu   sync.Mutex
	lastMs int64
	lastLo uint64 // low 64 bits of the random part of the last id
	lastHi uint16 // high 16 bits
)

// NewID returns a new 26-character id: 48 bits of milliseconds then 80
// random bits, in lower-case Crockford base32 (the ULID layout). Ids sort by
// creation time, which keeps indexes append-mostly and gives lists a stable
// order; within one millisecond they increase monotonically.
func NewID() string {
	ms := time.Now().UnixMilli()
	idMu.Lock()
	var hi uint16
	var lo uint64
	if ms <= lastMs {
		ms = lastMs
		lo = lastLo + 1
		hi = lastHi
		if lo == 0 {
			hi++
		}
	} else {
		var b [10]byte
		if _, err := rand.Read(b[:]); err != nil {
			panic("store: no randomness: " + err.Error())
		}
		hi = binary.BigEndian.Uint16(b[:2])
		lo = binary.BigEndian.Uint64(b[2:])
	}
	lastMs, lastHi, lastLo = ms, hi, lo
	idMu.Unlock()

	var raw [16]byte
	binary.BigEndian.PutUint16(raw[0:], uint16(ms>>32))
	binary.BigEndian.PutUint32(raw[2:], uint32(ms))
	binary.BigEndian.PutUint16(raw[6:], hi)
	binary.BigEndian.PutUint64(raw[8:], lo)
	return encode128(raw)
}

// encode128 writes 128 bits as 26 base32 digits (the first holds 3 bits).
func encode128(b [16]byte) string {
	hi := binary.BigEndian.Uint64(b[:8])
	lo := binary.BigEndian.Uint64(b[8:])
	var out [26]byte
	for i := 25; i >= 0; i-- {
		out[i] = crockford[lo&31]
		lo = lo>>5 | hi<<59
		hi >>= 5
	}
	return string(out[:])
}

// NewUUID returns a random (version 4) UUID in its canonical text form,
// the id format of the contract's executions, transactions and events.
func NewUUID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("store: no randomness: " + err.Error())
	}
	return FormatUUID(b, 4)
}

// NewTimeUUID returns a version 7 UUID: 48 bits of milliseconds, then 74
// random bits. It is as unique as NewUUID, but ids made together sort
// together, so a record inserted with one lands on the last page of its
// indexes instead of a random page of each (a dental claim's execution,
// transaction and the indexes that name them).
func NewTimeUUID() string {
	var b [16]byte
	if _, err := rand.Read(b[6:]); err != nil {
		panic("store: no randomness: " + err.Error())
	}
	ms := uint64(time.Now().UnixMilli())
	for i := 5; i >= 0; i-- {
		b[i] = byte(ms)
		ms >>= 8
	}
	return FormatUUID(b, 7)
}

// FormatUUID sets the version and variant bits of b and formats it.
func FormatUUID(b [16]byte, version byte) string {
	b[6] = b[6]&0x0f | version<<4
	b[8] = b[8]&0x3f | 0x80
	const hex = "0123456789abcdef"
	out := make([]byte, 0, 36)
	for i, c := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out = append(out, '-')
		}
		out = append(out, hex[c>>4], hex[c&0x0f])
	}
	return string(out)
}
