// Package summary lays out a stored eligibility check the way people read
// coverage — status and plan first, the people, the benefits grid, the
// payer's rejections in front-desk words — and renders it as a one-page
// PDF for the patient's chart. The API (GET …/eligibility-checks/{id}/pdf)
// and the console both use it; it belongs to neither.
package summary

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store"
)

// View is a stored check laid out the way people read coverage:
// status and plan first, then the people, then benefits by service type,
// the payer's messages and rejections, and the raw X12 last.
type View struct {
	ID         string
	CreatedAt  time.Time
	Mode       string
	Status     string // history status
	HTTPStatus int
	PayerID    string
	PayerName  string
	Summary    string // one sentence for the live region

	Problem  *eligibility.Problem  // the check failed before a payer answer
	Request  *eligibility.Request  // what was sent
	Response *eligibility.Response // the mapped answer

	Coverage Coverage
	People   []Person
	Benefits Benefits
	Errors   []Rejection
	Contacts []Labeled
	NotSent  bool // our own answer: the check never reached the payer
	Focus    bool // the result was swapped into the new-check page
	// SimulatedBy names the payer simulator scenario that answered a test
	// check ("" when the published mocks or a real payer did).
	SimulatedBy string

	X12Request, X12Response string
	RequestJSON             string
}

type Coverage struct {
	Status        string
	Class         string // ok, warn, bad
	Plan          string
	InsuranceType string
	Group         string
	Dates         []Labeled
	Covered       []string // service types the coverage entries list
}

type Labeled struct{ Label, Value string }

type Person struct {
	Role   string
	Name   string
	Fields []Labeled
}

// New decodes a stored check.
func New(c store.EligibilityCheck, dir *payers.Directory) *View {
	v := &View{
		ID: c.ID, CreatedAt: c.CreatedAt, Mode: c.Mode, Status: c.Status, HTTPStatus: c.HTTPStatus,
		PayerID: c.TradingPartnerServiceID, PayerName: c.PayerName,
		X12Request: ReadableX12(c.X12Request), X12Response: ReadableX12(c.X12Response),
		RequestJSON: IndentJSON(c.RequestJSON),
	}
	var req eligibility.Request
	if json.Unmarshal(c.RequestJSON, &req) == nil {
		v.Request = &req
		if v.PayerID == "" {
			v.PayerID = req.TradingPartnerServiceID
		}
	}
	if v.PayerName == "" {
		if p, ok := dir.Lookup(v.PayerID); ok {
			v.PayerName = p.Name
		}
	}
	var keys map[string]json.RawMessage
	_ = json.Unmarshal(c.ResponseJSON, &keys)
	_, isResponse := keys["errors"]
	if _, ok := keys["benefitsInformation"]; ok {
		isResponse = true
	}
	if isResponse {
		var resp eligibility.Response
		if err := json.Unmarshal(c.ResponseJSON, &resp); err == nil {
			v.Response = &resp
			v.fromResponse()
		}
	}
	if v.Response == nil {
		p := eligibility.Problem{Code: "UNKNOWN", Message: "The stored answer of this check could not be read."}
		_ = json.Unmarshal(c.ResponseJSON, &p)
		v.Problem = &p
		v.Coverage = Coverage{Status: "Check failed", Class: "bad"}
		v.Summary = "The check failed: " + p.Message
	}
	return v
}

func (v *View) fromResponse() {
	r := v.Response
	if v.PayerName == "" && r.Payer != nil {
		v.PayerName = r.Payer.Name
	}
	for _, e := range r.Errors {
		v.Errors = append(v.Errors, RejectionOf(e))
	}
	v.Coverage = coverageOf(r)
	v.People = peopleOf(r)
	medicare := false
	for _, b := range r.BenefitsInformation {
		medicare = medicare || isMedicare(b)
	}
	if medicare {
		for i := range v.People {
			for j := range v.People[i].Fields {
				if v.People[i].Fields[j].Label == "Member ID" {
					v.People[i].Fields[j].Label = "Member ID (Medicare number, MBI)"
				}
			}
		}
	}
	if v.Request != nil && len(v.Request.Dependents) > 0 && len(r.Dependents) == 0 && len(v.People) > 0 {
		// Some payers answer for a dependent in the subscriber loop.
		v.People[0].Role = "Patient (answered as the subscriber)"
	}
	v.Benefits = buildBenefits(r.BenefitsInformation)
	if r.Payer != nil && r.Payer.ContactInformation != nil {
		for _, ct := range r.Payer.ContactInformation.Contacts {
			v.Contacts = append(v.Contacts, contactOf(ct))
		}
	}
	// An AAA 79 we wrote ourselves (unknown or unconnected payer) was never
	// seen by a payer: say so instead of "rejected by the payer".
	v.NotSent = len(v.X12Request) == 0 && r.Status == "ERROR"
	if v.NotSent {
		v.Coverage.Status, v.Coverage.Class = "Not sent: this payer is not connected", "bad"
		v.Errors = []Rejection{{Title: "This payer is not set up for checks on this server",
			Advice: "Ask your administrator to connect the payer, or check that the right payer is chosen.", Code: "79"}}
	}
	patient := ""
	if len(v.People) > 0 {
		patient = v.People[len(v.People)-1].Name
	}
	switch {
	case v.NotSent:
		v.Summary = v.Coverage.Status + "."
	case len(v.Errors) > 0 && v.Coverage.Class == "bad":
		v.Summary = "Rejected by the payer: " + v.Errors[0].Title + "."
	case patient != "":
		v.Summary = fmt.Sprintf("%s for %s.", v.Coverage.Status, patient)
	default:
		v.Summary = v.Coverage.Status + "."
	}
}

