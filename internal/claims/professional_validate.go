package claims

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxProfessionalDiagnoses is HI's limit of diagnosis codes on an 837P.
const MaxProfessionalDiagnoses = 12

// professionalProviderTypes are the providers[] roles of an 837P.
var professionalProviderTypes = []string{"BillingProvider", "RenderingProvider", "ReferringProvider", "SupervisingProvider", "OrderingProvider"}

// roles resolves the request's claim-level providers (see providerRoles).
func (r *ProfessionalRequest) roles() map[string]providerRole {
	return providerRoles(r.Providers, map[string]*Provider{"billing": r.Billing, "rendering": r.Rendering,
		"referring": r.Referring, "supervising": r.Supervising, "ordering": r.Ordering})
}

// ValidateProfessional applies the front-end edits of an 837P (see
// docs/api/professional-claims.md): the guide's element rules, balancing,
// situational rules and code shapes. It returns a *ValidationError listing
// every problem, or nil.
func ValidateProfessional(r *ProfessionalRequest) error {
	c := &checker{form: "837P"}
	normalizeRequestText(c, r)
	checkEnvelopeFields(c, r.TradingPartnerServiceID, r.TradingPartnerName, r.UsageIndicator, r.ClaimIdentifier, r.TradingPartnerSecondaryIdentifiers)
	checkSubmitter(c, r.Submitter)
	checkReceiver(c, r.Receiver)
	checkSubscriber(c, r.Subscriber, r.Dependent == nil)
	checkDependent(c, r.Dependent)
	checkProviderTypes(c, r.Providers, professionalProviderTypes)
	roles := r.roles()
	if b, ok := roles["billing"]; ok {
		checkBillingAt(c, b.path, b.p)
	} else {
		checkBilling(c, nil)
	}
	for _, role := range []string{"rendering", "referring", "supervising", "ordering"} {
		if p, ok := roles[role]; ok {
			checkProvider(c, p.path, p.p)
		}
	}
	if p, ok := roles["supervising"]; ok && p.p.OrganizationName != "" && p.p.LastName == "" {
		c.add(p.path+"/lastName", "the supervising provider is a person (NM1*DQ takes no organization): send lastName and firstName")
	}
	checkAddress(c, "/payToAddress", r.PayToAddress, true)
	checkPayToPlan(c, r.PayToPlan)
	checkAddress(c, "/payerAddress", r.PayerAddress, true)
	checkProfessionalClaim(c, r.ClaimInformation, roles)
	return c.result()
}

// result is the checker's *ValidationError, or nil when nothing failed.
func (c *checker) result() error {
	if c.errs.Len() > 0 {
		return invalid(c.errs.Items, c.errs.More)
	}
	return nil
}

// checkEnvelopeFields checks the top-level fields every claim type shares.
func checkEnvelopeFields(c *checker, payerID, payerName, usage, claimID string, secondary []SecondaryIdentifier) {
	c.required("/tradingPartnerServiceId", payerID, "the payer id (for example 87726 for UnitedHealthcare)")
	c.length("/tradingPartnerServiceId", payerID, 1, 80)
	c.length("/tradingPartnerName", payerName, 1, 60)
	c.oneOf("/usageIndicator", usage, usageIndicatorCodes, "P production, T test")
	c.oneOf("/claimIdentifier", claimID, claimIdentifierCodes, "CH chargeable, RP reporting, 31 subrogation demand")
	if len(secondary) > 3 {
		c.add("/tradingPartnerSecondaryIdentifiers", "may hold at most 3 identifiers; got %d", len(secondary))
	}
	for i, s := range secondary {
		checkSecondary(c, fmt.Sprintf("/tradingPartnerSecondaryIdentifiers/%d", i), s, payerSecondaryIDCodes)
	}
}

func checkReceiver(c *checker, r *Receiver) {
	if r == nil {
		c.add("/receiver", "is required: the payer receiving the claim, with organizationName")
		return
	}
	c.required("/receiver/organizationName", r.OrganizationName, "the receiving payer's name")
	c.length("/receiver/organizationName", r.OrganizationName, 1, 60)
	if r.ReceiverID != "" {
		c.add("/receiver/receiverId", "this clearinghouse does not print and mail claims (receiverId PAPER): leave receiverId out to send the claim electronically")
	}
	c.length("/receiver/taxId", r.TaxID, 2, 80)
}

