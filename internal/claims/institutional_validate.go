package claims

import (
	"fmt"
	"strings"
)

// Code lists of the 837I (NUBC UB-04 codes as the 005010X223A3 guide
// carries them).
var (
	institutionalProviderTypes = []string{"BillingProvider", "AttendingProvider", "ReferringProvider", "RenderingProvider"}
	// institutionalFrequencies are the type of bill's third digit: 0
	// non-payment/zero claim, 1 admit through discharge, 2–4 interim
	// (first, continuing, last), 5 late charges, 7 replacement, 8 void, 9
	// final claim of a home health PPS episode.
	institutionalFrequencies = []string{"0", "1", "2", "3", "4", "5", "7", "8", "9"}
	admissionTypeCodes       = []string{"1", "2", "3", "4", "5", "9"}
	// patientStatusCodes are the NUBC discharge status codes.
	patientStatusCodes = []string{"01", "02", "03", "04", "05", "06", "07", "09", "20", "21", "30", "40", "41", "42", "43", "50",
		"51", "61", "62", "63", "64", "65", "66", "69", "70", "81", "82", "83", "84", "85", "86", "87", "88", "89", "90", "91",
		"92", "93", "94", "95"}
	presentOnAdmission = []string{"Y", "N", "U", "W"}
)

// inpatientFacilities are the facility type codes (type of bill's first
// two digits) of inpatient stays, which need an admission date (DTP*435).
var inpatientFacilities = []string{"11", "18", "21", "41", "51", "61", "65", "66", "86"}

// roles resolves the request's claim-level providers (see providerRoles).
func (r *InstitutionalRequest) roles() map[string]providerRole {
	return providerRoles(r.Providers, map[string]*Provider{"billing": r.Billing, "attending": r.Attending, "referring": r.Referring,
		"rendering": r.Rendering, "operating": r.OperatingPhysician, "otherOperating": r.OtherOperatingPhysician})
}

// ValidateInstitutional applies the front-end edits of an 837I (see
// docs/api/institutional-claims.md). It returns a *ValidationError listing
// every problem, or nil.
func ValidateInstitutional(r *InstitutionalRequest) error {
	c := &checker{form: "837I"}
	normalizeRequestText(c, r)
	checkEnvelopeFields(c, r.TradingPartnerServiceID, r.TradingPartnerName, r.UsageIndicator, r.ClaimIdentifier, r.TradingPartnerSecondaryIdentifiers)
	checkSubmitter(c, r.Submitter)
	if s := r.Submitter; s != nil {
		c.digits("/submitter/taxId", s.TaxID, 9, "taxId")
		if s.SubmitterIdentification == "" && s.TaxID == "" {
			c.add("/submitter/taxId", "is required: the submitter's 9-digit tax id (or submitterIdentification, its ETIN), 1000A NM109")
		}
	}
	checkReceiver(c, r.Receiver)
	checkSubscriber(c, r.Subscriber, r.Dependent == nil)
	checkDependent(c, r.Dependent)
	checkProviderTypes(c, r.Providers, institutionalProviderTypes)
	roles := r.roles()
	if b, ok := roles["billing"]; ok {
		checkBillingAt(c, b.path, b.p)
	} else {
		checkBilling(c, nil)
	}
	for _, role := range []string{"attending", "referring", "rendering", "operating", "otherOperating"} {
		if p, ok := roles[role]; ok {
			checkProvider(c, p.path, p.p)
			if p.p.LastName == "" {
				c.add(p.path+"/lastName", "the %s provider is a person in the 837I (NM102 1): send lastName and firstName", role)
			}
		}
	}
	checkAddress(c, "/payerAddress", r.PayerAddress, true)
	checkInstitutionalParties(c, r)
	checkInstitutionalClaim(c, r.ClaimInformation, roles)
	return c.result()
}

