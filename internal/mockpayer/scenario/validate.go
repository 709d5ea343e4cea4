package scenario

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

var (
	nameRE     = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,49}$`)
	idRE       = regexp.MustCompile(`^[A-Za-z0-9-]{1,80}$`)
	personRE   = regexp.MustCompile(`^[A-Za-z0-9 .,'&/-]{1,60}$`)
	textRE     = regexp.MustCompile(`^[A-Za-z0-9 .,'&/()%$#@!?+=;-]{1,264}$`)
	stcRE      = regexp.MustCompile(`^[A-Z0-9]{1,2}$`)
	codeRE     = regexp.MustCompile(`^[A-Z0-9]{1,5}$`)
	procRE     = regexp.MustCompile(`^[A-Za-z0-9]{1,48}$`)
	amountRE   = regexp.MustCompile(`^[0-9]{1,8}(\.[0-9]{1,2})?$`)
	fractionRE = regexp.MustCompile(`^(0?\.[0-9]{1,4}|0|1|1\.0{1,4})$`)
)

var (
	rejectLoops  = []string{"2100A", "2100B", "2100C"}
	followUps    = []string{"C", "N", "R", "W", "X", "Y"}
	outcomes     = []string{"paid", "partial", "denied", "reversed", "none"}
	groupCodes   = []string{"CO", "OA", "PI", "PR", "CR"}
	levels       = []string{"", "individual", "family"}
	periods      = []string{"", "calendarYear", "serviceYear", "lifetime", "visit", "day"}
	qtyQualifier = []string{"", "VS", "P6", "DY", "QA"}
)

// validate checks one scenario; the error's Field is set, its Line not.
func (s *Scenario) validate(at string) *Error {
	bad := func(field, format string, args ...any) *Error {
		return &Error{Field: at + field, Message: fmt.Sprintf(format, args...)}
	}
	if !nameRE.MatchString(s.Name) {
		return bad(".name", "must be 1-50 letters, digits, '.', '_' or '-', starting with a letter or digit")
	}
	if len(s.Description) > 500 {
		return bad(".description", "is longer than 500 characters")
	}
	if err := s.Match.validate(at+".match", s); err != nil {
		return err
	}
	if s.Eligibility == nil && s.Claim == nil {
		return bad("", "says nothing the payer does: give eligibility, claim or both")
	}
	if s.Eligibility != nil {
		if err := s.Eligibility.validate(at + ".eligibility"); err != nil {
			return err
		}
	}
	if s.Claim != nil {
		if err := s.Claim.validate(at + ".claim"); err != nil {
			return err
		}
	}
	return nil
}

func (m *Match) validate(at string, s *Scenario) *Error {
	bad := func(field, format string, args ...any) *Error {
		return &Error{Field: at + field, Message: fmt.Sprintf(format, args...)}
	}
	if m.PayerID != "" && !idRE.MatchString(m.PayerID) {
		return bad(".payerId", "must be 1-80 letters, digits or '-'")
	}
	if m.MemberID != "" && !idRE.MatchString(m.MemberID) {
		return bad(".memberId", "must be 1-80 letters, digits or '-'")
	}
	if m.FirstName != "" && !personRE.MatchString(m.FirstName) {
		return bad(".firstName", "must be 1-60 letters, digits, spaces or .,'&/-")
	}
	if m.LastName != "" && !personRE.MatchString(m.LastName) {
		return bad(".lastName", "must be 1-60 letters, digits, spaces or .,'&/-")
	}
	if m.DateOfBirth != "" && !isDate(m.DateOfBirth) {
		return bad(".dateOfBirth", "must be a date as YYYYMMDD")
	}
	if err := codeList(m.ServiceTypeCodes, stcRE, "a service type code such as 30 or 35"); err != "" {
		return bad(".serviceTypeCodes", "%s", err)
	}
	if err := codeList(m.ProcedureCodes, procRE, "a procedure code such as D0120 or 99213"); err != "" {
		return bad(".procedureCodes", "%s", err)
	}
	if r := m.ClaimAmount; r != nil {
		if r.Min == "" && r.Max == "" {
			return bad(".claimAmount", "needs min, max or both")
		}
		for _, v := range []struct{ name, val string }{{"min", r.Min}, {"max", r.Max}} {
			if v.val != "" && !amountRE.MatchString(v.val) {
				return bad(".claimAmount."+v.name, "must be a dollar amount such as 100 or 99.50")
			}
		}
		if r.Min != "" && r.Max != "" && Cents(r.Min) > Cents(r.Max) {
			return bad(".claimAmount.min", "is above max")
		}
	}
	if m.PatientControlNumber != "" {
		if len(m.PatientControlNumber) > 200 {
			return bad(".patientControlNumber", "is longer than 200 characters")
		}
		re, err := regexp.Compile("^(?:" + m.PatientControlNumber + ")$")
		if err != nil {
			return bad(".patientControlNumber", "is not a valid regular expression (RE2 syntax, matched against the whole number): %v", err)
		}
		s.pcn = re
	}
	if m.PayerID == "" && m.MemberID == "" && m.LastName == "" && m.PatientControlNumber == "" && len(m.ProcedureCodes) == 0 && m.ClaimAmount == nil {
		return bad("", "matches every request; name at least a payerId, memberId, lastName, procedureCodes, claimAmount or patientControlNumber")
	}
	return nil
}

