package web

import (
	"cmp"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/clearhouse/clearhouse/internal/claims"
	"github.com/clearhouse/clearhouse/internal/eligibility/summary"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/practice"
)

// The claim form speaks a front desk's language: patient, insurance,
// practice, dentist and the procedures done, one line each with its tooth,
// surfaces and charge. It builds the same claims.Request the JSON endpoint
// takes, and the service's messages come back next to the inputs that
// caused them. What an office never changes (claim frequency "original",
// signature on file, benefits assigned) is filled in for it.

// claimLines is how many procedure lines the form offers.
const claimLines = 4

var claimFields = func() []fieldSpec {
	f := []fieldSpec{
		{Name: "payer", Label: "Insurance company", Hint: "Type its name or the payer ID from the card, then pick it from the list.", MaxLen: 120},
		{Name: "pcn", Label: "Your claim number", Hint: "Your own number for this visit (the patient account number), up to 20 letters and digits. The payer's answers quote it.", MaxLen: 20},
		{Name: "sub_first", Label: "First name", MaxLen: 35},
		{Name: "sub_last", Label: "Last name", MaxLen: 60},
		{Name: "sub_member_id", Label: "Member ID", Hint: "As printed on the insurance card.", MaxLen: 80},
		{Name: "sub_dob", Label: "Date of birth", Type: "date"},
		{Name: "sub_gender", Label: "Sex"},
		{Name: "sub_group", Label: "Group number", MaxLen: 50},
		{Name: "sub_address1", Label: "Street address", MaxLen: 55},
		{Name: "sub_city", Label: "City", MaxLen: 30},
		{Name: "sub_state", Label: "State", Hint: "Two letters, e.g. TX.", MaxLen: 2},
		{Name: "sub_zip", Label: "ZIP code", Inputmode: "numeric", MaxLen: 10},
		{Name: "dep_first", Label: "Patient first name", MaxLen: 35},
		{Name: "dep_last", Label: "Patient last name", MaxLen: 60},
		{Name: "dep_dob", Label: "Patient date of birth", Type: "date"},
		{Name: "dep_gender", Label: "Patient sex"},
		{Name: "dep_rel", Label: "Patient is the subscriber's"},
		{Name: "bill_id", Label: "Practice"},
		{Name: "bill_org", Label: "Practice name", MaxLen: 60, Autocomp: "organization"},
		{Name: "bill_npi", Label: "Practice NPI", Hint: "10 digits.", Inputmode: "numeric", MaxLen: 10},
		{Name: "bill_tin", Label: "Tax ID (EIN)", Hint: "9 digits, no dash.", Inputmode: "numeric", MaxLen: 10},
		{Name: "bill_taxonomy", Label: "Taxonomy code", Hint: "10 characters, e.g. 1223G0001X for general dentistry.", MaxLen: 10},
		{Name: "bill_address1", Label: "Street address", Hint: "Where the practice is, not a PO box.", MaxLen: 55},
		{Name: "bill_city", Label: "City", MaxLen: 30},
		{Name: "bill_state", Label: "State", MaxLen: 2},
		{Name: "bill_zip", Label: "ZIP+4", Hint: "9 digits, no dash.", Inputmode: "numeric", MaxLen: 10},
		{Name: "bill_contact", Label: "Billing contact", MaxLen: 60},
		{Name: "bill_phone", Label: "Billing phone", Hint: "10 digits.", Inputmode: "tel", MaxLen: 14},
		{Name: "rend_id", Label: "Treating dentist"},
		{Name: "rend_first", Label: "Dentist first name", MaxLen: 35},
		{Name: "rend_last", Label: "Dentist last name", MaxLen: 60},
		{Name: "rend_npi", Label: "Dentist NPI", Inputmode: "numeric", MaxLen: 10},
		{Name: "service_date", Label: "Date of service", Type: "date"},
		{Name: "place", Label: "Where the care was given"},
		{Name: "filing", Label: "Kind of insurance"},
		{Name: "diagnosis", Label: "Diagnosis code (ICD-10)", Hint: "Optional, without the dot, e.g. K029.", MaxLen: 8},
		{Name: "prior_auth", Label: "Prior authorization number", MaxLen: 50},
		// A replacement (7) or void (8) of a processed claim, with the
		// payer's claim number of the original (REF*F8); hidden inputs the
		// claim page's Replace and Void fill.
		{Name: "frequency", Label: "Kind of claim"},
		{Name: "original_ref", Label: "Payer's claim number of the original", MaxLen: 50},
	}
	for i := 1; i <= claimLines; i++ {
		n := strconv.Itoa(i)
		code, tooth, surfaces, charge := "", "", "", ""
		if i == 1 { // the first line says how; the others look the same
			code, tooth, surfaces, charge = "CDT code, e.g. D2150.", "1–32 or A–T.", "Letters, e.g. MO.", "Dollars, e.g. 180.50."
		}
		f = append(f,
			fieldSpec{Name: "line" + n + "_code", Label: "Procedure " + n, Hint: code, MaxLen: 5},
			fieldSpec{Name: "line" + n + "_tooth", Label: "Tooth", Hint: tooth, MaxLen: 3},
			fieldSpec{Name: "line" + n + "_surfaces", Label: "Surfaces", Hint: surfaces, MaxLen: 5},
			fieldSpec{Name: "line" + n + "_charge", Label: "Charge ($)", Hint: charge, Inputmode: "decimal", MaxLen: 10},
		)
	}
	return f
}()

