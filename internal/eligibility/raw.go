package eligibility

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/x12"
)

// RawRequest is the body of the raw-X12 sibling endpoint
// (…/eligibility/v3/raw-x12).
type RawRequest struct {
	X12                 RawX12 `json:"x12"`
	ExternalPatientID   string `json:"externalPatientId,omitempty"`
	EligibilitySearchID string `json:"eligibilitySearchId,omitempty"`
}

// rawInquiry is the caller's 270 transaction set, read and checked.
type rawInquiry struct {
	payerID  string
	bht03    string         // the caller's transaction identifier, kept in the 270
	segments []*x12.Segment // ST..SE exclusive, in the caller's delimiters
}

// CheckRawX12 runs a check from a caller's own 270: it takes the one
// 005010X279A1 transaction set from the X12 (enveloped or a bare ST..SE),
// routes by its payer (2100A NM109), sends it in an envelope of ours (our
// sender id, control numbers and usage indicator: payers check those, not
// the caller's), and answers like Check. The response carries the 271 in
// x12 as always.
func (s *Service) CheckRawX12(ctx context.Context, caller Caller, raw *RawRequest) (*Result, error) {
	requestJSON := storedRawRequest(raw)
	res, started := s.begin("")
	err := s.checkRawX12(ctx, caller, raw, res)
	s.finish(ctx, caller, res, requestJSON, started)
	return res, err
}

func (s *Service) checkRawX12(ctx context.Context, caller Caller, raw *RawRequest, res *Result) error {
	inq, fieldErr := readRawInquiry(raw.X12)
	if fieldErr != nil {
		res.fail(http.StatusBadRequest, StatusInvalid, &Problem{Code: CodeValidation, Message: validationMessage(1), FieldList: []FieldError{*fieldErr}})
		return nil
	}
	var known *payers.Payer
	if p, ok := s.cfg.Router.Directory().Lookup(inq.payerID); ok {
		known = &p
	}
	route, ok := s.route(res, caller, inq.payerID, known)
	if !ok {
		return nil
	}
	trace := strings.ToUpper(store.NewID())
	out, controls, err := s.reenvelope(inq, route.Payer, caller.Mode == payers.ModeTest, res)
	if s.storageFailed(res, err) {
		return nil
	}
	if err != nil {
		var de *x12.DataError
		if errors.As(err, &de) {
			res.fail(http.StatusBadRequest, StatusInvalid, &Problem{Code: CodeValidation, Message: validationMessage(1),
				FieldList: []FieldError{{Path: "/x12", Message: fmt.Sprintf("%s%02d contains %q, which the 270 sent to the payer uses as a delimiter; remove it", de.Segment, de.Element, de.Char)}}})
			return nil
		}
		res.fail(http.StatusInternalServerError, StatusError, &Problem{Code: CodeInternal, Message: "The 270 could not be rewritten; quote " + res.ID + " when reporting it."})
		return fmt.Errorf("eligibility: raw check %s: %w", res.ID, err)
	}
	res.X12Request, res.ControlNumber, res.SubmitterControlNumber = out, controls.Interchange, inq.bht03
	s.exchange(ctx, caller, route, res, trace)
	return nil
}

// Limits on a caller's raw X12. A real-time 270 is a few dozen segments of
// at most a few hundred bytes; without these a body of tiny segments (each
// kept with its element index) cost a hundred times its size in memory.
const (
	// MaxRawSegments caps the segments of the whole X12 (envelope included).
	MaxRawSegments = 1000
	// MaxRawSegmentBytes caps one segment.
	MaxRawSegmentBytes = 4096
	// rawDelimiterScan is how much of the text readerOptions looks at.
	rawDelimiterScan = 64 << 10
)

// maxStoredRawX12 is how much of a caller's X12 history keeps: all of any
// real 270, while a body of megabytes (refused for its size) costs neither
// megabytes of disk per request nor another copy of it in memory.
const maxStoredRawX12 = 64 << 10

// storedRawRequest is the request as history keeps it.
func storedRawRequest(raw *RawRequest) []byte {
	if len(raw.X12) <= maxStoredRawX12 {
		b, _ := json.Marshal(raw)
		return b
	}
	b, _ := json.Marshal(struct {
		RawRequest
		X12Bytes int `json:"x12Bytes"`
	}{RawRequest{X12: raw.X12[:maxStoredRawX12], ExternalPatientID: raw.ExternalPatientID,
		EligibilitySearchID: raw.EligibilitySearchID}, len(raw.X12)})
	return b
}

