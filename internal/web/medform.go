package web

import (
	"cmp"
	"strconv"
	"strings"

	"github.com/clearhouse/clearhouse/internal/claims"
	"github.com/clearhouse/clearhouse/internal/payers"
)

// The professional and institutional claim forms: the dental form's
// parties (insurance, insured person, patient, practice, treating
// provider) and one-pass validation, with the visit shaped like the paper
// form an office knows — a CMS-1500 (diagnoses A–L, lines with CPT/HCPCS,
// modifiers, diagnosis pointers, units and charge) or a UB-04 (type of
// bill, statement dates, admission, patient status, diagnoses, revenue
// code lines). They build the API's ProfessionalRequest and
// InstitutionalRequest and are checked by the same validators.

// Kinds of claim form.
const (
	kindDental        = "dental"
	kindProfessional  = "professional"
	kindInstitutional = "institutional"
)

// Lines and diagnoses each form offers: a CMS-1500 has 6 service lines
// and 12 diagnoses (A–L); the UB-04's 22 lines and 18 diagnoses are more
// than a visit needs, so the form offers 6 and 9.
const (
	professionalLines     = 6
	professionalDiagnoses = 12
	institutionalLines    = 6
	institutionalDx       = 9
)

func kindOf(s string) string {
	switch s {
	case kindProfessional, kindInstitutional:
		return s
	}
	return kindDental
}

func kindLines(kind string) int {
	switch kind {
	case kindProfessional:
		return professionalLines
	case kindInstitutional:
		return institutionalLines
	}
	return claimLines
}

// kindTitle names the form of a kind.
func kindTitle(kind string) string {
	switch kind {
	case kindProfessional:
		return "professional claim (CMS-1500)"
	case kindInstitutional:
		return "institutional claim (UB-04)"
	}
	return "dental claim"
}

// Title is the form's heading noun.
func (f *claimForm) Title() string { return kindTitle(f.Kind) }

// ProviderTitle names the treating provider's part of the form.
func (f *claimForm) ProviderTitle() string {
	switch f.Kind {
	case kindProfessional:
		return "Rendering provider"
	case kindInstitutional:
		return "Attending physician"
	}
	return "Treating dentist"
}

// PracticeNoun is the billing provider in a sentence.
func (f *claimForm) PracticeNoun() string {
	if f.Kind == kindInstitutional {
		return "facility"
	}
	return "practice"
}

// ProviderNoun is the treating provider in a sentence.
func (f *claimForm) ProviderNoun() string {
	switch f.Kind {
	case kindProfessional:
		return "provider"
	case kindInstitutional:
		return "physician"
	}
	return "dentist"
}

// groupLabel labels the messages of a group of inputs.
func (f *claimForm) groupLabel(group string) string {
	if group == "dentist" {
		switch f.Kind {
		case kindProfessional:
			return "Rendering provider"
		case kindInstitutional:
			return "Attending physician"
		}
	}
	if group == "lines" && f.Kind != kindDental {
		return "Service lines"
	}
	return claimGroups[group]
}

// dxLetter is the CMS-1500's letter of diagnosis i (1-based): A–L.
func dxLetter(i int) string { return string(rune('A' + i - 1)) }

// partyFields are the inputs every kind shares (the dental form's first
// part), with the treating provider named for the kind.
func partyFields(kind string) []fieldSpec {
	var out []fieldSpec
	for _, s := range claimFields {
		if s.Name == "service_date" {
			break
		}
		switch {
		case kind == kindProfessional && strings.HasPrefix(s.Name, "rend_"):
			s.Label = strings.Replace(strings.Replace(s.Label, "Treating dentist", "Rendering provider", 1), "Dentist", "Provider", 1)
		case kind == kindInstitutional && strings.HasPrefix(s.Name, "rend_"):
			s.Label = strings.Replace(strings.Replace(s.Label, "Treating dentist", "Attending physician", 1), "Dentist", "Physician", 1)
		case kind != kindDental && s.Name == "bill_taxonomy":
			s.Hint = "10 characters, e.g. 207Q00000X for family medicine."
		case kind == kindInstitutional && strings.HasPrefix(s.Name, "bill_"):
			s.Label = strings.Replace(s.Label, "Practice", "Facility", 1)
		}
		out = append(out, s)
	}
	return out
}

