package claims

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxServiceLines is the 837D's limit of service lines per claim (loop 2400).
const MaxServiceLines = 50

// Validate applies the rules to a request, after bringing its text into the
// X12 character set (which it may rewrite, see x12text.go). It returns a
// *ValidationError listing every problem, or nil.
func Validate(r *Request) error {
	c := &checker{form: "837D"}
	normalizeText(c, r)
	c.required("/tradingPartnerServiceId", r.TradingPartnerServiceID, "the payer id (for example 52133 for UnitedHealthcare Dental)")
	c.length("/tradingPartnerServiceId", r.TradingPartnerServiceID, 1, 80)
	c.length("/tradingPartnerName", r.TradingPartnerName, 1, 60)
	c.oneOf("/usageIndicator", r.UsageIndicator, usageIndicatorCodes, "P production, T test")
	c.oneOf("/claimIdentifier", r.ClaimIdentifier, claimIdentifierCodes, "CH chargeable, RP reporting, 31 subrogation demand")
	if len(r.TradingPartnerSecondaryIdentifiers) > 3 {
		c.add("/tradingPartnerSecondaryIdentifiers", "may hold at most 3 identifiers; got %d", len(r.TradingPartnerSecondaryIdentifiers))
	}
	for i, s := range r.TradingPartnerSecondaryIdentifiers {
		checkSecondary(c, fmt.Sprintf("/tradingPartnerSecondaryIdentifiers/%d", i), s, payerSecondaryIDCodes)
	}
	checkSubmitter(c, r.Submitter)
	if r.Receiver == nil {
		c.add("/receiver", "is required: the payer receiving the claim, with organizationName")
	} else {
		c.required("/receiver/organizationName", r.Receiver.OrganizationName, "the receiving payer's name")
		c.length("/receiver/organizationName", r.Receiver.OrganizationName, 1, 60)
	}
	checkSubscriber(c, r.Subscriber, r.Dependent == nil)
	checkDependent(c, r.Dependent)
	checkBilling(c, r.Billing)
	checkAddress(c, "/payToAddress", r.PayToAddress, true)
	checkPayToPlan(c, r.PayToPlan)
	checkAddress(c, "/payerAddress", r.PayerAddress, true)
	checkProvider(c, "/rendering", r.Rendering)
	checkProvider(c, "/referring", r.Referring)
	checkProvider(c, "/supervising", r.Supervising)
	checkProvider(c, "/assistantSurgeon", r.AssistantSurgeon)
	checkClaim(c, r.ClaimInformation)
	if c.errs.Len() > 0 {
		return invalid(c.errs.Items, c.errs.More)
	}
	return nil
}