// readRawInquiry finds the single 270 in the caller's X12.
func readRawInquiry(text []byte) (*rawInquiry, *FieldError) {
	bad := func(format string, args ...any) (*rawInquiry, *FieldError) {
		return nil, &FieldError{Path: "/x12", Message: fmt.Sprintf(format, args...)}
	}
	if len(bytes.TrimSpace(text)) == 0 {
		return bad("is required: one 005010X279A1 270 transaction set, enveloped (ISA…IEA) or bare (ST…SE)")
	}
	// The delimiters are told by the start of the text.
	head := text[:min(len(text), rawDelimiterScan)]
	rd := x12.NewReader(bytes.NewReader(text), append(readerOptions(head), x12.WithMaxSegmentSize(MaxRawSegmentBytes))...)
	inq := &rawInquiry{}
	sets, in, level, count := 0, false, "", 0
	for {
		seg, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return bad("could not be read as X12: %v", err)
		}
		if count++; count > MaxRawSegments {
			return bad("holds more than %d segments; a real-time 270 asks about one subscriber (or dependent) in a few dozen segments, so send one inquiry per request", MaxRawSegments)
		}
		switch seg.ID() {
		case "ST":
			if seg.Element(1) != "270" {
				return bad("holds a %s transaction set; this endpoint takes one 270", seg.Element(1))
			}
			if v := seg.Element(3); v != "" && v != Version270 && v != "005010X279" {
				return bad("ST03 is %q; send a 005010X279A1 270", v)
			}
			sets++
			in = true
			continue
		case "SE":
			in = false
			continue
		case "BHT":
			if in && sets == 1 {
				inq.bht03 = seg.Element(3)
			}
		case "HL":
			level = seg.Element(3)
		case "NM1":
			if level == levelSource && seg.Element(1) == "PR" && inq.payerID == "" {
				inq.payerID = seg.Element(9)
			}
		}
		if in && sets == 1 {
			inq.segments = append(inq.segments, seg.Clone())
		}
	}
	switch {
	case sets == 0:
		return bad("holds no 270 transaction set (ST*270…SE)")
	case sets > 1:
		return bad("holds %d transaction sets; a real-time check takes exactly one, so send one request per 270", sets)
	case inq.payerID == "":
		return bad("names no payer: loop 2100A needs NM1*PR with the payer id in NM109")
	}
	return inq, nil
}

// reenvelope writes the caller's transaction set in our envelope and
// delimiters.
func (s *Service) reenvelope(inq *rawInquiry, payer payers.Payer, test bool, res *Result) ([]byte, x12.Controls, error) {
	env := s.cfg.Envelope.withDefaults(payer.ID)
	usage := "P"
	if test {
		usage = "T"
	}
	var buf bytes.Buffer
	iw := x12.NewInterchangeWriter(&buf, x12.Delimiters{
		Element: elementSeparator, Repetition: repetitionSeparator, Component: componentSeparator, Segment: segmentTerminator,
	}, s.cfg.Numbers)
	b := &builder{w: iw}
	b.do(func() error {
		return iw.BeginInterchange(x12.InterchangeHeader{SenderQualifier: env.SenderQualifier, SenderID: env.SenderID,
			ReceiverQualifier: env.ReceiverQualifier, ReceiverID: env.ReceiverID, Date: res.CreatedAt, Usage: usage})
	})
	b.do(func() error {
		return iw.BeginGroup(x12.GroupHeader{FunctionalID: functional270, SenderCode: env.SenderID,
			ReceiverCode: env.ReceiverID, Date: res.CreatedAt, Version: Version270})
	})
	b.do(func() error { return iw.BeginTransaction("270", Version270) })
	for _, seg := range inq.segments {
		b.fields(seg.ID(), translateElements(seg)...)
	}
	b.do(iw.EndTransaction)
	b.do(iw.EndGroup)
	b.do(iw.EndInterchange)
	return buf.Bytes(), iw.Controls(), b.err
}

// translateElements re-expresses a segment's elements as writer fields, so
// they are written with our delimiters whatever the caller used.
func translateElements(seg *x12.Segment) []x12.Field {
	d := seg.Delimiters()
	fields := make([]x12.Field, seg.Len())
	for i := range fields {
		e := seg.ElementBytes(i + 1)
		reps := [][]byte{e}
		if d.Repetition != 0 {
			reps = bytes.Split(e, []byte{d.Repetition})
		}
		parts := make([]x12.Field, len(reps))
		for j, r := range reps {
			comps := strings.Split(string(r), string(d.Component))
			if len(comps) == 1 {
				parts[j] = x12.Simple(comps[0])
			} else {
				parts[j] = x12.Composite(comps...)
			}
		}
		if len(parts) == 1 {
			fields[i] = parts[0]
		} else {
			fields[i] = x12.Repeated(parts...)
		}
	}
	return fields
}