// requiredOf are the inputs the claim rules require, by kind: those an
// empty form (as the page first shows it) gets a message for. Derived
// from the kind's validator (claims.Validate, ValidateProfessional,
// ValidateInstitutional), so the stars cannot drift from the rules the
// API applies.
var requiredOf = func() map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, kind := range []string{kindDental, kindProfessional, kindInstitutional} {
		f := emptyClaimFormOf(kind)
		req := map[string]bool{}
		var ve *claims.ValidationError
		if errors.As(f.validate(payers.Default()), &ve) {
			for _, e := range ve.Fields {
				for _, name := range f.pathFields(e.Path) {
					req[name] = true
				}
			}
		}
		out[kind] = req
	}
	return out
}()

// emptyClaimFormOf is the form of a kind of claim as it starts: what an
// office rarely changes is chosen.
func emptyClaimFormOf(kind string) *claimForm {
	v := url.Values{"kind": {kind}, "place": {"11"}, "filing": {"CI"}, "dep_rel": {"19"}}
	if kind == kindInstitutional {
		v.Del("place")
		v.Set("tob", "131")
		v.Set("adm_type", "3")
		v.Set("adm_source", "1")
		v.Set("pat_status", "01")
	}
	return claimFormFrom(v)
}

// claimForm is the claim form's values and messages by input name.
type claimForm struct {
	// Kind is the claim's form: dental (837D), professional (837P, a
	// CMS-1500) or institutional (837I, a UB-04).
	Kind    string
	Values  map[string]string
	Errors  map[string][]string
	Summary []summaryItem
	CSRF    string
	Key     string // the submission's idempotency key: a double click sends one claim
	Sample  string
	PayerID string
	general []summaryItem
	// Corrects is the claim number of the claim this one corrects,
	// replaces or voids ("" for a new claim).
	Corrects string
	// Resends is the id of the claim this one is sent in place of (a
	// hidden input the correction form fills), so both claims' pages link.
	Resends  string
	fromPage bool
	// billing and rendering are the saved providers picked (bill_id,
	// rend_id); nil when typed by hand.
	billing, rendering *practice.Provider
}

