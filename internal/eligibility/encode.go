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
	w.str("id", v.ID)
	w.str("eligibilitySearchId", v.EligibilitySearchID)
	w.str("controlNumber", v.ControlNumber)
	w.str("reassociationKey", v.ReassociationKey)
	w.str("tradingPartnerServiceId", v.TradingPartnerServiceID)
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
	w.str("status", v.Status)
	w.str("transactionSetAcknowledgement", v.TransactionSetAcknowledgement)
	w.str("implementationTransactionSetSyntaxError", v.ImplementationTransactionSetSyntaxError)
	w.str("x12", v.X12)
	w.end()
}

func (w *jsonw) meta(v *Meta) {
	w.begin()
	w.str("senderId", v.SenderID)
	w.str("submitterId", v.SubmitterID)
	w.str("billerId", v.BillerID)
	w.str("applicationMode", v.ApplicationMode)
	w.str("traceId", v.TraceID)
	w.str("outboundTraceId", v.OutboundTraceID)
	w.end()
}

func (w *jsonw) responseProvider(v *ResponseProvider) {
	w.begin()
	w.str("providerName", v.ProviderName)
	w.str("providerFirstName", v.ProviderFirstName)
	w.str("middleName", v.MiddleName)
	w.str("suffix", v.Suffix)
	w.str("providerOrgName", v.ProviderOrgName)
	w.str("entityIdentifier", v.EntityIdentifier)
	w.str("entityType", v.EntityType)
	w.str("npi", v.NPI)
	w.str("federalTaxpayersIdNumber", v.FederalTaxpayersIDNumber)
	w.str("payorIdentification", v.PayorIdentification)
	w.str("pharmacyProcessorNumber", v.PharmacyProcessorNumber)
	w.str("serviceProviderNumber", v.ServiceProviderNumber)
	w.str("servicesPlanID", v.ServicesPlanID)
	w.str("ssn", v.SSN)
	w.str("employersId", v.EmployersID)
	object(w, "address", v.Address, (*jsonw).address)
	w.str("providerCode", v.ProviderCode)
	w.str("referenceIdentification", v.ReferenceIdentification)
	list(w, "aaaErrors", v.AAAErrors, (*jsonw).aaaError)
	w.end()
}

func (w *jsonw) responsePerson(v *ResponsePerson) {
	w.begin()
	w.str("memberId", v.MemberID)
	w.str("firstName", v.FirstName)
	w.str("lastName", v.LastName)
	w.str("middleName", v.MiddleName)
	w.str("suffix", v.Suffix)
	w.str("gender", v.Gender)
	w.str("dateOfBirth", v.DateOfBirth)
	w.str("ssn", v.SSN)
	w.str("groupNumber", v.GroupNumber)
	w.str("groupDescription", v.GroupDescription)
	w.str("planNumber", v.PlanNumber)
	w.str("planDescription", v.PlanDescription)
	w.str("planNetworkIdNumber", v.PlanNetworkIDNumber)
	w.str("planNetworkDescription", v.PlanNetworkDescription)
	w.str("relationToSubscriber", v.RelationToSubscriber)
	w.str("relationToSubscriberCode", v.RelationToSubscriberCode)
	w.str("insuredIndicator", v.InsuredIndicator)
	w.str("maintenanceTypeCode", v.MaintenanceTypeCode)
	w.str("maintenanceReasonCode", v.MaintenanceReasonCode)
	w.str("birthSequenceNumber", v.BirthSequenceNumber)
	w.str("uniqueHealthIdentifier", v.UniqueHealthIdentifier)
	w.str("entityIdentifier", v.EntityIdentifier)
	w.str("entityType", v.EntityType)
	object(w, "address", v.Address, (*jsonw).address)
	list(w, "healthCareDiagnosisCodes", v.HealthCareDiagnosisCodes, (*jsonw).diagnosisCode)
	object(w, "responseProvider", v.ResponseProvider, (*jsonw).responseProvider)
	w.str("informationStatusCode", v.InformationStatusCode)
	w.str("employmentStatusCode", v.EmploymentStatusCode)
	w.str("governmentServiceAffiliationCode", v.GovernmentServiceAffiliationCode)
	w.str("description", v.Description)
	w.str("militaryServiceRankCode", v.MilitaryServiceRankCode)
	w.str("dateTimePeriodFormatQualifier", v.DateTimePeriodFormatQualifier)
	w.str("dateTimePeriod", v.DateTimePeriod)
	w.str("startDateTimePeriod", v.StartDateTimePeriod)
	w.str("endDateTimePeriod", v.EndDateTimePeriod)
	list(w, "aaaErrors", v.AAAErrors, (*jsonw).aaaError)
	w.end()
}

