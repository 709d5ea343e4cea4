package claims

import "fmt"

// Edits of the 837I's pay-to, facility, notes, coordination of benefits
// and less common line data (institutional_parts.go).

func checkInstitutionalParties(c *checker, r *InstitutionalRequest) {
	if a := r.BillingPayToAddressName; a != nil {
		c.oneOf("/billingPayToAddressName/entityTypeQualifier", a.EntityTypeQualifier, []string{"2"}, "2 (an organization's address)")
		if a.Address == nil {
			c.add("/billingPayToAddressName/address", "is required: where the payment goes (address1, city, state, postalCode)")
		}
		checkAddress(c, "/billingPayToAddressName/address", a.Address, true)
	}
	if p := r.BillingPayToPlanName; p != nil {
		n := 0
		for _, v := range []string{p.PayerIdentificationNumber, p.ClaimOfficeNumber, p.NAIC} {
			if v != "" {
				n++
			}
		}
		if n > 1 {
			c.add("/billingPayToPlanName", "2010AC takes one secondary id (REF*2U, FY or NF): send one of payerIdentificationNumber, claimOfficeNumber, naic")
		}
		const b = "/billingPayToPlanName"
		c.required(b+"/organizationName", p.OrganizationName, "the pay-to plan's name")
		c.length(b+"/organizationName", p.OrganizationName, 1, 60)
		c.required(b+"/identificationCodeQualifier", p.IdentificationCodeQualifier, "PI (payer id) or XV (CMS plan id)")
		c.oneOf(b+"/identificationCodeQualifier", p.IdentificationCodeQualifier, payerIDTypeCodes, "PI payer id, XV CMS plan id")
		c.required(b+"/identificationCode", p.IdentificationCode, "the plan's identifier")
		c.required(b+"/taxId", p.TaxID, "the plan's 9-digit EIN (REF*EI)")
		c.digits(b+"/taxId", p.TaxID, 9, "taxId")
		if p.Address == nil {
			c.add(b+"/address", "is required: the plan's address (2010AC N3/N4)")
		}
		checkAddress(c, b+"/address", p.Address, true)
		if (p.PayerIdentificationNumber != "") && p.IdentificationCodeQualifier != "XV" {
			c.add("/billingPayToPlanName/payerIdentificationNumber", "goes with identificationCodeQualifier XV (a CMS plan id), as the contract says")
		}
		if r.ClaimInformation != nil && (r.ClaimInformation.OtherSubscriberInformation == nil || r.ClaimInformation.OtherSubscriberInformation.PayerPaidAmount == "") {
			c.add("/claimInformation/otherSubscriberInformation/payerPaidAmount", "is required with billingPayToPlanName (subrogation): what the plan, for example Medicaid, actually paid")
		}
	}
}