func (f *claimForm) Field(name string) fieldView {
	spec := fieldView{ID: "c-" + name, Value: f.Values[name], Errors: f.Errors[name]}
	spec.fieldSpec = fieldSpec{Name: name, Label: name, Type: "text"}
	for _, s := range f.specs() {
		if s.Name == name {
			spec.fieldSpec = s
			if s.Type == "" {
				spec.Type = "text"
			}
		}
	}
	spec.Required = requiredOf[f.Kind][name]
	return spec
}

func (f *claimForm) Select(name string) selectView {
	sv := selectView{fieldView: f.Field(name)}
	switch name {
	case "sub_gender", "dep_gender":
		sv.Options = []option{{"", "Choose"}, {"F", "Female"}, {"M", "Male"}, {"U", "Unknown"}}
	case "dep_rel":
		sv.Options = []option{{"19", "Child"}, {"01", "Spouse"}, {"53", "Life partner"}, {"20", "Employee"}, {"G8", "Other relationship"}, {"21", "Unknown"}}
	case "place":
		sv.Options = []option{{"11", "Office"}, {"12", "Patient's home"}, {"22", "Hospital outpatient"}, {"21", "Hospital inpatient"},
			{"31", "Skilled nursing facility"}, {"32", "Nursing facility"}, {"03", "School"}, {"15", "Mobile unit"}, {"50", "Federally qualified health center"}}
	case "filing":
		sv.Options = []option{{"CI", "Commercial insurance"}, {"BL", "Blue Cross / Blue Shield"}, {"HM", "HMO"}, {"12", "PPO"},
			{"MC", "Medicaid"}, {"FI", "Federal employees program"}, {"CH", "TRICARE"}, {"VA", "Veterans affairs"}, {"ZZ", "Unknown"}}
		switch f.Kind {
		case kindProfessional:
			sv.Options = append(sv.Options[:len(sv.Options)-1], option{"MB", "Medicare Part B"}, option{"ZZ", "Unknown"})
		case kindInstitutional:
			sv.Options = append(sv.Options[:len(sv.Options)-1], option{"MA", "Medicare Part A"}, option{"ZZ", "Unknown"})
		}
	default:
		sv.Options = medicalOptions(name)
	}
	return sv
}

// Lines are the procedure lines' input names, for the template.
func (f *claimForm) Lines() []string {
	out := make([]string, kindLines(f.Kind))
	for i := range out {
		out[i] = "line" + strconv.Itoa(i+1)
	}
	return out
}

// Total is the lines' charges added up, as the claim will send it.
func (f *claimForm) Total() string {
	cents, ok := f.totalCents()
	if !ok {
		return ""
	}
	return formatCents(cents)
}

func (f *claimForm) totalCents() (int64, bool) {
	var sum int64
	for _, l := range f.Lines() {
		v := f.Values[l+"_charge"]
		if v == "" {
			continue
		}
		c, ok := parseDollars(v)
		if !ok {
			return 0, false
		}
		sum += c
	}
	return sum, true
}

var dollars = regexp.MustCompile(`^\$?\s*(\d{1,7})(?:\.(\d{1,2}))?$`)

// parseDollars reads "180", "180.5", "$180.50" as cents.
func parseDollars(s string) (int64, bool) {
	m := dollars.FindStringSubmatch(strings.ReplaceAll(strings.TrimSpace(s), ",", ""))
	if m == nil {
		return 0, false
	}
	whole, _ := strconv.ParseInt(m[1], 10, 64)
	frac := m[2]
	for len(frac) < 2 {
		frac += "0"
	}
	c, _ := strconv.ParseInt(frac, 10, 64)
	return whole*100 + c, true
}

func formatCents(c int64) string {
	if c < 0 {
		return "-" + formatCents(-c)
	}
	return fmt.Sprintf("%d.%02d", c/100, c%100)
}

