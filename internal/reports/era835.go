// Package reports turns stored payer answers into the contract's report JSON:
// an 835 remittance into the "Convert Reports" 835 shape, a 277CA claim
// acknowledgment into the 277 shape, and an 835 into a printable ERA PDF.
//
// Conversion streams: segments are read one at a time and each claim payment
// is written as soon as it ends, so memory is bounded by one claim, not by
// the size of the transaction set (payers send a week of a hospital's
// remittances as one set).
package reports

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/clearhouse/clearhouse/x12"
)

// Limits bound what one claim may hold, so a hostile or broken file cannot
// make one claim grow without end (a real claim has at most 999 lines).
const (
	maxLinesPerClaim       = 10000
	maxAdjustmentsPerOwner = 99
	maxProviderAdjustments = 10000
)

// ErrNotRemittance is returned when the input holds no 835 transaction set.
var ErrNotRemittance = errors.New("reports: the transaction is not an 835 remittance")

// Convert835 reads X12 holding one or more 835 transaction sets and writes
// the report JSON to w, with meta as given.
func Convert835(src io.Reader, w io.Writer, meta Meta) error {
	c := &era835{jsonStream: jsonStream{out: bufio.NewWriterSize(w, 64<<10)}, meta: meta}
	if err := c.run(x12.NewReader(src)); err != nil {
		return err
	}
	return c.out.Flush()
}

type era835 struct {
	jsonStream
	meta Meta

	started   bool // {"meta":…,"transactions":[ written
	sets      int
	inSet     bool
	header    *txHeader
	headerOut bool // the set's header and "detailInfo":[ written
	details   int  // detail objects written in this set
	detail    *detailHeader
	detailOut bool   // the current detail's header and "paymentInfo":[ written
	claims    int    // claims written in the current detail
	section   string // "", "payer", "payee", "claim", "line"
	claim     *paymentInfo
	line      *serviceLine
	plb       []providerAdjustment
}

func (c *era835) run(r *x12.Reader) error {
	for {
		seg, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("reports: reading the 835: %w", err)
		}
		c.segment(seg)
		if c.err != nil {
			return c.err
		}
	}
	if c.inSet {
		c.endSet()
	}
	if c.sets == 0 {
		return ErrNotRemittance
	}
	c.raw("]}")
	return c.err
}

func (c *era835) segment(s *x12.Segment) {
	id := string(s.IDBytes())
	if !c.inSet {
		switch id {
		case "ST":
			if s.Element(1) == "835" {
				c.beginSet(s)
			}
		}
		return
	}
	switch id {
	case "SE":
		c.endSet()
	case "BPR":
		c.header.FinancialInformation = bpr(s)
	case "TRN":
		c.header.PaymentAndRemitReassociationDetails = &reassociation{TraceTypeCode: s.Element(1),
			CheckOrEFTTraceNumber: s.Element(2), OriginatingCompanyIdentifier: s.Element(3), OriginatingCompanySupplementalCode: s.Element(4)}
	case "CUR":
		c.header.ForeignCurrency = s.Element(2)
	case "DTM":
		c.dtm(s)
	case "N1":
		c.n1(s)
	case "N3", "N4":
		c.addressPart(id, s)
	case "REF":
		c.ref(s)
	case "PER":
		c.per(s)
	case "RDM":
		if c.header.Payee != nil {
			c.header.Payee.RemittanceDeliveryMethod = rdm(s)
		}
	case "LX":
		c.endClaim()
		c.endDetail()
		c.detail = &detailHeader{AssignedNumber: s.Element(1)}
		c.section = ""
	case "TS3":
		if c.detail != nil {
			c.detail.ProviderSummaryInformation = ts3(s)
		}
	case "TS2":
		if c.detail != nil {
			c.detail.ProviderSupplementalSummaryInformation = ts2(s)
		}
	case "CLP":
		c.beginClaim(s)
	case "CAS":
		c.cas(s)
	case "NM1":
		c.nm1(s)
	case "MIA":
		if c.claim != nil {
			c.claim.InpatientAdjudication = mia(s)
		}
	case "MOA":
		if c.claim != nil {
			c.claim.OutpatientAdjudication = moa(s)
		}
	case "AMT":
		c.amt(s)
	case "QTY":
		c.qty(s)
	case "SVC":
		c.beginLine(s)
	case "LQ":
		if c.line != nil {
			q := s.Element(1)
			c.line.HealthCareCheckRemarkCodes = append(c.line.HealthCareCheckRemarkCodes, remarkCode{
				CodeListQualifierCode: q, CodeListQualifierCodeValue: remarkLists[q], RemarkCode: s.Element(2), Remark: remarkText(q, s.Element(2))})
		}
	case "PLB":
		c.endClaim()
		if len(c.plb) < maxProviderAdjustments {
			c.plb = append(c.plb, plb(s))
		}
	}
}