func checkInstitutionalClaim(c *checker, ci *InstitutionalClaimInformation, roles map[string]providerRole) {
	const base = "/claimInformation"
	if ci == nil {
		c.add(base, "is required: the claim, with claimFilingCode, patientControlNumber, claimChargeAmount, placeOfServiceCode, claimFrequencyCode, planParticipationCode, benefitsAssignmentCertificationIndicator, releaseInformationCode, claimCodeInformation, claimDateInformation, principalDiagnosis and serviceLines")
		return
	}
	c.required(base+"/claimFilingCode", ci.ClaimFilingCode, "the claim filing indicator (CI commercial, MA Medicare Part A, MC Medicaid, ZZ mutually defined…)")
	c.oneOf(base+"/claimFilingCode", ci.ClaimFilingCode, claimFilingCodes, "X12 claim filing indicator; CI commercial, MA Medicare Part A, MC Medicaid…")
	c.required(base+"/patientControlNumber", ci.PatientControlNumber, "your own id for this claim (1–20 characters)")
	c.length(base+"/patientControlNumber", ci.PatientControlNumber, 1, 20)
	c.required(base+"/claimChargeAmount", ci.ClaimChargeAmount, "the total charge, equal to the sum of the service lines' lineItemChargeAmount")
	total, totalOK := c.amount(base+"/claimChargeAmount", ci.ClaimChargeAmount)
	fac := ci.PlaceOfServiceCode
	if c.required(base+"/placeOfServiceCode", fac, "the facility type code: the first two digits of the type of bill (11 hospital inpatient, 13 hospital outpatient, 21 skilled nursing…)") &&
		!validFacilityCode(fac) {
		c.add(base+"/placeOfServiceCode", "%q is not a facility type code: two digits, the type of facility (1–8) then the bill classification (1–9), as in type of bill 111 → 11", fac)
	}
	c.required(base+"/claimFrequencyCode", ci.ClaimFrequencyCode, "the type of bill's third digit (1 admit through discharge, 7 replacement, 8 void…)")
	c.oneOf(base+"/claimFrequencyCode", ci.ClaimFrequencyCode, institutionalFrequencies, "0 non-payment, 1 admit through discharge, 2–4 interim, 5 late charges, 7 replacement, 8 void, 9 final home health")
	c.required(base+"/planParticipationCode", ci.PlanParticipationCode, "A assigned, B assignment for lab services only, C not assigned")
	c.oneOf(base+"/planParticipationCode", ci.PlanParticipationCode, planParticipationCodes, "A assigned, B lab services only, C not assigned")
	c.required(base+"/benefitsAssignmentCertificationIndicator", ci.BenefitsAssignmentCertificationIndicator, "Y, N or W")
	c.oneOf(base+"/benefitsAssignmentCertificationIndicator", ci.BenefitsAssignmentCertificationIndicator, assignmentCodes, "Y yes, N no, W not applicable")
	c.required(base+"/releaseInformationCode", ci.ReleaseInformationCode, "Y signed release on file, I informed consent")
	c.oneOf(base+"/releaseInformationCode", ci.ReleaseInformationCode, releaseCodes, "Y signed statement, I informed consent")
	c.oneOf(base+"/delayReasonCode", ci.DelayReasonCode, delayReasonCodes, "X12 delay reason code")
	c.amount(base+"/patientEstimatedAmountDue", ci.PatientEstimatedAmountDue)
	c.length(base+"/billingNote", ci.BillingNote, 1, 80)
	c.length(base+"/propertyCasualtyClaimNumber", ci.PropertyCasualtyClaimNumber, 1, 50)
	inpatient := in(inpatientFacilities, fac)
	checkClaimCodes(c, base+"/claimCodeInformation", ci)
	checkInstitutionalDates(c, base+"/claimDateInformation", ci.ClaimDateInformation, inpatient, ci.ClaimFrequencyCode)
	checkInstitutionalCodes(c, base, ci)
	if s := ci.ClaimSupplementalInformation; s != nil {
		p := base + "/claimSupplementalInformation"
		for _, f := range []struct{ name, v string }{{"priorAuthorizationNumber", s.PriorAuthorizationNumber}, {"referralNumber", s.ReferralNumber},
			{"claimControlNumber", s.ClaimControlNumber}, {"repricedClaimNumber", s.RepricedClaimNumber}, {"adjustedRepricedClaimRefNumber", s.AdjustedRepricedClaimRefNumber},
			{"investigationalDeviceExemptionNumber", s.InvestigationalDeviceExemptionNumber}, {"medicalRecordNumber", s.MedicalRecordNumber},
			{"demoProjectIdentifier", s.DemoProjectIdentifier}, {"peerReviewAuthorizationNumber", s.PeerReviewAuthorizationNumber}} {
			c.length(p+"/"+f.name, f.v, 1, 50)
		}
		c.oneOf(p+"/serviceAuthorizationExceptionCode", s.ServiceAuthorizationExceptionCode, exceptionCodes, "X12 service authorization exception code 1–7")
		reports := s.ReportInformations
		if s.ReportInformation != nil {
			checkReportOf(c, p+"/reportInformation", *s.ReportInformation, professionalAttachmentTypes)
			reports = append([]ReportInformation{*s.ReportInformation}, reports...)
		}
		if len(reports) > 10 {
			c.add(p+"/reportInformations", "may hold at most 10 attachments; got %d", len(reports))
		}
		for i, r := range s.ReportInformations {
			checkReportOf(c, fmt.Sprintf("%s/reportInformations/%d", p, i), r, professionalAttachmentTypes)
		}
	}
	if (ci.ClaimFrequencyCode == "7" || ci.ClaimFrequencyCode == "8") && (ci.ClaimSupplementalInformation == nil || ci.ClaimSupplementalInformation.ClaimControlNumber == "") {
		c.add(base+"/claimSupplementalInformation/claimControlNumber", "is required when claimFrequencyCode is %s: the payer's claim control number of the claim being replaced or voided (REF*F8)", ci.ClaimFrequencyCode)
	}
	checkContract(c, base+"/claimContractInformation", ci.ClaimContractInformation)
	checkInstitutionalClaimParts(c, base, ci)
	switch n := len(ci.ServiceLines); {
	case n == 0:
		c.add(base+"/serviceLines", "is required: at least one service line with institutionalService (serviceLineRevenueCode, lineItemChargeAmount, measurementUnit, serviceUnitCount)")
	case n > 999:
		c.add(base+"/serviceLines", "may hold at most 999 service lines (the 837I's limit); got %d; split the claim", n)
	}
	var sum int64
	sumOK := true
	transportOnly := len(ci.ServiceLines) > 0
	for i := range ci.ServiceLines {
		l := &ci.ServiceLines[i]
		cents, ok := checkInstitutionalLine(c, fmt.Sprintf("%s/serviceLines/%d", base, i), l)
		sum += cents
		sumOK = sumOK && ok
		transportOnly = transportOnly && l.InstitutionalService != nil && strings.HasPrefix(l.InstitutionalService.ServiceLineRevenueCode, "054")
	}
	if totalOK && sumOK && len(ci.ServiceLines) > 0 && sum != total {
		c.add(base+"/claimChargeAmount", "must equal the sum of the service lines' lineItemChargeAmount (837I CLM02 balancing): %s was sent, the lines add up to %s",
			ci.ClaimChargeAmount, formatCents(sum))
	}
	// SNIP 4: the attending provider (2310A) is required unless the claim
	// is only non-scheduled transportation (revenue codes 054x).
	if _, ok := roles["attending"]; !ok && !transportOnly {
		c.add("/attending", "is required on an 837I unless every line is ambulance transport (revenue code 054x): the attending provider's lastName, firstName and npi (or providers[] with providerType AttendingProvider)")
	}
}