func checkClaim(c *checker, ci *ClaimInformation) {
	const base = "/claimInformation"
	if ci == nil {
		c.add(base, "is required: the claim, with patientControlNumber, claimChargeAmount, placeOfServiceCode, claimFrequencyCode, signatureIndicator, releaseInformationCode, benefitsAssignmentCertificationIndicator and serviceLines")
		return
	}
	c.required(base+"/patientControlNumber", ci.PatientControlNumber, "your own id for this claim (1–20 characters; 17 or fewer keeps it whole in every payer's answers)")
	c.length(base+"/patientControlNumber", ci.PatientControlNumber, 1, 20)
	c.required(base+"/claimChargeAmount", ci.ClaimChargeAmount, "the total charge, equal to the sum of the service lines' lineItemChargeAmount")
	total, totalOK := c.amount(base+"/claimChargeAmount", ci.ClaimChargeAmount)
	if c.required(base+"/placeOfServiceCode", ci.PlaceOfServiceCode, "the two-digit CMS place of service (11 office, 12 home, 22 outpatient hospital…)") &&
		!in(placeOfServiceCodes, ci.PlaceOfServiceCode) {
		c.add(base+"/placeOfServiceCode", "%q is not a CMS place of service code; use two digits such as 11 (office)", ci.PlaceOfServiceCode)
	}
	c.required(base+"/claimFrequencyCode", ci.ClaimFrequencyCode, "1 for a new claim, 7 to replace a processed claim, 8 to void one")
	c.oneOf(base+"/claimFrequencyCode", ci.ClaimFrequencyCode, frequencyCodes, "1 original, 7 replacement, 8 void")
	c.required(base+"/signatureIndicator", ci.SignatureIndicator, "Y when the provider's signature is on file, else N")
	c.oneOf(base+"/signatureIndicator", ci.SignatureIndicator, signatureCodes, "Y yes, N no")
	c.required(base+"/releaseInformationCode", ci.ReleaseInformationCode, "Y signed release on file, I informed consent")
	c.oneOf(base+"/releaseInformationCode", ci.ReleaseInformationCode, releaseCodes, "Y signed statement, I informed consent")
	c.required(base+"/benefitsAssignmentCertificationIndicator", ci.BenefitsAssignmentCertificationIndicator, "Y when the patient assigned benefits to the provider, N when not, W not applicable")
	c.oneOf(base+"/benefitsAssignmentCertificationIndicator", ci.BenefitsAssignmentCertificationIndicator, assignmentCodes, "Y yes, N no, W not applicable")
	c.oneOf(base+"/planParticipationCode", ci.PlanParticipationCode, planParticipationCodes, "A assigned, B assignment for lab services only, C not assigned")
	c.oneOf(base+"/claimFilingCode", ci.ClaimFilingCode, claimFilingCodes, "X12 claim filing indicator; CI commercial, FI federal employees, MC Medicaid, HM HMO…")
	c.oneOf(base+"/delayReasonCode", ci.DelayReasonCode, delayReasonCodes, "X12 delay reason code")
	c.oneOf(base+"/specialProgramCode", ci.SpecialProgramCode, specialProgramCodes, "02 physically handicapped children, 03 special federal funding, 05 disability, 09 second opinion")
	if len(ci.RelatedCausesCode) > 2 {
		c.add(base+"/relatedCausesCode", "may hold at most 2 codes; got %d", len(ci.RelatedCausesCode))
	}
	auto := false
	for i, rc := range ci.RelatedCausesCode {
		c.oneOf(fmt.Sprintf("%s/relatedCausesCode/%d", base, i), rc, relatedCausesCodes, "AA auto accident, EM employment, OA other accident")
		auto = auto || rc == "AA"
	}
	if auto && ci.AutoAccidentStateCode == "" && ci.AutoAccidentCountryCode == "" {
		c.add(base+"/autoAccidentStateCode", "is required with relatedCausesCode AA: the two-letter state or province of the accident")
	}
	c.length(base+"/autoAccidentStateCode", ci.AutoAccidentStateCode, 2, 2)
	c.length(base+"/autoAccidentCountryCode", ci.AutoAccidentCountryCode, 2, 3)
	if cents, ok := c.amount(base+"/patientAmountPaid", ci.PatientAmountPaid); ok && cents == 0 {
		c.add(base+"/patientAmountPaid", "must not be 0; leave it out when the patient paid nothing")
	}
	c.length(base+"/propertyCasualtyClaimNumber", ci.PropertyCasualtyClaimNumber, 1, 50)
	if len(ci.ClaimNotes) > 5 {
		c.add(base+"/claimNotes", "may hold at most 5 notes; got %d", len(ci.ClaimNotes))
	} else if n := len(strings.Join(ci.ClaimNotes, "; ")); n > 80 {
		c.add(base+"/claimNotes", "the 837D carries one claim note of at most 80 characters (notes are joined with \"; \"); these are %d", n)
	}
	if len(ci.FileInformationList) > 10 {
		c.add(base+"/fileInformationList", "may hold at most 10 items; got %d", len(ci.FileInformationList))
	}
	for i, f := range ci.FileInformationList {
		c.length(fmt.Sprintf("%s/fileInformationList/%d", base, i), f, 1, 80)
	}

	dx := checkDiagnoses(c, base+"/healthCareCodeInformation", ci.HealthCareCodeInformation)
	claimServiceDate := checkClaimDates(c, base+"/claimDateInformation", ci.ClaimDateInformation)
	checkToothStatus(c, base+"/toothStatus", ci.ToothStatus)
	checkOrthodontics(c, base+"/orthodonticTotalMonthsOfTreatment", ci.OrthodonticTotalMonthsOfTreatment)
	checkSupplemental(c, base+"/claimSupplementalInformation", ci)
	checkContract(c, base+"/claimContractInformation", ci.ClaimContractInformation)
	checkFacility(c, base+"/serviceFacilityLocation", ci.ServiceFacilityLocation)
	if len(ci.OtherSubscriberInformation) > 10 {
		c.add(base+"/otherSubscriberInformation", "may hold at most 10 other payers; got %d", len(ci.OtherSubscriberInformation))
	}
	for i := range ci.OtherSubscriberInformation {
		checkOtherSubscriber(c, fmt.Sprintf("%s/otherSubscriberInformation/%d", base, i), &ci.OtherSubscriberInformation[i])
	}

	switch n := len(ci.ServiceLines); {
	case n == 0:
		c.add(base+"/serviceLines", "is required: at least one service line, each with dentalService.procedureCode and lineItemChargeAmount")
	case n > MaxServiceLines:
		c.add(base+"/serviceLines", "may hold at most %d service lines (the 837D's limit); got %d; split the claim", MaxServiceLines, n)
	}
	var sum int64
	sumOK := true
	for i := range ci.ServiceLines {
		cents, ok := checkLine(c, fmt.Sprintf("%s/serviceLines/%d", base, i), &ci.ServiceLines[i], dx,
			claimServiceDate || ci.PredeterminationOfBenefits)
		sum += cents
		sumOK = sumOK && ok
	}
	if totalOK && sumOK && len(ci.ServiceLines) > 0 && sum != total {
		c.add(base+"/claimChargeAmount", "must equal the sum of the service lines' lineItemChargeAmount: %s was sent, the lines add up to %s",
			ci.ClaimChargeAmount, formatCents(sum))
	}
}

