package x12

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// ControlKind names the envelope a control number is for.
type ControlKind uint8

const (
	// InterchangeControl is ISA13/IEA02 (1..999999999).
	InterchangeControl ControlKind = iota + 1
	// GroupControl is GS06/GE02 (1..999999999).
	GroupControl
	// TransactionControl is ST02/SE02 (written with at least 4 digits).
	TransactionControl
)

func (k ControlKind) String() string {
	switch k {
	case InterchangeControl:
		return "interchange"
	case GroupControl:
		return "group"
	case TransactionControl:
		return "transaction"
	}
	return "control(" + strconv.Itoa(int(k)) + ")"
}

// ControlNumbers hands out control numbers. A service keeps them unique per
// sender over time (e.g. a database sequence); SequentialControlNumbers is
// an in-memory implementation for tests and one-off files.
type ControlNumbers interface {
	Next(kind ControlKind) (int64, error)
}

// SequentialControlNumbers counts each kind up from its starting value
// (1 when zero). It is safe for concurrent use.
type SequentialControlNumbers struct {
	mu                              sync.Mutex
	Interchange, Group, Transaction int64 // last numbers handed out
}

// Next returns the next number of kind, wrapping after 999999999.
func (s *SequentialControlNumbers) Next(kind ControlKind) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var p *int64
	switch kind {
	case InterchangeControl:
		p = &s.Interchange
	case GroupControl:
		p = &s.Group
	case TransactionControl:
		p = &s.Transaction
	default:
		return 0, fmt.Errorf("x12: unknown control number kind %d", kind)
	}
	*p++
	if *p > 999999999 || *p < 1 {
		*p = 1
	}
	return *p, nil
}

// InterchangeHeader holds the ISA fields a sender chooses. Empty fields get
// the HIPAA defaults noted on each; widths are padded as ISA requires.
type InterchangeHeader struct {
	AuthQualifier     string // ISA01, default "00"
	AuthInfo          string // ISA02, default blank
	SecurityQualifier string // ISA03, default "00"
	SecurityInfo      string // ISA04, default blank
	SenderQualifier   string // ISA05, default "ZZ"
	SenderID          string // ISA06 (up to 15)
	ReceiverQualifier string // ISA07, default "ZZ"
	ReceiverID        string // ISA08 (up to 15)
	Date              time.Time
	Version           string // ISA12, default "00501"
	AckRequested      bool   // ISA14
	Usage             string // ISA15: "P" (default) or "T"
	// ControlNumber forces ISA13; 0 takes the next from ControlNumbers.
	ControlNumber int64
}

// GroupHeader holds the GS fields.
type GroupHeader struct {
	FunctionalID string // GS01, e.g. "HS" for 270, "HC" for 837
	SenderCode   string // GS02
	ReceiverCode string // GS03
	Date         time.Time
	Version      string // GS08, e.g. "005010X279A1"
	Agency       string // GS07, default "X"
	// ControlNumber forces GS06; 0 takes the next from ControlNumbers.
	ControlNumber int64
}

// Controls are the control numbers of the envelopes being written.
type Controls struct {
	Interchange string // ISA13, 9 digits
	Group       string // GS06
	Transaction string // ST02
}

// InterchangeWriter builds enveloped X12: ISA, GS, ST, the caller's
// segments, SE, GE, IEA, with every count and control number computed. Use
// one per output stream:
//
//	iw := x12.NewInterchangeWriter(w, x12.DefaultDelimiters, numbers)
//	iw.BeginInterchange(isa)
//	iw.BeginGroup(gs)
//	iw.BeginTransaction("270", "005010X279A1")
//	iw.WriteSegment("BHT", ...)
//	iw.EndTransaction() // SE01 counted, SE02 = ST02
//	iw.EndGroup()       // GE01 = sets, GE02 = GS06
//	iw.EndInterchange() // IEA01 = groups, IEA02 = ISA13; flushes
type InterchangeWriter struct {
	*Writer
	numbers ControlNumbers

	controls  Controls
	inISA     bool
	inGS      bool
	inST      bool
	groups    int
	sets      int
	stStart   int // Writer.Count() at ST
	isaHeader InterchangeHeader
}