// tailFields are the hidden replace/void inputs and the prior
// authorization every kind has.
var tailFields = []fieldSpec{
	{Name: "prior_auth", Label: "Prior authorization number", MaxLen: 50},
	{Name: "frequency", Label: "Kind of claim"},
	{Name: "original_ref", Label: "Payer's claim number of the original", MaxLen: 50},
}

var professionalFields = func() []fieldSpec {
	f := partyFields(kindProfessional)
	f = append(f,
		fieldSpec{Name: "service_date", Label: "Date of service", Type: "date"},
		fieldSpec{Name: "place", Label: "Place of service"},
		fieldSpec{Name: "filing", Label: "Kind of insurance"},
	)
	for i := 1; i <= professionalDiagnoses; i++ {
		hint := ""
		if i == 1 {
			hint = "ICD-10-CM, with or without the dot, e.g. J06.9."
		}
		f = append(f, fieldSpec{Name: "dx" + strconv.Itoa(i), Label: "Diagnosis " + dxLetter(i), Hint: hint, MaxLen: 8})
	}
	f = append(f, tailFields...)
	for i := 1; i <= professionalLines; i++ {
		n := strconv.Itoa(i)
		code, mods, ptr, units, charge := "", "", "", "", ""
		if i == 1 {
			code, mods, ptr, units, charge = "CPT or HCPCS, e.g. 99213.", "Up to 4, e.g. 25 59.", "Letters of its diagnoses, e.g. AB.", "e.g. 1.", "Dollars, e.g. 125.00."
		}
		f = append(f,
			fieldSpec{Name: "line" + n + "_code", Label: "Service " + n, Hint: code, MaxLen: 5},
			fieldSpec{Name: "line" + n + "_mods", Label: "Modifiers", Hint: mods, MaxLen: 11},
			fieldSpec{Name: "line" + n + "_ptr", Label: "Diagnosis pointer", Hint: ptr, MaxLen: 4},
			fieldSpec{Name: "line" + n + "_units", Label: "Units", Hint: units, Inputmode: "decimal", MaxLen: 8},
			fieldSpec{Name: "line" + n + "_charge", Label: "Charge ($)", Hint: charge, Inputmode: "decimal", MaxLen: 10},
		)
	}
	return f
}()

var institutionalFields = func() []fieldSpec {
	f := partyFields(kindInstitutional)
	f = append(f,
		fieldSpec{Name: "tob", Label: "Type of bill", Hint: "3 digits, e.g. 131 (hospital outpatient, admit through discharge).", Inputmode: "numeric", MaxLen: 4},
		fieldSpec{Name: "filing", Label: "Kind of insurance"},
		fieldSpec{Name: "from_date", Label: "Statement from", Type: "date"},
		fieldSpec{Name: "to_date", Label: "Statement through", Type: "date"},
		fieldSpec{Name: "adm_date", Label: "Admission date", Type: "date", Hint: "Needed for an inpatient stay."},
		fieldSpec{Name: "adm_hour", Label: "Admission hour", Hint: "0–23.", Inputmode: "numeric", MaxLen: 2},
		fieldSpec{Name: "adm_type", Label: "Admission type"},
		fieldSpec{Name: "adm_source", Label: "Point of origin"},
		fieldSpec{Name: "pat_status", Label: "Patient status"},
	)
	for i := 1; i <= institutionalDx; i++ {
		label, hint := "Other diagnosis "+strconv.Itoa(i-1), ""
		if i == 1 {
			label, hint = "Principal diagnosis", "ICD-10-CM, with or without the dot, e.g. R45.851."
		}
		f = append(f, fieldSpec{Name: "dx" + strconv.Itoa(i), Label: label, Hint: hint, MaxLen: 8})
	}
	f = append(f, tailFields...)
	for i := 1; i <= institutionalLines; i++ {
		n := strconv.Itoa(i)
		rev, code, units, charge := "", "", "", ""
		if i == 1 {
			rev, code, units, charge = "4 digits, e.g. 0450.", "Optional, e.g. 99284.", "e.g. 1.", "Dollars, e.g. 500.00."
		}
		f = append(f,
			fieldSpec{Name: "line" + n + "_rev", Label: "Revenue code " + n, Hint: rev, Inputmode: "numeric", MaxLen: 4},
			fieldSpec{Name: "line" + n + "_code", Label: "HCPCS", Hint: code, MaxLen: 5},
			fieldSpec{Name: "line" + n + "_units", Label: "Units", Hint: units, Inputmode: "decimal", MaxLen: 8},
			fieldSpec{Name: "line" + n + "_charge", Label: "Charge ($)", Hint: charge, Inputmode: "decimal", MaxLen: 10},
		)
	}
	return f
}()