// coverageOf finds the coverage status (EB01 1–8) and the plan.
func coverageOf(r *eligibility.Response) Coverage {
	cv := Coverage{Status: "No coverage status in the payer's answer", Class: "warn"}
	found := false
	seen := map[string]bool{}
	for _, b := range r.BenefitsInformation {
		if !isCoverageCode(b.Code) {
			continue
		}
		if !found {
			found = true
			cv.Status, cv.Plan, cv.InsuranceType = b.Name, b.PlanCoverage, b.InsuranceType
			if b.Name == "Inactive" { // EB01 6; say what is inactive
				cv.Status = "Inactive Coverage"
			}
			cv.Class = "ok"
			if b.Code >= "6" {
				cv.Class = "warn"
			}
		}
		switch {
		case b.InsuranceType == "" || strings.Contains(cv.InsuranceType, b.InsuranceType):
		case cv.InsuranceType == "":
			cv.InsuranceType = b.InsuranceType
		default: // Medicare answers Part A and Part B as two coverages
			cv.InsuranceType += " and " + b.InsuranceType
		}
		for _, st := range b.ServiceTypes {
			if !seen[st] {
				seen[st] = true
				cv.Covered = append(cv.Covered, st)
			}
		}
	}
	if !found && len(r.Errors) > 0 {
		cv.Status, cv.Class = "Rejected by the payer", "bad"
	}
	if r.Status == "ERROR" && !found {
		cv.Status, cv.Class = "Check failed", "bad"
	}
	pi := r.PlanInformation
	if cv.Plan == "" {
		cv.Plan = pi["planDescription"]
	}
	group := pi["groupNumber"]
	if d := pi["groupDescription"]; d != "" {
		group = strings.TrimSpace(group + " · " + d)
	}
	if group == "" && r.Subscriber != nil {
		group = strings.Trim(r.Subscriber.GroupNumber+" · "+r.Subscriber.GroupDescription, " ·")
	}
	cv.Group = group
	cv.Dates = planDates(r.PlanDateInformation)
	return cv
}

func isCoverageCode(code string) bool { return len(code) == 1 && code >= "1" && code <= "8" }

// planDateLabels name the plan dates, in the order they are shown.
var planDateLabels = []Labeled{
	{"plan", "Plan dates"}, {"planBegin", "Plan begins"}, {"planEnd", "Plan ends"},
	{"eligibility", "Eligibility dates"}, {"eligibilityBegin", "Eligible from"}, {"eligibilityEnd", "Eligible until"},
	{"policyEffective", "Policy effective"}, {"policyExpiration", "Policy expires"},
	{"benefit", "Benefit dates"}, {"benefitBegin", "Benefits begin"}, {"benefitEnd", "Benefits end"},
	{"added", "Added"}, {"cobraBegin", "COBRA begins"}, {"cobraEnd", "COBRA ends"},
}