func checkInstitutionalClaimParts(c *checker, base string, ci *InstitutionalClaimInformation) {
	for _, f := range []struct{ name, v, why string }{
		{"patientAmountPaid", ci.PatientAmountPaid, "the 837I has no patient amount paid (X223A3 2300 AMT is F3, patientEstimatedAmountDue)"},
		{"patientWeight", ci.PatientWeight, "the 837I has no patient weight (PAT06–07 are professional claims')"},
		{"signatureIndicator", ci.SignatureIndicator, "the 837I does not use CLM06 (provider signature on file)"},
	} {
		if f.v != "" {
			c.add(base+"/"+f.name, "is deprecated in the contract and has no place in the claim: %s; leave it out", f.why)
		}
	}
	if n := ci.ClaimNotes; n != nil {
		if ci.BillingNote != "" && len(n.AdditionalInformation) > 0 {
			c.add(base+"/claimNotes/additionalInformation", "and billingNote are the same NTE*ADD (one per claim): send one of them")
		}
		if len(n.AdditionalInformation) > 0 {
			c.length(base+"/claimNotes/additionalInformation", ci.billingNote(), 1, 80)
		}
		total := 0
		for _, note := range n.coded() {
			total += len(note.Texts)
			for i, t := range note.Texts {
				c.length(fmt.Sprintf("%s/claimNotes/%s/%d", base, note.Name, i), t, 1, 80)
			}
		}
		if total > 10 {
			c.add(base+"/claimNotes", "holds %d notes; the 837I carries at most 10 (NTE, besides the billing note)", total)
		}
	}
	checkRepricing(c, base+"/claimPricingInformation", ci.ClaimPricingInformation)
	if e := ci.EpsdtReferral; e != nil {
		if len(e.ConditionCodes) > 0 && len(ci.ConditionCodes) > 0 {
			c.add(base+"/conditionCodes", "is the older place of epsdtReferral.conditionCodes: send them once")
		}
		ee := ci.epsdt()
		checkCRC(c, base+"/epsdtReferral", ee.CertificationConditionCodeAppliesIndicator, ee.ConditionCodes, []string{"AV", "NU", "S2", "ST"}, 3)
	} else if len(ci.ConditionCodes) > 0 {
		c.add(base+"/epsdtReferral", "is required with conditionCodes (EPSDT referral, CRC*ZZ): send epsdtReferral {certificationConditionCodeAppliesIndicator, conditionCodes}")
	}
	if len(ci.FileInformation) > 10 {
		c.add(base+"/fileInformation", "may hold at most 10 lines (K3); got %d", len(ci.FileInformation))
	}
	for i, f := range ci.FileInformation {
		c.length(fmt.Sprintf("%s/fileInformation/%d", base, i), f, 1, 80)
	}
	if len(ci.TreatmentCodeInformationList) > 2 {
		c.add(base+"/treatmentCodeInformationList", "may hold at most 2 lists (two HI*TC); got %d", len(ci.TreatmentCodeInformationList))
	}
	for i, g := range ci.TreatmentCodeInformationList {
		if len(g) == 0 || len(g) > 12 {
			c.add(fmt.Sprintf("%s/treatmentCodeInformationList/%d", base, i), "must hold 1 to 12 treatment codes; got %d", len(g))
		}
		for j, code := range g {
			c.length(fmt.Sprintf("%s/treatmentCodeInformationList/%d/%d", base, i, j), code, 1, 30)
		}
	}
	if f := ci.ServiceFacilityLocation; f != nil {
		p := base + "/serviceFacilityLocation"
		c.required(p+"/organizationName", f.OrganizationName, "the facility's name")
		c.length(p+"/organizationName", f.OrganizationName, 1, 60)
		c.npi(p+"/identificationCode", f.IdentificationCode)
		if f.Address == nil {
			c.add(p+"/address", "is required: where the services were rendered")
		}
		checkAddress(c, p+"/address", f.Address, true)
		if (f.SecondaryIdentifier == "") != (f.SecondaryIdentificationQualifierCode == "") {
			c.add(p+"/secondaryIdentifier", "send secondaryIdentifier and secondaryIdentificationQualifierCode (0B, G2, LU) together")
		}
		c.oneOf(p+"/secondaryIdentificationQualifierCode", f.SecondaryIdentificationQualifierCode, []string{"0B", "G2", "LU"}, "0B state license, G2 commercial number, LU location number")
	}
	if o := ci.OtherSubscriberInformation; o != nil {
		p := base + "/otherSubscriberInformation"
		if o.OtherPayerName == nil {
			c.add(p+"/otherPayerName", "is required: the other payer's otherPayerOrganizationName, otherPayerIdentifierTypeCode and otherPayerIdentifier")
		} else if o.OtherPayerName.OtherInsuredAdditionalIdentifier != "" {
			c.add(p+"/otherPayerName/otherInsuredAdditionalIdentifier", "is deprecated: the other insured's SSN goes in otherSubscriberName.otherInsuredAdditionalIdentifier (2330A REF*SY)")
		}
		if o.GroupNumber != "" && o.PolicyNumber != "" && o.GroupNumber != o.PolicyNumber {
			c.add(p+"/policyNumber", "SBR03 holds one number: send groupNumber or policyNumber")
		}
		checkOtherSubscriber(c, p, o.shared())
		for _, r := range []struct {
			name    string
			v       *OtherPayerProvider
			allowed []string
		}{{"otherPayerAttendingProvider", o.OtherPayerAttendingProvider, []string{"0B", "1G", "G2"}},
			{"otherPayerOperatingPhysician", o.OtherPayerOperatingPhysician, []string{"0B", "1G", "G2"}},
			{"otherPayerOtherOperatingPhysician", o.OtherPayerOtherOperatingPhysician, []string{"0B", "1G", "G2"}},
			{"otherPayerServiceFacilityLocation", o.OtherPayerServiceFacilityLocation, []string{"0B", "G2", "LU"}},
			{"otherPayerRenderingProvider", o.OtherPayerRenderingProvider, []string{"0B", "1G", "G2", "LU"}},
			{"otherPayerReferringProvider", o.OtherPayerReferringProvider, []string{"0B", "1G", "G2"}},
			{"otherPayerBillingProvider", o.OtherPayerBillingProvider, []string{"G2", "LU"}}} {
			checkOtherPayerProvider(c, p+"/"+r.name, r.v, r.allowed)
		}
		if m := o.MedicareOutpatientAdjudication; m != nil && len(m.ClaimPaymentRemarkCode) > 5 {
			c.add(p+"/medicareOutpatientAdjudication/claimPaymentRemarkCode", "may hold at most 5 remark codes; got %d", len(m.ClaimPaymentRemarkCode))
		}
		if m := o.MedicareInpatientAdjudication; m != nil {
			if len(m.ClaimPaymentRemarkCode) > 4 {
				c.add(p+"/medicareInpatientAdjudication/claimPaymentRemarkCode", "may hold at most 4 remark codes; got %d", len(m.ClaimPaymentRemarkCode))
			}
			c.required(p+"/medicareInpatientAdjudication/coveredDaysOrVisitsCount", m.CoveredDaysOrVisitsCount, "the covered days (MIA01)")
		}
	}
}