func (e *Eligibility) validate(at string) *Error {
	bad := func(field, format string, args ...any) *Error {
		return &Error{Field: at + field, Message: fmt.Sprintf(format, args...)}
	}
	n := 0
	for _, set := range []bool{e.Benefits != nil, e.Reject != nil, e.Timeout, e.Drop} {
		if set {
			n++
		}
	}
	if n != 1 {
		return bad("", "needs exactly one of benefits, reject, timeout or drop")
	}
	if e.DelayMs < 0 || e.DelayMs > MaxDelayMs {
		return bad(".delayMs", "must be between 0 and %d", MaxDelayMs)
	}
	if r := e.Reject; r != nil {
		if !codeRE.MatchString(r.Code) || len(r.Code) != 2 {
			return bad(".reject.code", "must be a two-character AAA03 reject reason code such as 72 or 75")
		}
		if r.Loop != "" && !slices.Contains(rejectLoops, r.Loop) {
			return bad(".reject.loop", "must be one of %s", strings.Join(rejectLoops, ", "))
		}
		if r.FollowUp != "" && !slices.Contains(followUps, r.FollowUp) {
			return bad(".reject.followUp", "must be one of %s", strings.Join(followUps, ", "))
		}
	}
	if b := e.Benefits; b != nil {
		return b.validate(at + ".benefits")
	}
	return nil
}

func (b *Benefits) validate(at string) *Error {
	bad := func(field, format string, args ...any) *Error {
		return &Error{Field: at + field, Message: fmt.Sprintf(format, args...)}
	}
	if !personRE.MatchString(b.PlanName) {
		return bad(".planName", "is required: 1-60 letters, digits, spaces or .,'&/-")
	}
	if b.GroupNumber != "" && !idRE.MatchString(b.GroupNumber) {
		return bad(".groupNumber", "must be 1-80 letters, digits or '-'")
	}
	if b.Status != "" && b.Status != "active" && b.Status != "inactive" {
		return bad(".status", "must be active or inactive")
	}
	if b.CoverageBegin != "" && !isDate(b.CoverageBegin) {
		return bad(".coverageBegin", "must be a date as YYYYMMDD")
	}
	if b.CoverageEnd != "" && !isDate(b.CoverageEnd) {
		return bad(".coverageEnd", "must be a date as YYYYMMDD")
	}
	if b.CoverageBegin != "" && b.CoverageEnd != "" && b.CoverageEnd < b.CoverageBegin {
		return bad(".coverageEnd", "is before coverageBegin")
	}
	if err := codeList(b.ServiceTypeCodes, stcRE, "a service type code"); err != "" {
		return bad(".serviceTypeCodes", "%s", err)
	}
	lists := []struct {
		name string
		n    int
	}{{"copays", len(b.Copays)}, {"coinsurance", len(b.Coinsurance)}, {"deductibles", len(b.Deductibles)},
		{"outOfPocket", len(b.OutOfPocket)}, {"limitations", len(b.Limitations)}}
	for _, l := range lists {
		if l.n > maxListItems {
			return bad("."+l.name, "has %d items; at most %d are allowed", l.n, maxListItems)
		}
	}
	for i, c := range b.Copays {
		f := fmt.Sprintf(".copays[%d]", i)
		if !stcRE.MatchString(c.ServiceTypeCode) {
			return bad(f+".serviceTypeCode", "is required: a service type code such as 98")
		}
		if !amountRE.MatchString(c.Amount) {
			return bad(f+".amount", "must be a dollar amount such as 25 or 12.50")
		}
		if c.Message != "" && !textRE.MatchString(c.Message) {
			return bad(f+".message", "must be 1-264 plain characters")
		}
	}
	for i, c := range b.Coinsurance {
		f := fmt.Sprintf(".coinsurance[%d]", i)
		if !stcRE.MatchString(c.ServiceTypeCode) {
			return bad(f+".serviceTypeCode", "is required: a service type code such as 30")
		}
		if !fractionRE.MatchString(c.Percent) {
			return bad(f+".percent", "must be a fraction between 0 and 1 such as 0.2 (20 %%)")
		}
		if c.Message != "" && !textRE.MatchString(c.Message) {
			return bad(f+".message", "must be 1-264 plain characters")
		}
	}
	for name, list := range map[string][]Accumulator{"deductibles": b.Deductibles, "outOfPocket": b.OutOfPocket} {
		for i, a := range list {
			f := fmt.Sprintf(".%s[%d]", name, i)
			if !slices.Contains(levels, a.Level) {
				return bad(f+".level", "must be individual or family")
			}
			if a.ServiceTypeCode != "" && !stcRE.MatchString(a.ServiceTypeCode) {
				return bad(f+".serviceTypeCode", "must be a service type code such as 30")
			}
			if !slices.Contains(periods[:4], a.Period) {
				return bad(f+".period", "must be calendarYear, serviceYear or lifetime")
			}
			if !amountRE.MatchString(a.Amount) {
				return bad(f+".amount", "must be a dollar amount such as 2500")
			}
			if a.Remaining != "" && !amountRE.MatchString(a.Remaining) {
				return bad(f+".remaining", "must be a dollar amount such as 1500")
			}
			if a.Remaining != "" && Cents(a.Remaining) > Cents(a.Amount) {
				return bad(f+".remaining", "is more than amount")
			}
		}
	}
	for i, l := range b.Limitations {
		f := fmt.Sprintf(".limitations[%d]", i)
		if !stcRE.MatchString(l.ServiceTypeCode) {
			return bad(f+".serviceTypeCode", "is required: a service type code such as 35")
		}
		if l.Quantity != "" {
			if n, err := strconv.Atoi(l.Quantity); err != nil || n < 0 || n > 9999 {
				return bad(f+".quantity", "must be a whole number 0-9999")
			}
		}
		if !slices.Contains(qtyQualifier, l.QuantityQualifier) {
			return bad(f+".quantityQualifier", "must be VS (visits), P6 (number of services), DY (days) or QA (quantity approved)")
		}
		if !slices.Contains(periods, l.Period) {
			return bad(f+".period", "must be calendarYear, serviceYear, lifetime, visit or day")
		}
		if l.Quantity == "" && l.Message == "" {
			return bad(f, "needs a quantity, a message or both")
		}
		if l.Message != "" && !textRE.MatchString(l.Message) {
			return bad(f+".message", "must be 1-264 plain characters")
		}
	}
	return nil
}