func checkProfessionalClaim(c *checker, ci *ProfessionalClaimInformation, roles map[string]providerRole) {
	const base = "/claimInformation"
	if ci == nil {
		c.add(base, "is required: the claim, with claimFilingCode, patientControlNumber, claimChargeAmount, placeOfServiceCode, claimFrequencyCode, signatureIndicator, planParticipationCode, benefitsAssignmentCertificationIndicator, releaseInformationCode, healthCareCodeInformation and serviceLines")
		return
	}
	c.required(base+"/claimFilingCode", ci.ClaimFilingCode, "the claim filing indicator (CI commercial, MB Medicare Part B, MC Medicaid, BL Blue Cross…)")
	c.oneOf(base+"/claimFilingCode", ci.ClaimFilingCode, claimFilingCodes, "X12 claim filing indicator; CI commercial, MB Medicare Part B, MC Medicaid, HM HMO…")
	c.required(base+"/patientControlNumber", ci.PatientControlNumber, "your own id for this claim (1–20 characters)")
	c.length(base+"/patientControlNumber", ci.PatientControlNumber, 1, 20)
	c.required(base+"/claimChargeAmount", ci.ClaimChargeAmount, "the total charge, equal to the sum of the service lines' lineItemChargeAmount")
	total, totalOK := c.amount(base+"/claimChargeAmount", ci.ClaimChargeAmount)
	if c.required(base+"/placeOfServiceCode", ci.PlaceOfServiceCode, "the two-digit CMS place of service (11 office, 02 telehealth, 22 outpatient hospital…)") &&
		!in(placeOfServiceCodes, ci.PlaceOfServiceCode) {
		c.add(base+"/placeOfServiceCode", "%q is not a CMS place of service code; use two digits such as 11 (office)", ci.PlaceOfServiceCode)
	}
	c.required(base+"/claimFrequencyCode", ci.ClaimFrequencyCode, "1 for a new claim, 7 to replace a processed claim, 8 to void one")
	c.oneOf(base+"/claimFrequencyCode", ci.ClaimFrequencyCode, frequencyCodes, "1 original, 7 replacement, 8 void")
	c.required(base+"/signatureIndicator", ci.SignatureIndicator, "Y when the provider's signature is on file, else N")
	c.oneOf(base+"/signatureIndicator", ci.SignatureIndicator, signatureCodes, "Y yes, N no")
	c.required(base+"/planParticipationCode", ci.PlanParticipationCode, "A assigned, B assignment for lab services only, C not assigned")
	c.oneOf(base+"/planParticipationCode", ci.PlanParticipationCode, planParticipationCodes, "A assigned, B lab services only, C not assigned")
	c.required(base+"/benefitsAssignmentCertificationIndicator", ci.BenefitsAssignmentCertificationIndicator, "Y when the patient assigned benefits to the provider, N when not, W not applicable")
	c.oneOf(base+"/benefitsAssignmentCertificationIndicator", ci.BenefitsAssignmentCertificationIndicator, assignmentCodes, "Y yes, N no, W not applicable")
	c.required(base+"/releaseInformationCode", ci.ReleaseInformationCode, "Y signed release on file, I informed consent")
	c.oneOf(base+"/releaseInformationCode", ci.ReleaseInformationCode, releaseCodes, "Y signed statement, I informed consent")
	c.oneOf(base+"/delayReasonCode", ci.DelayReasonCode, delayReasonCodes, "X12 delay reason code")
	c.oneOf(base+"/specialProgramCode", ci.SpecialProgramCode, []string{"02", "03", "05", "09"}, "02 physically handicapped children, 03 special federal funding, 05 disability, 09 second opinion")
	c.oneOf(base+"/pregnancyIndicator", ci.PregnancyIndicator, []string{"Y"}, "Y when the patient is pregnant; leave it out otherwise")
	c.date(base+"/deathDate", ci.DeathDate)
	if ci.PatientWeight != "" && !positiveQuantity(ci.PatientWeight, 4) {
		c.add(base+"/patientWeight", "must be the patient's weight in pounds, a number above 0; got %q", ci.PatientWeight)
	}
	if len(ci.RelatedCausesCode) > 2 {
		c.add(base+"/relatedCausesCode", "may hold at most 2 codes; got %d", len(ci.RelatedCausesCode))
	}
	accident := false
	for i, rc := range ci.RelatedCausesCode {
		c.oneOf(fmt.Sprintf("%s/relatedCausesCode/%d", base, i), rc, relatedCausesCodes, "AA auto accident, EM employment, OA other accident")
		accident = accident || rc == "AA" || rc == "OA"
		if rc == "AA" && ci.AutoAccidentStateCode == "" && ci.AutoAccidentCountryCode == "" {
			c.add(base+"/autoAccidentStateCode", "is required with relatedCausesCode AA: the two-letter state or province of the accident")
		}
	}
	if accident && (ci.ClaimDateInformation == nil || ci.ClaimDateInformation.AccidentDate == "") {
		c.add(base+"/claimDateInformation/accidentDate", "is required when relatedCausesCode is AA or OA (DTP*439): the date of the accident")
	}
	c.length(base+"/autoAccidentStateCode", ci.AutoAccidentStateCode, 2, 2)
	c.length(base+"/autoAccidentCountryCode", ci.AutoAccidentCountryCode, 2, 3)
	if cents, ok := c.amount(base+"/patientAmountPaid", ci.PatientAmountPaid); ok && cents == 0 {
		c.add(base+"/patientAmountPaid", "must not be 0; leave it out when the patient paid nothing")
	}
	c.length(base+"/propertyCasualtyClaimNumber", ci.PropertyCasualtyClaimNumber, 1, 50)
	if len(ci.FileInformationList) > 10 {
		c.add(base+"/fileInformationList", "may hold at most 10 items; got %d", len(ci.FileInformationList))
	}
	for i, f := range ci.FileInformationList {
		c.length(fmt.Sprintf("%s/fileInformationList/%d", base, i), f, 1, 80)
	}
	dx := checkMedicalDiagnoses(c, base+"/healthCareCodeInformation", ci.HealthCareCodeInformation, MaxProfessionalDiagnoses)
	checkProfessionalDates(c, base+"/claimDateInformation", ci.ClaimDateInformation)
	checkProfessionalSupplemental(c, base+"/claimSupplementalInformation", ci)
	if n := ci.ClaimNote; n != nil {
		for _, f := range []struct{ name, v string }{{"additionalInformation", n.AdditionalInformation}, {"certificationNarrative", n.CertificationNarrative},
			{"goalRehabOrDischargePlans", n.GoalRehabOrDischargePlans}, {"diagnosisDescription", n.DiagnosisDescription}, {"thirdPartOrgNotes", n.ThirdPartOrgNotes}} {
			c.length(base+"/claimNote/"+f.name, f.v, 1, 80)
		}
	}
	checkContract(c, base+"/claimContractInformation", ci.ClaimContractInformation)
	checkFacility(c, base+"/serviceFacilityLocation", ci.ServiceFacilityLocation)
	checkAmbulance(c, base, ci)
	checkProfessionalClaimParts(c, base, ci)
	if len(ci.OtherSubscriberInformation) > 10 {
		c.add(base+"/otherSubscriberInformation", "may hold at most 10 other payers; got %d", len(ci.OtherSubscriberInformation))
	}
	for i := range ci.OtherSubscriberInformation {
		checkOtherSubscriber(c, fmt.Sprintf("%s/otherSubscriberInformation/%d", base, i), ci.OtherSubscriberInformation[i].shared())
	}
	// SNIP 4: a referral number names the provider who referred.
	if s := ci.ClaimSupplementalInformation; s != nil && s.ReferralNumber != "" {
		if _, ok := roles["referring"]; !ok && !anyLineReferring(ci.ServiceLines) {
			c.add("/referring", "is required when claimInformation.claimSupplementalInformation.referralNumber is sent (837P 2310A): the provider who referred the patient, with lastName and npi")
		}
	}
	switch n := len(ci.ServiceLines); {
	case n == 0:
		c.add(base+"/serviceLines", "is required: at least one service line, each with serviceDate and professionalService")
	case n > MaxServiceLines:
		c.add(base+"/serviceLines", "may hold at most %d service lines (the 837P's limit); got %d; split the claim", MaxServiceLines, n)
	}
	var sum int64
	sumOK := true
	for i := range ci.ServiceLines {
		cents, ok := checkProfessionalLine(c, fmt.Sprintf("%s/serviceLines/%d", base, i), &ci.ServiceLines[i], dx)
		sum += cents
		sumOK = sumOK && ok
	}
	if totalOK && sumOK && len(ci.ServiceLines) > 0 && sum != total {
		c.add(base+"/claimChargeAmount", "must equal the sum of the service lines' lineItemChargeAmount (837P CLM02 balancing): %s was sent, the lines add up to %s",
			ci.ClaimChargeAmount, formatCents(sum))
	}
}

