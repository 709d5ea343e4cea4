package mockpayer

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/x12text"
	"github.com/clearhouse/clearhouse/x12"
)

// ErrInvalidInquiry: the request is not a 270 the mock payer can answer
// (not X12, not a 270, a level missing, more than one subscriber).
var ErrInvalidInquiry = payers.ErrInvalidInquiry

// inquiry is what the mock payer reads from a 270.
type inquiry struct {
	text string // the request, whose slices the strings below are

	isaSenderQualifier, isaSenderID string // ISA05, ISA06
	gsSender                        string // GS02
	reference                       string // BHT03

	payerID               string     // 2100A NM109
	provider              rawSegment // 2100B NM1
	subscriber, dependent person
	hasDependent          bool

	serviceTypes []string // EQ01 repetitions
	procedure    string   // EQ02 as "qualifier:code"
}

// person is the 2100C or 2100D of the request.
type person struct {
	first, last, memberID, dob, ssn string
	nm1, dmg                        rawSegment
	traces                          []trace
}

// rawSegment keeps a request segment for echoing: its bytes and the
// request's delimiters.
type rawSegment struct {
	raw []byte
	d   x12.Delimiters
}

func keep(seg *x12.Segment) rawSegment {
	return rawSegment{raw: bytes.Clone(seg.Raw()), d: seg.Delimiters()}
}

func (r rawSegment) present() bool { return r.raw != nil }

// elements splits the kept segment: id first, then its elements.
func (r rawSegment) elements() []string {
	return strings.Split(string(r.raw), string(r.d.Element))
}

// trace is a TRN of the request (TRN02..TRN04).
type trace struct{ number, originator, supplemental string }

// readInquiry parses one 270 interchange with one transaction and one
// subscriber.
func readInquiry(request []byte) (*inquiry, error) {
	r := messageReader(request)
	// The elements kept are slices of one copy of the request, not a
	// string each (x12text.ElementString).
	inq := &inquiry{text: string(request)}
	level := ""
	var sawST, sawSubscriber bool
	for {
		seg, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInvalidInquiry, err)
		}
		switch string(seg.IDBytes()) {
		case "ISA":
			inq.isaSenderQualifier = inq.element(seg, 5)
			inq.isaSenderID = strings.TrimSpace(inq.element(seg, 6))
		case "GS":
			inq.gsSender = inq.element(seg, 2)
		case "ST":
			if sawST {
				return nil, fmt.Errorf("%w: test mode answers one transaction set per 270 interchange", ErrInvalidInquiry)
			}
			if string(seg.ElementBytes(1)) != "270" {
				return nil, fmt.Errorf("%w: transaction set %s is not a 270", ErrInvalidInquiry, inq.element(seg, 1))
			}
			sawST = true
		case "BHT":
			inq.reference = inq.element(seg, 3)
		case "HL":
			level = hlLevel(seg.ElementBytes(3))
			switch level {
			case "22":
				if sawSubscriber {
					return nil, fmt.Errorf("%w: test mode answers one subscriber per 270", ErrInvalidInquiry)
				}
				sawSubscriber = true
			case "23":
				if inq.hasDependent {
					return nil, fmt.Errorf("%w: test mode answers one dependent per 270", ErrInvalidInquiry)
				}
				inq.hasDependent = true
			}
		default:
			inq.levelSegment(level, seg)
		}
	}
	switch {
	case !sawST:
		return nil, fmt.Errorf("%w: no 270 transaction set", ErrInvalidInquiry)
	case inq.payerID == "":
		return nil, fmt.Errorf("%w: no payer (2100A NM1*PR with NM109)", ErrInvalidInquiry)
	case !inq.provider.present():
		return nil, fmt.Errorf("%w: no information receiver (2100B NM1)", ErrInvalidInquiry)
	case !inq.subscriber.nm1.present():
		return nil, fmt.Errorf("%w: no subscriber (2100C NM1*IL)", ErrInvalidInquiry)
	case inq.hasDependent && !inq.dependent.nm1.present():
		return nil, fmt.Errorf("%w: dependent level without 2100D NM1*03", ErrInvalidInquiry)
	case len(inq.serviceTypes) == 0 && inq.procedure == "":
		return nil, fmt.Errorf("%w: no EQ service type or procedure", ErrInvalidInquiry)
	}
	return inq, nil
}

// element is element n of seg, "" if absent.
func (inq *inquiry) element(seg *x12.Segment, n int) string {
	return x12text.ElementString(inq.text, seg, seg.ElementBytes(n))
}

// levelSegment records a segment of the HL level it appears in.
func (inq *inquiry) levelSegment(level string, seg *x12.Segment) {
	p := &inq.subscriber
	if level == "23" {
		p = &inq.dependent
	}
	switch string(seg.IDBytes()) {
	case "NM1":
		switch level {
		case "20":
			inq.payerID = inq.element(seg, 9)
		case "21":
			inq.provider = keep(seg)
		case "22", "23":
			p.nm1 = keep(seg)
			p.last, p.first = inq.element(seg, 3), inq.element(seg, 4)
			if level == "22" {
				p.memberID = inq.element(seg, 9)
			}
		}
	case "TRN":
		if level == "22" || level == "23" {
			p.traces = append(p.traces, trace{inq.element(seg, 2), inq.element(seg, 3), inq.element(seg, 4)})
		}
	case "REF":
		if (level == "22" || level == "23") && string(seg.ElementBytes(1)) == "SY" {
			p.ssn = inq.element(seg, 2)
		}
	case "DMG":
		if level == "22" || level == "23" {
			p.dmg = keep(seg)
			p.dob = inq.element(seg, 2)
		}
	case "EQ":
		if len(inq.serviceTypes) == 0 && inq.procedure == "" {
			inq.serviceTypes = serviceTypes(seg)
			if q, code := seg.Component(2, 1), seg.Component(2, 2); code != "" {
				inq.procedure = q + ":" + code
			}
		}
	}
}

func serviceTypes(seg *x12.Segment) []string {
	if len(seg.ElementBytes(1)) == 0 {
		return nil
	}
	return seg.Repetitions(1)
}

// hlLevel returns HL03 as one of the four level codes (no allocation), or
// "" for anything else.
func hlLevel(b []byte) string {
	for _, l := range []string{"20", "21", "22", "23"} {
		if string(b) == l {
			return l
		}
	}
	return ""
}

// messageReader reads one real-time message (a 270 or 276 of a few hundred
// bytes) in place, without the buffer of its own a reader of a stream
// needs (its 64 KiB default was a third of the bytes a mock check
// allocated).
func messageReader(b []byte) *x12.Reader {
	return x12.NewBytesReader(b)
}