// checkDiagnoses returns the number of diagnoses the pointers may name.
func checkDiagnoses(c *checker, base string, dx []Diagnosis) int {
	if len(dx) > 4 {
		c.add(base, "may hold at most 4 diagnosis codes (one ABK, then up to 3 ABF); got %d; send another claim for the rest", len(dx))
	}
	for i, d := range dx {
		path := fmt.Sprintf("%s/%d", base, i)
		want := "ABF"
		if i == 0 {
			want = "ABK"
		}
		if d.DiagnosisTypeCode != want {
			c.add(path+"/diagnosisTypeCode", "must be %s here: the first diagnosis is the principal one (ABK), the others ABF; got %q", want, d.DiagnosisTypeCode)
		}
		switch {
		case d.DiagnosisCode == "":
			c.add(path+"/diagnosisCode", "is required: an ICD-10-CM code such as K081")
		case strings.Contains(d.DiagnosisCode, "."):
			c.add(path+"/diagnosisCode", "must be sent without the dot (K081, not K08.1); got %q", d.DiagnosisCode)
		case !alphanumeric(d.DiagnosisCode) || len(d.DiagnosisCode) < 3 || len(d.DiagnosisCode) > 7:
			c.add(path+"/diagnosisCode", "must be an ICD-10-CM code of 3 to 7 letters and digits; got %q", d.DiagnosisCode)
		}
	}
	return len(dx)
}

// checkClaimDates reports whether the claim carries a service date.
func checkClaimDates(c *checker, base string, d *ClaimDateInformation) bool {
	if d == nil {
		return false
	}
	if d.ServiceDate != "" {
		if from, to, ok := dateRange(d.ServiceDate); !ok {
			c.add(base+"/serviceDate", "must be a real date YYYYMMDD or a range YYYYMMDD-YYYYMMDD; got %q", d.ServiceDate)
		} else if to != "" && to < from {
			c.add(base+"/serviceDate", "the range ends before it starts; got %q", d.ServiceDate)
		}
	}
	c.date(base+"/accidentDate", d.AccidentDate)
	c.date(base+"/appliancePlacementDate", d.AppliancePlacementDate)
	c.date(base+"/repricerReceivedDate", d.RepricerReceivedDate)
	return d.ServiceDate != ""
}

