package claims

import (
	"fmt"
	"strings"
)

// Edits of the 837P's less common claim and line data (professional_parts.go).

func checkProfessionalClaimParts(c *checker, base string, ci *ProfessionalClaimInformation) {
	checkRepricing(c, base+"/claimPricingRepricingInformation", ci.ClaimPricingRepricingInformation)
	if m := ci.SpinalManipulationServiceInformation; m != nil {
		p := base + "/spinalManipulationServiceInformation"
		c.required(p+"/patientConditionCode", m.PatientConditionCode, "A acute, C chronic, D non-acute, E non-life threatening, F routine, G symptomatic, M acute manifestation of a chronic condition")
		c.oneOf(p+"/patientConditionCode", m.PatientConditionCode, []string{"A", "C", "D", "E", "F", "G", "M"}, "A, C, D, E, F, G, M")
		c.length(p+"/patientConditionDescription1", m.PatientConditionDescription1, 1, 80)
		c.length(p+"/patientConditionDescription2", m.PatientConditionDescription2, 1, 80)
	}
	if len(ci.PatientConditionInformationVision) > 3 {
		c.add(base+"/patientConditionInformationVision", "may hold at most 3 entries (CRC*E1, E2, E3); got %d", len(ci.PatientConditionInformationVision))
	}
	for i, v := range ci.PatientConditionInformationVision {
		p := fmt.Sprintf("%s/patientConditionInformationVision/%d", base, i)
		c.oneOf(p+"/codeCategory", v.CodeCategory, []string{"E1", "E2", "E3"}, "E1 spectacle lenses, E2 contact lenses, E3 spectacle frames")
		c.required(p+"/codeCategory", v.CodeCategory, "E1, E2 or E3")
		checkCRC(c, p, v.CertificationConditionIndicator, v.ConditionCodes, []string{"L1", "L2", "L3", "L4", "L5"}, 5)
	}
	if e := ci.EpsdtReferral; e != nil {
		checkCRC(c, base+"/epsdtReferral", e.CertificationConditionCodeAppliesIndicator, e.ConditionCodes, []string{"AV", "NU", "S2", "ST"}, 3)
		if e.CertificationConditionCodeAppliesIndicator == "N" && len(e.ConditionCodes) > 0 && e.ConditionCodes[0] != "NU" {
			c.add(base+"/epsdtReferral/conditionCodes/0", "must be NU when certificationConditionCodeAppliesIndicator is N (no referral given)")
		}
	}
	if len(ci.ConditionInformation) > 2 {
		c.add(base+"/conditionInformation", "may hold at most 2 groups (two HI segments); got %d", len(ci.ConditionInformation))
	}
	for i, g := range ci.ConditionInformation {
		p := fmt.Sprintf("%s/conditionInformation/%d/conditionCodes", base, i)
		if len(g.ConditionCodes) == 0 || len(g.ConditionCodes) > 12 {
			c.add(p, "must hold 1 to 12 NUCC condition codes; got %d", len(g.ConditionCodes))
		}
		for j, code := range g.ConditionCodes {
			c.length(fmt.Sprintf("%s/%d", p, j), code, 2, 2)
		}
	}
	if len(ci.AnesthesiaRelatedSurgicalProcedure) > 2 {
		c.add(base+"/anesthesiaRelatedSurgicalProcedure", "may hold at most 2 codes (HI*BP and HI*BO); got %d", len(ci.AnesthesiaRelatedSurgicalProcedure))
	}
	for i, code := range ci.AnesthesiaRelatedSurgicalProcedure {
		if !validHCPCS(code) {
			c.add(fmt.Sprintf("%s/anesthesiaRelatedSurgicalProcedure/%d", base, i), "must be a HCPCS/CPT surgical code (five characters); got %q", code)
		}
	}
	if ci.FileInformation != "" && len(ci.FileInformationList) > 0 {
		c.add(base+"/fileInformation", "is the deprecated form of fileInformationList: send one of them")
	}
	c.length(base+"/fileInformation", ci.FileInformation, 1, 80)
	for i := range ci.OtherSubscriberInformation {
		checkProfessionalCOB(c, fmt.Sprintf("%s/otherSubscriberInformation/%d", base, i), &ci.OtherSubscriberInformation[i])
	}
}