// specs are the form's inputs in order.
func (f *claimForm) specs() []fieldSpec {
	switch f.Kind {
	case kindProfessional:
		return professionalFields
	case kindInstitutional:
		return institutionalFields
	}
	return claimFields
}

// Diagnoses are the diagnosis inputs' names, for the template.
func (f *claimForm) Diagnoses() []string {
	n := professionalDiagnoses
	if f.Kind == kindInstitutional {
		n = institutionalDx
	}
	out := make([]string, n)
	for i := range out {
		out[i] = "dx" + strconv.Itoa(i+1)
	}
	return out
}

// validate applies the kind's claim rules to what the form holds.
func (f *claimForm) validate(dir *payers.Directory) error {
	switch f.Kind {
	case kindProfessional:
		return claims.ValidateProfessional(f.professionalRequest(dir))
	case kindInstitutional:
		return claims.ValidateInstitutional(f.institutionalRequest(dir))
	}
	return claims.Validate(f.request(dir))
}

// pathFields are the inputs a field error concerns: an attending
// physician who is missing altogether is each of the inputs that name one.
func (f *claimForm) pathFields(path string) []string {
	if f.Kind == kindInstitutional && path == "/attending" {
		return []string{"rend_first", "rend_last", "rend_npi"}
	}
	return []string{f.pathField(path)}
}

// pathField maps a field error's JSON pointer to its input for the kind.
func (f *claimForm) pathField(path string) string {
	if f.Kind == kindDental || !strings.HasPrefix(path, "/claimInformation/") {
		return claimPathField(path)
	}
	parts := strings.Split(strings.TrimPrefix(path, "/claimInformation/"), "/")
	at := func(i int) string {
		if i < len(parts) {
			return parts[i]
		}
		return ""
	}
	switch at(0) {
	case "healthCareCodeInformation", "otherDiagnosisInformationList":
		if at(1) == "" {
			return "dx1" // none at all: the first is the one asked for
		}
		if n, err := strconv.Atoi(at(1)); err == nil {
			if at(0) == "otherDiagnosisInformationList" {
				n++ // the principal one is dx1
				if m, err := strconv.Atoi(at(2)); err == nil {
					n += m
				}
			}
			if n < len(f.Diagnoses()) {
				return "dx" + strconv.Itoa(n+1)
			}
		}
		return "diagnoses"
	case "principalDiagnosis":
		return "dx1"
	case "placeOfServiceCode":
		if f.Kind == kindInstitutional {
			return "tob"
		}
		return "place"
	case "claimFrequencyCode":
		if f.Kind == kindInstitutional && f.Values["frequency"] == "" {
			return "tob"
		}
		return "frequency"
	case "claimDateInformation":
		switch {
		case strings.HasPrefix(at(1), "statementBegin"):
			return "from_date"
		case strings.HasPrefix(at(1), "statementEnd"):
			return "to_date"
		case strings.HasPrefix(at(1), "admission"):
			return "adm_date"
		}
		return "from_date"
	case "claimCodeInformation":
		switch at(1) {
		case "admissionTypeCode":
			return "adm_type"
		case "admissionSourceCode":
			return "adm_source"
		}
		return "pat_status"
	case "serviceLines":
		return f.medicalLineField(parts[1:])
	}
	return claimPathField(path)
}