// claimFormFrom reads the posted form.
func claimFormFrom(v url.Values) *claimForm {
	f := &claimForm{Kind: kindOf(v.Get("kind")), Values: map[string]string{}, Errors: map[string][]string{}}
	for _, s := range f.specs() {
		f.Values[s.Name] = strings.TrimSpace(v.Get(s.Name))
	}
	for _, n := range []string{"sub_state", "bill_state", "line1_surfaces", "line2_surfaces", "line3_surfaces", "line4_surfaces"} {
		f.Values[n] = strings.ToUpper(f.Values[n])
	}
	f.Key = v.Get("key")
	f.Sample = v.Get("sample")
	if id := v.Get("resends"); len(id) <= 64 {
		f.Resends = id
	}
	return f
}

// hasDependent reports whether the patient is someone else than the
// subscriber.
func (f *claimForm) hasDependent() bool {
	v := f.Values
	return v["dep_first"] != "" || v["dep_last"] != "" || v["dep_dob"] != ""
}

// request builds the claim the form describes; empty inputs are left out,
// so the service's rules see exactly what was typed.
func (f *claimForm) request(dir *payers.Directory) *claims.Request {
	v := f.Values
	payerID := f.PayerID
	if payerID == "" {
		payerID = v["payer"]
	}
	p, _ := dir.Lookup(payerID)
	// Addresses are sent whole when they are needed, even empty, so that
	// the rules name each missing part at once instead of "address is
	// required" first and its parts on the next try.
	addr := func(prefix string, needed bool) *claims.Address {
		a := &claims.Address{Address1: v[prefix+"_address1"], City: v[prefix+"_city"], State: v[prefix+"_state"],
			PostalCode: digitsOnly(v[prefix+"_zip"])}
		if *a == (claims.Address{}) && !needed {
			return nil
		}
		return a
	}
	var billing *claims.Provider
	if f.billing != nil {
		billing = f.billing.Claim(practice.Billing)
	} else {
		billing = &claims.Provider{ProviderType: "BillingProvider", OrganizationName: v["bill_org"], NPI: v["bill_npi"],
			EmployerID: digitsOnly(v["bill_tin"]), TaxonomyCode: strings.ToUpper(v["bill_taxonomy"]), Address: addr("bill", true),
			ContactInformation: &claims.ContactInformation{Name: v["bill_contact"], PhoneNumber: digitsOnly(v["bill_phone"])}}
	}
	req := &claims.Request{TradingPartnerServiceID: payerID, TradingPartnerName: p.Name,
		Submitter: &claims.Submitter{OrganizationName: billing.OrganizationName, LastName: billing.LastName, FirstName: billing.FirstName,
			ContactInformation: billing.ContactInformation},
		Receiver: &claims.Receiver{OrganizationName: p.Name},
		Subscriber: &claims.Subscriber{PaymentResponsibilityLevelCode: "P", MemberID: v["sub_member_id"], FirstName: v["sub_first"],
			LastName: v["sub_last"], DateOfBirth: requestDate(v["sub_dob"]), Gender: v["sub_gender"], GroupNumber: v["sub_group"],
			Address: addr("sub", !f.hasDependent())},
		Billing: billing,
	}
	if req.Receiver.OrganizationName == "" {
		req.Receiver = nil // the payer box says what is missing
	}
	if f.hasDependent() {
		// The form asks one address: the patient lives with the subscriber.
		req.Dependent = &claims.Dependent{FirstName: v["dep_first"], LastName: v["dep_last"], DateOfBirth: requestDate(v["dep_dob"]),
			Gender: v["dep_gender"], RelationshipToSubscriberCode: v["dep_rel"], Address: addr("sub", true)}
	}
	switch {
	case f.rendering != nil:
		req.Rendering = f.rendering.Claim(practice.Rendering)
	case v["rend_npi"] != "" || v["rend_last"] != "" || v["rend_first"] != "":
		req.Rendering = &claims.Provider{ProviderType: "RenderingProvider", NPI: v["rend_npi"], FirstName: v["rend_first"], LastName: v["rend_last"]}
	}
	ci := &claims.ClaimInformation{PatientControlNumber: v["pcn"], PlaceOfServiceCode: v["place"], ClaimFrequencyCode: cmp.Or(v["frequency"], "1"),
		SignatureIndicator: "Y", PlanParticipationCode: "A", BenefitsAssignmentCertificationIndicator: "Y", ReleaseInformationCode: "Y",
		ClaimFilingCode: v["filing"]}
	if v["diagnosis"] != "" {
		ci.HealthCareCodeInformation = []claims.Diagnosis{{DiagnosisTypeCode: "ABK", DiagnosisCode: strings.ToUpper(strings.ReplaceAll(v["diagnosis"], ".", ""))}}
	}
	if v["prior_auth"] != "" || v["original_ref"] != "" {
		ci.ClaimSupplementalInformation = &claims.ClaimSupplementalInformation{PriorAuthorizationNumber: v["prior_auth"],
			ClaimControlNumber: v["original_ref"]}
	}
	for _, l := range f.Lines() {
		code, charge := strings.ToUpper(v[l+"_code"]), v[l+"_charge"]
		if code == "" && charge == "" && v[l+"_tooth"] == "" && v[l+"_surfaces"] == "" {
			continue
		}
		if c, ok := parseDollars(charge); ok {
			charge = formatCents(c)
		}
		ds := &claims.DentalService{ProcedureCode: code, LineItemChargeAmount: charge, PlaceOfServiceCode: v["place"], ProcedureCount: "1"}
		if v["diagnosis"] != "" {
			ds.CompositeDiagnosisCodePointers = &claims.DiagnosisPointers{DiagnosisCodePointers: []string{"1"}}
		}
		line := claims.ServiceLine{ServiceDate: requestDate(v["service_date"]), DentalService: ds}
		if t := v[l+"_tooth"]; t != "" || v[l+"_surfaces"] != "" {
			ti := claims.ToothInformation{ToothCode: strings.ToUpper(t)}
			for _, s := range strings.ToUpper(v[l+"_surfaces"]) {
				if s != ' ' && s != ',' {
					ti.ToothSurfaceCodes = append(ti.ToothSurfaceCodes, string(s))
				}
			}
			line.TeethInformation = []claims.ToothInformation{ti}
		}
		ci.ServiceLines = append(ci.ServiceLines, line)
	}
	if len(ci.ServiceLines) == 0 { // an empty first line, so its code, charge and date are asked for
		ci.ServiceLines = []claims.ServiceLine{{ServiceDate: requestDate(v["service_date"]),
			DentalService: &claims.DentalService{PlaceOfServiceCode: v["place"], ProcedureCount: "1"}}}
	}
	if cents, ok := f.totalCents(); ok && cents > 0 {
		ci.ClaimChargeAmount = formatCents(cents)
	}
	req.ClaimInformation = ci
	return req
}

