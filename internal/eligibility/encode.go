package eligibility

import (
	"slices"
	"unsafe"

	"github.com/clearhouse/clearhouse/internal/jsonstr"
)

// The answer's JSON, written without reflection: encoding/json spent ~30 µs
// and ~10 allocations of a check's CPU walking Response's ~250 fields by
// reflection. jsonw writes exactly what json.Encoder with SetEscapeHTML(false)
// writes for a *Response (fields in declaration order, empty omitempty
// fields left out, maps by sorted key, errors as null when nil, strings
// escaped the same way, BenefitsDateInformation as its MarshalJSON writes
// it). TestResponseJSONMatchesEncodingJSON holds it to encoding/json on
// every published mock answer, the corpus 271s and a Response with every
// field set, so a field added to a type here without its line below fails
// that test.

// jsonw appends JSON to b. first is true right after an opening brace or
// bracket, when the next member or item needs no comma.
type jsonw struct {
	b     []byte
	first bool
	html  bool // escape <, > and & too (json.Marshal's default)
	x12   span // the answer's X12 when no byte of it needs escaping
}

// span is where a string's bytes are in memory. An answer's strings are
// mostly slices of two strings, the code tables' text (codeText) and the
// answer's X12 (the 271 mapping hands out slices of it): when one of those
// needs no escaping, neither does any slice of it, and value copies the
// slice without a look (~250 strings an answer, ~20 % of its JSON's
// instructions). A string whose bytes begin inside a span's string is a
// slice of it: the string is one allocation, alive while the span is
// used, and a slice of it cannot reach beyond its end.
type span struct{ at, n uintptr }

func spanOf(s string) span {
	return span{uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(len(s))}
}

// has reports whether s, not empty, is a slice of the span's string.
func (p span) has(s string) bool { return uintptr(unsafe.Pointer(unsafe.StringData(s)))-p.at < p.n }

// codeSpan is codeText's span when codeTextPlain, else empty.
var codeSpan = func() span {
	if !codeTextPlain {
		return span{}
	}
	return spanOf(codeText)
}()

// value writes a string.
func (w *jsonw) value(v string) {
	if !w.html && v != "" && (codeSpan.has(v) || w.x12.has(v)) {
		b := append(w.b, '"')
		b = append(b, v...)
		w.b = append(b, '"')
		return
	}
	w.b = jsonstr.Append(w.b, v, w.html)
}

func (w *jsonw) begin() { w.b, w.first = append(w.b, '{'), true }
func (w *jsonw) end()   { w.b, w.first = append(w.b, '}'), false }

func (w *jsonw) openArray()  { w.b, w.first = append(w.b, '['), true }
func (w *jsonw) closeArray() { w.b, w.first = append(w.b, ']'), false }

func (w *jsonw) null() { w.b, w.first = append(w.b, "null"...), false }

// item starts an array item.
func (w *jsonw) item() {
	if !w.first {
		w.b = append(w.b, ',')
	}
	w.first = true
}

// key starts an object member.
func (w *jsonw) key(k string) {
	b := w.b
	if w.first {
		b = append(b, '"')
	} else {
		b = append(b, ',', '"')
	}
	w.first = false
	b = append(b, k...) // a field's name: letters only
	w.b = append(b, '"', ':')
}

// mapKey starts a map's member: its key is escaped like any string.
func (w *jsonw) mapKey(k string) {
	if !w.first {
		w.b = append(w.b, ',')
	}
	w.first = false
	w.value(k)
	w.b = append(w.b, ':')
}

// str writes a string member unless v is empty (omitempty). It is small
// enough to be inlined, so an empty field (most of an answer's) costs a
// test, not a call.
func (w *jsonw) str(k, v string) {
	if v != "" {
		w.member(k, v)
	}
}

func (w *jsonw) member(k, v string) {
	w.key(k)
	w.value(v)
}

// sm is str for the answer's types, with the member's name written as it
// follows another member, comma and quotes included (`,"name":"`): the
// name and its punctuation are one copy, not five appends. Like str it is
// inlined for the test of an empty value.
func (w *jsonw) sm(k, v string) {
	if v != "" {
		w.smember(k, v)
	}
}

func (w *jsonw) smember(k, v string) {
	if w.first {
		k = k[1:] // no comma after an opening brace
	}
	w.first = false
	if !w.html && (codeSpan.has(v) || w.x12.has(v)) {
		b := append(w.b, k...)
		b = append(b, v...)
		w.b = append(b, '"')
		return
	}
	w.b = jsonstr.Append(append(w.b, k[:len(k)-1]...), v, w.html)
}

