package reports

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/clearhouse/clearhouse/x12"
)

// ErrNotClaimStatus is returned when the input holds no 277 transaction set.
var ErrNotClaimStatus = errors.New("reports: the transaction is not a 277 claim status or acknowledgment")

// The 277 report's JSON shape: the hosted API's "Convert Reports" 277
// (payers → claimStatusTransactions → claimStatusDetails →
// patientClaimStatusDetails → claims). Its hierarchy follows the 277's HL
// levels: 20 information source (payer), 21 information receiver, 19
// provider of service, PT patient (22/23 subscriber and dependent in a 277
// answering a 276).

type statusEntry struct {
	EntityIdentifierCode                                         string `json:"entityIdentifierCode,omitempty"`
	EntityIdentifierCodeValue                                    string `json:"entityIdentifierCodeValue,omitempty"`
	HealthCareClaimStatusCategoryCode                            string `json:"healthCareClaimStatusCategoryCode,omitempty"`
	HealthCareClaimStatusCategoryCodeValue                       string `json:"healthCareClaimStatusCategoryCodeValue,omitempty"`
	StatusCode                                                   string `json:"statusCode,omitempty"`
	StatusCodeValue                                              string `json:"statusCodeValue,omitempty"`
	NationalCouncilForPrescriptionDrugProgramsRejectPaymentCodes string `json:"nationalCouncilForPrescriptionDrugProgramsRejectPaymentCodes,omitempty"`
}

type levelStatus struct {
	Statuses                       []statusEntry `json:"providerStatuses,omitempty"`
	StatusInformationEffectiveDate string        `json:"statusInformationEffectiveDate,omitempty"`
}

type serviceProviderStatus struct {
	Statuses                       []statusEntry `json:"serviceProviderStatuses,omitempty"`
	StatusInformationEffectiveDate string        `json:"statusInformationEffectiveDate,omitempty"`
}

type payerLevel struct {
	OrganizationName                           string            `json:"organizationName,omitempty"`
	PayerIdentification                        string            `json:"payerIdentification,omitempty"`
	ETIN                                       string            `json:"etin,omitempty"`
	FederalTaxpayerIdentificationNumber        string            `json:"federalTaxpayerIdentificationNumber,omitempty"`
	CentersForMedicareAndMedicaidServicePlanID string            `json:"centersForMedicareAndMedicaidServicePlanId,omitempty"`
	EntityIdentifierCode                       string            `json:"entityIdentifierCode,omitempty"`
	EntityIdentifierCodeValue                  string            `json:"entityIdentifierCodeValue,omitempty"`
	PayerContactInformation                    *payerContactInfo `json:"payerContactInformation,omitempty"`
}

type payerContactInfo struct {
	ContactName    string              `json:"contactName,omitempty"`
	ContactMethods []map[string]string `json:"contactMethods,omitempty"`
}

type receiverLevel struct {
	ClaimTransactionBatchNumber string        `json:"claimTransactionBatchNumber,omitempty"`
	Provider                    person        `json:"provider,omitempty"`
	ProviderClaimStatuses       []levelStatus `json:"providerClaimStatuses,omitempty"`
}

type providerLevel struct {
	ProviderOFServiceInformationTraceIdentifier string                  `json:"providerOFServiceInformationTraceIdentifier,omitempty"`
	ServiceProvider                             person                  `json:"serviceProvider,omitempty"`
	ServiceProviderClaimStatuses                []serviceProviderStatus `json:"serviceProviderClaimStatuses,omitempty"`
}

type patientLevel struct {
	Subscriber person `json:"subscriber,omitempty"`
	Dependent  person `json:"dependent,omitempty"`
}