// NewInterchangeWriter returns an InterchangeWriter writing to w.
func NewInterchangeWriter(w io.Writer, d Delimiters, numbers ControlNumbers, opts ...WriterOption) *InterchangeWriter {
	return &InterchangeWriter{Writer: NewWriter(w, d, opts...), numbers: numbers}
}

// Controls returns the control numbers of the envelopes currently open (or
// last written).
func (iw *InterchangeWriter) Controls() Controls { return iw.controls }

// ErrEnvelopeOrder is wrapped by errors for Begin/End calls out of order.
var ErrEnvelopeOrder = errors.New("x12: envelope calls out of order")

func (iw *InterchangeWriter) next(kind ControlKind, forced int64) (int64, error) {
	if forced != 0 {
		return forced, nil
	}
	if iw.numbers == nil {
		return 0, fmt.Errorf("x12: no control number source for the %s control number", kind)
	}
	n, err := iw.numbers.Next(kind)
	if err != nil {
		return 0, fmt.Errorf("x12: %s control number: %w", kind, err)
	}
	return n, nil
}

// BeginInterchange writes the ISA.
func (iw *InterchangeWriter) BeginInterchange(h InterchangeHeader) error {
	if iw.inISA {
		return fmt.Errorf("%w: BeginInterchange inside an interchange", ErrEnvelopeOrder)
	}
	n, err := iw.next(InterchangeControl, h.ControlNumber)
	if err != nil {
		return err
	}
	if n < 1 || n > 999999999 {
		return fmt.Errorf("x12: interchange control number %d is not 1..999999999", n)
	}
	d := iw.d
	def := func(s, v string) string {
		if s == "" {
			return v
		}
		return s
	}
	version := def(h.Version, "00501")
	rep := "U"
	if version >= "00501" {
		if d.Repetition == 0 {
			return fmt.Errorf("x12: a %s interchange needs a repetition separator", version)
		}
		rep = byteStrings[int(d.Repetition):][:1]
		if d.Repetition >= utf8.RuneSelf {
			// Refused as it always was: ISA11 was string(rune), two
			// bytes in UTF-8, longer than the field.
			rep = string(rune(d.Repetition))
		}
	}
	ack := "0"
	if h.AckRequested {
		ack = "1"
	}
	date := h.Date
	if date.IsZero() {
		date = time.Now().UTC()
	}
	// The date, time and control number are formatted into one string,
	// not one each (a real-time exchange writes two ISAs).
	var digits [19]byte
	dt := appendISADateTime(digits[:0], date)
	dt = appendZeroPadded(dt, n, 9)
	ds := string(dt)
	control := ds[10:19]
	fields := [16]struct {
		v     string
		width int
	}{
		{}, // ISA00: fields are numbered from 1
		{def(h.AuthQualifier, "00"), 2}, {h.AuthInfo, 10},
		{def(h.SecurityQualifier, "00"), 2}, {h.SecurityInfo, 10},
		{def(h.SenderQualifier, "ZZ"), 2}, {h.SenderID, 15},
		{def(h.ReceiverQualifier, "ZZ"), 2}, {h.ReceiverID, 15},
		{ds[0:6], 6}, {ds[6:10], 4},
		{rep, 1}, {version, 5}, {control, 9},
		{ack, 1}, {def(h.Usage, "P"), 1},
	}
	b := make([]byte, 0, isaLength+2)
	b = append(b, "ISA"...)
	for i := 1; i < len(fields); i++ {
		f := fields[i]
		if len(f.v) > f.width {
			return fmt.Errorf("x12: ISA%02d %q is longer than %d characters", i, f.v, f.width)
		}
		if c, bad := iw.badChar(f.v); bad && !(i == 11 && f.v == rep) {
			return &DataError{Segment: "ISA", Element: i, Char: c}
		}
		b = append(b, d.Element)
		b = append(b, f.v...)
		b = append(b, isaBlanks[:f.width-len(f.v)]...)
	}
	b = append(b, d.Element, d.Component)
	if err := iw.WriteRaw(b); err != nil {
		return err
	}
	iw.controls = Controls{Interchange: control}
	iw.inISA, iw.groups, iw.isaHeader = true, 0, h
	return nil
}

// byteStrings holds every byte value once, in order: byteStrings[c:][:1]
// is c as a string without a conversion's allocation.
var byteStrings = func() string {
	var b [256]byte
	for i := range b {
		b[i] = byte(i)
	}
	return string(b[:])
}()

