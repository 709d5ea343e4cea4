package statusinquiry

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/clearhouse/clearhouse/internal/reports"
	"github.com/clearhouse/clearhouse/x12"
)

// Response is the contract's claim status answer.
type Response struct {
	Meta                    Meta       `json:"meta"`
	ControlNumber           string     `json:"controlNumber,omitempty"`
	TradingPartnerServiceID string     `json:"tradingPartnerServiceId,omitempty"`
	Payer                   *Payer     `json:"payer,omitempty"`
	Providers               []Provider `json:"providers,omitempty"`
	Subscriber              *Person    `json:"subscriber,omitempty"`
	Dependent               *Person    `json:"dependent,omitempty"`
	Claims                  []Claim    `json:"claims"`
	ReassociationKey        string     `json:"reassociationKey,omitempty"`
	Status                  string     `json:"status,omitempty"`
	X12                     string     `json:"x12,omitempty"`
}

// Meta is the answer's metadata.
type Meta struct {
	ApplicationMode string `json:"applicationMode,omitempty"`
	TraceID         string `json:"traceId,omitempty"`
	SenderID        string `json:"senderId,omitempty"`
	SubmitterID     string `json:"submitterId,omitempty"`
	BillerID        string `json:"billerId,omitempty"`
}

// Payer is the information source (2100A).
type Payer struct {
	OrganizationName    string `json:"organizationName,omitempty"`
	PayerIdentification string `json:"payerIdentification,omitempty"`
	CMSPlanID           string `json:"centersForMedicareAndMedicaidServicePlanId,omitempty"`
}

// Person is a subscriber or dependent as the payer names them.
type Person struct {
	FirstName string `json:"firstName,omitempty"`
	LastName  string `json:"lastName,omitempty"`
	MemberID  string `json:"memberId,omitempty"`
	Suffix    string `json:"suffix,omitempty"`
}

// Claim is one claim's status (2200D/E) with its lines (2220D/E).
type Claim struct {
	ClaimStatus    ClaimStatus     `json:"claimStatus"`
	ServiceDetails []ServiceDetail `json:"serviceDetails,omitempty"`
}

// ClaimStatus is a claim's first STC with the claim's identifiers; dates
// of the STC are written CCYY-MM-DD, as the contract's answers show them.
type ClaimStatus struct {
	StatusCategoryCode        string `json:"statusCategoryCode,omitempty"`
	StatusCategoryCodeValue   string `json:"statusCategoryCodeValue,omitempty"`
	StatusCode                string `json:"statusCode,omitempty"`
	StatusCodeValue           string `json:"statusCodeValue,omitempty"`
	EntityCode                string `json:"entityCode,omitempty"`
	Entity                    string `json:"entity,omitempty"`
	EffectiveDate             string `json:"effectiveDate,omitempty"`
	SubmittedAmount           string `json:"submittedAmount,omitempty"`
	AmountPaid                string `json:"amountPaid,omitempty"`
	PaidDate                  string `json:"paidDate,omitempty"`
	CheckIssueDate            string `json:"checkIssueDate,omitempty"`
	CheckNumber               string `json:"checkNumber,omitempty"`
	TrackingNumber            string `json:"trackingNumber,omitempty"`
	TradingPartnerClaimNumber string `json:"tradingPartnerClaimNumber,omitempty"`
	PatientAccountNumber      string `json:"patientAccountNumber,omitempty"`
	ClearingHouseClaimNumber  string `json:"clearingHouseClaimNumber,omitempty"`
	ClaimServiceDate          string `json:"claimServiceDate,omitempty"`
}

// ServiceDetail is one line's status.
type ServiceDetail struct {
	Service LineService  `json:"service"`
	Status  []LineStatus `json:"status,omitempty"`
}

// LineService is the line as the payer reports it (SVC).
type LineService struct {
	ServiceIDQualifierCode string   `json:"serviceIdQualifierCode,omitempty"`
	ServiceIDQualifier     string   `json:"serviceIdQualifier,omitempty"`
	ProcedureID            string   `json:"procedureId,omitempty"`
	ProcedureModifiers     []string `json:"procedureModifiers,omitempty"`
	SubmittedAmount        string   `json:"submittedAmount,omitempty"`
	AmountPaid             string   `json:"amountPaid,omitempty"`
	RevenueCode            string   `json:"revenueCode,omitempty"`
	SubmittedUnits         string   `json:"submittedUnits,omitempty"`
}

// LineStatus is one STC of a line.
type LineStatus struct {
	StatusCategoryCode      string `json:"statusCategoryCode,omitempty"`
	StatusCategoryCodeValue string `json:"statusCategoryCodeValue,omitempty"`
	StatusCode              string `json:"statusCode,omitempty"`
	StatusCodeValue         string `json:"statusCodeValue,omitempty"`
	EntityCode              string `json:"entityCode,omitempty"`
	Entity                  string `json:"entity,omitempty"`
	EffectiveDate           string `json:"effectiveDate,omitempty"`
}

