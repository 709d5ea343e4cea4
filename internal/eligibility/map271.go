package eligibility

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/clearhouse/clearhouse/internal/x12text"
	"github.com/clearhouse/clearhouse/x12"
)

// ErrNot271 is returned by Map271 for input that holds neither a 271 nor a
// 999 transaction set.
var ErrNot271 = errors.New("eligibility: the response is not a 271 or 999 transaction set")

// Map271 turns a payer's answer into the contract's response
// (api-contract.md §1.3–§1.5). It reads any 271 — ours, a payer's, a 4010
// one, a bare ST..SE fragment — segment by segment, and reports what the
// 271 says: a payer that returns a dependent in loop 2100C gets it in
// Subscriber, one that uses 2000D gets it in Dependents. A 999 answer fills
// TransactionSetAcknowledgement and ImplementationTransactionSetSyntaxError.
//
// Only the first 271 transaction set and its first subscriber loop are
// mapped (a real-time 271 has exactly one); more produce a warning.
// Malformed input never panics: whatever was read before the problem is
// returned with a warning, and an error only when nothing usable was found.
// The response's X12 field is left for the caller to fill.
func Map271(data []byte) (*Response, error) {
	return map271(data, string(data))
}

// map271 is Map271 with data also as a string, text: the response's strings
// are slices of it (checked, see segment.str) rather than a copy each, so
// the caller that keeps text as the response's X12 pays for one copy of
// the answer, not for one per element.
func map271(data []byte, text string) (*Response, error) {
	m := newMapper()
	// Benefits are most of a 271 and of its mapping: size the list once
	// (an upper bound: "EB" may also occur inside other segments) rather
	// than growing it, since each item is half a kilobyte.
	if n := benefitCount(data); n > 0 {
		m.resp.BenefitsInformation = make([]BenefitsInformation, 0, min(n, 1024))
	}
	// A real-time 271 is a few kilobytes, all in memory: the reader reads
	// it in place rather than copying it into a buffer of its own.
	rd := x12.NewBytesReader(data, readerOptions(data)...)
	for {
		seg, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if !m.seenTransaction {
				return nil, fmt.Errorf("eligibility: reading the 271: %w", err)
			}
			m.warn("response::x12::unreadable", "the payer's answer could not be read to the end; the data before the problem is shown: "+err.Error())
			break
		}
		m.segment(segment{seg, text})
	}
	if !m.seenTransaction {
		return nil, ErrNot271
	}
	return m.finish(), nil
}

// benefitCount is at least the number of EB segments in data, for sizing
// the list of benefits. An interchange's terminator is the ISA's last
// byte, so its EB segments are counted where they begin (a few dozen
// looks); anything else by every "EB" in it.
func benefitCount(data []byte) int {
	if len(data) < 106 || string(data[:3]) != "ISA" {
		return bytes.Count(data, []byte("EB"))
	}
	term, n := data[105], 0
	for i := 106; ; {
		j := bytes.IndexByte(data[i:], term)
		if j < 0 {
			return n
		}
		i += j + 1
		k := i
		for k < len(data) && (data[k] == '\r' || data[k] == '\n') {
			k++
		}
		if k+1 < len(data) && data[k] == 'E' && data[k+1] == 'B' {
			n++
		}
	}
}

// readerOptions supplies delimiters for a bare ST..SE fragment, which has no
// ISA to take them from: the element separator follows "ST", the terminator
// is "~" when present, else a line break.
func readerOptions(data []byte) []x12.ReaderOption {
	trimmed := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF")), " \t\r\n")
	if !bytes.HasPrefix(trimmed, []byte("ST")) || len(trimmed) < 3 {
		return nil
	}
	d := x12.Delimiters{Element: trimmed[2], Component: ':', Segment: '\n'}
	if bytes.IndexByte(trimmed, '~') >= 0 {
		d.Segment = '~'
	}
	for _, rep := range []byte{'^', '>'} {
		if rep != d.Element && bytes.IndexByte(trimmed, rep) >= 0 {
			d.Repetition = rep
			break
		}
	}
	return []x12.ReaderOption{x12.WithDelimiters(d)}
}

// segment is a segment of the answer being mapped together with the whole
// answer as a string: its Element and Component return slices of that
// string instead of a copy each (a mock 271 has ~50 elements the response
// shows), and the response keeps the string as its X12 anyway.
type segment struct {
	*x12.Segment
	text string
}

// Element is element n (1-based) of the segment, "" if absent.
func (s segment) Element(n int) string { return s.str(s.ElementBytes(n)) }

// Component is component c of element n, "" if absent.
func (s segment) Component(n, c int) string { return s.str(s.ComponentBytes(n, c)) }