func (c *Claim) validate(at string) *Error {
	bad := func(field, format string, args ...any) *Error {
		return &Error{Field: at + field, Message: fmt.Sprintf(format, args...)}
	}
	if c.Acknowledgment == nil && c.Remittance == nil && c.Status == nil && c.FunctionalAck == nil {
		return bad("", "needs a functionalAck, an acknowledgment, a remittance, a status or some of them")
	}
	if f := c.FunctionalAck; f != nil {
		if f.Status != "rejected" {
			return bad(".functionalAck.status", "must be rejected (an accepting 999 is the default)")
		}
		if f.SegmentCode != "" && !regexp.MustCompile(`^([1-8]|I[4-9])$`).MatchString(f.SegmentCode) {
			return bad(".functionalAck.segmentCode", "must be an IK304 code: 1-8 or I4-I9")
		}
		if f.ElementCode != "" && !regexp.MustCompile(`^([1-9]|1[0-3]|I[6-9]|I1[0-3])$`).MatchString(f.ElementCode) {
			return bad(".functionalAck.elementCode", "must be an IK403 code: 1-13 or I6-I13")
		}
		if f.Element < 0 || f.Element > 20 {
			return bad(".functionalAck.element", "must be a CLM element position between 1 and 20")
		}
		if c.Acknowledgment != nil || c.Remittance != nil {
			return bad(".functionalAck", "a claim the 999 rejects gets no 277CA and no 835; drop acknowledgment and remittance")
		}
	}
	if st := c.Status; st != nil {
		if !regexp.MustCompile(`^[A-Z][0-9]$`).MatchString(st.Category) {
			return bad(".status.category", "is required: a claim status category code such as F1, F2, P1 or A4")
		}
		if !regexp.MustCompile(`^[0-9]{1,4}$`).MatchString(st.Code) {
			return bad(".status.code", "is required: a claim status code (digits) such as 65 or 20")
		}
		if st.Entity != "" && !regexp.MustCompile(`^[A-Z0-9]{2,3}$`).MatchString(st.Entity) {
			return bad(".status.entity", "must be an entity identifier code such as PR or IL")
		}
		if st.Paid != "" && !amountRE.MatchString(st.Paid) {
			return bad(".status.paid", "must be a dollar amount such as 120.50")
		}
		if st.PaidDate != "" && !isDate(st.PaidDate) {
			return bad(".status.paidDate", "must be a date as YYYYMMDD")
		}
	}
	if a := c.Acknowledgment; a != nil {
		if a.Status != "accepted" && a.Status != "rejected" && a.Status != "none" {
			return bad(".acknowledgment.status", "must be accepted, rejected or none")
		}
		if a.Status == "none" && (a.Category != "" || a.Code != "" || a.Entity != "") {
			return bad(".acknowledgment", "a claim the payer never acknowledges has no status codes")
		}
		if a.Status == "accepted" && (a.Category != "" || a.Code != "") {
			return bad(".acknowledgment", "an accepted claim answers STC A2:20; category and code are for rejections")
		}
		if a.Category != "" && !regexp.MustCompile(`^A[0-9]$`).MatchString(a.Category) {
			return bad(".acknowledgment.category", "must be a 277CA claim status category such as A3, A6 or A7")
		}
		if a.Code != "" && !regexp.MustCompile(`^[0-9]{1,4}$`).MatchString(a.Code) {
			return bad(".acknowledgment.code", "must be a claim status code (digits) such as 21 or 164")
		}
		if a.Entity != "" && !regexp.MustCompile(`^[A-Z0-9]{2,3}$`).MatchString(a.Entity) {
			return bad(".acknowledgment.entity", "must be an entity identifier code such as IL or 85")
		}
		if a.Status != "accepted" && c.Remittance != nil && c.Remittance.Outcome != "none" {
			return bad(".remittance", "a claim the 277CA rejects or never acknowledges is never paid; drop the remittance or use outcome none")
		}
	}
	r := c.Remittance
	if r == nil {
		return nil
	}
	if !slices.Contains(outcomes, r.Outcome) {
		return bad(".remittance.outcome", "must be one of %s", strings.Join(outcomes, ", "))
	}
	if r.GroupCode != "" && !slices.Contains(groupCodes, r.GroupCode) {
		return bad(".remittance.groupCode", "must be one of %s", strings.Join(groupCodes, ", "))
	}
	if r.CARC != "" && !regexp.MustCompile(`^[A-Z0-9]{1,3}$`).MatchString(r.CARC) {
		return bad(".remittance.carc", "must be a claim adjustment reason code such as 45, 197 or B7")
	}
	if r.PatientResponsibilityCARC != "" && !regexp.MustCompile(`^[A-Z0-9]{1,3}$`).MatchString(r.PatientResponsibilityCARC) {
		return bad(".remittance.patientResponsibilityCarc", "must be a claim adjustment reason code such as 1, 2 or 3")
	}
	if len(r.RARC) > 5 {
		return bad(".remittance.rarc", "has %d codes; at most 5 are allowed", len(r.RARC))
	}
	for i, code := range r.RARC {
		if !regexp.MustCompile(`^[A-Z]{1,2}[0-9]{1,3}$`).MatchString(code) {
			return bad(fmt.Sprintf(".remittance.rarc[%d]", i), "must be a remittance advice remark code such as N54 or M15")
		}
	}
	for _, p := range []struct {
		name string
		v    *int
	}{{"allowedPercent", r.AllowedPercent}, {"patientResponsibilityPercent", r.PatientResponsibilityPercent}} {
		if p.v != nil && (*p.v < 0 || *p.v > 100) {
			return bad(".remittance."+p.name, "must be between 0 and 100")
		}
	}
	allowed, patient := r.Shares()
	if patient > allowed {
		return bad(".remittance.patientResponsibilityPercent", "is more than allowedPercent: the patient's share comes out of what is allowed")
	}
	return nil
}