func anyLineReferring(lines []ProfessionalServiceLine) bool {
	for _, l := range lines {
		if l.ReferringProvider != nil {
			return true
		}
	}
	return false
}

// checkMedicalDiagnoses checks an HI list of principal (ABK) then other
// (ABF) ICD-10-CM diagnoses and returns how many the pointers may name.
func checkMedicalDiagnoses(c *checker, base string, dx []Diagnosis, max int) int {
	switch {
	case len(dx) == 0:
		c.add(base, "is required: at least the principal diagnosis, {\"diagnosisTypeCode\": \"ABK\", \"diagnosisCode\": \"F1111\"}")
	case len(dx) > max:
		c.add(base, "may hold at most %d diagnosis codes; got %d; send another claim for the rest", max, len(dx))
	}
	for i, d := range dx {
		path := fmt.Sprintf("%s/%d", base, i)
		principal, other := "ABK", "ABF"
		if i == 0 && d.DiagnosisTypeCode != "ABK" && d.DiagnosisTypeCode != "BK" {
			c.add(path+"/diagnosisTypeCode", "must be ABK (ICD-10-CM principal diagnosis) for the first diagnosis; got %q", d.DiagnosisTypeCode)
		}
		if i > 0 && d.DiagnosisTypeCode != other && d.DiagnosisTypeCode != "BF" {
			c.add(path+"/diagnosisTypeCode", "must be ABF (ICD-10-CM other diagnosis) after the first (%s) one; got %q", principal, d.DiagnosisTypeCode)
		}
		if d.DiagnosisTypeCode == "BK" || d.DiagnosisTypeCode == "BF" {
			c.add(path+"/diagnosisTypeCode", "%q is an ICD-9 qualifier; claims for services since 2015-10-01 use ICD-10-CM (ABK, ABF)", d.DiagnosisTypeCode)
		}
		if c.required(path+"/diagnosisCode", d.DiagnosisCode, "an ICD-10-CM code such as F1111") {
			if msg := icd10Problem(d.DiagnosisCode); msg != "" {
				c.add(path+"/diagnosisCode", msg, d.DiagnosisCode)
			}
		}
	}
	return len(dx)
}