// validFacilityCode reports whether s is a facility type code (the type of
// bill's first two digits): facility type 1–8, bill classification 1–9.
func validFacilityCode(s string) bool {
	return len(s) == 2 && s[0] >= '1' && s[0] <= '8' && s[1] >= '1' && s[1] <= '9'
}

func checkClaimCodes(c *checker, base string, ci *InstitutionalClaimInformation) {
	cc := ci.ClaimCodeInformation
	if cc == nil {
		c.add(base, "is required: admissionTypeCode and patientStatusCode (CL1), with admissionSourceCode for inpatient claims")
		return
	}
	if c.required(base+"/admissionTypeCode", cc.AdmissionTypeCode, "the NUBC priority of the admission (1 emergency, 2 urgent, 3 elective, 4 newborn, 5 trauma, 9 unavailable)") {
		c.oneOf(base+"/admissionTypeCode", cc.AdmissionTypeCode, admissionTypeCodes, "1 emergency, 2 urgent, 3 elective, 4 newborn, 5 trauma, 9 information not available")
	}
	if cc.AdmissionSourceCode != "" && (len(cc.AdmissionSourceCode) != 1 || !alphanumeric(cc.AdmissionSourceCode)) {
		c.add(base+"/admissionSourceCode", "must be one NUBC point-of-origin character (1 non-health-care facility, 2 clinic, 4 hospital transfer, 9 not available…); got %q", cc.AdmissionSourceCode)
	}
	if c.required(base+"/patientStatusCode", cc.PatientStatusCode, "the NUBC patient discharge status (01 home, 30 still a patient…)") {
		c.oneOf(base+"/patientStatusCode", cc.PatientStatusCode, patientStatusCodes, "NUBC discharge status; 01 home, 02 short-term hospital, 03 SNF, 20 expired, 30 still a patient…")
	}
	// A stay that the bill says ended (1 admit through discharge, 4 last
	// interim) cannot leave the patient still in (30).
	if cc.PatientStatusCode == "30" && (ci.ClaimFrequencyCode == "1" || ci.ClaimFrequencyCode == "4") {
		c.add(base+"/patientStatusCode", "30 (still a patient) contradicts claimFrequencyCode %s, which bills a finished stay: use frequency 2 or 3 (interim) while the patient is in, or the discharge status", ci.ClaimFrequencyCode)
	}
}