// medicalLineField maps "N/professionalService/…" and
// "N/institutionalService/…" to line N+1's inputs.
func (f *claimForm) medicalLineField(parts []string) string {
	l, rest, ok := lineOf(parts, kindLines(f.Kind))
	if !ok {
		return "lines"
	}
	switch {
	case strings.HasSuffix(rest, "lineItemChargeAmount"):
		return l + "_charge"
	case strings.Contains(rest, "procedureModifiers"):
		return l + "_mods"
	case strings.Contains(rest, "compositeDiagnosisCodePointers"):
		return l + "_ptr"
	case strings.HasSuffix(rest, "serviceUnitCount"), strings.HasSuffix(rest, "measurementUnit"):
		return l + "_units"
	case strings.HasSuffix(rest, "serviceLineRevenueCode"):
		return l + "_rev"
	case strings.HasPrefix(rest, "serviceDate"):
		if f.Kind == kindInstitutional {
			return "from_date"
		}
		return "service_date"
	case strings.Contains(rest, "placeOfServiceCode"):
		return "place"
	}
	return l + "_code"
}

// parties builds what every kind of claim shares: the payer, submitter,
// receiver, subscriber, patient, billing and treating providers.
type claimParties struct {
	PayerID, PayerName string
	Submitter          *claims.Submitter
	Receiver           *claims.Receiver
	Subscriber         *claims.Subscriber
	Dependent          *claims.Dependent
	Billing, Treating  *claims.Provider
}

func (f *claimForm) parties(dir *payers.Directory, treatingType string) claimParties {
	req := f.request(dir) // the dental request holds every party as the form typed it
	out := claimParties{PayerID: req.TradingPartnerServiceID, PayerName: req.TradingPartnerName, Submitter: req.Submitter,
		Receiver: req.Receiver, Subscriber: req.Subscriber, Dependent: req.Dependent, Billing: req.Billing, Treating: req.Rendering}
	if out.Treating != nil {
		t := *out.Treating
		t.ProviderType = treatingType
		out.Treating = &t
	}
	return out
}

// dxCodes are the typed diagnoses, in order, as ICD-10-CM codes (no dot);
// an empty input in the middle keeps its place, so the letters stay.
func (f *claimForm) dxCodes() []string {
	var out []string
	last := 0
	for i, name := range f.Diagnoses() {
		code := strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(f.Values[name]), ".", ""))
		out = append(out, code)
		if code != "" {
			last = i + 1
		}
	}
	return out[:last]
}

// lineBlank reports whether every input of line l is empty.
func (f *claimForm) lineBlank(l string) bool {
	for _, s := range f.specs() {
		if strings.HasPrefix(s.Name, l+"_") && f.Values[s.Name] != "" {
			return false
		}
	}
	return true
}

func moneyInput(s string) string {
	if c, ok := parseDollars(s); ok {
		return formatCents(c)
	}
	return s
}