func checkProfessionalDates(c *checker, base string, d *ProfessionalClaimDates) {
	if d == nil {
		return
	}
	for _, f := range []struct{ name, v string }{
		{"symptomDate", d.SymptomDate}, {"initialTreatmentDate", d.InitialTreatmentDate}, {"lastSeenDate", d.LastSeenDate},
		{"acuteManifestationDate", d.AcuteManifestationDate}, {"accidentDate", d.AccidentDate}, {"lastMenstrualPeriodDate", d.LastMenstrualPeriodDate},
		{"lastXRayDate", d.LastXRayDate}, {"hearingAndVisionPrescriptionDate", d.HearingAndVisionPrescriptionDate},
		{"disabilityBeginDate", d.DisabilityBeginDate}, {"disabilityEndDate", d.DisabilityEndDate}, {"lastWorkedDate", d.LastWorkedDate},
		{"authorizedReturnToWorkDate", d.AuthorizedReturnToWorkDate}, {"admissionDate", d.AdmissionDate}, {"dischargeDate", d.DischargeDate},
		{"assumedAndRelinquishedCareBeginDate", d.AssumedAndRelinquishedCareBeginDate}, {"assumedAndRelinquishedCareEndDate", d.AssumedAndRelinquishedCareEndDate},
		{"firstContactDate", d.FirstContactDate}, {"repricerReceivedDate", d.RepricerReceivedDate},
	} {
		c.date(base+"/"+f.name, f.v)
	}
	if d.DisabilityEndDate != "" && d.DisabilityBeginDate != "" && d.DisabilityEndDate < d.DisabilityBeginDate {
		c.add(base+"/disabilityEndDate", "is before disabilityBeginDate (%s); check the dates", d.DisabilityBeginDate)
	}
	if d.DischargeDate != "" && d.AdmissionDate != "" && d.DischargeDate < d.AdmissionDate {
		c.add(base+"/dischargeDate", "is before admissionDate (%s); check the dates", d.AdmissionDate)
	}
}