func checkInstitutionalDates(c *checker, base string, d *InstitutionalClaimDates, inpatient bool, frequency string) {
	if d == nil {
		c.add(base, "is required: statementBeginDate and statementEndDate (DTP*434), and admissionDateAndHour for inpatient claims")
		return
	}
	if c.required(base+"/statementBeginDate", d.StatementBeginDate, "the first day the bill covers (YYYYMMDD)") {
		c.date(base+"/statementBeginDate", d.StatementBeginDate)
	}
	if c.required(base+"/statementEndDate", d.StatementEndDate, "the last day the bill covers (YYYYMMDD)") {
		c.date(base+"/statementEndDate", d.StatementEndDate)
	}
	if validDate(d.StatementBeginDate) && validDate(d.StatementEndDate) && d.StatementEndDate < d.StatementBeginDate {
		c.add(base+"/statementEndDate", "is before statementBeginDate (%s); the statement period is begin to end", d.StatementBeginDate)
	}
	if a := d.AdmissionDateAndHour; a != "" && !(validDate(a) || (len(a) == 12 && validDate(a[:8]) && validHour(a[8:]))) {
		c.add(base+"/admissionDateAndHour", "must be YYYYMMDDHHMM (or YYYYMMDD) with a real date and a 24-hour time; got %q", a)
	}
	if inpatient && d.AdmissionDateAndHour == "" {
		c.add(base+"/admissionDateAndHour", "is required on an inpatient claim (837I DTP*435): the admission date and hour, YYYYMMDDHHMM")
	}
	if d.DischargeHour != "" && !validHour(d.DischargeHour) {
		c.add(base+"/dischargeHour", "must be a 24-hour time HHMM; got %q", d.DischargeHour)
	}
	if inpatient && (frequency == "1" || frequency == "4") && d.DischargeHour == "" {
		c.add(base+"/dischargeHour", "is required on an inpatient claim that ends the stay (frequency %s, DTP*096): the hour of discharge, HHMM", frequency)
	}
	c.date(base+"/repricerReceivedDate", d.RepricerReceivedDate)
}