type informationStatus struct {
	InformationStatuses            []statusEntry `json:"informationStatuses,omitempty"`
	StatusInformationEffectiveDate string        `json:"statusInformationEffectiveDate,omitempty"`
	TotalClaimChargeAmount         string        `json:"totalClaimChargeAmount,omitempty"`
	ClaimPaymentAmount             string        `json:"claimPaymentAmount,omitempty"`
	AdjudicatedFinalizedDate       string        `json:"adjudicatedFinalizedDate,omitempty"`
	RemittanceDate                 string        `json:"remittanceDate,omitempty"`
	RemittanceTraceNumber          string        `json:"remittanceTraceNumber,omitempty"`
	StatusMessage                  string        `json:"statusMessage,omitempty"`
}

type claimStatus struct {
	PatientAccountNumber             string              `json:"patientAccountNumber,omitempty"`
	ReferencedTransactionTraceNumber string              `json:"referencedTransactionTraceNumber,omitempty"`
	ClearinghouseTraceNumber         string              `json:"clearinghouseTraceNumber,omitempty"`
	TradingPartnerClaimNumber        string              `json:"tradingPartnerClaimNumber,omitempty"`
	BillTypeIdentifier               string              `json:"billTypeIdentifier,omitempty"`
	PharmacyPrescriptionNumber       string              `json:"pharmacyPrescriptionNumber,omitempty"`
	VoucherIdentifier                string              `json:"voucherIdentifier,omitempty"`
	ClaimServiceDate                 string              `json:"claimServiceDate,omitempty"`
	ClaimServiceBeginDate            string              `json:"claimServiceBeginDate,omitempty"`
	ClaimServiceEndDate              string              `json:"claimServiceEndDate,omitempty"`
	InformationClaimStatuses         []informationStatus `json:"informationClaimStatuses,omitempty"`
}

type ackService struct {
	ServiceIDQualifierCode      string   `json:"serviceIdQualifierCode,omitempty"`
	ServiceIDQualifierCodeValue string   `json:"serviceIdQualifierCodeValue,omitempty"`
	ProcedureCode               string   `json:"procedureCode,omitempty"`
	ProcedureModifiers          []string `json:"procedureModifiers,omitempty"`
	ChargeAmount                string   `json:"chargeAmount,omitempty"`
	AmountPaid                  string   `json:"amountPaid,omitempty"`
	RevenueCode                 string   `json:"revenueCode,omitempty"`
	SubmittedUnits              string   `json:"submittedUnits,omitempty"`
}

type serviceStatus struct {
	ServiceStatuses []statusEntry `json:"serviceStatuses,omitempty"`
	EffectiveDate   string        `json:"effectiveDate,omitempty"`
}

type ackServiceLine struct {
	Service               *ackService     `json:"service,omitempty"`
	ServiceClaimStatuses  []serviceStatus `json:"serviceClaimStatuses,omitempty"`
	LineItemControlNumber string          `json:"lineItemControlNumber,omitempty"`
	ServiceLineDate       string          `json:"serviceLineDate,omitempty"`
	BeginServiceLineDate  string          `json:"beginServiceLineDate,omitempty"`
	EndServiceLineDate    string          `json:"endServiceLineDate,omitempty"`
}

type ackClaim struct {
	ClaimStatus  *claimStatus      `json:"claimStatus,omitempty"`
	ServiceLines []*ackServiceLine `json:"serviceLines,omitempty"`
}

type ackHeader struct {
	ControlNumber              string `json:"controlNumber,omitempty"`
	ReferenceIdentification    string `json:"referenceIdentification,omitempty"`
	TransactionSetCreationDate string `json:"transactionSetCreationDate,omitempty"`
	TransactionSetCreationTime string `json:"transactionSetCreationTime,omitempty"`
}

// level is one open HL: its object (written when its first child starts)
// and the name of the array its children go in.
type level struct {
	code     string // HL03
	obj      any
	childKey string
	opened   bool
	children int
}

var childKeys = map[string]string{"set": "payers", "20": "claimStatusTransactions", "21": "claimStatusDetails", "19": "patientClaimStatusDetails"}