func checkProfessionalSupplemental(c *checker, base string, ci *ProfessionalClaimInformation) {
	s := ci.ClaimSupplementalInformation
	if (ci.ClaimFrequencyCode == "7" || ci.ClaimFrequencyCode == "8") && (s == nil || s.ClaimControlNumber == "") {
		c.add(base+"/claimControlNumber", "is required when claimFrequencyCode is %s: the payer's claim control number of the claim being replaced or voided (REF*F8)", ci.ClaimFrequencyCode)
	}
	if s == nil {
		return
	}
	for _, f := range []struct{ name, v string }{
		{"priorAuthorizationNumber", s.PriorAuthorizationNumber}, {"referralNumber", s.ReferralNumber},
		{"claimControlNumber", s.ClaimControlNumber}, {"claimNumber", s.ClaimNumber}, {"cliaNumber", s.CliaNumber},
		{"repricedClaimNumber", s.RepricedClaimNumber}, {"adjustedRepricedClaimNumber", s.AdjustedRepricedClaimNumber},
		{"investigationalDeviceExemptionNumber", s.InvestigationalDeviceExemptionNumber}, {"medicalRecordNumber", s.MedicalRecordNumber},
		{"demoProjectIdentifier", s.DemoProjectIdentifier}, {"carePlanOversightNumber", s.CarePlanOversightNumber},
		{"medicareCrossoverReferenceId", s.MedicareCrossoverReferenceID}, {"mammographyCertificationNumber", s.MammographyCertificationNumber},
	} {
		c.length(base+"/"+f.name, f.v, 1, 50)
	}
	c.oneOf(base+"/serviceAuthorizationExceptionCode", s.ServiceAuthorizationExceptionCode, exceptionCodes, "X12 service authorization exception code 1–7")
	reports := s.ReportInformations
	if s.ReportInformation != nil {
		checkReportOf(c, base+"/reportInformation", *s.ReportInformation, professionalAttachmentTypes)
		reports = append([]ReportInformation{*s.ReportInformation}, reports...)
	}
	if len(reports) > 10 {
		c.add(base+"/reportInformations", "may hold at most 10 attachments; got %d", len(reports))
	}
	for i, r := range s.ReportInformations {
		checkReportOf(c, fmt.Sprintf("%s/reportInformations/%d", base, i), r, professionalAttachmentTypes)
	}
}

// checkAmbulance: SNIP 4 — an ambulance place of service (41 land, 42 air
// or water) needs the transport information (CR1) and the certification
// (CRC*07); CR1 and CRC are only for ambulance claims.
func checkAmbulance(c *checker, base string, ci *ProfessionalClaimInformation) {
	ambulance := ci.PlaceOfServiceCode == "41" || ci.PlaceOfServiceCode == "42"
	linesCarry := false // 2400 CR1/CRC*07 stand in for the claim's on every line that has them
	for i := range ci.ServiceLines {
		l := &ci.ServiceLines[i].ProfessionalLineParts
		linesCarry = linesCarry || l.AmbulanceTransportInformation != nil
	}
	if ambulance && ci.AmbulanceTransportInformation == nil && !linesCarry {
		c.add(base+"/ambulanceTransportInformation", "is required when placeOfServiceCode is %s (ambulance): ambulanceTransportReasonCode and transportDistanceInMiles (837P CR1)", ci.PlaceOfServiceCode)
	}
	if ambulance && len(ci.AmbulanceCertification) == 0 && !linesCarry {
		c.add(base+"/ambulanceCertification", "is required when placeOfServiceCode is %s (ambulance): certificationConditionIndicator and the conditionCodes (837P CRC*07)", ci.PlaceOfServiceCode)
	}
	checkAmbulanceData(c, base, ci.AmbulanceTransportInformation, ci.AmbulanceCertification)
	if !ambulance && (ci.AmbulanceTransportInformation != nil || ci.AmbulancePickUpLocation != nil || ci.AmbulanceDropOffLocation != nil) {
		c.add(base+"/placeOfServiceCode", "ambulance information was sent, but placeOfServiceCode %q is not an ambulance (41 land, 42 air or water)", ci.PlaceOfServiceCode)
	}
	checkAddress(c, base+"/ambulancePickUpLocation", ci.AmbulancePickUpLocation, true)
	checkAddress(c, base+"/ambulanceDropOffLocation", ci.AmbulanceDropOffLocation, true)
}