func remarkText(list, code string) string {
	if list == "HE" {
		return RARC(code)
	}
	return ""
}

func (c *era835) beginSet(s *x12.Segment) {
	if !c.started {
		c.started = true
		c.raw(`{"meta":`)
		c.value(c.meta)
		c.raw(`,"transactions":[`)
	}
	if c.sets > 0 {
		c.raw(",")
	}
	c.sets++
	c.inSet, c.headerOut, c.details, c.detail, c.detailOut = true, false, 0, nil, false
	c.section, c.claim, c.line, c.plb = "", nil, nil, nil
	c.header = &txHeader{ControlNumber: s.Element(2)}
}

// writeHeader writes the set's header fields, once, when its first detail
// (or its end) shows that no more header segments can follow.
func (c *era835) writeHeader() {
	if c.headerOut {
		return
	}
	c.headerOut = true
	c.open(c.header, "detailInfo")
}

func (c *era835) writeDetail() {
	if c.detailOut {
		return
	}
	c.writeHeader()
	if c.detail == nil { // a CLP without LX: the guide requires LX, but keep the claim
		c.detail = &detailHeader{}
	}
	if c.details > 0 {
		c.raw(",")
	}
	c.details++
	c.detailOut, c.claims = true, 0
	c.open(c.detail, "paymentInfo")
}

func (c *era835) endDetail() {
	if c.detailOut {
		c.raw("]}")
	} else if c.detail != nil && c.detail.AssignedNumber != "" {
		// An LX with no claim: still reported, with an empty payment list.
		c.writeHeader()
		if c.details > 0 {
			c.raw(",")
		}
		c.details++
		c.value(c.detail)
	}
	c.detail, c.detailOut = nil, false
}

func (c *era835) beginClaim(s *x12.Segment) {
	c.endClaim()
	c.writeDetail()
	c.claim = &paymentInfo{ClaimPaymentInfo: &claimPaymentInfo{
		PatientControlNumber: s.Element(1), ClaimStatusCode: s.Element(2), TotalClaimChargeAmount: s.Element(3),
		ClaimPaymentAmount: s.Element(4), PatientResponsibilityAmount: s.Element(5), ClaimFilingIndicatorCode: s.Element(6),
		PayerClaimControlNumber: s.Element(7), FacilityTypeCode: s.Element(8), ClaimFrequencyCode: s.Element(9),
		DiagnosisRelatedGroupDRGCode: s.Element(11), DiagnosisRelatedGroupDRGWeight: s.Element(12), DischargeFraction: s.Element(13),
	}}
	c.section, c.line = "claim", nil
}

func (c *era835) endClaim() {
	if c.claim == nil {
		return
	}
	if c.claims > 0 {
		c.raw(",")
	}
	c.claims++
	c.value(c.claim)
	c.claim, c.line = nil, nil
}