func validHour(s string) bool {
	return len(s) == 4 && allDigits(s) && s[:2] <= "23" && s[2:] <= "59"
}

// checkInstitutionalCodes checks the HI code sets: diagnoses (ICD-10-CM
// shape), procedures, occurrence, value and condition codes.
func checkInstitutionalCodes(c *checker, base string, ci *InstitutionalClaimInformation) {
	icd := func(path, code string) {
		if msg := icd10Problem(code); msg != "" {
			c.add(path, msg, code)
		}
	}
	if p := ci.PrincipalDiagnosis; p == nil {
		c.add(base+"/principalDiagnosis", "is required: {\"qualifierCode\": \"ABK\", \"principalDiagnosisCode\": \"R45851\"}")
	} else {
		c.oneOf(base+"/principalDiagnosis/qualifierCode", p.QualifierCode, []string{"ABK"}, "ABK, ICD-10-CM principal diagnosis (BK is ICD-9)")
		if c.required(base+"/principalDiagnosis/principalDiagnosisCode", p.PrincipalDiagnosisCode, "an ICD-10-CM code") {
			icd(base+"/principalDiagnosis/principalDiagnosisCode", p.PrincipalDiagnosisCode)
		}
		c.oneOf(base+"/principalDiagnosis/presentOnAdmissionIndicator", p.PresentOnAdmissionIndicator, presentOnAdmission, "Y, N, U unknown, W clinically undetermined")
	}
	if a := ci.AdmittingDiagnosis; a != nil {
		c.oneOf(base+"/admittingDiagnosis/qualifierCode", a.QualifierCode, []string{"ABJ"}, "ABJ, ICD-10-CM admitting diagnosis")
		if c.required(base+"/admittingDiagnosis/admittingDiagnosisCode", a.AdmittingDiagnosisCode, "an ICD-10-CM code") {
			icd(base+"/admittingDiagnosis/admittingDiagnosisCode", a.AdmittingDiagnosisCode)
		}
	}
	if len(ci.PatientReasonForVisits) > 3 {
		c.add(base+"/patientReasonForVisits", "may hold at most 3 reasons; got %d", len(ci.PatientReasonForVisits))
	}
	for i, r := range ci.PatientReasonForVisits {
		p := fmt.Sprintf("%s/patientReasonForVisits/%d", base, i)
		c.oneOf(p+"/qualifierCode", r.QualifierCode, []string{"APR"}, "APR, ICD-10-CM patient's reason for visit")
		if c.required(p+"/patientReasonForVisitCode", r.PatientReasonForVisitCode, "an ICD-10-CM code") {
			icd(p+"/patientReasonForVisitCode", r.PatientReasonForVisitCode)
		}
	}
	if len(ci.ExternalCauseOfInjuries) > 12 {
		c.add(base+"/externalCauseOfInjuries", "may hold at most 12 codes; got %d", len(ci.ExternalCauseOfInjuries))
	}
	for i, e := range ci.ExternalCauseOfInjuries {
		p := fmt.Sprintf("%s/externalCauseOfInjuries/%d", base, i)
		c.oneOf(p+"/qualifierCode", e.QualifierCode, []string{"ABN"}, "ABN, ICD-10-CM external cause of injury")
		if c.required(p+"/externalCauseOfInjury", e.ExternalCauseOfInjury, "an ICD-10-CM code (V00–Y99)") {
			icd(p+"/externalCauseOfInjury", e.ExternalCauseOfInjury)
		}
		c.oneOf(p+"/presentOnAdmissionIndicator", e.PresentOnAdmissionIndicator, presentOnAdmission, "Y, N, U, W")
	}
	if d := ci.DiagnosisRelatedGroupInformation; d != nil && (len(d.DrugRelatedGroupCode) < 3 || len(d.DrugRelatedGroupCode) > 4 || !alphanumeric(d.DrugRelatedGroupCode)) {
		c.add(base+"/diagnosisRelatedGroupInformation/drugRelatedGroupCode", "must be a DRG code of 3 or 4 characters; got %q", d.DrugRelatedGroupCode)
	}
	groups := func(name string, n, per int) {
		if n > 2 {
			c.add(base+"/"+name, "may hold at most 2 groups (two HI segments) of up to %d codes; got %d groups", per, n)
		}
	}
	groups("otherDiagnosisInformationList", len(ci.OtherDiagnosisInformationList), 12)
	for i, g := range ci.OtherDiagnosisInformationList {
		if len(g) == 0 || len(g) > 12 {
			c.add(fmt.Sprintf("%s/otherDiagnosisInformationList/%d", base, i), "must hold 1 to 12 diagnoses; got %d", len(g))
		}
		for j, d := range g {
			p := fmt.Sprintf("%s/otherDiagnosisInformationList/%d/%d", base, i, j)
			c.oneOf(p+"/qualifierCode", d.QualifierCode, []string{"ABF"}, "ABF, ICD-10-CM other diagnosis")
			if c.required(p+"/otherDiagnosisCode", d.OtherDiagnosisCode, "an ICD-10-CM code") {
				icd(p+"/otherDiagnosisCode", d.OtherDiagnosisCode)
			}
			c.oneOf(p+"/presentOnAdmissionIndicator", d.PresentOnAdmissionIndicator, presentOnAdmission, "Y, N, U, W")
		}
	}
	if p := ci.PrincipalProcedureInformation; p != nil {
		pp := base + "/principalProcedureInformation"
		c.oneOf(pp+"/qualifierCode", p.QualifierCode, []string{"BBR", "CAH"}, "BBR ICD-10-PCS principal procedure, CAH advanced billing concepts")
		if c.required(pp+"/principalProcedureCode", p.PrincipalProcedureCode, "an ICD-10-PCS code (7 characters)") && p.QualifierCode == "BBR" && !validPCS(p.PrincipalProcedureCode) {
			c.add(pp+"/principalProcedureCode", "must be an ICD-10-PCS code: 7 letters and digits, no O or I; got %q", p.PrincipalProcedureCode)
		}
		c.date(pp+"/principalProcedureDate", p.PrincipalProcedureDate)
	}
	groups("otherProcedureInformationList", len(ci.OtherProcedureInformationList), 12)
	for i, g := range ci.OtherProcedureInformationList {
		for j, o := range g {
			p := fmt.Sprintf("%s/otherProcedureInformationList/%d/%d", base, i, j)
			c.oneOf(p+"/qualifierCode", o.QualifierCode, []string{"BBQ"}, "BBQ, ICD-10-PCS other procedure")
			if c.required(p+"/otherProcedureCode", o.OtherProcedureCode, "an ICD-10-PCS code") && !validPCS(o.OtherProcedureCode) {
				c.add(p+"/otherProcedureCode", "must be an ICD-10-PCS code: 7 letters and digits, no O or I; got %q", o.OtherProcedureCode)
			}
			c.date(p+"/otherProcedureDate", o.OtherProcedureDate)
		}
	}
	nubc := func(path, code, what string) {
		if c.required(path, code, what) && (len(code) != 2 || !alphanumeric(code)) {
			c.add(path, "must be a two-character NUBC %s; got %q", what, code)
		}
	}
	groups("occurrenceSpanInformations", len(ci.OccurrenceSpanInformations), 12)
	for i, g := range ci.OccurrenceSpanInformations {
		for j, o := range g {
			p := fmt.Sprintf("%s/occurrenceSpanInformations/%d/%d", base, i, j)
			nubc(p+"/occurrenceSpanCode", o.OccurrenceSpanCode, "occurrence span code")
			c.required(p+"/occurrenceSpanCodeStartDate", o.OccurrenceSpanCodeStartDate, "the span's first day")
			c.date(p+"/occurrenceSpanCodeStartDate", o.OccurrenceSpanCodeStartDate)
			c.required(p+"/occurrenceSpanCodeEndDate", o.OccurrenceSpanCodeEndDate, "the span's last day")
			c.date(p+"/occurrenceSpanCodeEndDate", o.OccurrenceSpanCodeEndDate)
			if o.OccurrenceSpanCodeEndDate != "" && o.OccurrenceSpanCodeEndDate < o.OccurrenceSpanCodeStartDate {
				c.add(p+"/occurrenceSpanCodeEndDate", "is before occurrenceSpanCodeStartDate; check the span")
			}
		}
	}
	groups("occurrenceInformationList", len(ci.OccurrenceInformationList), 12)
	for i, g := range ci.OccurrenceInformationList {
		for j, o := range g {
			p := fmt.Sprintf("%s/occurrenceInformationList/%d/%d", base, i, j)
			nubc(p+"/occurrenceSpanCode", o.OccurrenceSpanCode, "occurrence code")
			if c.required(p+"/occurrenceSpanCodeDate", o.OccurrenceSpanCodeDate, "the occurrence's date") {
				if _, _, ok := dateRange(o.OccurrenceSpanCodeDate); !ok {
					c.add(p+"/occurrenceSpanCodeDate", "must be YYYYMMDD (or a range YYYYMMDD-YYYYMMDD); got %q", o.OccurrenceSpanCodeDate)
				}
			}
		}
	}
	groups("valueInformationList", len(ci.ValueInformationList), 12)
	for i, g := range ci.ValueInformationList {
		for j, v := range g {
			p := fmt.Sprintf("%s/valueInformationList/%d/%d", base, i, j)
			nubc(p+"/valueCode", v.ValueCode, "value code")
			c.required(p+"/valueCodeAmount", v.ValueCodeAmount, "the value's amount")
			c.amount(p+"/valueCodeAmount", v.ValueCodeAmount)
		}
	}
	groups("conditionCodesList", len(ci.ConditionCodesList), 12)
	for i, g := range ci.ConditionCodesList {
		for j, v := range g {
			nubc(fmt.Sprintf("%s/conditionCodesList/%d/%d/conditionCode", base, i, j), v.ConditionCode, "condition code")
		}
	}
}