// checkCRC checks a CRC's indicator and its 1..max codes.
func checkCRC(c *checker, p, indicator string, codes, allowed []string, most int) {
	c.required(p+"/certificationConditionIndicator", indicator, "Y or N")
	name := "certificationConditionIndicator"
	if indicator != "" {
		c.oneOf(p+"/"+name, indicator, []string{"Y", "N"}, "Y yes, N no")
	}
	if len(codes) == 0 || len(codes) > most {
		c.add(p+"/conditionCodes", "must hold 1 to %d condition codes; got %d", most, len(codes))
	}
	for j, code := range codes {
		c.oneOf(fmt.Sprintf("%s/conditionCodes/%d", p, j), code, allowed, joinCodes(allowed))
	}
}

func checkProfessionalCOB(c *checker, p string, o *ProfessionalOtherSubscriber) {
	if m := o.MedicareOutpatientAdjudication; m != nil {
		q := p + "/medicareOutpatientAdjudication"
		if len(m.ClaimPaymentRemarkCode) > 5 {
			c.add(q+"/claimPaymentRemarkCode", "may hold at most 5 remark codes; got %d", len(m.ClaimPaymentRemarkCode))
		}
		for _, a := range []struct{ name, v string }{{"hcpcsPayableAmount", m.HCPCSPayableAmount}, {"endStageRenalDiseasePaymentAmount", m.EndStageRenalDiseasePaymentAmount},
			{"nonPayableProfessionalComponentBilledAmount", m.NonPayableProfessionalComponentBilledAmount}} {
			if a.v != "" {
				c.amount(q+"/"+a.name, a.v)
			}
		}
		if m.ReimbursementRate != "" && !positiveQuantity(m.ReimbursementRate, 4) && m.ReimbursementRate != "0" {
			c.add(q+"/reimbursementRate", "must be a rate as a decimal (0.8 for 80 %%); got %q", m.ReimbursementRate)
		}
	}
	if n := o.OtherSubscriberName; n != nil && n.OtherInsuredAdditionalIdentifier != "" {
		c.digits(p+"/otherSubscriberName/otherInsuredAdditionalIdentifier", n.OtherInsuredAdditionalIdentifier, 9, "the other insured's SSN")
	}
	for _, r := range []struct {
		name    string
		list    []OtherPayerProvider
		most    int
		allowed []string
	}{
		{"otherPayerReferringProvider", o.OtherPayerReferringProvider, 2, []string{"0B", "1G", "G2"}},
		{"otherPayerRenderingProvider", o.OtherPayerRenderingProvider, 1, []string{"0B", "1G", "G2", "LU"}},
		{"otherPayerServiceFacilityLocation", o.OtherPayerServiceFacilityLocation, 1, []string{"0B", "G2", "LU"}},
		{"otherPayerSupervisingProvider", o.OtherPayerSupervisingProvider, 1, []string{"0B", "1G", "G2", "LU"}},
		{"otherPayerBillingProvider", o.OtherPayerBillingProvider, 1, []string{"G2", "LU"}},
	} {
		if len(r.list) > r.most {
			c.add(p+"/"+r.name, "may hold at most %d entries (837P 2330C–G); got %d", r.most, len(r.list))
		}
		for i := range r.list {
			checkOtherPayerProvider(c, fmt.Sprintf("%s/%s/%d", p, r.name, i), &r.list[i], r.allowed)
		}
	}
}