func (c *era835) beginLine(s *x12.Segment) {
	if c.claim == nil || len(c.claim.ServiceLines) >= maxLinesPerClaim {
		c.line = nil
		return
	}
	p := &servicePayment{LineItemChargeAmount: s.Element(2), LineItemProviderPaymentAmount: s.Element(3),
		NationalUniformBillingCommitteeRevenueCode: s.Element(4), UnitsOfServicePaidCount: s.Element(5), OriginalUnitsOfServiceCount: s.Element(7)}
	p.ProductOrServiceIDQualifier, p.AdjudicatedProcedureCode, p.AdjudicatedProcedureModifierCodes = Procedure(s, 1)
	p.ProductOrServiceIDQualifierValue = serviceQualifiers[p.ProductOrServiceIDQualifier]
	if s.Len() >= 6 && len(s.ElementBytes(6)) > 0 {
		p.SubmittedProductOrServiceIDQualifier, p.SubmittedAdjudicatedProcedureCode, p.SubmittedAdjudicatedProcedureModifierCodes = Procedure(s, 6)
		p.SubmittedProductOrServiceIDQualifierValue = serviceQualifiers[p.SubmittedProductOrServiceIDQualifier]
		p.SubmittedProcedureCodeDescription = s.Component(6, 7)
	}
	c.line = &serviceLine{ServicePaymentInformation: p}
	c.claim.ServiceLines = append(c.claim.ServiceLines, c.line)
	c.section = "line"
}

// Procedure reads a composite medical procedure identifier (SVC01, SVC06 of
// an 835 or 277; SV1/SV3 01 of an 837): qualifier, code and up to four
// modifiers.
func Procedure(s *x12.Segment, n int) (qual, code string, mods []string) {
	qual, code = s.Component(n, 1), s.Component(n, 2)
	for i := 3; i <= 6; i++ {
		if m := s.Component(n, i); m != "" {
			mods = append(mods, m)
		}
	}
	return qual, code, mods
}

func (c *era835) endSet() {
	c.endClaim()
	c.endDetail()
	c.writeHeader()
	c.raw("]")
	if len(c.plb) > 0 {
		c.raw(`,"providerAdjustments":`)
		c.value(c.plb)
	}
	c.raw("}")
	c.inSet = false
}

func (c *era835) dtm(s *x12.Segment) {
	q, d := s.Element(1), s.Element(2)
	switch {
	case c.line != nil && c.section == "line":
		switch q {
		case "472":
			c.line.ServiceDate = d
		case "150":
			c.line.ServiceStartDate = d
		case "151":
			c.line.ServiceEndDate = d
		}
	case c.claim != nil:
		switch q {
		case "232":
			c.claim.ClaimStatementPeriodStart = d
		case "233":
			c.claim.ClaimStatementPeriodEnd = d
		case "036":
			c.claim.CoverageExpirationDate = d
		case "050":
			c.claim.ClaimReceivedDate = d
		}
	default:
		if q == "405" {
			c.header.ProductionDate = d
		}
	}
}

func (c *era835) n1(s *x12.Segment) {
	switch s.Element(1) {
	case "PR":
		c.header.Payer = &payer{Name: s.Element(2)}
		if s.Element(3) == "XV" {
			c.header.Payer.CentersForMedicareAndMedicaidServicesPlanID = s.Element(4)
		}
		c.section = "payer"
	case "PE":
		p := &payee{Name: s.Element(2)}
		switch s.Element(3) {
		case "XX":
			p.NPI = s.Element(4)
		case "FI":
			p.FederalTaxPayersIdentificationNumber = s.Element(4)
		case "XV":
			p.CentersForMedicareAndMedicaidServicesPlanID = s.Element(4)
		case "D3":
			p.NationalCouncilForPrescriptionDrugProgramsPharmacyNumber = s.Element(4)
		}
		c.header.Payee = p
		c.section = "payee"
	}
}

func (c *era835) addressPart(id string, s *x12.Segment) {
	var a **address
	switch {
	case c.section == "payer" && c.header.Payer != nil:
		a = &c.header.Payer.Address
	case c.section == "payee" && c.header.Payee != nil:
		a = &c.header.Payee.Address
	default:
		return
	}
	if *a == nil {
		*a = &address{}
	}
	if id == "N3" {
		(*a).Address1, (*a).Address2 = s.Element(1), s.Element(2)
		return
	}
	(*a).City, (*a).State, (*a).PostalCode, (*a).CountryCode, (*a).CountrySubCode = s.Element(1), s.Element(2), s.Element(3), s.Element(4), s.Element(7)
}