func checkToothStatus(c *checker, base string, ts []ToothStatus) {
	if len(ts) > 35 {
		c.add(base, "may hold at most 35 teeth; got %d", len(ts))
	}
	for i, t := range ts {
		path := fmt.Sprintf("%s/%d", base, i)
		if c.required(path+"/toothNumber", t.ToothNumber, "the tooth (Universal numbering: 1–32, A–T)") && !validTooth(t.ToothNumber) {
			c.add(path+"/toothNumber", toothMessage, t.ToothNumber)
		}
		c.required(path+"/toothStatusCode", t.ToothStatusCode, "E to be extracted, M missing")
		c.oneOf(path+"/toothStatusCode", t.ToothStatusCode, toothStatusCodes, "E to be extracted, M missing")
	}
}

const toothMessage = "%q is not a tooth of the Universal numbering system: use 1–32 (permanent), A–T (primary), 51–82 or AS–TS (supernumerary)"

func checkOrthodontics(c *checker, base string, o *Orthodontics) {
	if o == nil {
		return
	}
	if o.MonthsCount == "" && o.MonthsRemaining == "" && o.TreatmentIndicator == "" {
		c.add(base, "needs at least one of monthsCount, monthsRemaining or treatmentIndicator")
	}
	for _, f := range []struct {
		name string
		v    Count
	}{{"monthsCount", o.MonthsCount}, {"monthsRemaining", o.MonthsRemaining}} {
		if f.v != "" && !wholeNumber(string(f.v), 0, 999) {
			c.add(base+"/"+f.name, "must be a whole number of months from 0 to 999; got %q", string(f.v))
		}
	}
	c.oneOf(base+"/treatmentIndicator", o.TreatmentIndicator, []string{"Y"}, "Y when the treatment is for orthodontic purposes")
}

func checkSupplemental(c *checker, base string, ci *ClaimInformation) {
	s := ci.ClaimSupplementalInformation
	if (ci.ClaimFrequencyCode == "7" || ci.ClaimFrequencyCode == "8") && (s == nil || s.ClaimControlNumber == "") {
		c.add(base+"/claimControlNumber", "is required when claimFrequencyCode is %s: the payer's claim control number of the claim being replaced or voided", ci.ClaimFrequencyCode)
	}
	if s == nil {
		return
	}
	for _, f := range []struct{ name, v string }{
		{"priorAuthorizationNumber", s.PriorAuthorizationNumber}, {"referralNumber", s.ReferralNumber},
		{"claimControlNumber", s.ClaimControlNumber}, {"claimNumber", s.ClaimNumber},
		{"predeterminationOfBenefitsIdentifier", s.PredeterminationOfBenefitsIdentifier},
		{"repricedClaimNumber", s.RepricedClaimNumber}, {"adjustedRepricedClaimNumber", s.AdjustedRepricedClaimNumber},
	} {
		c.length(base+"/"+f.name, f.v, 1, 50)
	}
	c.oneOf(base+"/serviceAuthorizationExceptionCode", s.ServiceAuthorizationExceptionCode, exceptionCodes, "X12 service authorization exception code 1–7")
	reports := s.ReportInformations
	if s.ReportInformation != nil {
		checkReport(c, base+"/reportInformation", *s.ReportInformation)
		reports = append([]ReportInformation{*s.ReportInformation}, reports...)
	}
	if len(reports) > 10 {
		c.add(base+"/reportInformations", "may hold at most 10 attachments; got %d", len(reports))
	}
	for i, r := range s.ReportInformations {
		checkReport(c, fmt.Sprintf("%s/reportInformations/%d", base, i), r)
	}
}