// isaBlanks pad an ISA field to its width (15 at most).
const isaBlanks = "               "

// appendZeroPadded appends n (not negative) in decimal, zero-padded to
// width digits.
func appendZeroPadded(b []byte, n int64, width int) []byte {
	var tmp [20]byte
	v := strconv.AppendInt(tmp[:0], n, 10)
	for k := len(v); k < width; k++ {
		b = append(b, '0')
	}
	return append(b, v...)
}

// BeginGroup writes a GS.
func (iw *InterchangeWriter) BeginGroup(g GroupHeader) error {
	if !iw.inISA || iw.inGS {
		return fmt.Errorf("%w: BeginGroup needs an open interchange and no open group", ErrEnvelopeOrder)
	}
	n, err := iw.next(GroupControl, g.ControlNumber)
	if err != nil {
		return err
	}
	date := g.Date
	if date.IsZero() {
		date = time.Now().UTC()
	}
	agency := g.Agency
	if agency == "" {
		agency = "X"
	}
	// The date, time and control number formatted into one string, not
	// one each.
	// A year outside 0–9999 has more or fewer than 8 date digits: the
	// time is the 4 digits before the control number.
	var digits [32]byte
	dt := AppendDateTime(digits[:0], date)
	end := len(dt)
	dt = strconv.AppendInt(dt, n, 10)
	ds := string(dt)
	cn := ds[end:]
	if err := iw.WriteSegment("GS", g.FunctionalID, g.SenderCode, g.ReceiverCode,
		ds[:end-4], ds[end-4:end], cn, agency, g.Version); err != nil {
		return err
	}
	iw.controls.Group, iw.controls.Transaction = cn, ""
	iw.inGS, iw.sets = true, 0
	iw.groups++
	return nil
}

// BeginTransaction writes an ST with the next transaction control number
// (at least 4 digits). implementationRef (ST03) may be empty for 4010.
func (iw *InterchangeWriter) BeginTransaction(id, implementationRef string) error {
	if !iw.inGS || iw.inST {
		return fmt.Errorf("%w: BeginTransaction needs an open group and no open transaction", ErrEnvelopeOrder)
	}
	n, err := iw.next(TransactionControl, 0)
	if err != nil {
		return err
	}
	cn := transactionControl(n)
	if err := iw.WriteSegment("ST", id, cn, implementationRef); err != nil {
		return err
	}
	iw.controls.Transaction = cn
	iw.inST = true
	iw.sets++
	iw.stStart = iw.Count() - 1
	return nil
}

// transactionControl is ST02: n with at least 4 digits, as "%04d" writes it.
func transactionControl(n int64) string {
	if n < 0 || n > 9999 {
		return fmt.Sprintf("%04d", n)
	}
	var b [4]byte
	return string(appendZeroPadded(b[:0], n, 4))
}

// EndTransaction writes the SE with the segment count (ST and SE included).
func (iw *InterchangeWriter) EndTransaction() error {
	if !iw.inST {
		return fmt.Errorf("%w: EndTransaction without BeginTransaction", ErrEnvelopeOrder)
	}
	count := iw.Count() - iw.stStart + 1
	if err := iw.WriteSegment("SE", strconv.Itoa(count), iw.controls.Transaction); err != nil {
		return err
	}
	iw.inST = false
	return nil
}

// EndGroup writes the GE with the number of transaction sets.
func (iw *InterchangeWriter) EndGroup() error {
	if !iw.inGS || iw.inST {
		return fmt.Errorf("%w: EndGroup needs an open group and no open transaction", ErrEnvelopeOrder)
	}
	if err := iw.WriteSegment("GE", strconv.Itoa(iw.sets), iw.controls.Group); err != nil {
		return err
	}
	iw.inGS = false
	return nil
}

// EndInterchange writes the IEA with the number of groups and flushes.
func (iw *InterchangeWriter) EndInterchange() error {
	if !iw.inISA || iw.inGS {
		return fmt.Errorf("%w: EndInterchange needs an open interchange and no open group", ErrEnvelopeOrder)
	}
	if err := iw.WriteSegment("IEA", strconv.Itoa(iw.groups), iw.controls.Interchange); err != nil {
		return err
	}
	iw.inISA = false
	return iw.Flush()
}