func (c *era835) ref(s *x12.Segment) {
	q, v := s.Element(1), s.Element(2)
	switch c.section {
	case "":
		switch q {
		case "EV":
			c.header.ReceiverIdentifier = v
		case "F2":
			c.header.VersionIdentification = v
		}
	case "payer":
		p := c.header.Payer
		switch q {
		case "2U":
			p.PayerIdentificationNumber = v
		case "EO":
			p.SubmitterIdentificationNumber = v
		case "HI":
			p.HealthIndustryNumber = v
		case "NF":
			p.NationalAssociationOfInsuranceCommissioners = v
		}
	case "payee":
		p := c.header.Payee
		switch q {
		case "TJ":
			// The contract's published example reports the payee's REF*TJ
			// as federalTaxPayersIdentificationNumber (its taxId stays unset).
			p.FederalTaxPayersIdentificationNumber = v
		case "0B":
			p.StateLicenseNumber = v
		case "PQ":
			p.PayeeIdentification = v
		case "D3":
			p.NationalCouncilForPrescriptionDrugProgramsPharmacyNumber = v
		}
	case "claim":
		c.claimRef(q, v)
	case "line":
		c.lineRef(q, v)
	}
}

// claimOtherIDs maps 2100 REF qualifiers to otherClaimRelatedIdentification.
var claimOtherIDs = map[string]string{
	"1L": "groupOrPolicyNumber", "1W": "memberIdentificationNumber", "28": "employeeIdentificationNumber",
	"6P": "groupNumber", "9A": "rePricedClaimReferenceNumber", "9C": "adjustedRePricedClaimReferenceNumber",
	"BB": "authorizationNumber", "CE": "classOfContractCode", "EA": "medicalRecordIdentificationNumber",
	"F8": "originalReferenceNumber", "G1": "priorAuthorizationNumber", "G3": "predeterminationOfBenefitsIdentificationNumber",
	"IG": "insurancePolicyNumber", "SY": "ssn",
}

// renderingIDs maps 2100 REF qualifiers to renderingProviderIdentification.
var renderingIDs = map[string]string{
	"0B": "stateLicenseNumber", "1A": "blueCrossProviderNumber", "1B": "blueShieldProviderNumber",
	"1C": "medicareProviderNumber", "1D": "medicaidProviderNumber", "1G": "providerUPINNumber",
	"1H": "champusIdentificationNumber", "1J": "facilityIdNumber", "D3": "nationalCouncilForPrescriptionDrugProgramPharmacyNumber",
	"G2": "providerCommercialNumber", "LU": "locationNumber",
}

func (c *era835) claimRef(q, v string) {
	if k, ok := claimOtherIDs[q]; ok {
		if c.claim.OtherClaimRelatedIdentification == nil {
			c.claim.OtherClaimRelatedIdentification = map[string]any{}
		}
		c.claim.OtherClaimRelatedIdentification[k] = v
		return
	}
	if k, ok := renderingIDs[q]; ok {
		if c.claim.RenderingProviderIdentification == nil {
			c.claim.RenderingProviderIdentification = map[string]string{}
		}
		c.claim.RenderingProviderIdentification[k] = v
	}
}

// lineServiceIDs and lineRenderingIDs map 2110 REF qualifiers.
var lineServiceIDs = map[string]string{
	"1S": "ambulatoryPatientGroupNumber", "APC": "ambulatoryPaymentClassification", "BB": "authorizationNumber",
	"E9": "attachmentCode", "G1": "priorAuthorizationNumber", "G3": "preDeterminationOfBenefitsIdentificationNumber",
	"LU": "locationNumber", "RB": "rateCodeNumber",
}