// strs writes a list of strings unless it is empty (omitempty); like str,
// inlined for the test.
func (w *jsonw) strs(k string, v []string) {
	if len(v) > 0 {
		w.strList(k, v)
	}
}

func (w *jsonw) strList(k string, v []string) {
	w.key(k)
	w.b = append(w.b, '[')
	for i, s := range v {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.value(s)
	}
	w.b = append(w.b, ']')
}

// strMap writes a map of strings by sorted key unless it is empty
// (omitempty); like str, inlined for the test.
func (w *jsonw) strMap(k string, m map[string]string) {
	if len(m) > 0 {
		w.strObject(k, m)
	}
}

func (w *jsonw) strObject(k string, m map[string]string) {
	w.key(k)
	var room [16]string
	keys := room[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	w.begin()
	for _, k := range keys {
		w.str1(k, m[k])
	}
	w.end()
}

// str1 writes a map's string member (even when v is empty).
func (w *jsonw) str1(k, v string) {
	w.mapKey(k)
	w.value(v)
}

// object writes a member whose value is *v unless v is nil (omitempty).
func object[T any](w *jsonw, k string, v *T, write func(*jsonw, *T)) {
	if v != nil {
		w.key(k)
		write(w, v)
	}
}

// list writes a member whose value is a list unless it is empty
// (omitempty); like str, inlined for the test.
func list[T any](w *jsonw, k string, v []T, write func(*jsonw, *T)) {
	if len(v) > 0 {
		items(w, k, v, write)
	}
}

func items[T any](w *jsonw, k string, v []T, write func(*jsonw, *T)) {
	w.key(k)
	w.openArray()
	for i := range v {
		w.item()
		write(w, &v[i])
	}
	w.closeArray()
}

// requestJSON is json.Marshal(r): the request as history keeps it,
// written by the generated reqRequest (requestjson.go) without
// encoding/json's reflection (~20 K instructions a check).
func requestJSON(r *Request) []byte {
	w := jsonw{b: make([]byte, 0, 512), html: true}
	w.begin()
	w.reqRequest(r)
	w.end()
	return w.b
}

// benefitsDateInformation writes what BenefitsDateInformation.MarshalJSON
// does: one object of the dates and the admissions and discharges, by
// sorted key, escaped as json.Marshal escapes (HTML characters too).
func (w *jsonw) benefitsDateInformation(v *BenefitsDateInformation) {
	html := w.html
	w.html = true
	var room [16]string
	keys := room[:0]
	for k := range v.Dates {
		if k == "admissions" && len(v.Admissions) > 0 || k == "discharges" && len(v.Discharges) > 0 {
			continue // replaced by the list, as in MarshalJSON's map
		}
		keys = append(keys, k)
	}
	if len(v.Admissions) > 0 {
		keys = append(keys, "admissions")
	}
	if len(v.Discharges) > 0 {
		keys = append(keys, "discharges")
	}
	slices.Sort(keys)
	w.begin()
	for _, k := range keys {
		switch {
		case k == "admissions" && len(v.Admissions) > 0:
			w.mapKey(k)
			w.datePeriods(v.Admissions)
		case k == "discharges" && len(v.Discharges) > 0:
			w.mapKey(k)
			w.datePeriods(v.Discharges)
		default:
			w.str1(k, v.Dates[k])
		}
	}
	w.end()
	w.html = html
}

func (w *jsonw) datePeriods(v []DatePeriod) {
	w.openArray()
	for i := range v {
		w.item()
		w.begin()
		w.str("date", v[i].Date)
		w.str("startDate", v[i].StartDate)
		w.str("endDate", v[i].EndDate)
		w.end()
	}
	w.closeArray()
}

// The types of Response, one method each, fields in declaration order.

func (w *jsonw) response(v *Response) {
	if !w.html && jsonstr.Plain(v.X12, false) {
		w.x12 = spanOf(v.X12)
	}
	w.begin()
	object(w, "meta", v.Meta, (*jsonw).meta)
	w.sm(`,"id":"`, v.ID)
	w.sm(`,"eligibilitySearchId":"`, v.EligibilitySearchID)
	w.sm(`,"controlNumber":"`, v.ControlNumber)
	w.sm(`,"reassociationKey":"`, v.ReassociationKey)
	w.sm(`,"tradingPartnerServiceId":"`, v.TradingPartnerServiceID)
	object(w, "provider", v.Provider, (*jsonw).responseProvider)
	object(w, "subscriber", v.Subscriber, (*jsonw).responsePerson)
	list(w, "subscriberTraceNumbers", v.SubscriberTraceNumbers, (*jsonw).traceNumber)
	list(w, "dependents", v.Dependents, (*jsonw).responsePerson)
	object(w, "payer", v.Payer, (*jsonw).responsePayer)
	w.strMap("planInformation", v.PlanInformation)
	w.strMap("planDateInformation", v.PlanDateInformation)
	list(w, "planStatus", v.PlanStatus, (*jsonw).planStatus)
	list(w, "benefitsInformation", v.BenefitsInformation, (*jsonw).benefitsInformation)
	w.key("errors")
	if v.Errors == nil {
		w.null()
	} else {
		w.openArray()
		for i := range v.Errors {
			w.item()
			w.aaaError(&v.Errors[i])
		}
		w.closeArray()
	}
	list(w, "warnings", v.Warnings, (*jsonw).warning)
	w.sm(`,"status":"`, v.Status)
	w.sm(`,"transactionSetAcknowledgement":"`, v.TransactionSetAcknowledgement)
	w.sm(`,"implementationTransactionSetSyntaxError":"`, v.ImplementationTransactionSetSyntaxError)
	w.sm(`,"x12":"`, v.X12)
	w.end()
}

func (w *jsonw) meta(v *Meta) {
	w.begin()
	w.sm(`,"senderId":"`, v.SenderID)
	w.sm(`,"submitterId":"`, v.SubmitterID)
	w.sm(`,"billerId":"`, v.BillerID)
	w.sm(`,"applicationMode":"`, v.ApplicationMode)
	w.sm(`,"traceId":"`, v.TraceID)
	w.sm(`,"outboundTraceId":"`, v.OutboundTraceID)
	w.end()
}

func (w *jsonw) responseProvider(v *ResponseProvider) {
	w.begin()
	w.sm(`,"providerName":"`, v.ProviderName)
	w.sm(`,"providerFirstName":"`, v.ProviderFirstName)
	w.sm(`,"middleName":"`, v.MiddleName)
	w.sm(`,"suffix":"`, v.Suffix)
	w.sm(`,"providerOrgName":"`, v.ProviderOrgName)
	w.sm(`,"entityIdentifier":"`, v.EntityIdentifier)
	w.sm(`,"entityType":"`, v.EntityType)
	w.sm(`,"npi":"`, v.NPI)
	w.sm(`,"federalTaxpayersIdNumber":"`, v.FederalTaxpayersIDNumber)
	w.sm(`,"payorIdentification":"`, v.PayorIdentification)
	w.sm(`,"pharmacyProcessorNumber":"`, v.PharmacyProcessorNumber)
	w.sm(`,"serviceProviderNumber":"`, v.ServiceProviderNumber)
	w.sm(`,"servicesPlanID":"`, v.ServicesPlanID)
	w.sm(`,"ssn":"`, v.SSN)
	w.sm(`,"employersId":"`, v.EmployersID)
	object(w, "address", v.Address, (*jsonw).address)
	w.sm(`,"providerCode":"`, v.ProviderCode)
	w.sm(`,"referenceIdentification":"`, v.ReferenceIdentification)
	list(w, "aaaErrors", v.AAAErrors, (*jsonw).aaaError)
	w.end()
}

func (w *jsonw) responsePerson(v *ResponsePerson) {
	w.begin()
	w.sm(`,"memberId":"`, v.MemberID)
	w.sm(`,"firstName":"`, v.FirstName)
	w.sm(`,"lastName":"`, v.LastName)
	w.sm(`,"middleName":"`, v.MiddleName)
	w.sm(`,"suffix":"`, v.Suffix)
	w.sm(`,"gender":"`, v.Gender)
	w.sm(`,"dateOfBirth":"`, v.DateOfBirth)
	w.sm(`,"ssn":"`, v.SSN)
	w.sm(`,"groupNumber":"`, v.GroupNumber)
	w.sm(`,"groupDescription":"`, v.GroupDescription)
	w.sm(`,"planNumber":"`, v.PlanNumber)
	w.sm(`,"planDescription":"`, v.PlanDescription)
	w.sm(`,"planNetworkIdNumber":"`, v.PlanNetworkIDNumber)
	w.sm(`,"planNetworkDescription":"`, v.PlanNetworkDescription)
	w.sm(`,"relationToSubscriber":"`, v.RelationToSubscriber)
	w.sm(`,"relationToSubscriberCode":"`, v.RelationToSubscriberCode)
	w.sm(`,"insuredIndicator":"`, v.InsuredIndicator)
	w.sm(`,"maintenanceTypeCode":"`, v.MaintenanceTypeCode)
	w.sm(`,"maintenanceReasonCode":"`, v.MaintenanceReasonCode)
	w.sm(`,"birthSequenceNumber":"`, v.BirthSequenceNumber)
	w.sm(`,"uniqueHealthIdentifier":"`, v.UniqueHealthIdentifier)
	w.sm(`,"entityIdentifier":"`, v.EntityIdentifier)
	w.sm(`,"entityType":"`, v.EntityType)
	object(w, "address", v.Address, (*jsonw).address)
	list(w, "healthCareDiagnosisCodes", v.HealthCareDiagnosisCodes, (*jsonw).diagnosisCode)
	object(w, "responseProvider", v.ResponseProvider, (*jsonw).responseProvider)
	w.sm(`,"informationStatusCode":"`, v.InformationStatusCode)
	w.sm(`,"employmentStatusCode":"`, v.EmploymentStatusCode)
	w.sm(`,"governmentServiceAffiliationCode":"`, v.GovernmentServiceAffiliationCode)
	w.sm(`,"description":"`, v.Description)
	w.sm(`,"militaryServiceRankCode":"`, v.MilitaryServiceRankCode)
	w.sm(`,"dateTimePeriodFormatQualifier":"`, v.DateTimePeriodFormatQualifier)
	w.sm(`,"dateTimePeriod":"`, v.DateTimePeriod)
	w.sm(`,"startDateTimePeriod":"`, v.StartDateTimePeriod)
	w.sm(`,"endDateTimePeriod":"`, v.EndDateTimePeriod)
	list(w, "aaaErrors", v.AAAErrors, (*jsonw).aaaError)
	w.end()
}

func (w *jsonw) traceNumber(v *TraceNumber) {
	w.begin()
	w.sm(`,"traceTypeCode":"`, v.TraceTypeCode)
	w.sm(`,"traceType":"`, v.TraceType)
	w.sm(`,"referenceIdentification":"`, v.ReferenceIdentification)
	w.sm(`,"originatingCompanyIdentifier":"`, v.OriginatingCompanyIdentifier)
	w.sm(`,"secondaryReferenceIdentification":"`, v.SecondaryReferenceIdentification)
	w.end()
}

func (w *jsonw) responsePayer(v *ResponsePayer) {
	w.begin()
	w.sm(`,"name":"`, v.Name)
	w.sm(`,"lastName":"`, v.LastName)
	w.sm(`,"firstName":"`, v.FirstName)
	w.sm(`,"middleName":"`, v.MiddleName)
	w.sm(`,"suffix":"`, v.Suffix)
	w.sm(`,"entityIdentifier":"`, v.EntityIdentifier)
	w.sm(`,"entityType":"`, v.EntityType)
	w.sm(`,"payorIdentification":"`, v.PayorIdentification)
	w.sm(`,"federalTaxpayersIdNumber":"`, v.FederalTaxpayersIDNumber)
	w.sm(`,"naic":"`, v.NAIC)
	w.sm(`,"npi":"`, v.NPI)
	w.sm(`,"etin":"`, v.ETIN)
	w.sm(`,"centersForMedicareAndMedicaidPlanId":"`, v.CentersForMedicareAndMedicaidPlanID)
	w.sm(`,"employersId":"`, v.EmployersID)
	object(w, "contactInformation", v.ContactInformation, (*jsonw).contactInformation)
	list(w, "aaaErrors", v.AAAErrors, (*jsonw).aaaError)
	w.end()
}

func (w *jsonw) planStatus(v *PlanStatus) {
	w.begin()
	w.sm(`,"statusCode":"`, v.StatusCode)
	w.sm(`,"status":"`, v.Status)
	w.sm(`,"planDetails":"`, v.PlanDetails)
	w.strs("serviceTypeCodes", v.ServiceTypeCodes)
	w.end()
}

func (w *jsonw) benefitsInformation(v *BenefitsInformation) {
	w.begin()
	w.sm(`,"code":"`, v.Code)
	w.sm(`,"name":"`, v.Name)
	w.sm(`,"coverageLevelCode":"`, v.CoverageLevelCode)
	w.sm(`,"coverageLevel":"`, v.CoverageLevel)
	w.strs("serviceTypeCodes", v.ServiceTypeCodes)
	w.strs("serviceTypes", v.ServiceTypes)
	w.sm(`,"insuranceTypeCode":"`, v.InsuranceTypeCode)
	w.sm(`,"insuranceType":"`, v.InsuranceType)
	w.sm(`,"planCoverage":"`, v.PlanCoverage)
	w.sm(`,"timeQualifierCode":"`, v.TimeQualifierCode)
	w.sm(`,"timeQualifier":"`, v.TimeQualifier)
	w.sm(`,"benefitAmount":"`, v.BenefitAmount)
	w.sm(`,"benefitPercent":"`, v.BenefitPercent)
	w.sm(`,"quantityQualifierCode":"`, v.QuantityQualifierCode)
	w.sm(`,"quantityQualifier":"`, v.QuantityQualifier)
	w.sm(`,"benefitQuantity":"`, v.BenefitQuantity)
	w.sm(`,"authOrCertIndicator":"`, v.AuthOrCertIndicator)
	w.sm(`,"inPlanNetworkIndicatorCode":"`, v.InPlanNetworkIndicatorCode)
	w.sm(`,"inPlanNetworkIndicator":"`, v.InPlanNetworkIndicator)
	w.sm(`,"headerLoopIdentifierCode":"`, v.HeaderLoopIdentifierCode)
	w.sm(`,"trailerLoopIdentifierCode":"`, v.TrailerLoopIdentifierCode)
	object(w, "compositeMedicalProcedureIdentifier", v.CompositeMedicalProcedureIdentifier, (*jsonw).compositeMedicalProcedureIdentifier)
	w.strMap("benefitsAdditionalInformation", v.BenefitsAdditionalInformation)
	object(w, "benefitsDateInformation", v.BenefitsDateInformation, (*jsonw).benefitsDateInformation)
	list(w, "benefitsServiceDelivery", v.BenefitsServiceDelivery, (*jsonw).benefitsServiceDelivery)
	list(w, "additionalInformation", v.AdditionalInformation, (*jsonw).additionalInformation)
	object(w, "eligibilityAdditionalInformation", v.EligibilityAdditionalInformation, (*jsonw).eligibilityAdditionalInformation)
	list(w, "eligibilityAdditionalInformationList", v.EligibilityAdditionalInformationList, (*jsonw).eligibilityAdditionalInformation)
	object(w, "benefitsRelatedEntity", v.BenefitsRelatedEntity, (*jsonw).benefitsRelatedEntity)
	list(w, "benefitsRelatedEntities", v.BenefitsRelatedEntities, (*jsonw).benefitsRelatedEntity)
	w.end()
}

func (w *jsonw) aaaError(v *AAAError) {
	w.begin()
	w.sm(`,"field":"`, v.Field)
	w.sm(`,"code":"`, v.Code)
	w.sm(`,"description":"`, v.Description)
	w.sm(`,"followupAction":"`, v.FollowupAction)
	w.sm(`,"location":"`, v.Location)
	w.sm(`,"possibleResolutions":"`, v.PossibleResolutions)
	w.end()
}

func (w *jsonw) warning(v *Warning) {
	w.begin()
	w.sm(`,"code":"`, v.Code)
	w.sm(`,"description":"`, v.Description)
	w.end()
}

func (w *jsonw) address(v *Address) {
	w.begin()
	w.sm(`,"address1":"`, v.Address1)
	w.sm(`,"address2":"`, v.Address2)
	w.sm(`,"city":"`, v.City)
	w.sm(`,"state":"`, v.State)
	w.sm(`,"postalCode":"`, v.PostalCode)
	w.sm(`,"countryCode":"`, v.CountryCode)
	w.sm(`,"countrySubDivisionCode":"`, v.CountrySubDivisionCode)
	w.end()
}

func (w *jsonw) diagnosisCode(v *DiagnosisCode) {
	w.begin()
	w.sm(`,"diagnosisTypeCode":"`, v.DiagnosisTypeCode)
	w.sm(`,"diagnosisCode":"`, v.DiagnosisCode)
	w.end()
}

func (w *jsonw) contactInformation(v *ContactInformation) {
	w.begin()
	w.sm(`,"name":"`, v.Name)
	list(w, "contacts", v.Contacts, (*jsonw).contact)
	w.end()
}

func (w *jsonw) compositeMedicalProcedureIdentifier(v *CompositeMedicalProcedureIdentifier) {
	w.begin()
	w.sm(`,"productOrServiceIDQualifierCode":"`, v.ProductOrServiceIDQualifierCode)
	w.sm(`,"productOrServiceIDQualifier":"`, v.ProductOrServiceIDQualifier)
	w.sm(`,"procedureCode":"`, v.ProcedureCode)
	w.strs("procedureModifiers", v.ProcedureModifiers)
	w.sm(`,"productOrServiceID":"`, v.ProductOrServiceID)
	w.strs("diagnosisCodePointer", v.DiagnosisCodePointer)
	w.end()
}

func (w *jsonw) benefitsServiceDelivery(v *BenefitsServiceDelivery) {
	w.begin()
	w.sm(`,"quantityQualifierCode":"`, v.QuantityQualifierCode)
	w.sm(`,"quantityQualifier":"`, v.QuantityQualifier)
	w.sm(`,"quantity":"`, v.Quantity)
	w.sm(`,"unitForMeasurementQualifierCode":"`, v.UnitForMeasurementQualifierCode)
	w.sm(`,"unitForMeasurementQualifier":"`, v.UnitForMeasurementQualifier)
	w.sm(`,"unitForMeasurementCode":"`, v.UnitForMeasurementCode)
	w.sm(`,"sampleSelectionModulus":"`, v.SampleSelectionModulus)
	w.sm(`,"timePeriodQualifierCode":"`, v.TimePeriodQualifierCode)
	w.sm(`,"timePeriodQualifier":"`, v.TimePeriodQualifier)
	w.sm(`,"numOfPeriods":"`, v.NumOfPeriods)
	w.sm(`,"deliveryOrCalendarPatternQualifierCode":"`, v.DeliveryOrCalendarPatternQualifierCode)
	w.sm(`,"deliveryOrCalendarPatternQualifier":"`, v.DeliveryOrCalendarPatternQualifier)
	w.sm(`,"deliveryOrCalendarPatternCode":"`, v.DeliveryOrCalendarPatternCode)
	w.sm(`,"deliveryPatternTimeQualifierCode":"`, v.DeliveryPatternTimeQualifierCode)
	w.sm(`,"deliveryPatternTimeQualifier":"`, v.DeliveryPatternTimeQualifier)
	w.sm(`,"deliveryPatternTimeCode":"`, v.DeliveryPatternTimeCode)
	w.end()
}

func (w *jsonw) additionalInformation(v *AdditionalInformation) {
	w.begin()
	w.sm(`,"description":"`, v.Description)
	w.end()
}

func (w *jsonw) eligibilityAdditionalInformation(v *EligibilityAdditionalInformation) {
	w.begin()
	w.sm(`,"codeListQualifierCode":"`, v.CodeListQualifierCode)
	w.sm(`,"codeListQualifier":"`, v.CodeListQualifier)
	w.sm(`,"industryCode":"`, v.IndustryCode)
	w.sm(`,"industry":"`, v.Industry)
	w.sm(`,"codeCategory":"`, v.CodeCategory)
	w.sm(`,"injuredBodyPartName":"`, v.InjuredBodyPartName)
	w.end()
}

func (w *jsonw) benefitsRelatedEntity(v *BenefitsRelatedEntity) {
	w.begin()
	w.sm(`,"entityIdentifier":"`, v.EntityIdentifier)
	w.sm(`,"entityType":"`, v.EntityType)
	w.sm(`,"entityName":"`, v.EntityName)
	w.sm(`,"entityFirstname":"`, v.EntityFirstname)
	w.sm(`,"entityMiddlename":"`, v.EntityMiddlename)
	w.sm(`,"entitySuffix":"`, v.EntitySuffix)
	w.sm(`,"entityIdentification":"`, v.EntityIdentification)
	w.sm(`,"entityIdentificationValue":"`, v.EntityIdentificationValue)
	w.sm(`,"entityRelationship":"`, v.EntityRelationship)
	object(w, "address", v.Address, (*jsonw).address)
	object(w, "contactInformation", v.ContactInformation, (*jsonw).contactInformation)
	object(w, "providerInformation", v.ProviderInformation, (*jsonw).providerInformation)
	w.end()
}

func (w *jsonw) contact(v *Contact) {
	w.begin()
	w.sm(`,"communicationMode":"`, v.CommunicationMode)
	w.sm(`,"communicationNumber":"`, v.CommunicationNumber)
	w.end()
}

func (w *jsonw) providerInformation(v *ProviderInformation) {
	w.begin()
	w.sm(`,"providerCode":"`, v.ProviderCode)
	w.sm(`,"referenceIdentification":"`, v.ReferenceIdentification)
	w.end()
}