// Convert277 reads X12 holding one or more 277 transaction sets (a 277CA or
// a 277 claim status answer) and writes the 277 report JSON to w.
func Convert277(src io.Reader, w io.Writer, meta Meta) error {
	c := &ack277{jsonStream: jsonStream{out: bufio.NewWriterSize(w, 64<<10)}, meta: meta}
	r := x12.NewReader(src)
	for {
		seg, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("reports: reading the 277: %w", err)
		}
		c.segment(seg)
		if c.err != nil {
			return c.err
		}
	}
	if c.inSet {
		c.closeTo(0)
	}
	if c.sets == 0 {
		return ErrNotClaimStatus
	}
	c.raw("]}")
	if c.err != nil {
		return c.err
	}
	return c.out.Flush()
}

type ack277 struct {
	jsonStream
	meta  Meta
	sets  int
	inSet bool
	stack []*level // [0] is the set itself
	claim *ackClaim
	line  *ackServiceLine
}

func (c *ack277) top() *level { return c.stack[len(c.stack)-1] }

func (c *ack277) segment(s *x12.Segment) {
	id := string(s.IDBytes())
	if !c.inSet {
		switch id {
		case "ST":
			if s.Element(1) == "277" {
				c.beginSet(s)
			}
		}
		return
	}
	switch id {
	case "SE":
		c.closeTo(0)
		c.inSet = false
	case "BHT":
		h := c.stack[0].obj.(*ackHeader)
		h.ReferenceIdentification, h.TransactionSetCreationDate, h.TransactionSetCreationTime = s.Element(3), s.Element(4), s.Element(5)
	case "HL":
		c.hl(s)
	case "NM1":
		c.nm1(s)
	case "PER":
		if p, ok := c.top().obj.(*payerLevel); ok {
			p.PayerContactInformation = payerContact(s)
		}
	case "TRN":
		c.trn(s)
	case "STC":
		c.stc(s)
	case "REF":
		c.ref(s)
	case "DTP":
		c.dtp(s)
	case "SVC":
		if c.claim != nil && len(c.claim.ServiceLines) < maxLinesPerClaim {
			q, code, mods := Procedure(s, 1)
			c.line = &ackServiceLine{Service: &ackService{ServiceIDQualifierCode: q, ServiceIDQualifierCodeValue: serviceQualifiers[q],
				ProcedureCode: code, ProcedureModifiers: mods, ChargeAmount: s.Element(2), AmountPaid: s.Element(3),
				RevenueCode: s.Element(4), SubmittedUnits: s.Element(7)}}
			c.claim.ServiceLines = append(c.claim.ServiceLines, c.line)
		}
	}
}

func (c *ack277) beginSet(s *x12.Segment) {
	if c.sets == 0 {
		c.raw(`{"meta":`)
		c.value(c.meta)
		c.raw(`,"transactions":[`)
	} else {
		c.raw(",")
	}
	c.sets++
	c.inSet = true
	c.stack = []*level{{code: "set", obj: &ackHeader{ControlNumber: s.Element(2)}, childKey: "payers"}}
	c.claim, c.line = nil, nil
}

// hl opens a level: the levels at or below its depth are closed first.
func (c *ack277) hl(s *x12.Segment) {
	code := s.Element(3)
	if code == "23" {
		if c.dependent() {
			return
		}
		code = "PT"
	}
	depth := map[string]int{"20": 1, "21": 2, "19": 3, "22": 4, "PT": 4}[code]
	if depth == 0 {
		return // not a 277 level: ignore rather than guess
	}
	if depth > len(c.stack) {
		depth = len(c.stack) // a skipped level: nest under what is open
	}
	c.closeTo(depth)
	var obj any
	switch code {
	case "20":
		obj = &payerLevel{}
	case "21":
		obj = &receiverLevel{}
	case "19":
		obj = &providerLevel{}
	default:
		obj = &patientLevel{}
	}
	parent := c.top()
	c.openChildren(parent)
	c.stack = append(c.stack, &level{code: code, obj: obj, childKey: childKeys[code]})
}