var lineRenderingIDs = map[string]string{
	"0B": "stateLicenseNumber", "1A": "blueCrossProviderNumber", "1B": "blueShieldProviderNumber",
	"1C": "medicareProviderNumber", "1D": "medicaidProviderNumber", "1G": "providerUPINNumber",
	"1H": "champusIdentificationNumber", "1J": "facilityIdNumber", "D3": "nationalCouncilForPrescriptionDrugProgramPharmacyNumber",
	"G2": "providerCommercialNumber", "HPI": "npi", "SY": "ssn", "TJ": "federalTaxpayerIdentificationNumber",
}

func (c *era835) lineRef(q, v string) {
	if c.line == nil {
		return
	}
	switch q {
	case "6R":
		c.line.LineItemControlNumber = v
		return
	case "0K":
		c.line.HealthCarePolicyIdentification = append(c.line.HealthCarePolicyIdentification, policyID{PolicyFormIdentifyingNumber: v})
		return
	}
	if k, ok := lineServiceIDs[q]; ok {
		if c.line.ServiceIdentification == nil {
			c.line.ServiceIdentification = map[string]string{}
		}
		c.line.ServiceIdentification[k] = v
		return
	}
	if k, ok := lineRenderingIDs[q]; ok {
		if c.line.RenderingProviderInformation == nil {
			c.line.RenderingProviderInformation = map[string]string{}
		}
		c.line.RenderingProviderInformation[k] = v
	}
}

func (c *era835) per(s *x12.Segment) {
	ct := perContact(s)
	switch c.section {
	case "payer":
		p := c.header.Payer
		switch s.Element(1) {
		case "CX":
			p.BusinessContactInformation = &ct
		case "BL":
			p.TechnicalContactInformation = append(p.TechnicalContactInformation, ct)
		case "IC":
			if len(ct.ContactMethods) > 0 {
				p.PayerWebSiteURL = ct.ContactMethods[0].URL
			}
		}
	case "claim", "line":
		if c.claim != nil && s.Element(1) == "CX" {
			c.claim.ClaimContactInformation = append(c.claim.ClaimContactInformation, ct)
		}
	}
}

// perContact reads a PER: a name and up to three (qualifier, number) pairs.
func perContact(s *x12.Segment) contact {
	ct := contact{ContactName: s.Element(2)}
	var m contactMethod
	for i := 3; i <= 7; i += 2 {
		v := s.Element(i + 1)
		switch s.Element(i) {
		case "TE":
			m.Phone = v
		case "EX":
			m.PhoneExtension = v
		case "FX":
			m.Fax = v
		case "EM":
			m.Email = v
		case "UR":
			m.URL = v
		}
	}
	if m != (contactMethod{}) {
		ct.ContactMethods = []contactMethod{m}
	}
	return ct
}

func (c *era835) cas(s *x12.Segment) {
	g := s.Element(1)
	a := adjustment{ClaimAdjustmentGroupCode: g, ClaimAdjustmentGroupCodeValue: adjustmentGroups[g]}
	for i := 1; i <= 6; i++ {
		base := 3*i - 1
		code := s.Element(base)
		if code == "" {
			continue
		}
		c, text, amount, quantity := a.reason(i)
		*c, *text, *amount, *quantity = code, CARC(code), s.Element(base+1), s.Element(base+2)
	}
	switch {
	case c.section == "line" && c.line != nil:
		if len(c.line.ServiceAdjustments) < maxAdjustmentsPerOwner {
			c.line.ServiceAdjustments = append(c.line.ServiceAdjustments, a)
		}
	case c.claim != nil:
		if len(c.claim.ClaimAdjustments) < maxAdjustmentsPerOwner {
			c.claim.ClaimAdjustments = append(c.claim.ClaimAdjustments, a)
		}
	}
}