// checkAmbulanceData checks a CR1 and its CRC*07s (claim or line).
func checkAmbulanceData(c *checker, base string, t *AmbulanceTransport, certs []AmbulanceCertification) {
	if t != nil {
		p := base + "/ambulanceTransportInformation"
		c.required(p+"/ambulanceTransportReasonCode", t.AmbulanceTransportReasonCode, "A patient transported to the nearest facility, B for the benefit of a preferred physician, C to a specialist, D for rehabilitation, E other")
		c.oneOf(p+"/ambulanceTransportReasonCode", t.AmbulanceTransportReasonCode, ambulanceReasonCodes, "A–E, X12 ambulance transport reason")
		if c.required(p+"/transportDistanceInMiles", t.TransportDistanceInMiles, "the miles the patient was carried") && !positiveQuantity(t.TransportDistanceInMiles, 4) && t.TransportDistanceInMiles != "0" {
			c.add(p+"/transportDistanceInMiles", "must be a number of miles; got %q", t.TransportDistanceInMiles)
		}
		if t.PatientWeightInPounds != "" && !positiveQuantity(t.PatientWeightInPounds, 4) {
			c.add(p+"/patientWeightInPounds", "must be a weight in pounds above 0; got %q", t.PatientWeightInPounds)
		}
		c.length(p+"/roundTripPurposeDescription", t.RoundTripPurposeDescription, 1, 80)
		c.length(p+"/stretcherPurposeDescription", t.StretcherPurposeDescription, 1, 80)
	}
	if len(certs) > 3 {
		c.add(base+"/ambulanceCertification", "may hold at most 3 certifications; got %d", len(certs))
	}
	for i, a := range certs {
		p := fmt.Sprintf("%s/ambulanceCertification/%d", base, i)
		c.required(p+"/certificationConditionIndicator", a.CertificationConditionIndicator, "Y or N")
		c.oneOf(p+"/certificationConditionIndicator", a.CertificationConditionIndicator, []string{"Y", "N"}, "Y yes, N no")
		if len(a.ConditionCodes) == 0 || len(a.ConditionCodes) > 5 {
			c.add(p+"/conditionCodes", "must hold 1 to 5 ambulance condition codes; got %d", len(a.ConditionCodes))
		}
		for j, code := range a.ConditionCodes {
			c.oneOf(fmt.Sprintf("%s/conditionCodes/%d", p, j), code, ambulanceConditions, "X12 ambulance condition codes 01, 04–09, 12")
		}
	}
}