// ErrNot277 is returned when the payer's answer holds no 277.
var ErrNot277 = errors.New("statusinquiry: the payer's answer is not a 277")

// maxClaims bounds what one answer is read into (a payer may answer with
// every claim of the member).
const maxClaims = 500

// Map reads a 277 interchange into the answer.
func Map(src []byte) (*Response, error) {
	r := x12.NewReader(bytes.NewReader(src))
	resp := &Response{}
	var cur *Claim
	var line *ServiceDetail
	level, seen := "", false
	for {
		s, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("statusinquiry: reading the 277: %w", err)
		}
		switch s.ID() {
		case "ISA":
			resp.ControlNumber = strings.TrimSpace(s.Element(13))
			resp.Meta.SenderID = strings.TrimSpace(s.Element(6))
		case "ST":
			seen = seen || s.Element(1) == "277"
		case "HL":
			level, cur, line = s.Element(3), nil, nil
		case "NM1":
			switch s.Element(1) {
			case "PR":
				resp.Payer = &Payer{OrganizationName: s.Element(3)}
				if s.Element(8) == "XV" {
					resp.Payer.CMSPlanID = s.Element(9)
				} else {
					resp.Payer.PayerIdentification = s.Element(9)
				}
				resp.TradingPartnerServiceID = s.Element(9)
			case "IL":
				resp.Subscriber = &Person{LastName: s.Element(3), FirstName: s.Element(4), Suffix: s.Element(7), MemberID: s.Element(9)}
			case "QC":
				resp.Dependent = &Person{LastName: s.Element(3), FirstName: s.Element(4), Suffix: s.Element(7)}
			}
		case "TRN":
			if level == "22" || level == "23" {
				if len(resp.Claims) >= maxClaims {
					cur = nil
					continue
				}
				resp.Claims = append(resp.Claims, Claim{ClaimStatus: ClaimStatus{TrackingNumber: s.Element(2)}})
				cur, line = &resp.Claims[len(resp.Claims)-1], nil
			}
		case "STC":
			switch {
			case line != nil:
				line.Status = append(line.Status, lineStatus(s))
			case cur != nil && cur.ClaimStatus.StatusCategoryCode == "":
				st := lineStatus(s)
				cs := &cur.ClaimStatus
				cs.StatusCategoryCode, cs.StatusCategoryCodeValue, cs.StatusCode, cs.StatusCodeValue = st.StatusCategoryCode, st.StatusCategoryCodeValue, st.StatusCode, st.StatusCodeValue
				cs.EntityCode, cs.Entity, cs.EffectiveDate = st.EntityCode, st.Entity, st.EffectiveDate
				cs.SubmittedAmount, cs.AmountPaid = s.Element(4), s.Element(5)
				cs.PaidDate, cs.CheckIssueDate, cs.CheckNumber = dashed(s.Element(6)), dashed(s.Element(8)), s.Element(9)
			}
		case "REF":
			if cur == nil {
				continue
			}
			switch v := s.Element(2); s.Element(1) {
			case "1K":
				cur.ClaimStatus.TradingPartnerClaimNumber = v
			case "EJ":
				cur.ClaimStatus.PatientAccountNumber = v
			case "D9":
				cur.ClaimStatus.ClearingHouseClaimNumber = v
			}
		case "DTP":
			if cur != nil && line == nil && s.Element(1) == "472" {
				cur.ClaimStatus.ClaimServiceDate = s.Element(3)
			}
		case "SVC":
			if cur == nil || len(cur.ServiceDetails) >= maxServiceLines {
				line = nil
				continue
			}
			q, code, mods := reports.Procedure(s, 1)
			svc := LineService{ServiceIDQualifierCode: q, ServiceIDQualifier: reports.ServiceQualifier(q), ProcedureID: code, ProcedureModifiers: mods,
				SubmittedAmount: s.Element(2), AmountPaid: s.Element(3), RevenueCode: s.Element(4), SubmittedUnits: s.Element(7)}
			cur.ServiceDetails = append(cur.ServiceDetails, ServiceDetail{Service: svc})
			line = &cur.ServiceDetails[len(cur.ServiceDetails)-1]
		}
	}
	if !seen {
		return nil, ErrNot277
	}
	if resp.Claims == nil {
		resp.Claims = []Claim{}
	}
	return resp, nil
}

func lineStatus(s *x12.Segment) LineStatus {
	cat, code, entity := s.Component(1, 1), s.Component(1, 2), s.Component(1, 3)
	return LineStatus{StatusCategoryCode: cat, StatusCategoryCodeValue: reports.StatusCategory(cat), StatusCode: code,
		StatusCodeValue: reports.StatusCode(code), EntityCode: entity, Entity: reports.EntityName(entity), EffectiveDate: dashed(s.Element(2))}
}

// dashed writes CCYYMMDD as CCYY-MM-DD; anything else as sent.
func dashed(d string) string {
	if len(d) != 8 {
		return d
	}
	return d[:4] + "-" + d[4:6] + "-" + d[6:]
}
