// Package statusinquiry is real-time claim status: the contract's claim
// status JSON (v2) becomes a 276 (005010X212), goes to the payer through the
// same connections as eligibility, and the payer's 277 comes back as the
// contract's JSON answer.
package statusinquiry

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/findings"
	"github.com/clearhouse/clearhouse/internal/problem"
	"github.com/clearhouse/clearhouse/internal/x12text"
)

// Request is the contract's claim status request (field names and nesting
// as the hosted API's ClaimStatus operation).
type Request struct {
	ControlNumber           string        `json:"controlNumber,omitempty"`
	TradingPartnerServiceID string        `json:"tradingPartnerServiceId"`
	TradingPartnerName      string        `json:"tradingPartnerName,omitempty"`
	Providers               []Provider    `json:"providers"`
	Subscriber              *Subscriber   `json:"subscriber"`
	Dependent               *Member       `json:"dependent,omitempty"`
	Encounter               *Encounter    `json:"encounter,omitempty"`
	ServiceLineInformation  *ServiceLine  `json:"serviceLineInformation,omitempty"`
	ServiceLinesInformation []ServiceLine `json:"serviceLinesInformation,omitempty"`
}

// Provider is a billing or service provider; providerType says which.
type Provider struct {
	ProviderType     string `json:"providerType"` // BillingProvider or ServiceProvider
	OrganizationName string `json:"organizationName,omitempty"`
	FirstName        string `json:"firstName,omitempty"`
	LastName         string `json:"lastName,omitempty"`
	NPI              string `json:"npi,omitempty"`
	ETIN             string `json:"etin,omitempty"`
	TaxID            string `json:"taxId,omitempty"`
	TIN              string `json:"tin,omitempty"`
	SPN              string `json:"spn,omitempty"`
}

// Subscriber is the insured.
type Subscriber struct {
	MemberID    string `json:"memberId"`
	FirstName   string `json:"firstName"`
	LastName    string `json:"lastName"`
	Suffix      string `json:"suffix,omitempty"`
	DateOfBirth string `json:"dateOfBirth,omitempty"`
	Gender      string `json:"gender,omitempty"`
	GroupNumber string `json:"groupNumber,omitempty"`
}

// Member is the patient when it is a dependent.
type Member struct {
	FirstName   string `json:"firstName"`
	LastName    string `json:"lastName"`
	Suffix      string `json:"suffix,omitempty"`
	DateOfBirth string `json:"dateOfBirth,omitempty"`
	Gender      string `json:"gender,omitempty"`
	GroupNumber string `json:"groupNumber,omitempty"`
}

// Encounter identifies the claim asked about.
type Encounter struct {
	BeginningDateOfService     string `json:"beginningDateOfService,omitempty"`
	EndDateOfService           string `json:"endDateOfService,omitempty"`
	TrackingNumber             string `json:"trackingNumber,omitempty"`
	TradingPartnerClaimNumber  string `json:"tradingPartnerClaimNumber,omitempty"`
	PatientAccountNumber       string `json:"patientAccountNumber,omitempty"`
	ClearingHouseClaimNumber   string `json:"clearingHouseClaimNumber,omitempty"`
	BillingType                string `json:"billingType,omitempty"`
	PharmacyPrescriptionNumber string `json:"pharmacyPrescriptionNumber,omitempty"`
	SubmittedAmount            string `json:"submittedAmount,omitempty"`
	LocationIdentifier         string `json:"locationIdentifier,omitempty"`
}

// ServiceLine narrows the inquiry to one service line.
type ServiceLine struct {
	ProductOrServiceIDQualifier string   `json:"productOrServiceIDQualifier"`
	ProcedureCode               string   `json:"procedureCode"`
	ProcedureModifiers          []string `json:"procedureModifiers,omitempty"`
	LineItemChargeAmount        string   `json:"lineItemChargeAmount"`
	UnitsOfServiceCount         string   `json:"unitsOfServiceCount"`
	ServiceLineDate             string   `json:"serviceLineDate"`
	ServiceLineEndDate          string   `json:"serviceLineEndDate,omitempty"`
	LineItemControlNumber       string   `json:"lineItemControlNumber,omitempty"`
	RevenueCode                 string   `json:"revenueCode,omitempty"`
}

// lines is every service line of the request, the single one first.
func (r *Request) lines() []ServiceLine {
	var out []ServiceLine
	if r.ServiceLineInformation != nil {
		out = append(out, *r.ServiceLineInformation)
	}
	return append(out, r.ServiceLinesInformation...)
}