// checkProfessionalLine returns the line's charge in cents and whether it
// parsed.
func checkProfessionalLine(c *checker, base string, l *ProfessionalServiceLine, dx int) (int64, bool) {
	if c.required(base+"/serviceDate", l.ServiceDate, "the date of service (YYYYMMDD)") {
		c.date(base+"/serviceDate", l.ServiceDate)
	}
	c.date(base+"/serviceDateEnd", l.ServiceDateEnd)
	if l.ServiceDateEnd != "" && validDate(l.ServiceDate) && l.ServiceDateEnd < l.ServiceDate {
		c.add(base+"/serviceDateEnd", "is before serviceDate (%s); send the last date of the service", l.ServiceDate)
	}
	c.length(base+"/providerControlNumber", l.ProviderControlNumber, 1, 30)
	var cents int64
	ok := false
	if l.ProfessionalService == nil {
		c.add(base+"/professionalService", "is required: procedureIdentifier, procedureCode, lineItemChargeAmount, measurementUnit, serviceUnitCount and compositeDiagnosisCodePointers")
	} else {
		cents, ok = checkProfessionalService(c, base+"/professionalService", l.ProfessionalService, dx)
	}
	if d := l.DrugIdentification; d != nil {
		p := base + "/drugIdentification"
		c.required(p+"/serviceIdQualifier", d.ServiceIDQualifier, "N4 for an 11-digit NDC in 5-4-2 form")
		c.oneOf(p+"/serviceIdQualifier", d.ServiceIDQualifier, drugQualifiers, "N4 NDC 5-4-2, EN/EO EAN/UCC, HI HIBC, ON customer order, UK/UP GTIN/UPC")
		if c.required(p+"/nationalDrugCode", d.NationalDrugCode, "the drug's code") && d.ServiceIDQualifier == "N4" && !validNDC(d.NationalDrugCode) {
			c.add(p+"/nationalDrugCode", "must be an 11-digit NDC in 5-4-2 form without dashes (for example 00071015523); got %q", d.NationalDrugCode)
		}
		if c.required(p+"/nationalDrugUnitCount", d.NationalDrugUnitCount, "the quantity administered") && !positiveQuantity(d.NationalDrugUnitCount, 10) {
			c.add(p+"/nationalDrugUnitCount", "must be a quantity above 0; got %q", d.NationalDrugUnitCount)
		}
		c.required(p+"/measurementUnitCode", d.MeasurementUnitCode, "F2 international unit, GR gram, ME milligram, ML milliliter, UN unit")
		c.oneOf(p+"/measurementUnitCode", d.MeasurementUnitCode, drugUnits, "F2, GR, ME, ML, UN")
		c.length(p+"/pharmacyPrescriptionNumber", d.PharmacyPrescriptionNumber, 1, 50)
		c.length(p+"/linkSequenceNumber", d.LinkSequenceNumber, 1, 50)
	}
	if r := l.ServiceLineReferenceInformation; r != nil {
		p := base + "/serviceLineReferenceInformation"
		if len(r.PriorAuthorization) > 5 {
			c.add(p+"/priorAuthorization", "may hold at most 5 numbers; got %d", len(r.PriorAuthorization))
		}
		for i, a := range r.PriorAuthorization {
			c.required(fmt.Sprintf("%s/priorAuthorization/%d/priorAuthorizationOrReferralNumber", p, i), a.PriorAuthorizationOrReferralNumber, "the prior authorization number")
		}
		if len(r.ReferralNumber) > 5 {
			c.add(p+"/referralNumber", "may hold at most 5 numbers; got %d", len(r.ReferralNumber))
		}
		for _, f := range []struct{ name, v string }{{"repricedLineItemReferenceNumber", r.RepricedLineItemReferenceNumber},
			{"adjustedRepricedLineItemReferenceNumber", r.AdjustedRepricedLineItemReferenceNumber}, {"mammographyCertificationNumber", r.MammographyCertificationNumber},
			{"clinicalLaboratoryImprovementAmendmentNumber", r.ClinicalLaboratoryImprovementAmendmentNumber}, {"referringCliaNumber", r.ReferringCliaNumber},
			{"immunizationBatchNumber", r.ImmunizationBatchNumber}} {
			c.length(p+"/"+f.name, f.v, 1, 50)
		}
	}
	c.amount(base+"/salesTaxAmount", l.SalesTaxAmount)
	c.amount(base+"/postageTaxAmount", l.PostageTaxAmount)
	c.length(base+"/additionalNotes", l.AdditionalNotes, 1, 80)
	c.length(base+"/goalRehabOrDischargePlans", l.GoalRehabOrDischargePlans, 1, 80)
	c.length(base+"/thirdPartyOrganizationNotes", l.ThirdPartyOrganizationNotes, 1, 80)
	checkProvider(c, base+"/renderingProvider", l.RenderingProvider)
	checkProvider(c, base+"/supervisingProvider", l.SupervisingProvider)
	checkProvider(c, base+"/orderingProvider", l.OrderingProvider)
	checkProvider(c, base+"/referringProvider", l.ReferringProvider)
	if p := l.PurchasedServiceProvider; p != nil {
		c.npi(base+"/purchasedServiceProvider/npi", p.NPI)
	}
	checkFacility(c, base+"/serviceFacilityLocation", l.ServiceFacilityLocation)
	if len(l.LineAdjudicationInformation) > 15 {
		c.add(base+"/lineAdjudicationInformation", "may hold at most 15 entries; got %d", len(l.LineAdjudicationInformation))
	}
	for i, a := range l.LineAdjudicationInformation {
		p := fmt.Sprintf("%s/lineAdjudicationInformation/%d", base, i)
		c.required(p+"/otherPayerPrimaryIdentifier", a.OtherPayerPrimaryIdentifier, "the id of the payer that paid this line")
		c.required(p+"/serviceLinePaidAmount", a.ServiceLinePaidAmount, "what that payer paid for the line (0 is allowed)")
		c.amount(p+"/serviceLinePaidAmount", a.ServiceLinePaidAmount)
		c.required(p+"/serviceIdQualifier", a.ServiceIDQualifier, "HC for a HCPCS/CPT code")
		c.oneOf(p+"/serviceIdQualifier", a.ServiceIDQualifier, []string{"ER", "HC", "HP", "IV", "WK"}, "X12 product/service id qualifier")
		c.required(p+"/procedureCode", a.ProcedureCode, "the procedure code that payer adjudicated")
		if c.required(p+"/paidServiceUnitCount", a.PaidServiceUnitCount, "the units that payer paid") && !positiveQuantity(a.PaidServiceUnitCount, 8) {
			c.add(p+"/paidServiceUnitCount", "must be a number of units above 0; got %q", a.PaidServiceUnitCount)
		}
		c.required(p+"/adjudicationOrPaymentDate", a.AdjudicationOrPaymentDate, "the date that payer paid or adjudicated the line")
		c.date(p+"/adjudicationOrPaymentDate", a.AdjudicationOrPaymentDate)
		c.amount(p+"/remainingPatientLiability", a.RemainingPatientLiability)
		checkAdjustments(c, p+"/claimAdjustmentInformation", a.ClaimAdjustmentInformation)
	}
	checkProfessionalLineParts(c, base, &l.ProfessionalLineParts)
	return cents, ok
}