// str is b as a string: a slice of text when it holds b's bytes at b's
// place, else a copy (x12text.ElementString).
func (s segment) str(b []byte) string { return x12text.ElementString(s.text, s.Segment, b) }

// Loop levels by HL03 code.
const (
	levelSource     = "20"
	levelReceiver   = "21"
	levelSubscriber = "22"
	levelDependent  = "23"
)

// mapper is the state of one Map271 walk.
type mapper struct {
	resp *Response

	seenTransaction bool // an ST*271 or ST*999 was read
	inTransaction   bool // between that ST and its SE
	done            bool // the first transaction set is complete
	isAck           bool // the transaction set is a 999

	level     string // HL03 of the current hierarchical level
	named     bool   // the level's 2100 NM1 has been read
	skipLevel bool   // inside a second subscriber (and its dependents)

	person   *ResponsePerson // subscriber or current dependent
	benefit  int             // index of the current EB in BenefitsInformation, -1 before one
	entity   *BenefitsRelatedEntity
	in2120   bool
	subCount int

	arena []string // see strings

	subscriberRefs, dependentRefs   map[string]string
	subscriberDates, dependentDates map[string]string
}

// strings is an empty slice with room for n strings, cut from one backing
// array shared by the response's short lists (each EB's service type codes
// and names): one allocation for many instead of two per benefit. Its
// capacity is exactly n, so an append to one list never writes into the
// next.
func (m *mapper) strings(n int) []string {
	if n == 0 {
		return nil
	}
	if n > cap(m.arena)-len(m.arena) {
		m.arena = make([]string, 0, max(n, 128))
	}
	out := m.arena[len(m.arena) : len(m.arena) : len(m.arena)+n]
	m.arena = m.arena[:len(m.arena)+n]
	return out
}

func newMapper() *mapper {
	return &mapper{resp: &Response{Errors: []AAAError{}}, benefit: -1}
}

func (m *mapper) warn(code, description string) {
	m.resp.Warnings = append(m.resp.Warnings, Warning{Code: code, Description: description})
}

// segment dispatches one segment by id and the loop it appears in.
func (m *mapper) segment(s segment) {
	// The id as bytes: a switch on string(id) compares without the
	// string Segment.ID would look up in a map for every segment.
	id := s.IDBytes()
	switch string(id) {
	case "ISA":
		if m.resp.ControlNumber == "" {
			m.resp.ControlNumber = strings.TrimSpace(s.Element(13))
			m.resp.ReassociationKey = m.resp.ControlNumber
			m.meta().ApplicationMode = applicationMode(strings.TrimSpace(s.Element(15)))
		}
		return
	case "ST":
		switch {
		case m.done || m.inTransaction:
			m.warn("response::271::additional_transaction_ignored", "the answer holds more than one transaction set; only the first is shown")
			m.done = true
		case s.Element(1) == "271" || s.Element(1) == "999":
			m.seenTransaction, m.inTransaction = true, true
			m.isAck = s.Element(1) == "999"
		}
		return
	case "SE":
		if m.inTransaction {
			m.inTransaction, m.done = false, true
		}
		return
	}
	if !m.inTransaction || m.done {
		return
	}
	if m.isAck {
		m.ackSegment(s)
		return
	}
	if string(id) == "HL" {
		m.hl(s)
		return
	}
	if m.skipLevel {
		return
	}
	switch string(id) {
	case "BHT":
		m.meta().TraceID = s.Element(3)
	case "TRN":
		if m.level == levelSubscriber || m.level == levelDependent {
			m.resp.SubscriberTraceNumbers = append(m.resp.SubscriberTraceNumbers, traceNumber(s))
		}
	case "NM1":
		m.nm1(s)
	case "N3", "N4":
		if addr := m.addressTarget(); addr != nil {
			applyAddress(addr, s)
		}
	case "PER":
		m.per(s)
	case "PRV":
		m.prv(s)
	case "REF":
		m.ref(s)
	case "DTP":
		m.dtp(s)
	case "DMG":
		if m.person != nil && m.benefit < 0 {
			m.person.DateOfBirth = s.Element(2)
			m.person.Gender = s.Element(3)
		}
	case "INS":
		m.ins(s)
	case "HI":
		m.hi(s)
	case "MPI":
		m.mpi(s)
	case "AAA":
		m.aaa(s)
	case "EB":
		m.eb(s)
	case "HSD":
		if b := m.currentBenefit(); b != nil {
			b.BenefitsServiceDelivery = append(b.BenefitsServiceDelivery, serviceDelivery(s))
		}
	case "MSG":
		if b := m.currentBenefit(); b != nil {
			b.AdditionalInformation = append(b.AdditionalInformation, AdditionalInformation{Description: s.Element(1)})
		}
	case "III":
		if b := m.currentBenefit(); b != nil {
			b.EligibilityAdditionalInformationList = append(b.EligibilityAdditionalInformationList, additionalInformation(s))
		}
	case "LS":
		if b := m.currentBenefit(); b != nil {
			b.HeaderLoopIdentifierCode = s.Element(1)
			m.in2120 = true
		}
	case "LE":
		if b := m.currentBenefit(); b != nil {
			b.TrailerLoopIdentifierCode = s.Element(1)
		}
		m.in2120, m.entity = false, nil
	}
}