// professionalRequest builds the 837P the form describes.
func (f *claimForm) professionalRequest(dir *payers.Directory) *claims.ProfessionalRequest {
	v := f.Values
	p := f.parties(dir, "RenderingProvider")
	req := &claims.ProfessionalRequest{TradingPartnerServiceID: p.PayerID, TradingPartnerName: p.PayerName, Submitter: p.Submitter,
		Receiver: p.Receiver, Subscriber: p.Subscriber, Dependent: p.Dependent, Billing: p.Billing, Rendering: p.Treating}
	ci := &claims.ProfessionalClaimInformation{PatientControlNumber: v["pcn"], PlaceOfServiceCode: v["place"], ClaimFilingCode: v["filing"],
		ClaimFrequencyCode: cmp.Or(v["frequency"], "1"), SignatureIndicator: "Y", PlanParticipationCode: "A",
		BenefitsAssignmentCertificationIndicator: "Y", ReleaseInformationCode: "Y"}
	for i, code := range f.dxCodes() {
		typ := "ABF"
		if i == 0 {
			typ = "ABK"
		}
		ci.HealthCareCodeInformation = append(ci.HealthCareCodeInformation, claims.Diagnosis{DiagnosisTypeCode: typ, DiagnosisCode: code})
	}
	if v["prior_auth"] != "" || v["original_ref"] != "" {
		ci.ClaimSupplementalInformation = &claims.ProfessionalClaimSupplemental{PriorAuthorizationNumber: v["prior_auth"], ClaimControlNumber: v["original_ref"]}
	}
	for _, l := range f.Lines() {
		if f.lineBlank(l) {
			continue
		}
		ps := &claims.ProfessionalService{ProcedureIdentifier: "HC", ProcedureCode: strings.ToUpper(v[l+"_code"]),
			LineItemChargeAmount: moneyInput(v[l+"_charge"]), MeasurementUnit: "UN", ServiceUnitCount: cmp.Or(v[l+"_units"], "1")}
		ps.ProcedureModifiers = strings.FieldsFunc(strings.ToUpper(v[l+"_mods"]), func(r rune) bool { return r == ' ' || r == ',' })
		ps.CompositeDiagnosisCodePointers = &claims.DiagnosisPointers{DiagnosisCodePointers: pointers(v[l+"_ptr"], len(ci.HealthCareCodeInformation))}
		ci.ServiceLines = append(ci.ServiceLines, claims.ProfessionalServiceLine{ServiceDate: requestDate(v["service_date"]), ProfessionalService: ps})
	}
	if len(ci.ServiceLines) == 0 { // an empty first line, so its code, charge and date are asked for
		ci.ServiceLines = []claims.ProfessionalServiceLine{{ServiceDate: requestDate(v["service_date"]),
			ProfessionalService: &claims.ProfessionalService{ProcedureIdentifier: "HC", MeasurementUnit: "UN", ServiceUnitCount: "1",
				CompositeDiagnosisCodePointers: &claims.DiagnosisPointers{DiagnosisCodePointers: pointers("", len(ci.HealthCareCodeInformation))}}}}
	}
	if cents, ok := f.totalCents(); ok && cents > 0 {
		ci.ClaimChargeAmount = formatCents(cents)
	}
	req.ClaimInformation = ci
	return req
}

// pointers reads a line's diagnosis pointers: letters ("AB", "A, C") as a
// CMS-1500 writes them, or numbers ("1 2"). An empty input points at the
// first diagnosis when there is exactly one (what an office means).
func pointers(s string, dx int) []string {
	s = strings.ToUpper(strings.TrimSpace(s))
	if s == "" {
		if dx == 1 {
			return []string{"1"}
		}
		return nil
	}
	var out []string
	for _, tok := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' }) {
		if _, err := strconv.Atoi(tok); err == nil {
			out = append(out, tok)
			continue
		}
		for _, r := range tok {
			if r >= 'A' && r <= 'L' {
				out = append(out, strconv.Itoa(int(r-'A')+1))
			} else {
				out = append(out, string(r)) // the rules say what is wrong with it
			}
		}
	}
	return out
}