// FieldError is one problem with one request field: a JSON pointer and
// what is wrong and how to fix it.
type FieldError = problem.Field

// ValidationError lists every problem of a request (problem.Invalid,
// which the API renders as 400 VALIDATION_ERROR).
type ValidationError = problem.Invalid

// invalid is the ValidationError of fields and more problems past them.
func invalid(fields []FieldError, more int) *ValidationError {
	return problem.NewInvalid("invalid claim status request", fields, more)
}

// Limits of one request.
const (
	maxProviders    = 10
	maxServiceLines = 50
)

type checker struct{ errs findings.List[FieldError] }

func (c *checker) add(path, format string, args ...any) {
	if c.errs.Full() {
		c.errs.More++
		return
	}
	c.errs.Add(FieldError{Path: path, Message: findings.Clip(fmt.Sprintf(format, args...))})
}

func (c *checker) required(path, v, what string) {
	if strings.TrimSpace(v) == "" {
		c.add(path, "is required: send the %s", what)
	}
}

func (c *checker) length(path, v string, max int) {
	if n := len([]rune(v)); n > max {
		c.add(path, "must be at most %d characters; got %d", max, n)
	}
}

func (c *checker) date(path, v string) {
	if v == "" {
		return
	}
	if _, err := time.Parse("20060102", v); err != nil || len(v) != 8 {
		c.add(path, "must be a real date written YYYYMMDD (for example 20250630); got %q", v)
	}
}

func (c *checker) amount(path, v string) {
	if v == "" {
		return
	}
	if f, err := strconv.ParseFloat(v, 64); err != nil || f < 0 || strings.ContainsAny(v, "eE+") || len(v) > 18 {
		c.add(path, "must be an amount such as 120.50 (no currency sign, no thousands separator); got %q", v)
	}
}

func (c *checker) digits(path, v string, n int, what string) {
	if v == "" {
		return
	}
	ok := len(v) == n
	for _, r := range v {
		ok = ok && r >= '0' && r <= '9'
	}
	if !ok {
		c.add(path, "%s must be exactly %d digits with no dashes or spaces; got %q", what, n, v)
	}
}