// dependent starts a dependent (HL 23) under the open subscriber (HL 22):
// the report puts both names in one patient entry. When the subscriber
// already had claims of its own, the dependent gets a new entry that
// repeats the subscriber.
func (c *ack277) dependent() bool {
	p, ok := c.top().obj.(*patientLevel)
	if !ok {
		return false
	}
	c.endClaim()
	if !c.top().opened {
		c.top().code = "23"
		return true
	}
	sub := p.Subscriber
	c.closeTo(len(c.stack) - 1)
	c.openChildren(c.top())
	c.stack = append(c.stack, &level{code: "23", obj: &patientLevel{Subscriber: sub}})
	return true
}

// openChildren writes a level's own fields and opens its child array, once.
func (c *ack277) openChildren(l *level) {
	if l.opened {
		if l.children > 0 {
			c.raw(",")
		}
		l.children++
		return
	}
	l.opened, l.children = true, 1
	key := l.childKey
	if key == "" {
		key = "claims"
	}
	c.open(l.obj, key)
}

// closeTo closes every open level deeper than depth (depth 0 closes the set).
func (c *ack277) closeTo(depth int) {
	c.endClaim()
	for len(c.stack) > depth {
		l := c.top()
		c.stack = c.stack[:len(c.stack)-1]
		if l.opened {
			c.raw("]}")
		} else {
			c.value(l.obj)
		}
	}
}

func (c *ack277) endClaim() {
	if c.claim == nil {
		return
	}
	l := c.top()
	c.openChildren(l)
	c.value(c.claim)
	c.claim, c.line = nil, nil
}

func (c *ack277) nm1(s *x12.Segment) {
	p := person{}
	set := func(k, v string) {
		if v != "" {
			p[k] = v
		}
	}
	if s.Element(2) == "2" {
		set("organizationName", s.Element(3))
	} else {
		set("lastName", s.Element(3))
		set("firstName", s.Element(4))
		set("middleName", s.Element(5))
		set("suffix", s.Element(7))
	}
	q, id := s.Element(8), s.Element(9)
	switch l := c.top().obj.(type) {
	case *payerLevel:
		l.OrganizationName = s.Element(3)
		switch q {
		case "PI":
			l.PayerIdentification = id
		case "46":
			l.ETIN = id
		case "FI":
			l.FederalTaxpayerIdentificationNumber = id
		case "XV":
			l.CentersForMedicareAndMedicaidServicePlanID = id
		}
		// Both of the contract's published reports leave the entity out
		// for a payer (NM1*PR); a clearinghouse source (AY) is named.
		if e := s.Element(1); e == "AY" {
			l.EntityIdentifierCode, l.EntityIdentifierCodeValue = e, entityName(e)
		}
	case *receiverLevel:
		if q == "46" {
			set("etin", id)
		}
		l.Provider = p
	case *providerLevel:
		switch q {
		case "XX":
			set("npi", id)
		case "FI":
			set("tin", id)
		case "SV":
			set("spn", id)
		}
		l.ServiceProvider = p
	case *patientLevel:
		if s.Element(1) == "QC" && c.top().code == "23" {
			l.Dependent = p
			return
		}
		switch q {
		case "MI":
			set("memberId", id)
		case "II":
			set("standardUniqueHealthIdentifierForEachIndividualInTheUnitedStates", id)
		case "24":
			set("employerIdentificationNumber", id)
		}
		l.Subscriber = p
	}
}

func payerContact(s *x12.Segment) *payerContactInfo {
	ct := &payerContactInfo{ContactName: s.Element(2)}
	m := map[string]string{}
	for i := 3; i <= 7; i += 2 {
		k := map[string]string{"TE": "phone", "EX": "phoneExtension", "FX": "fax", "EM": "email", "ED": "electronicDataInterChangeAccessNumber"}[s.Element(i)]
		if k != "" && s.Element(i+1) != "" {
			m[k] = s.Element(i + 1)
		}
	}
	if len(m) > 0 {
		ct.ContactMethods = []map[string]string{m}
	}
	return ct
}