func planDates(m map[string]string) []Labeled {
	var out []Labeled
	done := map[string]bool{}
	for _, l := range planDateLabels {
		if d := m[l.Label]; d != "" {
			out = append(out, Labeled{l.Value, FormatDate(d)})
			done[l.Label] = true
		}
	}
	var rest []string
	for k := range m {
		if !done[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		out = append(out, Labeled{humanize(k), FormatDate(m[k])})
	}
	return out
}

// humanize turns a camelCase key into words: "dateOfLastUpdate" → "Date of last update".
func humanize(key string) string {
	var b strings.Builder
	for i, r := range key {
		if i == 0 {
			b.WriteRune(unicode.ToUpper(r))
			continue
		}
		if unicode.IsUpper(r) {
			b.WriteByte(' ')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

func peopleOf(r *eligibility.Response) []Person {
	var out []Person
	if r.Subscriber != nil {
		out = append(out, personOf("Subscriber", r.Subscriber))
	}
	for i := range r.Dependents {
		out = append(out, personOf("Dependent", &r.Dependents[i]))
	}
	return out
}

func personOf(role string, p *eligibility.ResponsePerson) Person {
	name := strings.Join(strings.Fields(strings.Join([]string{p.FirstName, p.MiddleName, p.LastName, p.Suffix}, " ")), " ")
	pv := Person{Role: role, Name: name}
	add := func(label, value string) {
		if value != "" {
			pv.Fields = append(pv.Fields, Labeled{label, value})
		}
	}
	add("Member ID", p.MemberID)
	add("Date of birth", FormatDate(p.DateOfBirth))
	add("Gender", map[string]string{"M": "Male", "F": "Female", "U": "Unknown"}[p.Gender])
	if role == "Dependent" || p.RelationToSubscriberCode != "18" {
		add("Relationship", p.RelationToSubscriber)
	}
	add("Group", p.GroupNumber)
	add("Plan number", p.PlanNumber)
	return pv
}

// benefitValue is the amount, percentage or quantity of an entry, "" when
// it has none.
func benefitValue(b eligibility.BenefitsInformation) string {
	var parts []string
	if b.BenefitAmount != "" {
		parts = append(parts, FormatMoney(b.BenefitAmount))
	}
	if b.BenefitPercent != "" {
		parts = append(parts, FormatPercent(b.BenefitPercent))
	}
	if b.BenefitQuantity != "" {
		parts = append(parts, strings.TrimSpace(b.BenefitQuantity+" "+b.QuantityQualifier))
	}
	return strings.Join(parts, ", ")
}

// relatedEntities describes a 2120 loop: "Primary Care Provider: LINDA
// NGUYEN (XX 1682037191)", without the entity's role when the benefit
// already says it.
func relatedEntities(b eligibility.BenefitsInformation, kind string) []string {
	var out []string
	for _, e := range b.BenefitsRelatedEntities {
		s := strings.Join(strings.Fields(e.EntityFirstname+" "+e.EntityMiddlename+" "+e.EntityName+" "+e.EntitySuffix), " ")
		if e.EntityIdentifier != "" && e.EntityIdentifier != kind {
			s = e.EntityIdentifier + ": " + s
		}
		if e.EntityIdentificationValue != "" {
			id := e.EntityIdentification
			if id == "XX" || strings.Contains(id, "National Provider") {
				id = "NPI"
			}
			s += ", " + strings.TrimSpace(id+" "+e.EntityIdentificationValue)
		}
		if e.ContactInformation != nil {
			for _, ct := range e.ContactInformation.Contacts {
				c := contactOf(ct)
				s += ", " + strings.ToLower(c.Label) + " " + c.Value
			}
		}
		out = append(out, s)
	}
	return out
}

// Patient is who the check was about, as the payer named them.
func (v *View) Patient() string {
	if len(v.People) == 0 {
		return ""
	}
	return v.People[len(v.People)-1].Name
}

// contactOf labels a payer contact the way people read it: "Phone
// (800) 555-0138", "Website www.uhcprovider.com".
func contactOf(ct eligibility.Contact) Labeled {
	mode := strings.ToLower(ct.CommunicationMode)
	switch {
	case strings.Contains(mode, "extension"):
		return Labeled{"Extension", ct.CommunicationNumber}
	case strings.Contains(mode, "telephone") || mode == "te" || strings.Contains(mode, "phone"):
		return Labeled{"Phone", formatPhone(ct.CommunicationNumber)}
	case strings.Contains(mode, "facsimile") || strings.Contains(mode, "fax"):
		return Labeled{"Fax", formatPhone(ct.CommunicationNumber)}
	case strings.Contains(mode, "url") || strings.Contains(mode, "uniform resource"):
		return Labeled{"Website", strings.ToLower(ct.CommunicationNumber)}
	case strings.Contains(mode, "mail"):
		return Labeled{"Email", strings.ToLower(ct.CommunicationNumber)}
	}
	return Labeled{ct.CommunicationMode, ct.CommunicationNumber}
}

// formatPhone writes a 10-digit US number as (972) 555-0188.
func formatPhone(s string) string {
	digits := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
	if len(digits) == 11 && digits[0] == '1' {
		digits = digits[1:]
	}
	if len(digits) != 10 {
		return s
	}
	return "(" + digits[:3] + ") " + digits[3:6] + "-" + digits[6:]
}

// ReadableX12 puts each segment of an interchange on its own line. The
// segment terminator is the byte after ISA16 (offset 105).
func ReadableX12(b []byte) string {
	if len(b) < 106 || !bytes.HasPrefix(b, []byte("ISA")) {
		return string(b)
	}
	term := b[105]
	var out strings.Builder
	for _, seg := range bytes.Split(b, []byte{term}) {
		seg = bytes.TrimSpace(seg)
		if len(seg) > 0 {
			out.Write(seg)
			out.WriteByte(term)
			out.WriteByte('\n')
		}
	}
	return out.String()
}

func IndentJSON(b []byte) string {
	var buf bytes.Buffer
	if json.Indent(&buf, b, "", "  ") != nil {
		return string(b)
	}
	return buf.String()
}