func (w *jsonw) traceNumber(v *TraceNumber) {
	w.begin()
	w.str("traceTypeCode", v.TraceTypeCode)
	w.str("traceType", v.TraceType)
	w.str("referenceIdentification", v.ReferenceIdentification)
	w.str("originatingCompanyIdentifier", v.OriginatingCompanyIdentifier)
	w.str("secondaryReferenceIdentification", v.SecondaryReferenceIdentification)
	w.end()
}

func (w *jsonw) responsePayer(v *ResponsePayer) {
	w.begin()
	w.str("name", v.Name)
	w.str("lastName", v.LastName)
	w.str("firstName", v.FirstName)
	w.str("middleName", v.MiddleName)
	w.str("suffix", v.Suffix)
	w.str("entityIdentifier", v.EntityIdentifier)
	w.str("entityType", v.EntityType)
	w.str("payorIdentification", v.PayorIdentification)
	w.str("federalTaxpayersIdNumber", v.FederalTaxpayersIDNumber)
	w.str("naic", v.NAIC)
	w.str("npi", v.NPI)
	w.str("etin", v.ETIN)
	w.str("centersForMedicareAndMedicaidPlanId", v.CentersForMedicareAndMedicaidPlanID)
	w.str("employersId", v.EmployersID)
	object(w, "contactInformation", v.ContactInformation, (*jsonw).contactInformation)
	list(w, "aaaErrors", v.AAAErrors, (*jsonw).aaaError)
	w.end()
}

func (w *jsonw) planStatus(v *PlanStatus) {
	w.begin()
	w.str("statusCode", v.StatusCode)
	w.str("status", v.Status)
	w.str("planDetails", v.PlanDetails)
	w.strs("serviceTypeCodes", v.ServiceTypeCodes)
	w.end()
}

func (w *jsonw) benefitsInformation(v *BenefitsInformation) {
	w.begin()
	w.str("code", v.Code)
	w.str("name", v.Name)
	w.str("coverageLevelCode", v.CoverageLevelCode)
	w.str("coverageLevel", v.CoverageLevel)
	w.strs("serviceTypeCodes", v.ServiceTypeCodes)
	w.strs("serviceTypes", v.ServiceTypes)
	w.str("insuranceTypeCode", v.InsuranceTypeCode)
	w.str("insuranceType", v.InsuranceType)
	w.str("planCoverage", v.PlanCoverage)
	w.str("timeQualifierCode", v.TimeQualifierCode)
	w.str("timeQualifier", v.TimeQualifier)
	w.str("benefitAmount", v.BenefitAmount)
	w.str("benefitPercent", v.BenefitPercent)
	w.str("quantityQualifierCode", v.QuantityQualifierCode)
	w.str("quantityQualifier", v.QuantityQualifier)
	w.str("benefitQuantity", v.BenefitQuantity)
	w.str("authOrCertIndicator", v.AuthOrCertIndicator)
	w.str("inPlanNetworkIndicatorCode", v.InPlanNetworkIndicatorCode)
	w.str("inPlanNetworkIndicator", v.InPlanNetworkIndicator)
	w.str("headerLoopIdentifierCode", v.HeaderLoopIdentifierCode)
	w.str("trailerLoopIdentifierCode", v.TrailerLoopIdentifierCode)
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
	w.str("field", v.Field)
	w.str("code", v.Code)
	w.str("description", v.Description)
	w.str("followupAction", v.FollowupAction)
	w.str("location", v.Location)
	w.str("possibleResolutions", v.PossibleResolutions)
	w.end()
}

func (w *jsonw) warning(v *Warning) {
	w.begin()
	w.str("code", v.Code)
	w.str("description", v.Description)
	w.end()
}

func (w *jsonw) address(v *Address) {
	w.begin()
	w.str("address1", v.Address1)
	w.str("address2", v.Address2)
	w.str("city", v.City)
	w.str("state", v.State)
	w.str("postalCode", v.PostalCode)
	w.str("countryCode", v.CountryCode)
	w.str("countrySubDivisionCode", v.CountrySubDivisionCode)
	w.end()
}