func (c *era835) nm1(s *x12.Segment) {
	if c.claim == nil {
		return
	}
	p := person{}
	set := func(k, v string) {
		if v != "" {
			p[k] = v
		}
	}
	entity, idq, id := s.Element(1), s.Element(8), s.Element(9)
	if s.Element(2) == "2" {
		set("organizationName", s.Element(3))
	} else {
		set("lastName", s.Element(3))
		set("firstName", s.Element(4))
		set("middleName", s.Element(5))
		set("suffix", s.Element(7))
	}
	switch entity {
	case "QC":
		switch idq {
		case "MI", "34":
			set(map[string]string{"MI": "memberId", "34": "ssn"}[idq], id)
		case "HN":
			set("healthInsuranceClaimNumber", id)
		case "MR":
			set("medicaidRecipientIdentificationNumber", id)
		case "II":
			set("standardUniqueHealthIdentifierForEachIndividualInTheUnitedStates", id)
		}
		c.claim.PatientName = p
	case "IL", "GB":
		switch idq {
		case "MI":
			set("memberId", id)
		case "FI":
			set("taxId", id)
		case "II":
			set("standardUniqueHealthIdentifierForEachIndividualInTheUnitedStates", id)
		}
		if entity == "IL" {
			c.claim.Subscriber = p
		} else {
			c.claim.OtherSubscriber = p
		}
	case "74":
		if idq == "C" {
			set("insuredsChangedUniqueIdentificationNumber", id)
		}
		c.claim.CorrectedPatientOrInsuredName = p
	case "82":
		k := map[string]string{"BD": "blueCrossProviderNumber", "BS": "blueShieldProviderNumber", "FI": "taxId",
			"MC": "medicaidProviderNumber", "PC": "providerCommercialNumber", "SL": "stateLicenseNumber",
			"UP": "uniquePhysicianIdentificationNumber", "XX": "npi"}[idq]
		if k != "" {
			set(k, id)
		}
		c.claim.RenderingProvider = p
	case "TT", "PR":
		k := map[string]string{"AD": "blueCrossBlueShieldAssociationPlanCode", "FI": "taxId", "NI": "nationalAssociationOfInsuranceCommissionersIdentification",
			"PI": "payorId", "PP": "pharmacyProcessorNumber", "XV": "centersForMedicareAndMedicaidServicesPlanId"}[idq]
		if k != "" {
			set(k, id)
		}
		if entity == "TT" {
			c.claim.CrossoverCarrier = p
		} else {
			c.claim.CorrectedPriorityPayer = p
		}
	}
}

// claimAmounts and lineAmounts map AMT01 qualifiers.
var claimAmounts = map[string]string{
	"AU": "coverageAmount", "D8": "discountAmount", "DY": "perDayLimit", "F5": "patientAmountPaid",
	"I": "interest", "NL": "negativeLedgerBalance", "T": "tax", "T2": "totalClaimBeforeTaxes",
	"ZK": "federalMedicareOrMedicaidPaymentMandateCategory1", "ZL": "federalMedicareOrMedicaidPaymentMandateCategory2",
	"ZM": "federalMedicareOrMedicaidPaymentMandateCategory3", "ZN": "federalMedicareOrMedicaidPaymentMandateCategory4",
	"ZO": "federalMedicareOrMedicaidPaymentMandateCategory5",
}

var lineAmounts = map[string]string{
	"B6": "allowedActual", "KH": "deductionAmount", "T": "tax", "T2": "totalClaimBeforeTaxes",
	"ZK": "federalMedicareOrMedicaidPaymentMandateCategory1", "ZL": "federalMedicareOrMedicaidPaymentMandateCategory2",
	"ZM": "federalMedicareOrMedicaidPaymentMandateCategory3", "ZN": "federalMedicareOrMedicaidPaymentMandateCategory4",
	"ZO": "federalMedicareOrMedicaidPaymentMandateCategory5",
}

