package guide

import (
	"fmt"
	"io"

	"github.com/clearhouse/clearhouse/x12"
)

// SetValidator plugs guide validation into the envelope validator
// (x12.ValidateOptions.Sets): each transaction set is checked against the
// guide its GS08/ST01/ST03 name. Sets without a guide get one Info finding.
type SetValidator struct {
	v      *Validator
	active bool
	pick   func(h x12.SetHeader) (*Guide, bool)
	g      *Guide
}

// NewSetValidator returns an x12.SetValidator that validates with the
// embedded guides.
func NewSetValidator(opts Options) *SetValidator {
	return &SetValidator{v: NewValidator(opts), pick: func(h x12.SetHeader) (*Guide, bool) {
		return For(h.GroupVersion, h.ID, h.ImplementationRef)
	}}
}

// WithGuide makes the SetValidator use g for every set whose ST01 is g's
// transaction, whatever its version says (e.g. to read a 4010 file against
// the 5010 guide, or to apply a companion guide).
func (s *SetValidator) WithGuide(g *Guide) *SetValidator {
	s.pick = func(h x12.SetHeader) (*Guide, bool) {
		if h.ID == g.Transaction {
			return g, true
		}
		return nil, false
	}
	return s
}

// Fork implements x12.ForkingSetValidator: a SetValidator with the same
// options and guide choice and a Validator of its own, so that x12.Validate
// can check sets on several goroutines.
func (s *SetValidator) Fork() x12.SetValidator {
	v := NewValidator(s.v.opts)
	v.slowOnly = s.v.slowOnly
	return &SetValidator{v: v, pick: s.pick}
}

// BeginSet implements x12.SetValidator.
func (s *SetValidator) BeginSet(h x12.SetHeader, report func(x12.Finding)) {
	s.active = false
	g, ok := s.pick(h)
	if !ok {
		version := h.ImplementationRef
		if version == "" {
			version = h.GroupVersion
		}
		report(x12.Finding{Severity: x12.Info, Code: CodeNoGuide, Offset: h.Offset, SegmentID: "ST", Position: 1,
			Message: fmt.Sprintf("no implementation guide for %s %s: only the envelope was checked", clip(h.ID), clip(version))})
		return
	}
	s.g, s.active = g, true
}

// Segment implements x12.SetValidator.
func (s *SetValidator) Segment(seg *x12.Segment, position int, report func(x12.Finding)) {
	if !s.active {
		return
	}
	if position == 1 {
		s.v.Begin(s.g, seg, report)
		return
	}
	s.v.report = report
	s.v.step(seg)
}

// EndSet implements x12.SetValidator.
func (s *SetValidator) EndSet(report func(x12.Finding)) {
	if !s.active {
		return
	}
	s.v.report = report
	s.v.End()
	s.active = false
}

// Validate reads X12 from r and checks its envelopes (package x12) and every
// transaction set that has a guide. Findings are in the report, filed under
// their envelopes; x12.WriteAcks renders them as TA1 and 999.
func Validate(r io.Reader, opts Options, readerOpts ...x12.ReaderOption) (*x12.Report, error) {
	return x12.Validate(r, x12.ValidateOptions{Reader: readerOpts, Sets: NewSetValidator(opts)})
}

// ValidateTransaction checks one transaction set, given as its segments from
// ST to SE, against the guide its ST01/ST03 name (gs08 is used when ST03 is
// empty). Builders use it to test what they generate ("every 270 we build
// passes the guide"). It returns an error when no guide matches.
func ValidateTransaction(gs08 string, segments []*x12.Segment, opts Options) ([]x12.Finding, error) {
	if len(segments) == 0 || string(segments[0].IDBytes()) != "ST" {
		return nil, fmt.Errorf("guide: a transaction set starts with ST")
	}
	st := segments[0]
	g, ok := For(gs08, st.Element(1), st.Element(3))
	if !ok {
		return nil, fmt.Errorf("guide: no guide for %s %s", clip(st.Element(1)), clip(st.Element(3)+gs08))
	}
	var out []x12.Finding
	v := NewValidator(opts)
	v.Begin(g, st, func(f x12.Finding) { out = append(out, f) })
	for _, seg := range segments[1:] {
		v.step(seg)
	}
	v.End()
	return out, nil
}
