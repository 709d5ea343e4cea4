package scenario

import (
	"slices"
	"strings"
)

// EligibilityRequest is what a 270 carries for matching.
type EligibilityRequest struct {
	PayerID          string // the primary directory id
	MemberID         string
	FirstName        string
	LastName         string
	DateOfBirth      string
	ServiceTypeCodes []string
	ProcedureCodes   []string
}

// ClaimRequest is what one claim of an 837 carries for matching.
type ClaimRequest struct {
	PayerID              string
	MemberID             string
	FirstName            string
	LastName             string
	DateOfBirth          string
	ProcedureCodes       []string
	ChargeCents          int64
	PatientControlNumber string
}

// Eligibility returns the first scenario with an eligibility answer that
// matches r, or nil. resolve maps a payer id to its primary id (nil: as is).
func (s *Set) Eligibility(r EligibilityRequest, resolve func(string) string) *Scenario {
	if s == nil {
		return nil
	}
	for _, sc := range s.Scenarios {
		m := &sc.Match
		if sc.Eligibility == nil || !m.person(r.PayerID, r.MemberID, r.FirstName, r.LastName, r.DateOfBirth, resolve) {
			continue
		}
		if len(m.ServiceTypeCodes) > 0 && !anyIn(r.ServiceTypeCodes, m.ServiceTypeCodes) {
			continue
		}
		if len(m.ProcedureCodes) > 0 && !anyIn(r.ProcedureCodes, m.ProcedureCodes) {
			continue
		}
		return sc
	}
	return nil
}

// Claim returns the first scenario with a claim answer that matches r, or
// nil.
func (s *Set) Claim(r ClaimRequest, resolve func(string) string) *Scenario {
	if s == nil {
		return nil
	}
	for _, sc := range s.Scenarios {
		m := &sc.Match
		if sc.Claim == nil || !m.person(r.PayerID, r.MemberID, r.FirstName, r.LastName, r.DateOfBirth, resolve) {
			continue
		}
		if len(m.ProcedureCodes) > 0 && !anyIn(r.ProcedureCodes, m.ProcedureCodes) {
			continue
		}
		if a := m.ClaimAmount; a != nil && ((a.Min != "" && r.ChargeCents < Cents(a.Min)) || (a.Max != "" && r.ChargeCents > Cents(a.Max))) {
			continue
		}
		if sc.pcn != nil && !sc.pcn.MatchString(r.PatientControlNumber) {
			continue
		}
		return sc
	}
	return nil
}

func (m *Match) person(payerID, memberID, first, last, dob string, resolve func(string) string) bool {
	if m.PayerID != "" {
		want := strings.ToUpper(m.PayerID)
		if resolve != nil {
			want = resolve(m.PayerID)
		}
		if !strings.EqualFold(want, payerID) {
			return false
		}
	}
	return (m.MemberID == "" || strings.EqualFold(m.MemberID, strings.TrimSpace(memberID))) &&
		(m.FirstName == "" || strings.EqualFold(m.FirstName, strings.TrimSpace(first))) &&
		(m.LastName == "" || strings.EqualFold(m.LastName, strings.TrimSpace(last))) &&
		(m.DateOfBirth == "" || m.DateOfBirth == strings.TrimSpace(dob))
}

func anyIn(have, want []string) bool {
	for _, h := range have {
		if slices.ContainsFunc(want, func(w string) bool { return strings.EqualFold(w, h) }) {
			return true
		}
	}
	return false
}