func checkProfessionalService(c *checker, base string, s *ProfessionalService, dx int) (int64, bool) {
	c.required(base+"/procedureIdentifier", s.ProcedureIdentifier, "HC for a HCPCS or CPT code")
	c.oneOf(base+"/procedureIdentifier", s.ProcedureIdentifier, procedureIdentifiers, "HC HCPCS/CPT, ER jurisdiction specific, IV home infusion EDI coalition, WK advanced billing concepts")
	if c.required(base+"/procedureCode", s.ProcedureCode, "the CPT or HCPCS code, for example 99213") && s.ProcedureIdentifier == "HC" && !validHCPCS(s.ProcedureCode) {
		if len(s.ProcedureCode) == 5 && s.ProcedureCode[0] == 'D' {
			c.add(base+"/procedureCode", "%q is a CDT (dental) code; send dental procedures as a dental claim (/dental-claims/submission)", s.ProcedureCode)
		} else {
			c.add(base+"/procedureCode", "must be a CPT code (five digits, or four digits and F, T or U) or a HCPCS Level II code (a letter and four digits); got %q", s.ProcedureCode)
		}
	}
	if len(s.ProcedureModifiers) > 4 {
		c.add(base+"/procedureModifiers", "may hold at most 4 modifiers; got %d", len(s.ProcedureModifiers))
	}
	for i, m := range s.ProcedureModifiers {
		if len(m) != 2 || !alphanumeric(m) {
			c.add(fmt.Sprintf("%s/procedureModifiers/%d", base, i), "must be a two-character modifier such as 25 or GT; got %q", m)
		}
	}
	c.length(base+"/description", s.Description, 1, 80)
	c.required(base+"/lineItemChargeAmount", s.LineItemChargeAmount, "the line's charge (0 is allowed)")
	cents, ok := c.amount(base+"/lineItemChargeAmount", s.LineItemChargeAmount)
	c.required(base+"/measurementUnit", s.MeasurementUnit, "UN for units, MJ for minutes (anesthesia)")
	c.oneOf(base+"/measurementUnit", s.MeasurementUnit, professionalUnits, "UN units, MJ minutes")
	if c.required(base+"/serviceUnitCount", s.ServiceUnitCount, "how many units (or minutes) were billed, above 0") && !positiveQuantity(s.ServiceUnitCount, 4) {
		c.add(base+"/serviceUnitCount", "must be a number above 0 with at most three decimals (X12 allows 99999.999); got %q", s.ServiceUnitCount)
	}
	if s.PlaceOfServiceCode != "" && !in(placeOfServiceCodes, s.PlaceOfServiceCode) {
		c.add(base+"/placeOfServiceCode", "%q is not a CMS place of service code; use two digits such as 11 (office)", s.PlaceOfServiceCode)
	}
	c.oneOf(base+"/emergencyIndicator", s.EmergencyIndicator, []string{"Y"}, "Y for an emergency; leave it out otherwise")
	c.oneOf(base+"/epsdtIndicator", s.EpsdtIndicator, []string{"Y"}, "Y for an EPSDT service; leave it out otherwise")
	c.oneOf(base+"/familyPlanningIndicator", s.FamilyPlanningIndicator, []string{"Y"}, "Y for family planning; leave it out otherwise")
	c.oneOf(base+"/copayStatusCode", s.CopayStatusCode, []string{"0"}, "0 when the copay does not exist; leave it out otherwise")
	path := base + "/compositeDiagnosisCodePointers/diagnosisCodePointers"
	if s.CompositeDiagnosisCodePointers == nil || len(s.CompositeDiagnosisCodePointers.DiagnosisCodePointers) == 0 {
		c.add(path, "is required: 1 to 4 positions (\"1\" to \"12\") in claimInformation.healthCareCodeInformation of the diagnoses this line treats")
		return cents, ok
	}
	ptrs := s.CompositeDiagnosisCodePointers.DiagnosisCodePointers
	if len(ptrs) > 4 {
		c.add(path, "may hold at most 4 pointers; got %d", len(ptrs))
	}
	seen := map[string]bool{}
	for i, ptr := range ptrs {
		n, err := strconv.Atoi(ptr)
		switch {
		case err != nil || n < 1 || n > MaxProfessionalDiagnoses || strings.TrimSpace(ptr) != ptr:
			c.add(fmt.Sprintf("%s/%d", path, i), "must be \"1\" to \"12\", the position of a diagnosis in claimInformation.healthCareCodeInformation; got %q", ptr)
		case n > dx:
			c.add(fmt.Sprintf("%s/%d", path, i), "points at diagnosis %d, but claimInformation.healthCareCodeInformation holds %d; add the diagnosis or fix the pointer", n, dx)
		case seen[ptr]:
			c.add(fmt.Sprintf("%s/%d", path, i), "repeats pointer %s; each diagnosis is pointed at once per line", ptr)
		}
		seen[ptr] = true
	}
	return cents, ok
}