// checkLine returns the line's charge in cents and whether it parsed.
func checkLine(c *checker, base string, l *ServiceLine, dx int, claimDated bool) (int64, bool) {
	var cents int64
	ok := false
	if l.DentalService == nil {
		c.add(base+"/dentalService", "is required: procedureCode and lineItemChargeAmount")
	} else {
		cents, ok = checkDentalService(c, base+"/dentalService", l.DentalService, dx)
	}
	if l.ServiceDate == "" && !claimDated {
		c.add(base+"/serviceDate", "is required: the date of service (YYYYMMDD), unless claimInformation.claimDateInformation.serviceDate covers every line or the claim is a predetermination")
	}
	c.date(base+"/serviceDate", l.ServiceDate)
	c.length(base+"/providerControlNumber", l.ProviderControlNumber, 1, 30)
	if len(l.TeethInformation) > 32 {
		c.add(base+"/teethInformation", "may hold at most 32 teeth; got %d", len(l.TeethInformation))
	}
	for i, t := range l.TeethInformation {
		p := fmt.Sprintf("%s/teethInformation/%d", base, i)
		if c.required(p+"/toothCode", t.ToothCode, "the tooth (Universal numbering: 1–32, A–T)") && !validTooth(t.ToothCode) {
			c.add(p+"/toothCode", toothMessage, t.ToothCode)
		}
		if len(t.ToothSurfaceCodes) > 5 {
			c.add(p+"/toothSurfaceCodes", "may hold at most 5 surfaces; got %d", len(t.ToothSurfaceCodes))
		}
		for j, s := range t.ToothSurfaceCodes {
			c.oneOf(fmt.Sprintf("%s/toothSurfaceCodes/%d", p, j), s, surfaceCodes, "B buccal, D distal, F facial, I incisal, L lingual, M mesial, O occlusal")
		}
	}
	if d := l.ServiceLineDateInformation; d != nil {
		p := base + "/serviceLineDateInformation"
		c.date(p+"/priorPlacementDate", d.PriorPlacementDate)
		c.date(p+"/appliancePlacementDate", d.AppliancePlacementDate)
		c.date(p+"/replacementDate", d.ReplacementDate)
		c.date(p+"/treatmentStartDate", d.TreatmentStartDate)
		c.date(p+"/treatmentCompletionDate", d.TreatmentCompletionDate)
		if d.TreatmentStartDate != "" && l.ServiceDate != "" {
			c.add(base+"/serviceDate", "send serviceDate or serviceLineDateInformation.treatmentStartDate, not both")
		}
	}
	if l.DentalService != nil && l.DentalService.ProsthesisCrownOrInlayCode == "R" &&
		(l.ServiceLineDateInformation == nil || l.ServiceLineDateInformation.PriorPlacementDate == "") {
		c.add(base+"/serviceLineDateInformation/priorPlacementDate", "is required when prosthesisCrownOrInlayCode is R (replacement): the date the prior prosthesis was placed")
	}
	if r := l.ServiceLineReferenceInformation; r != nil {
		p := base + "/serviceLineReferenceInformation"
		if len(r.PriorAuthorization) > 5 {
			c.add(p+"/priorAuthorization", "may hold at most 5 numbers; got %d", len(r.PriorAuthorization))
		}
		if len(r.ReferralNumber) > 5 {
			c.add(p+"/referralNumber", "may hold at most 5 numbers; got %d", len(r.ReferralNumber))
		}
		c.length(p+"/predeterminationOfBenefits", r.PredeterminationOfBenefits, 1, 50)
		c.length(p+"/repricedLineItemReferenceNumber", r.RepricedLineItemReferenceNumber, 1, 50)
		c.length(p+"/adjustedRepricedLineItemReferenceNumber", r.AdjustedRepricedLineItemReferenceNumber, 1, 50)
	}
	c.amount(base+"/salesTaxAmount", l.SalesTaxAmount)
	c.amount(base+"/postageTaxAmount", l.PostageTaxAmount)
	checkProvider(c, base+"/renderingProvider", l.RenderingProvider)
	checkProvider(c, base+"/supervisingProvider", l.SupervisingProvider)
	checkProvider(c, base+"/assistantSurgeon", l.AssistantSurgeon)
	checkFacility(c, base+"/serviceFacilityLocation", l.ServiceFacilityLocation)
	if len(l.LineAdjudicationInformation) > 15 {
		c.add(base+"/lineAdjudicationInformation", "may hold at most 15 entries; got %d", len(l.LineAdjudicationInformation))
	}
	for i, a := range l.LineAdjudicationInformation {
		p := fmt.Sprintf("%s/lineAdjudicationInformation/%d", base, i)
		c.required(p+"/otherPayerPrimaryIdentifier", a.OtherPayerPrimaryIdentifier, "the id of the payer that paid this line (as in otherSubscriberInformation.otherPayerName.otherPayerIdentifier)")
		c.required(p+"/serviceLinePaidAmount", a.ServiceLinePaidAmount, "what that payer paid for the line (0 is allowed)")
		c.amount(p+"/serviceLinePaidAmount", a.ServiceLinePaidAmount)
		c.required(p+"/procedureCode", a.ProcedureCode, "the procedure code that payer adjudicated")
		c.required(p+"/adjudicationOrPaymentDate", a.AdjudicationOrPaymentDate, "the date that payer paid or adjudicated the line")
		c.date(p+"/adjudicationOrPaymentDate", a.AdjudicationOrPaymentDate)
		if a.PaidServiceUnitCount != "" && !wholeNumber(string(a.PaidServiceUnitCount), 0, 99999) {
			c.add(p+"/paidServiceUnitCount", "must be a whole number; got %q", string(a.PaidServiceUnitCount))
		}
		checkAdjustments(c, p+"/claimAdjustmentInformation", a.ClaimAdjustmentInformation)
	}
	return cents, ok
}