func digitsOnly(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// claimPathField maps a field error's JSON pointer to the input (or group
// of inputs) that shows it; "" when it concerns the claim as a whole.
func claimPathField(path string) string {
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	at := func(i int) string {
		if i < len(parts) {
			return parts[i]
		}
		return ""
	}
	switch at(0) {
	case "tradingPartnerServiceId", "tradingPartnerName", "receiver":
		return "payer"
	case "subscriber", "dependent":
		prefix := map[string]string{"subscriber": "sub_", "dependent": "dep_"}[at(0)]
		switch at(1) {
		case "firstName":
			return prefix + "first"
		case "lastName":
			return prefix + "last"
		case "memberId":
			return prefix + "member_id"
		case "dateOfBirth":
			return prefix + "dob"
		case "gender":
			return prefix + "gender"
		case "groupNumber":
			return prefix + "group"
		case "relationshipToSubscriberCode":
			return "dep_rel"
		case "address":
			return addressField(prefix, at(2))
		}
		if at(0) == "subscriber" {
			return "subscriber"
		}
		return "patient"
	case "billing", "submitter":
		switch at(1) {
		case "npi":
			return "bill_npi"
		case "employerId", "ssn", "taxId":
			return "bill_tin"
		case "organizationName", "lastName":
			return "bill_org"
		case "taxonomyCode":
			return "bill_taxonomy"
		case "address":
			return addressField("bill_", at(2))
		case "contactInformation":
			if at(2) == "name" {
				return "bill_contact"
			}
			return "bill_phone"
		}
		return "practice"
	case "rendering", "attending":
		switch at(1) {
		case "npi":
			return "rend_npi"
		case "firstName":
			return "rend_first"
		case "lastName":
			return "rend_last"
		}
		return "dentist"
	case "claimInformation":
		switch at(1) {
		case "patientControlNumber":
			return "pcn"
		case "placeOfServiceCode":
			return "place"
		case "claimFilingCode":
			return "filing"
		case "healthCareCodeInformation":
			return "diagnosis"
		case "claimSupplementalInformation":
			if at(2) == "claimControlNumber" {
				return "original_ref"
			}
			return "prior_auth"
		case "claimFrequencyCode":
			return "frequency"
		case "claimChargeAmount":
			return "lines"
		case "serviceLines":
			return lineField(parts[2:])
		}
	}
	return ""
}

func addressField(prefix, part string) string {
	switch part {
	case "city":
		return prefix + "city"
	case "state":
		return prefix + "state"
	case "postalCode":
		return prefix + "zip"
	}
	return prefix + "address1"
}

// lineOf reads a service line's path "N/…": the inputs' prefix of line
// N+1 ("line3") and the rest of the path; false when N is not one of the
// form's lines.
func lineOf(parts []string, lines int) (prefix, rest string, ok bool) {
	if len(parts) == 0 {
		return "", "", false
	}
	n, err := strconv.Atoi(parts[0])
	if err != nil || n >= lines {
		return "", "", false
	}
	return "line" + strconv.Itoa(n+1), strings.Join(parts[1:], "/"), true
}

// lineField maps "N/dentalService/procedureCode" and friends to line N+1.
func lineField(parts []string) string {
	l, rest, ok := lineOf(parts, claimLines)
	if !ok {
		return "lines"
	}
	switch {
	case strings.HasSuffix(rest, "lineItemChargeAmount"):
		return l + "_charge"
	case strings.Contains(rest, "toothSurface"):
		return l + "_surfaces"
	case strings.Contains(rest, "teethInformation"):
		return l + "_tooth"
	case rest == "serviceDate":
		return "service_date"
	case strings.Contains(rest, "placeOfServiceCode"):
		return "place"
	case strings.Contains(rest, "compositeDiagnosisCodePointers"):
		return "diagnosis"
	}
	return l + "_code"
}

// claimGroups label the messages of groups of inputs.
var claimGroups = map[string]string{"subscriber": "Insured person", "patient": "Patient", "practice": "Practice",
	"dentist": "Treating dentist", "lines": "Procedures", "diagnoses": "Diagnoses"}

// claimWords are the contract's names a claims message may carry.
var claimWords = strings.NewReplacer(
	"lineItemChargeAmount", "charge", "claimChargeAmount", "total charge", "procedureCode", "procedure code",
	"organizationName", "name", "contactInformation", "contact", "phoneNumber", "phone number", "postalCode", "ZIP code",
	"address1", "street address", "memberId", "member ID", "firstName", "first name", "lastName", "last name",
	"dateOfBirth", "date of birth", "employerId", "tax ID", "npi", "NPI", "YYYYMMDD", "a date",
	"dentalService.", "", "serviceLines", "procedures", "patientControlNumber", "claim number",
	"faxNumber", "fax number", "taxonomyCode", "taxonomy code", "submitter", "practice",
)

// requiredWords are the rules' ways of saying a value is missing ("is
// required: …", "a tax id is required: …").
var requiredWords = regexp.MustCompile(`^(?:is required|an? [\w ,]+ (?:is|are) required)`)

// claimMessage says a rule's message in a front desk's words.
func claimMessage(field, msg string) string {
	switch {
	case strings.Contains(msg, "not a valid NPI"):
		return "This NPI is not valid: one digit is probably mistyped. Copy it again from the provider's NPI record."
	case requiredWords.MatchString(msg):
		if label := claimGroups[field]; label != "" {
			return "Something is missing: " + summary.PlainWords(claimWords.Replace(strings.TrimPrefix(strings.TrimPrefix(msg, "is required"), ":")))
		}
		return "Fill this in."
	case strings.HasPrefix(msg, "must "):
		got := ""
		if i := strings.Index(msg, "; got "); i > 0 {
			got = " You entered " + strings.TrimPrefix(msg[i:], "; got ") + "."
			msg = msg[:i]
		}
		return summary.PlainWords(claimWords.Replace("This "+msg)) + got
	}
	return summary.PlainWords(claimWords.Replace(msg))
}

// addErrors places the service's messages next to their inputs.
func (f *claimForm) addErrors(errs []claims.FieldError) {
	for _, e := range errs {
		if e.Path == "/claimInformation/claimChargeAmount" && strings.HasPrefix(e.Message, "is required") {
			continue // the total is the lines' charges added up: a line without one says so
		}
		for _, name := range f.pathFields(e.Path) {
			msg := claimMessage(name, e.Message)
			if len(f.pathFields(e.Path)) > 1 {
				msg = "Fill this in."
			}
			if name == "" {
				f.general = append(f.general, summaryItem{Label: "Claim", Message: msg})
				continue
			}
			if !slices.Contains(f.Errors[name], msg) {
				f.Errors[name] = append(f.Errors[name], msg)
			}
		}
	}
}

// summarize lists every message in form order for the box on top.
func (f *claimForm) summarize() {
	f.Summary = nil
	add := func(name, label string) {
		for _, msg := range f.Errors[name] {
			f.Summary = append(f.Summary, summaryItem{Field: "c-" + name, Label: label, Message: msg})
		}
	}
	for _, s := range f.specs() {
		add(s.Name, summaryLabel(s, f.Kind))
		switch s.Name {
		case "sub_zip":
			add("subscriber", f.groupLabel("subscriber"))
		case "dep_rel":
			add("patient", f.groupLabel("patient"))
		case "bill_phone":
			add("practice", f.groupLabel("practice"))
		case "rend_npi":
			add("dentist", f.groupLabel("dentist"))
		case "prior_auth":
			add("lines", f.groupLabel("lines"))
			add("diagnoses", f.groupLabel("diagnoses"))
		}
	}
	f.Summary = append(f.Summary, f.general...)
}

// Value is one input's value, for the template.
func (f *claimForm) Value(name string) string { return f.Values[name] }

// summaryLabel names an input in the summary on top, where "City" alone
// could be the insured person's or the practice's.
func summaryLabel(s fieldSpec, kind string) string {
	prefix, _, _ := strings.Cut(s.Name, "_")
	group := map[string]string{"sub": "insured person", "bill": "practice"}[prefix]
	if kind == kindInstitutional && prefix == "bill" {
		group = "facility"
	}
	first := map[string]string{kindProfessional: "_code", kindInstitutional: "_rev"}[kind]
	if first == "" {
		first = "_code"
	}
	if strings.HasPrefix(prefix, "line") && !strings.HasSuffix(s.Name, first) {
		group = "procedure " + strings.TrimPrefix(prefix, "line")
		if kind != kindDental {
			group = "line " + strings.TrimPrefix(prefix, "line")
		}
	}
	if group == "" || strings.Contains(strings.ToLower(s.Label), strings.Fields(group)[0]) {
		return s.Label
	}
	return s.Label + " (" + group + ")"
}

// Corrected reports whether the form shows a sent claim's problems as the
// payer gave them (opened from its page, not yet posted).
func (f *claimForm) Corrected() bool { return f.Corrects != "" && f.fromPage }