// Shares returns the percent of each line's charge the payer allows and
// the percent of it left to the patient, with the outcome's defaults.
func (r *Remittance) Shares() (allowed, patient int) {
	switch r.Outcome {
	case "partial":
		allowed, patient = 80, 10
	case "reversed": // the corrected payment after the reversal
		allowed = 80
	case "denied":
		allowed = 0
	default:
		allowed = 100
	}
	if r.AllowedPercent != nil && r.Outcome != "denied" {
		allowed = *r.AllowedPercent
	}
	if r.PatientResponsibilityPercent != nil && r.Outcome != "denied" {
		patient = *r.PatientResponsibilityPercent
	}
	return allowed, patient
}

func codeList(codes []string, re *regexp.Regexp, what string) string {
	if len(codes) > maxListItems {
		return fmt.Sprintf("has %d codes; at most %d are allowed", len(codes), maxListItems)
	}
	for i, c := range codes {
		if !re.MatchString(c) {
			return fmt.Sprintf("item %d (%q) is not %s", i, c, what)
		}
	}
	return ""
}

func isDate(s string) bool {
	_, err := time.Parse("20060102", s)
	return len(s) == 8 && err == nil
}

// Cents reads a validated dollar amount as cents.
func Cents(s string) int64 {
	whole, frac, _ := strings.Cut(s, ".")
	n, _ := strconv.ParseInt(whole, 10, 64)
	frac = (frac + "00")[:2]
	f, _ := strconv.ParseInt(frac, 10, 64)
	return n*100 + f
}