func (m *mapper) meta() *Meta {
	if m.resp.Meta == nil {
		m.resp.Meta = &Meta{}
	}
	return m.resp.Meta
}

func applicationMode(isa15 string) string {
	switch isa15 {
	case "T":
		return "test"
	case "P":
		return "production"
	case "I":
		return "information"
	}
	return ""
}

// hl starts a hierarchical level: 20 payer, 21 provider, 22 subscriber, 23
// dependent. Only the first subscriber and its dependents are mapped.
func (m *mapper) hl(s segment) {
	m.level, m.named = s.Element(3), false
	m.benefit, m.entity, m.in2120 = -1, nil, false
	m.person = nil
	switch m.level {
	case levelSource, levelReceiver:
		m.skipLevel = m.subCount > 0 // a new payer/provider after a subscriber starts another inquiry
	case levelSubscriber:
		m.subCount++
		m.skipLevel = m.subCount > 1
		if m.subCount == 2 {
			m.warn("response::271::additional_subscriber_ignored", "the 271 answers for more than one subscriber; only the first is shown")
		}
		if !m.skipLevel {
			if m.resp.Subscriber == nil {
				m.resp.Subscriber = &ResponsePerson{}
			}
			m.person = m.resp.Subscriber
		}
	case levelDependent:
		if !m.skipLevel {
			m.resp.Dependents = append(m.resp.Dependents, ResponsePerson{})
			m.person = &m.resp.Dependents[len(m.resp.Dependents)-1]
		}
	}
}

// currentBenefit is the EB the following 2110–2120 segments belong to.
func (m *mapper) currentBenefit() *BenefitsInformation {
	if m.benefit < 0 {
		return nil
	}
	return &m.resp.BenefitsInformation[m.benefit]
}

// loop names the loop a segment at this point of the walk belongs to, for
// AAA locations ("2100C").
func (m *mapper) loop() string {
	var suffix string
	switch m.level {
	case levelSource:
		suffix = "A"
	case levelReceiver:
		suffix = "B"
	case levelSubscriber:
		suffix = "C"
	case levelDependent:
		suffix = "D"
	default:
		return "Header"
	}
	switch {
	case m.in2120:
		return "2120" + suffix
	case m.benefit >= 0:
		return "2110" + suffix
	case m.named:
		return "2100" + suffix
	}
	return "2000" + suffix
}

// finish settles what depends on the whole 271: plan dates (the
// dependent's replace the subscriber's when it has any) and plan
// information (the dependent's win per key).
func (m *mapper) finish() *Response {
	r := m.resp
	refs := m.subscriberRefs
	for k, v := range m.dependentRefs {
		if refs == nil {
			refs = map[string]string{}
		}
		refs[k] = v
	}
	r.PlanInformation = refs
	r.PlanDateInformation = m.subscriberDates
	if len(m.dependentDates) > 0 {
		r.PlanDateInformation = m.dependentDates
	}
	// The deprecated singular fields repeat the first list item, for
	// clients written against the older shape.
	for i := range r.BenefitsInformation {
		b := &r.BenefitsInformation[i]
		if len(b.BenefitsRelatedEntities) > 0 {
			first := b.BenefitsRelatedEntities[0]
			b.BenefitsRelatedEntity = &first
		}
		if len(b.EligibilityAdditionalInformationList) > 0 {
			first := b.EligibilityAdditionalInformationList[0]
			b.EligibilityAdditionalInformation = &first
		}
	}
	return r
}

// ackSegment reads the parts of a 999 the contract surfaces.
func (m *mapper) ackSegment(s segment) {
	switch string(s.IDBytes()) {
	case "IK5":
		m.resp.TransactionSetAcknowledgement = s.Element(1)
		m.resp.ImplementationTransactionSetSyntaxError = s.Element(2)
	case "AK9":
		if m.resp.TransactionSetAcknowledgement == "" {
			m.resp.TransactionSetAcknowledgement = s.Element(1)
		}
	}
}