func checkDentalService(c *checker, base string, d *DentalService, dx int) (int64, bool) {
	if c.required(base+"/procedureCode", d.ProcedureCode, "the CDT procedure code, for example D1110") && !validCDT(d.ProcedureCode) {
		c.add(base+"/procedureCode", "must be a CDT code: D followed by four digits (for example D2150); got %q", d.ProcedureCode)
	}
	if len(d.ProcedureModifiers) > 4 {
		c.add(base+"/procedureModifiers", "may hold at most 4 modifiers; got %d", len(d.ProcedureModifiers))
	}
	for i, m := range d.ProcedureModifiers {
		if len(m) != 2 || !alphanumeric(m) {
			c.add(fmt.Sprintf("%s/procedureModifiers/%d", base, i), "must be a two-character modifier; got %q", m)
		}
	}
	c.length(base+"/description", d.Description, 1, 80)
	c.required(base+"/lineItemChargeAmount", d.LineItemChargeAmount, "the line's charge (0 is allowed)")
	cents, ok := c.amount(base+"/lineItemChargeAmount", d.LineItemChargeAmount)
	if d.PlaceOfServiceCode != "" && !in(placeOfServiceCodes, d.PlaceOfServiceCode) {
		c.add(base+"/placeOfServiceCode", "%q is not a CMS place of service code; use two digits such as 11 (office)", d.PlaceOfServiceCode)
	}
	if len(d.OralCavityDesignation) > 5 {
		c.add(base+"/oralCavityDesignation", "may hold at most 5 areas; got %d", len(d.OralCavityDesignation))
	}
	for i, o := range d.OralCavityDesignation {
		c.oneOf(fmt.Sprintf("%s/oralCavityDesignation/%d", base, i), o, oralCavityCodes,
			"00 entire oral cavity, 01 maxillary arch, 02 mandibular arch, 03–08 sextants, 09 other, 10 upper right, 20 upper left, 30 lower left, 40 lower right quadrant, L left, R right")
	}
	c.oneOf(base+"/prosthesisCrownOrInlayCode", d.ProsthesisCrownOrInlayCode, prosthesisCodes, "I initial placement, R replacement")
	if d.ProcedureCount != "" && !wholeNumber(string(d.ProcedureCount), 1, 99) {
		c.add(base+"/procedureCount", "must be a whole number from 1 to 99; got %q", string(d.ProcedureCount))
	}
	if p := d.CompositeDiagnosisCodePointers; p != nil {
		path := base + "/compositeDiagnosisCodePointers/diagnosisCodePointers"
		if len(p.DiagnosisCodePointers) > 4 {
			c.add(path, "may hold at most 4 pointers; got %d", len(p.DiagnosisCodePointers))
		}
		for i, ptr := range p.DiagnosisCodePointers {
			n, err := strconv.Atoi(ptr)
			if err != nil || n < 1 || n > 4 || strings.TrimSpace(ptr) != ptr {
				c.add(fmt.Sprintf("%s/%d", path, i), "must be \"1\" to \"4\", the position of a diagnosis in claimInformation.healthCareCodeInformation; got %q", ptr)
			} else if n > dx {
				c.add(fmt.Sprintf("%s/%d", path, i), "points at diagnosis %d, but claimInformation.healthCareCodeInformation holds %d; add the diagnosis or fix the pointer", n, dx)
			}
		}
	}
	return cents, ok
}

// validCDT reports whether s has the form of a CDT code (D + 4 digits).
func validCDT(s string) bool { return len(s) == 5 && s[0] == 'D' && allDigits(s[1:]) }