func (w *jsonw) diagnosisCode(v *DiagnosisCode) {
	w.begin()
	w.str("diagnosisTypeCode", v.DiagnosisTypeCode)
	w.str("diagnosisCode", v.DiagnosisCode)
	w.end()
}

func (w *jsonw) contactInformation(v *ContactInformation) {
	w.begin()
	w.str("name", v.Name)
	list(w, "contacts", v.Contacts, (*jsonw).contact)
	w.end()
}

func (w *jsonw) compositeMedicalProcedureIdentifier(v *CompositeMedicalProcedureIdentifier) {
	w.begin()
	w.str("productOrServiceIDQualifierCode", v.ProductOrServiceIDQualifierCode)
	w.str("productOrServiceIDQualifier", v.ProductOrServiceIDQualifier)
	w.str("procedureCode", v.ProcedureCode)
	w.strs("procedureModifiers", v.ProcedureModifiers)
	w.str("productOrServiceID", v.ProductOrServiceID)
	w.strs("diagnosisCodePointer", v.DiagnosisCodePointer)
	w.end()
}

func (w *jsonw) benefitsServiceDelivery(v *BenefitsServiceDelivery) {
	w.begin()
	w.str("quantityQualifierCode", v.QuantityQualifierCode)
	w.str("quantityQualifier", v.QuantityQualifier)
	w.str("quantity", v.Quantity)
	w.str("unitForMeasurementQualifierCode", v.UnitForMeasurementQualifierCode)
	w.str("unitForMeasurementQualifier", v.UnitForMeasurementQualifier)
	w.str("unitForMeasurementCode", v.UnitForMeasurementCode)
	w.str("sampleSelectionModulus", v.SampleSelectionModulus)
	w.str("timePeriodQualifierCode", v.TimePeriodQualifierCode)
	w.str("timePeriodQualifier", v.TimePeriodQualifier)
	w.str("numOfPeriods", v.NumOfPeriods)
	w.str("deliveryOrCalendarPatternQualifierCode", v.DeliveryOrCalendarPatternQualifierCode)
	w.str("deliveryOrCalendarPatternQualifier", v.DeliveryOrCalendarPatternQualifier)
	w.str("deliveryOrCalendarPatternCode", v.DeliveryOrCalendarPatternCode)
	w.str("deliveryPatternTimeQualifierCode", v.DeliveryPatternTimeQualifierCode)
	w.str("deliveryPatternTimeQualifier", v.DeliveryPatternTimeQualifier)
	w.str("deliveryPatternTimeCode", v.DeliveryPatternTimeCode)
	w.end()
}

func (w *jsonw) additionalInformation(v *AdditionalInformation) {
	w.begin()
	w.str("description", v.Description)
	w.end()
}

func (w *jsonw) eligibilityAdditionalInformation(v *EligibilityAdditionalInformation) {
	w.begin()
	w.str("codeListQualifierCode", v.CodeListQualifierCode)
	w.str("codeListQualifier", v.CodeListQualifier)
	w.str("industryCode", v.IndustryCode)
	w.str("industry", v.Industry)
	w.str("codeCategory", v.CodeCategory)
	w.str("injuredBodyPartName", v.InjuredBodyPartName)
	w.end()
}

func (w *jsonw) benefitsRelatedEntity(v *BenefitsRelatedEntity) {
	w.begin()
	w.str("entityIdentifier", v.EntityIdentifier)
	w.str("entityType", v.EntityType)
	w.str("entityName", v.EntityName)
	w.str("entityFirstname", v.EntityFirstname)
	w.str("entityMiddlename", v.EntityMiddlename)
	w.str("entitySuffix", v.EntitySuffix)
	w.str("entityIdentification", v.EntityIdentification)
	w.str("entityIdentificationValue", v.EntityIdentificationValue)
	w.str("entityRelationship", v.EntityRelationship)
	object(w, "address", v.Address, (*jsonw).address)
	object(w, "contactInformation", v.ContactInformation, (*jsonw).contactInformation)
	object(w, "providerInformation", v.ProviderInformation, (*jsonw).providerInformation)
	w.end()
}

func (w *jsonw) contact(v *Contact) {
	w.begin()
	w.str("communicationMode", v.CommunicationMode)
	w.str("communicationNumber", v.CommunicationNumber)
	w.end()
}

func (w *jsonw) providerInformation(v *ProviderInformation) {
	w.begin()
	w.str("providerCode", v.ProviderCode)
	w.str("referenceIdentification", v.ReferenceIdentification)
	w.end()
}