// validPCS reports whether s has the form of an ICD-10-PCS code: seven
// letters and digits, without O and I (which PCS does not use).
func validPCS(s string) bool {
	return len(s) == 7 && alphanumeric(s) && strings.ToUpper(s) == s && !strings.ContainsAny(s, "OI")
}

func checkInstitutionalLine(c *checker, base string, l *InstitutionalServiceLine) (int64, bool) {
	c.date(base+"/serviceDate", l.ServiceDate)
	c.date(base+"/serviceDateEnd", l.ServiceDateEnd)
	if l.ServiceDateEnd != "" && l.ServiceDate == "" {
		c.add(base+"/serviceDate", "is required with serviceDateEnd: the first date of the service")
	}
	if l.ServiceDateEnd != "" && validDate(l.ServiceDate) && l.ServiceDateEnd < l.ServiceDate {
		c.add(base+"/serviceDateEnd", "is before serviceDate (%s)", l.ServiceDate)
	}
	c.length(base+"/lineItemControlNumber", l.LineItemControlNumber, 1, 30)
	c.length(base+"/lineNoteText", l.LineNoteText, 1, 80)
	c.amount(base+"/facilityTaxAmount", l.FacilityTaxAmount)
	s := l.InstitutionalService
	if s == nil {
		c.add(base+"/institutionalService", "is required: serviceLineRevenueCode, lineItemChargeAmount, measurementUnit and serviceUnitCount")
		return 0, false
	}
	p := base + "/institutionalService"
	if c.required(p+"/serviceLineRevenueCode", s.ServiceLineRevenueCode, "the NUBC revenue code, four digits (0450 emergency room, 0800 inpatient renal dialysis…)") && !validRevenueCode(s.ServiceLineRevenueCode) {
		c.add(p+"/serviceLineRevenueCode", "must be a four-digit NUBC revenue code with its leading zero (0450, not 450); got %q", s.ServiceLineRevenueCode)
	}
	if s.ProcedureCode != "" || s.ProcedureIdentifier != "" {
		c.required(p+"/procedureIdentifier", s.ProcedureIdentifier, "HC for a HCPCS or CPT code")
		c.oneOf(p+"/procedureIdentifier", s.ProcedureIdentifier, []string{"ER", "HC", "HP", "IV", "WK"}, "HC HCPCS/CPT, HP HIPPS, ER, IV, WK")
		if c.required(p+"/procedureCode", s.ProcedureCode, "the HCPCS or CPT code") && s.ProcedureIdentifier == "HC" && !validHCPCS(s.ProcedureCode) {
			c.add(p+"/procedureCode", "must be a CPT code (five digits, or four digits and F, T or U) or a HCPCS Level II code (a letter and four digits); got %q", s.ProcedureCode)
		}
	}
	if len(s.ProcedureModifiers) > 4 {
		c.add(p+"/procedureModifiers", "may hold at most 4 modifiers; got %d", len(s.ProcedureModifiers))
	}
	for i, m := range s.ProcedureModifiers {
		if len(m) != 2 || !alphanumeric(m) {
			c.add(fmt.Sprintf("%s/procedureModifiers/%d", p, i), "must be a two-character modifier; got %q", m)
		}
	}
	c.length(p+"/description", s.Description, 1, 80)
	c.required(p+"/lineItemChargeAmount", s.LineItemChargeAmount, "the line's charge (0 is allowed)")
	cents, ok := c.amount(p+"/lineItemChargeAmount", s.LineItemChargeAmount)
	c.amount(p+"/nonCoveredChargeAmount", s.NonCoveredChargeAmount)
	c.required(p+"/measurementUnit", s.MeasurementUnit, "UN for units, DA for days")
	c.oneOf(p+"/measurementUnit", s.MeasurementUnit, institutionalUnits, "UN units, DA days")
	if c.required(p+"/serviceUnitCount", s.ServiceUnitCount, "how many units or days, above 0") && !positiveQuantity(s.ServiceUnitCount, 8) {
		c.add(p+"/serviceUnitCount", "must be a number above 0 with at most three decimals; got %q", s.ServiceUnitCount)
	}
	if d := l.DrugIdentification; d != nil {
		dp := base + "/drugIdentification"
		c.oneOf(dp+"/serviceIdQualifier", d.ServiceIDQualifier, drugQualifiers, "N4 NDC 5-4-2…")
		if d.ServiceIDQualifier == "N4" && !validNDC(d.NationalDrugCode) {
			c.add(dp+"/nationalDrugCode", "must be an 11-digit NDC in 5-4-2 form without dashes; got %q", d.NationalDrugCode)
		}
		if !positiveQuantity(d.NationalDrugUnitCount, 10) {
			c.add(dp+"/nationalDrugUnitCount", "must be a quantity above 0; got %q", d.NationalDrugUnitCount)
		}
		c.oneOf(dp+"/measurementUnitCode", d.MeasurementUnitCode, drugUnits, "F2, GR, ME, ML, UN")
	}
	checkProvider(c, base+"/operatingPhysician", l.OperatingPhysician)
	checkProvider(c, base+"/otherOperatingPhysician", l.OtherOperatingPhysician)
	checkProvider(c, base+"/renderingProvider", l.RenderingProvider)
	checkProvider(c, base+"/referringProvider", l.ReferringProvider)
	checkInstitutionalLineParts(c, base, l)
	return cents, ok
}
