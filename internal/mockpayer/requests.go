package mockpayer

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/clearhouse/clearhouse/internal/payers"
)

// MockRequest is one published mock eligibility request: the scenario it
// demonstrates and the request itself in the eligibility request JSON shape
// (json.Marshal of a MockRequest, or RequestJSON, is a ready-to-send body).
type MockRequest struct {
	// Name is a stable identifier ("uhc-dependent", "uhc-aaa-42").
	Name string `json:"-"`
	// Scenario describes what the mock demonstrates.
	Scenario string `json:"-"`
	// Row is the scenario's row in the published mock table.
	Row int `json:"-"`
	// PayerName is the directory name of the payer.
	PayerName string `json:"-"`
	// Outcome summarises the answer: "active coverage", "inactive
	// coverage", "payer rejection AAA 42 at Loop 2100A", ...
	Outcome string `json:"-"`

	TradingPartnerServiceID string    `json:"tradingPartnerServiceId"`
	ControlNumber           string    `json:"controlNumber,omitempty"`
	Provider                Provider  `json:"provider"`
	Subscriber              Person    `json:"subscriber"`
	Dependents              []Person  `json:"dependents,omitempty"`
	Encounter               Encounter `json:"encounter"`
}

// Provider is the request's information receiver.
type Provider struct {
	OrganizationName string `json:"organizationName,omitempty"`
	FirstName        string `json:"firstName,omitempty"`
	LastName         string `json:"lastName,omitempty"`
	NPI              string `json:"npi"`
}

// Person is a subscriber or dependent as the mock request sends them.
type Person struct {
	FirstName   string `json:"firstName,omitempty"`
	LastName    string `json:"lastName,omitempty"`
	MemberID    string `json:"memberId,omitempty"`
	DateOfBirth string `json:"dateOfBirth,omitempty"`
	SSN         string `json:"ssn,omitempty"`
}

// Encounter carries the service type codes or the procedure code.
type Encounter struct {
	ServiceTypeCodes            []string `json:"serviceTypeCodes,omitempty"`
	ProcedureCode               string   `json:"procedureCode,omitempty"`
	ProductOrServiceIDQualifier string   `json:"productOrServiceIDQualifier,omitempty"`
}

// RequestJSON is the request body to POST to the eligibility endpoint with
// a test API key.
func (m MockRequest) RequestJSON() []byte {
	b, err := json.Marshal(m)
	if err != nil {
		// Only strings and slices of strings: marshalling cannot fail.
		panic(err)
	}
	return b
}

// Requests returns every published mock request, in the order of the
// published mock table. The slice and its contents are the caller's.
func Requests() []MockRequest {
	scs, err := fixtures()
	if err != nil {
		panic(err) // the embedded fixtures are checked by the package tests
	}
	out := make([]MockRequest, len(scs))
	for i, s := range scs {
		out[i] = s.mockRequest()
	}
	return out
}

func (s *scenario) mockRequest() MockRequest {
	m := s.request
	m.Name, m.Scenario, m.Row, m.Outcome = s.name, s.title, s.row, s.outcome()
	m.PayerName = s.payer.Name
	if p, ok := payers.Default().Lookup(m.TradingPartnerServiceID); ok {
		m.PayerName = p.Name
	}
	m.Dependents = slices.Clone(m.Dependents)
	m.Encounter.ServiceTypeCodes = slices.Clone(m.Encounter.ServiceTypeCodes)
	return m
}

func (s *scenario) outcome() string {
	if s.reject != nil {
		return fmt.Sprintf("payer rejection AAA %s at Loop %s", aaaCode(s.rejectAAA.line), s.reject.Loop)
	}
	benefits := s.subscriberBenefits
	if len(s.dependent) > 0 {
		benefits = s.dependentBenefits
	}
	if strings.HasPrefix(benefits[0].line, "EB*6*") {
		return "inactive coverage"
	}
	return "active coverage"
}

// aaaCode returns AAA03 of an AAA line.
func aaaCode(line string) string {
	parts := strings.Split(line, "*")
	if len(parts) > 3 {
		return parts[3]
	}
	return ""
}