// institutionalRequest builds the 837I the form describes.
func (f *claimForm) institutionalRequest(dir *payers.Directory) *claims.InstitutionalRequest {
	v := f.Values
	p := f.parties(dir, "AttendingProvider")
	if p.Submitter != nil && p.Billing != nil {
		s := *p.Submitter
		s.TaxID = p.Billing.EmployerID
		p.Submitter = &s
	}
	req := &claims.InstitutionalRequest{TradingPartnerServiceID: p.PayerID, TradingPartnerName: p.PayerName, Submitter: p.Submitter,
		Receiver: p.Receiver, Subscriber: p.Subscriber, Dependent: p.Dependent, Billing: p.Billing, Attending: p.Treating}
	tob := digitsOnly(v["tob"])
	tob = strings.TrimPrefix(tob, "0") // a UB-04 prints it as 0131
	fac, freq := tob, ""
	if len(tob) == 3 {
		fac, freq = tob[:2], tob[2:]
	}
	ci := &claims.InstitutionalClaimInformation{PatientControlNumber: v["pcn"], ClaimFilingCode: v["filing"], PlaceOfServiceCode: fac,
		ClaimFrequencyCode: cmp.Or(v["frequency"], freq), PlanParticipationCode: "A", BenefitsAssignmentCertificationIndicator: "Y",
		ReleaseInformationCode: "Y",
		ClaimCodeInformation: &claims.InstitutionalClaimCodes{AdmissionTypeCode: v["adm_type"], AdmissionSourceCode: v["adm_source"],
			PatientStatusCode: v["pat_status"]},
		ClaimDateInformation: &claims.InstitutionalClaimDates{StatementBeginDate: requestDate(v["from_date"]), StatementEndDate: requestDate(v["to_date"])}}
	if d := requestDate(v["adm_date"]); d != "" {
		ci.ClaimDateInformation.AdmissionDateAndHour = d
		if h, err := strconv.Atoi(v["adm_hour"]); err == nil && h >= 0 && h < 24 {
			ci.ClaimDateInformation.AdmissionDateAndHour = d + leftPad(strconv.Itoa(h), 2) + "00"
		}
	}
	dx := f.dxCodes()
	if len(dx) > 0 {
		ci.PrincipalDiagnosis = &claims.PrincipalDiagnosis{QualifierCode: "ABK", PrincipalDiagnosisCode: dx[0]}
	} else {
		ci.PrincipalDiagnosis = &claims.PrincipalDiagnosis{QualifierCode: "ABK"}
	}
	if len(dx) > 1 {
		var others []claims.OtherDiagnosis
		for _, code := range dx[1:] {
			others = append(others, claims.OtherDiagnosis{QualifierCode: "ABF", OtherDiagnosisCode: code})
		}
		ci.OtherDiagnosisInformationList = [][]claims.OtherDiagnosis{others}
	}
	if v["prior_auth"] != "" || v["original_ref"] != "" {
		ci.ClaimSupplementalInformation = &claims.InstitutionalClaimSupplemental{PriorAuthorizationNumber: v["prior_auth"], ClaimControlNumber: v["original_ref"]}
	}
	for _, l := range f.Lines() {
		if f.lineBlank(l) {
			continue
		}
		is := &claims.InstitutionalService{ServiceLineRevenueCode: v[l+"_rev"], LineItemChargeAmount: moneyInput(v[l+"_charge"]),
			MeasurementUnit: "UN", ServiceUnitCount: cmp.Or(v[l+"_units"], "1")}
		if code := strings.ToUpper(v[l+"_code"]); code != "" {
			is.ProcedureIdentifier, is.ProcedureCode = "HC", code
		}
		ci.ServiceLines = append(ci.ServiceLines, claims.InstitutionalServiceLine{ServiceDate: requestDate(v["from_date"]), InstitutionalService: is})
	}
	if len(ci.ServiceLines) == 0 {
		ci.ServiceLines = []claims.InstitutionalServiceLine{{ServiceDate: requestDate(v["from_date"]),
			InstitutionalService: &claims.InstitutionalService{MeasurementUnit: "UN", ServiceUnitCount: "1"}}}
	}
	if cents, ok := f.totalCents(); ok && cents > 0 {
		ci.ClaimChargeAmount = formatCents(cents)
	}
	req.ClaimInformation = ci
	return req
}

// Options of the medical forms' selects.
func medicalOptions(name string) []option {
	switch name {
	case "adm_type":
		return []option{{"1", "Emergency"}, {"2", "Urgent"}, {"3", "Elective"}, {"4", "Newborn"}, {"5", "Trauma"}, {"9", "Not available"}}
	case "adm_source":
		return []option{{"1", "Non-health care facility (home, work)"}, {"2", "Clinic or physician's office"}, {"4", "Transfer from a hospital"},
			{"5", "Transfer from a nursing facility"}, {"7", "Emergency room"}, {"9", "Not available"}}
	case "pat_status":
		return []option{{"01", "Discharged home"}, {"02", "Transferred to a hospital"}, {"03", "Transferred to a skilled nursing facility"},
			{"06", "Home with home health care"}, {"07", "Left against medical advice"}, {"20", "Expired"}, {"30", "Still a patient"}}
	}
	return nil
}