var claimQuantities = map[string]string{
	"CA": "coveredActual", "CD": "coInsuredActual", "LA": "lifeTimeReserveActual", "LE": "lifeTimeReserveEstimated",
	"NE": "nonCoveredEstimated", "NR": "notReplacedBloodUnits", "OU": "outlierDays", "PS": "prescription", "VS": "visits",
	"ZK": "federalMedicareOrMedicaidPaymentMandateCategory1", "ZL": "federalMedicareOrMedicaidPaymentMandateCategory2",
	"ZM": "federalMedicareOrMedicaidPaymentMandateCategory3", "ZN": "federalMedicareOrMedicaidPaymentMandateCategory4",
	"ZO": "federalMedicareOrMedicaidPaymentMandateCategory5",
}

func (c *era835) amt(s *x12.Segment) {
	if c.section == "line" && c.line != nil {
		if c.line.ServiceSupplementalAmounts == nil {
			c.line.ServiceSupplementalAmounts = &lineAmountsJSON{}
		}
		if slot := c.line.ServiceSupplementalAmounts.slot(s.Element(1)); slot != nil {
			*slot = s.Element(2)
		}
		return
	}
	put(c, s, claimAmounts, lineAmounts, func(p *paymentInfo) *map[string]string { return &p.ClaimSupplementalInformation },
		nil)
}

func (c *era835) qty(s *x12.Segment) {
	put(c, s, claimQuantities, lineAmounts, func(p *paymentInfo) *map[string]string { return &p.ClaimSupplementalInformationQuantities },
		func(l *serviceLine) *map[string]string { return &l.ServiceSupplementalQuantities })
}

// put files an AMT or QTY under the claim or the current line by its
// qualifier; unknown qualifiers are dropped (the guide allows no others).
func put(c *era835, s *x12.Segment, claimKeys, lineKeys map[string]string,
	claimMap func(*paymentInfo) *map[string]string, lineMap func(*serviceLine) *map[string]string) {
	q, v := s.Element(1), s.Element(2)
	var m *map[string]string
	var keys map[string]string
	switch {
	case c.section == "line" && c.line != nil:
		m, keys = lineMap(c.line), lineKeys
		if string(s.IDBytes()) == "QTY" && q != "ZK" && q != "ZL" && q != "ZM" && q != "ZN" && q != "ZO" {
			return
		}
	case c.claim != nil:
		m, keys = claimMap(c.claim), claimKeys
	default:
		return
	}
	k, ok := keys[q]
	if !ok {
		return
	}
	if *m == nil {
		*m = map[string]string{}
	}
	(*m)[k] = v
}

func bpr(s *x12.Segment) *financialInformation {
	f := &financialInformation{TransactionHandlingCode: s.Element(1), TotalActualProviderPaymentAmount: s.Element(2),
		CreditOrDebitFlagCode: s.Element(3), PaymentMethodCode: s.Element(4), PaymentFormatCode: s.Element(5),
		PayerIdentifier: s.Element(10), OriginatingCompanySupplementalCode: s.Element(11), CheckIssueOrEFTEffectiveDate: s.Element(16)}
	if s.Element(6) != "" || s.Element(7) != "" || s.Element(9) != "" {
		f.SenderAccountDetails = &senderAccountDetails{SenderDfiIDNumberQualifier: s.Element(6), SenderDFIIdentifier: s.Element(7),
			SenderAccountNumberQualifier: s.Element(8), SenderAccountNumber: s.Element(9)}
	}
	if s.Element(12) != "" || s.Element(13) != "" || s.Element(15) != "" {
		f.ReceiverAccountDetails = &receiverAccountDetails{ReceiverDfiIDNumberQualifier: s.Element(12), ReceiverDfiIdentificationNumber: s.Element(13),
			ReceiverAccountNumberQualifier: s.Element(14), ReceiverAccountNumber: s.Element(15)}
	}
	return f
}

func rdm(s *x12.Segment) *remittanceDelivery {
	r := &remittanceDelivery{Name: s.Element(2)}
	switch s.Element(1) {
	case "EM":
		r.Email = s.Element(3)
	case "FT":
		r.FTP = s.Element(3)
	case "OL":
		r.OnLine = s.Element(3)
	}
	return r
}