func checkInstitutionalLineParts(c *checker, base string, l *InstitutionalServiceLine) {
	for _, d := range []struct {
		name, use string
		sent      bool
	}{
		{"lineAdjustmentInformation", "lineAdjudicationInformation", l.LineAdjustmentInformation != nil},
		{"linePricingInformation", "lineRepricingInformation", l.LinePricingInformation != nil},
		{"lineSupplementInformation", "serviceLineSupplementalInformations (attachments) and the claim's claimSupplementalInformation", l.LineSupplementInformation != nil},
		{"serviceLineDateInformation", "serviceDate and serviceDateEnd", l.ServiceLineDateInformation != nil},
		{"serviceLineReferenceInformation", "lineItemControlNumber, repricedLineItemReferenceNumber and adjustedRepricedLineItemReferenceNumber", l.ServiceLineReferenceInformation != nil},
	} {
		if d.sent {
			c.add(base+"/"+d.name, "is a deprecated shape of the contract: send %s instead", d.use)
		}
	}
	reports := l.reports()
	if len(reports) > 10 {
		c.add(base+"/serviceLineSupplementalInformations", "may hold at most 10 attachments; got %d", len(reports))
	}
	for i, r := range reports {
		checkReportOf(c, fmt.Sprintf("%s/serviceLineSupplementalInformations/%d", base, i), r, professionalAttachmentTypes)
	}
	c.length(base+"/repricedLineItemReferenceNumber", l.RepricedLineItemReferenceNumber, 1, 50)
	c.length(base+"/adjustedRepricedLineItemReferenceNumber", l.AdjustedRepricedLineItemReferenceNumber, 1, 50)
	c.amount(base+"/serviceTaxAmount", l.ServiceTaxAmount)
	if l.LineNoteText != "" && l.ThirdPartyOrganizationNotes != "" {
		c.add(base+"/thirdPartyOrganizationNotes", "and lineNoteText are the same NTE*TPO (one per line): send one")
	}
	c.length(base+"/thirdPartyOrganizationNotes", l.ThirdPartyOrganizationNotes, 1, 80)
	checkRepricing(c, base+"/lineRepricingInformation", l.LineRepricingInformation)
	if len(l.LineAdjudicationInformation) > 15 {
		c.add(base+"/lineAdjudicationInformation", "may hold at most 15 entries; got %d", len(l.LineAdjudicationInformation))
	}
	for i, a := range l.LineAdjudicationInformation {
		p := fmt.Sprintf("%s/lineAdjudicationInformation/%d", base, i)
		c.required(p+"/otherPayerPrimaryIdentifier", a.OtherPayerPrimaryIdentifier, "the id of the payer that paid this line")
		if c.required(p+"/serviceLinePaidAmount", a.ServiceLinePaidAmount, "what that payer paid for the line (0 is allowed)") {
			c.amount(p+"/serviceLinePaidAmount", a.ServiceLinePaidAmount)
		}
		c.required(p+"/serviceLineRevenueCode", a.ServiceLineRevenueCode, "the revenue code that payer adjudicated (SVD04)")
		c.oneOf(p+"/productOrServiceIDQualifier", a.ProductOrServiceIDQualifier, []string{"ER", "HC", "HP", "IV", "WK"}, "X12 product/service id qualifier")
		if a.ProcedureCode != "" && a.ProductOrServiceIDQualifier == "" {
			c.add(p+"/productOrServiceIDQualifier", "is required with procedureCode (SVD03-1): HC for a HCPCS/CPT code")
		}
		if c.required(p+"/paidServiceUnitCount", a.PaidServiceUnitCount, "the units that payer paid") && !positiveQuantity(a.PaidServiceUnitCount, 8) {
			c.add(p+"/paidServiceUnitCount", "must be a number of units above 0; got %q", a.PaidServiceUnitCount)
		}
		if c.required(p+"/adjudicationOrPaymentDate", a.AdjudicationOrPaymentDate, "the date that payer paid or adjudicated the line") {
			c.date(p+"/adjudicationOrPaymentDate", a.AdjudicationOrPaymentDate)
		}
		c.amount(p+"/remainingPatientLiability", a.RemainingPatientLiability)
		checkAdjustments(c, p+"/lineAdjustment", institutionalCAS(a.LineAdjustment))
	}
}