// Validate checks the request against the contract and the 276 guide's
// rules, reporting every problem at once.
func (r *Request) Validate() error {
	c := &checker{}
	// Every string must be sendable in X12: the basic character set, no
	// delimiter (the same rule as eligibility and claims).
	x12text.EachString(reflect.ValueOf(r), func(path []string, v reflect.Value) {
		cleaned, err := x12text.Clean(v.String(), "*:^~")
		switch {
		case err != nil:
			c.add("/"+strings.Join(path, "/"), "%v", err)
		case v.CanSet():
			v.SetString(cleaned) // letters with diacritics, transliterated
		}
	})
	c.required("/tradingPartnerServiceId", r.TradingPartnerServiceID, "payer id (the payer directory's id, e.g. 87726)")
	c.length("/tradingPartnerServiceId", r.TradingPartnerServiceID, 80)
	c.length("/controlNumber", r.ControlNumber, 9)
	switch {
	case len(r.Providers) == 0:
		c.add("/providers", "is required: send at least the billing provider (providerType BillingProvider, its npi and name)")
	case len(r.Providers) > maxProviders:
		c.add("/providers", "holds %d providers; send at most %d", len(r.Providers), maxProviders)
	}
	for i, p := range r.Providers {
		if i >= maxProviders {
			break
		}
		base := fmt.Sprintf("/providers/%d", i)
		if p.ProviderType != "BillingProvider" && p.ProviderType != "ServiceProvider" {
			c.add(base+"/providerType", "must be BillingProvider or ServiceProvider; got %q", p.ProviderType)
		}
		if p.OrganizationName == "" && p.LastName == "" {
			c.add(base+"/organizationName", "is required unless lastName is given: send the provider's organization name, or a person's lastName")
		}
		if p.NPI == "" && p.TaxID == "" && p.TIN == "" && p.SPN == "" {
			c.add(base+"/npi", "is required unless taxId, tin or spn is given: send the provider's 10-digit NPI")
		}
		c.digits(base+"/npi", p.NPI, 10, "An NPI")
		c.length(base+"/organizationName", p.OrganizationName, 60)
		c.length(base+"/lastName", p.LastName, 60)
		c.length(base+"/etin", p.ETIN, 80)
	}
	if s := r.Subscriber; s == nil {
		c.add("/subscriber", "is required: send the insured's memberId, firstName and lastName")
	} else {
		c.required("/subscriber/memberId", s.MemberID, "member id from the insurance card")
		c.required("/subscriber/firstName", s.FirstName, "insured's first name")
		c.required("/subscriber/lastName", s.LastName, "insured's last name")
		c.length("/subscriber/memberId", s.MemberID, 80)
		c.length("/subscriber/lastName", s.LastName, 60)
		c.length("/subscriber/firstName", s.FirstName, 35)
		c.date("/subscriber/dateOfBirth", s.DateOfBirth)
		gender(c, "/subscriber/gender", s.Gender)
	}
	if d := r.Dependent; d != nil {
		c.required("/dependent/firstName", d.FirstName, "patient's first name")
		c.required("/dependent/lastName", d.LastName, "patient's last name")
		c.required("/dependent/dateOfBirth", d.DateOfBirth, "patient's date of birth (the 276 requires it for a dependent)")
		c.date("/dependent/dateOfBirth", d.DateOfBirth)
		gender(c, "/dependent/gender", d.Gender)
	}
	if e := r.Encounter; e != nil {
		c.date("/encounter/beginningDateOfService", e.BeginningDateOfService)
		c.date("/encounter/endDateOfService", e.EndDateOfService)
		if e.EndDateOfService != "" && e.BeginningDateOfService == "" {
			c.add("/encounter/beginningDateOfService", "is required when endDateOfService is given")
		}
		if e.BeginningDateOfService != "" && e.EndDateOfService != "" && e.EndDateOfService < e.BeginningDateOfService {
			c.add("/encounter/endDateOfService", "must not be before beginningDateOfService (%s > %s); swap them", e.BeginningDateOfService, e.EndDateOfService)
		}
		c.amount("/encounter/submittedAmount", e.SubmittedAmount)
		c.length("/encounter/trackingNumber", e.TrackingNumber, 50)
		c.length("/encounter/patientAccountNumber", e.PatientAccountNumber, 50)
		c.length("/encounter/tradingPartnerClaimNumber", e.TradingPartnerClaimNumber, 50)
		c.length("/encounter/clearingHouseClaimNumber", e.ClearingHouseClaimNumber, 50)
	}
	lines := r.lines()
	if len(lines) > maxServiceLines {
		c.add("/serviceLinesInformation", "holds %d lines; send at most %d", len(lines), maxServiceLines)
		lines = lines[:maxServiceLines]
	}
	for i, l := range lines {
		base := "/serviceLineInformation"
		if r.ServiceLineInformation == nil || i > 0 {
			j := i
			if r.ServiceLineInformation != nil {
				j--
			}
			base = fmt.Sprintf("/serviceLinesInformation/%d", j)
		}
		switch l.ProductOrServiceIDQualifier {
		case "AD", "ER", "HC", "HP", "IV", "N4", "NU", "WK":
		default:
			c.add(base+"/productOrServiceIDQualifier", "must be one of AD, ER, HC, HP, IV, N4, NU, WK (HC for CPT/HCPCS, AD for CDT); got %q", l.ProductOrServiceIDQualifier)
		}
		c.required(base+"/procedureCode", l.ProcedureCode, "procedure code billed on the line")
		c.required(base+"/lineItemChargeAmount", l.LineItemChargeAmount, "line's charge")
		c.amount(base+"/lineItemChargeAmount", l.LineItemChargeAmount)
		c.required(base+"/unitsOfServiceCount", l.UnitsOfServiceCount, "units billed")
		c.amount(base+"/unitsOfServiceCount", l.UnitsOfServiceCount)
		c.required(base+"/serviceLineDate", l.ServiceLineDate, "line's date of service")
		c.date(base+"/serviceLineDate", l.ServiceLineDate)
		c.date(base+"/serviceLineEndDate", l.ServiceLineEndDate)
		if len(l.ProcedureModifiers) > 4 {
			c.add(base+"/procedureModifiers", "holds %d modifiers; send at most 4", len(l.ProcedureModifiers))
		}
	}
	if c.errs.Len() == 0 {
		return nil
	}
	return invalid(c.errs.Items, c.errs.More)
}

func gender(c *checker, path, v string) {
	if v != "" && v != "M" && v != "F" && v != "U" {
		c.add(path, "must be M, F or U; got %q", v)
	}
}