func ts3(s *x12.Segment) *providerSummary {
	return &providerSummary{ProviderIdentifier: s.Element(1), FacilityTypeCode: s.Element(2), FiscalPeriodDate: s.Element(3),
		TotalClaimCount: s.Element(4), TotalClaimChargeAmount: s.Element(5), TotalMSPPayerAmount: s.Element(13),
		TotalNonLabChargeAmount: s.Element(15), TotalHCPCSReportedChargeAmount: s.Element(17), TotalHCPCSPayableAmount: s.Element(18),
		TotalProfessionalComponentAmount: s.Element(20), TotalMSPPatientLiabilityMetAmount: s.Element(21),
		TotalPatientReimbursementAmount: s.Element(22), TotalPIPClaimCount: s.Element(23), TotalPIPAdjustmentAmount: s.Element(24)}
}

var ts2Keys = []string{"totalDRGAmount", "totalFederalSpecificAmount", "totalHospitalSpecificAmount", "totalDisproportionateShareAmount",
	"totalCapitalAmount", "totalIndirectMedicalEducationAmount", "totalOutlierDayCount", "totalDayOutlierAmount",
	"totalCostOutlierAmount", "averageDRGLengthOfStay", "totalDischargeCount", "totalCostReportDayCount",
	"totalCoveredDayCount", "totalNonCoveredDayCount", "totalMSPPassThroughAmount", "averageDRGWeight",
	"totalPPSCapitalFSPDRGAmount", "totalPPSCapitalHSPDRGAmount", "totalPPSDSHDRGAmount"}

func ts2(s *x12.Segment) map[string]string { return positional(s, ts2Keys) }

var miaKeys = []string{"coveredDaysOrVisitsCount", "ppsOperatingOutlierAmount", "lifetimePsychiatricDaysCount", "claimDRGAmount",
	"claimPaymentRemarkCode1", "claimDisproportionateShareAmount", "claimMSPPassThroughAmount", "claimPPSCapitalAmount",
	"ppsCapitalFSPDRGAmount", "ppsCapitalHSPDRGAmount", "ppsCapitalDSHDRGAmount", "oldCapitalAmount", "ppsCapitalIMEAmount",
	"ppsOperatingHospitalSpecificDRGAmount", "costReportDayCount", "ppsOperatingFederalSpecificDRGAmount",
	"claimPPSCapitalOutlierAmount", "claimIndirectTeachingAmount", "nonPayableProfessionalComponentAmount",
	"claimPaymentRemarkCode2", "claimPaymentRemarkCode3", "claimPaymentRemarkCode4", "claimPaymentRemarkCode5",
	"ppsCapitalExceptionAmount"}

func mia(s *x12.Segment) map[string]string { return positional(s, miaKeys) }

var moaKeys = []string{"reimbursementRate", "claimHCPCSPayableAmount", "claimPaymentRemarkCode1", "claimPaymentRemarkCode2",
	"claimPaymentRemarkCode3", "claimPaymentRemarkCode4", "claimPaymentRemarkCode5", "claimESRDPaymentAmount",
	"nonPayableProfessionalComponentAmount"}

func moa(s *x12.Segment) map[string]string { return positional(s, moaKeys) }

// positional names a segment's elements in order (element 1 is keys[0]).
func positional(s *x12.Segment, keys []string) map[string]string {
	m := map[string]string{}
	for i, k := range keys {
		if v := s.Element(i + 1); v != "" {
			m[k] = v
		}
	}
	return m
}

func plb(s *x12.Segment) providerAdjustment {
	p := providerAdjustment{ProviderIdentifier: s.Element(1), FiscalPeriodDate: s.Element(2)}
	for i := 3; i+1 <= 14; i += 2 {
		reason := s.Component(i, 1)
		if reason == "" {
			continue
		}
		p.Adjustments = append(p.Adjustments, providerAdjustmentItem{AdjustmentReasonCode: reason,
			AdjustmentReasonCodeValue: providerAdjustmentReasons[reason], ProviderAdjustmentIdentifier: s.Component(i, 2),
			ProviderAdjustmentAmount: s.Element(i + 1)})
	}
	return p
}