func (c *ack277) trn(s *x12.Segment) {
	switch l := c.top().obj.(type) {
	case *receiverLevel:
		l.ClaimTransactionBatchNumber = s.Element(2)
	case *providerLevel:
		l.ProviderOFServiceInformationTraceIdentifier = s.Element(2)
	case *patientLevel:
		// TRN*2 starts a claim (2200D/2200E).
		c.endClaim()
		c.claim = &ackClaim{ClaimStatus: &claimStatus{PatientAccountNumber: s.Element(2), ReferencedTransactionTraceNumber: s.Element(2)}}
	}
}

// stc reads the status composites of an STC (STC01, STC10, STC11).
func stc(s *x12.Segment) []statusEntry {
	var out []statusEntry
	for _, n := range []int{1, 10, 11} {
		cat := s.Component(n, 1)
		if cat == "" {
			continue
		}
		e := statusEntry{HealthCareClaimStatusCategoryCode: cat, HealthCareClaimStatusCategoryCodeValue: statusCategory(cat),
			StatusCode: s.Component(n, 2), StatusCodeValue: statusCode(s.Component(n, 2)),
			EntityIdentifierCode: s.Component(n, 3), NationalCouncilForPrescriptionDrugProgramsRejectPaymentCodes: s.Component(n, 4)}
		e.EntityIdentifierCodeValue = entityName(e.EntityIdentifierCode)
		out = append(out, e)
	}
	return out
}

func (c *ack277) stc(s *x12.Segment) {
	entries, date := stc(s), s.Element(2)
	switch {
	case c.line != nil:
		c.line.ServiceClaimStatuses = append(c.line.ServiceClaimStatuses, serviceStatus{ServiceStatuses: entries, EffectiveDate: date})
	case c.claim != nil:
		c.claim.ClaimStatus.InformationClaimStatuses = append(c.claim.ClaimStatus.InformationClaimStatuses, informationStatus{
			InformationStatuses: entries, StatusInformationEffectiveDate: date, TotalClaimChargeAmount: s.Element(4),
			ClaimPaymentAmount: s.Element(5), AdjudicatedFinalizedDate: s.Element(6), RemittanceDate: s.Element(8),
			RemittanceTraceNumber: s.Element(9), StatusMessage: s.Element(12)})
	default:
		switch l := c.top().obj.(type) {
		case *receiverLevel:
			l.ProviderClaimStatuses = append(l.ProviderClaimStatuses, levelStatus{Statuses: entries, StatusInformationEffectiveDate: date})
		case *providerLevel:
			l.ServiceProviderClaimStatuses = append(l.ServiceProviderClaimStatuses, serviceProviderStatus{Statuses: entries, StatusInformationEffectiveDate: date})
		}
	}
}

func (c *ack277) ref(s *x12.Segment) {
	q, v := s.Element(1), s.Element(2)
	if c.line != nil {
		if q == "FJ" {
			c.line.LineItemControlNumber = v
		}
		return
	}
	if c.claim == nil {
		return
	}
	cs := c.claim.ClaimStatus
	switch q {
	case "1K":
		cs.TradingPartnerClaimNumber = v
	case "D9":
		cs.ClearinghouseTraceNumber = v
	case "BLT":
		cs.BillTypeIdentifier = v
	case "XZ":
		cs.PharmacyPrescriptionNumber = v
	case "VV":
		cs.VoucherIdentifier = v
	}
}

func (c *ack277) dtp(s *x12.Segment) {
	if s.Element(1) != "472" {
		return
	}
	format, v := s.Element(2), s.Element(3)
	begin, end, _ := strings.Cut(v, "-")
	switch {
	case c.line != nil:
		c.line.BeginServiceLineDate = begin
		if format == "RD8" {
			c.line.EndServiceLineDate = end
		}
	case c.claim != nil:
		if format == "RD8" {
			c.claim.ClaimStatus.ClaimServiceBeginDate, c.claim.ClaimStatus.ClaimServiceEndDate = begin, end
		} else {
			c.claim.ClaimStatus.ClaimServiceDate = v
		}
	}
}