func checkProfessionalLineParts(c *checker, base string, l *ProfessionalLineParts) {
	if d := l.DurableMedicalEquipmentService; d != nil {
		p := base + "/durableMedicalEquipmentService"
		if c.required(p+"/days", d.Days, "the length of medical necessity in days (SV503)") && !positiveWhole(d.Days) {
			c.add(p+"/days", "must be a whole number of days above 0; got %q", d.Days)
		}
		if c.required(p+"/rentalPrice", d.RentalPrice, "the rental price (SV504)") {
			c.amount(p+"/rentalPrice", d.RentalPrice)
		}
		if c.required(p+"/purchasePrice", d.PurchasePrice, "the purchase price (SV505)") {
			c.amount(p+"/purchasePrice", d.PurchasePrice)
		}
		c.required(p+"/frequencyCode", d.FrequencyCode, "1 weekly, 4 monthly, 6 daily")
		c.oneOf(p+"/frequencyCode", d.FrequencyCode, []string{"1", "4", "6"}, "1 weekly, 4 monthly, 6 daily")
	}
	for i, r := range l.ServiceLineSupplementalInformation {
		checkReportOf(c, fmt.Sprintf("%s/serviceLineSupplementalInformation/%d", base, i), r, professionalAttachmentTypes)
	}
	if len(l.ServiceLineSupplementalInformation) > 10 {
		c.add(base+"/serviceLineSupplementalInformation", "may hold at most 10 attachments; got %d", len(l.ServiceLineSupplementalInformation))
	}
	if d := l.DurableMedicalEquipmentCertificateOfMedicalNecessity; d != nil {
		p := base + "/durableMedicalEquipmentCertificateOfMedicalNecessity/attachmentTransmissionCode"
		c.required(p, d.AttachmentTransmissionCode, "AB previously submitted, AD additional documentation, AF faxed, AG submitted electronically, NS not specified")
		c.oneOf(p, d.AttachmentTransmissionCode, []string{"AB", "AD", "AF", "AG", "NS"}, "AB, AD, AF, AG, NS")
	}
	checkAmbulanceData(c, base, l.AmbulanceTransportInformation, l.AmbulanceCertification)
	if d := l.DurableMedicalEquipmentCertification; d != nil {
		p := base + "/durableMedicalEquipmentCertification"
		c.required(p+"/certificationTypeCode", d.CertificationTypeCode, "I initial, R renewal, S revised")
		c.oneOf(p+"/certificationTypeCode", d.CertificationTypeCode, []string{"I", "R", "S"}, "I initial, R renewal, S revised")
		if c.required(p+"/durableMedicalEquipmentDurationInMonths", d.DurableMedicalEquipmentDurationInMonths, "the months the equipment is needed (CR303)") &&
			!positiveWhole(d.DurableMedicalEquipmentDurationInMonths) {
			c.add(p+"/durableMedicalEquipmentDurationInMonths", "must be a whole number of months above 0; got %q", d.DurableMedicalEquipmentDurationInMonths)
		}
	}
	if d := l.ConditionIndicatorDurableMedicalEquipment; d != nil {
		p := base + "/conditionIndicatorDurableMedicalEquipment"
		codes := []string{d.ConditionIndicator}
		if d.ConditionIndicatorCode != "" {
			codes = append(codes, d.ConditionIndicatorCode)
		}
		checkCRC(c, p, d.CertificationConditionIndicator, codes, []string{"38", "ZV"}, 2)
	}
	if d := l.ServiceLineDateInformation; d != nil {
		names := []string{"prescriptionDate", "certificationRevisionOrRecertificationDate", "beginTherapyDate", "lastCertificationDate",
			"treatmentOrTherapyDate", "hemoglobinTestDate", "serumCreatineTestDate", "shippedDate", "lastXRayDate", "initialTreatmentDate"}
		for i, q := range d.dtps() {
			c.date(base+"/serviceLineDateInformation/"+names[i], q[1])
		}
	}
	for _, q := range []struct{ name, v string }{{"ambulancePatientCount", string(l.AmbulancePatientCount)}, {"obstetricAnesthesiaAdditionalUnits", string(l.ObstetricAnesthesiaAdditionalUnits)}} {
		if q.v != "" && !positiveWhole(q.v) {
			c.add(base+"/"+q.name, "must be a whole number above 0; got %q", q.v)
		}
	}
	if len(l.TestResults) > 5 {
		c.add(base+"/testResults", "may hold at most 5 results; got %d", len(l.TestResults))
	}
	for i, t := range l.TestResults {
		p := fmt.Sprintf("%s/testResults/%d", base, i)
		c.required(p+"/measurementReferenceIdentificationCode", t.MeasurementReferenceIdentificationCode, "OG original, TR test results")
		c.oneOf(p+"/measurementReferenceIdentificationCode", t.MeasurementReferenceIdentificationCode, []string{"OG", "TR"}, "OG original, TR test results")
		c.required(p+"/measurementQualifier", t.MeasurementQualifier, "HT height, R1 hemoglobin, R2 hematocrit, R3 epoetin starting dosage, R4 creatinine")
		c.oneOf(p+"/measurementQualifier", t.MeasurementQualifier, []string{"HT", "R1", "R2", "R3", "R4"}, "HT, R1, R2, R3, R4")
		if c.required(p+"/testResults", t.TestResults, "the measured value") && !positiveQuantity(t.TestResults, 6) && t.TestResults != "0" {
			c.add(p+"/testResults", "must be a number; got %q", t.TestResults)
		}
	}
	checkContract(c, base+"/contractInformation", l.ContractInformation)
	if len(l.FileInformation) > 10 {
		c.add(base+"/fileInformation", "may hold at most 10 lines (K3); got %d", len(l.FileInformation))
	}
	for i, f := range l.FileInformation {
		c.length(fmt.Sprintf("%s/fileInformation/%d", base, i), f, 1, 80)
	}
	if ps := l.PurchasedServiceInformation; ps != nil {
		p := base + "/purchasedServiceInformation"
		c.required(p+"/purchasedServiceProviderIdentifier", ps.PurchasedServiceProviderIdentifier, "the purchased service provider's id, as in purchasedServiceProvider")
		c.length(p+"/purchasedServiceProviderIdentifier", ps.PurchasedServiceProviderIdentifier, 1, 50)
		if c.required(p+"/purchasedServiceChargeAmount", ps.PurchasedServiceChargeAmount, "what the service cost") {
			c.amount(p+"/purchasedServiceChargeAmount", ps.PurchasedServiceChargeAmount)
		}
	}
	checkRepricing(c, base+"/linePricingRepricingInformation", l.LinePricingRepricingInformation)
	checkAddress(c, base+"/ambulancePickUpLocation", l.AmbulancePickUpLocation, true)
	checkAddress(c, base+"/ambulanceDropOffLocation", l.AmbulanceDropOffLocation, true)
	for i, f := range l.FormIdentification {
		p := fmt.Sprintf("%s/formIdentification/%d", base, i)
		c.required(p+"/formTypeCode", f.FormTypeCode, "AS form type code, UT CMS DMERC CMN forms")
		c.oneOf(p+"/formTypeCode", f.FormTypeCode, []string{"AS", "UT"}, "AS, UT")
		c.required(p+"/formIdentifier", f.FormIdentifier, "the form's code")
		if len(f.SupportingDocumentation) == 0 || len(f.SupportingDocumentation) > 99 {
			c.add(p+"/supportingDocumentation", "must hold 1 to 99 answers (FRM); got %d", len(f.SupportingDocumentation))
		}
		for j, d := range f.SupportingDocumentation {
			q := fmt.Sprintf("%s/supportingDocumentation/%d", p, j)
			c.required(q+"/questionNumber", d.QuestionNumber, "the question's number")
			c.oneOf(q+"/questionResponseCode", d.QuestionResponseCode, []string{"N", "W", "Y"}, "N no, W not applicable, Y yes")
			c.date(q+"/questionResponseAsDate", d.QuestionResponseAsDate)
		}
	}
}

// positiveWhole reports whether s is a whole number above zero (days,
// months, counts).
func positiveWhole(s string) bool { return positiveQuantity(s, 8) && !strings.Contains(s, ".") }
