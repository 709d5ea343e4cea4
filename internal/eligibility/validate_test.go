package eligibility

import (
	"errors"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/payers"
)

// validRequest is the contract's minimal UHC mock request.
func validRequest() *Request {
	return &Request{
		TradingPartnerServiceID: "87726",
		Provider:                &Provider{OrganizationName: "Provider Name", NPI: "1999999984"},
		Subscriber:              &Subscriber{MemberID: "UHC202649", Patient: Patient{FirstName: "John", LastName: "Doe"}},
		Dependents:              []Dependent{{Patient: Patient{FirstName: "Jane", LastName: "Doe", DateOfBirth: "19521121"}}},
		Encounter:               &Encounter{ServiceTypeCodes: []string{"30"}},
	}
}

func TestValidMBI(t *testing.T) {
	for _, s := range []string{"1EG4TE5MK73", "1AA2CC3DD45", "9Y99Y99YY99", "1A02A03AA00"} {
		if !ValidMBI(s) {
			t.Errorf("ValidMBI(%s) = false, want true", s)
		}
	}
	for _, s := range []string{
		"0EG4TE5MK73",   // first position 1–9
		"1SG4TE5MK73",   // S excluded
		"1EG4TE5MK7",    // too short
		"1EG-4TE-5MK73", // dashes
		"1eg4te5mk73",   // lowercase
		"CMS12345678",   // the mock's member id is not an MBI
		"123456789A",    // HICN-style
		"1EGATE5MK73",   // position 4 must be a digit
		"1EG4715MK73",   // position 5 must be a letter
	} {
		if ValidMBI(s) {
			t.Errorf("ValidMBI(%q) = true, want false", s)
		}
	}
}

func TestValidateAcceptsMockShapes(t *testing.T) {
	dir := payers.Default()
	lookup := func(id string) *payers.Payer {
		if p, ok := dir.Lookup(id); ok {
			return &p
		}
		return nil
	}
	tests := map[string]*Request{
		"dependent": validRequest(),
		"subscriber only": {
			TradingPartnerServiceID: "60054", Provider: &Provider{OrganizationName: "Provider Name", NPI: "1999999984"},
			Subscriber: &Subscriber{MemberID: "AETNA12345", Patient: Patient{FirstName: "Jane", LastName: "Doe", DateOfBirth: "20040404"}},
		},
		"MBI lookup": {
			TradingPartnerServiceID: "MBILU", Provider: &Provider{OrganizationName: "ACME Health Services", NPI: "1999999984"},
			Subscriber: &Subscriber{Patient: Patient{LastName: "Doe", DateOfBirth: "19000101", SSN: "123456789"}},
		},
		"MBI lookup without SSN": {
			TradingPartnerServiceID: "MBILUNOSSN", Provider: &Provider{OrganizationName: "ACME", NPI: "1999999984"},
			Subscriber: &Subscriber{Patient: Patient{FirstName: "Jane", LastName: "Doe", DateOfBirth: "19000101", Address: &Address{State: "TX"}}},
		},
		"Medicare with MBI": {
			TradingPartnerServiceID: "CMS", Provider: &Provider{OrganizationName: "ACME", NPI: "1999999984"},
			Subscriber: &Subscriber{MemberID: "1EG4TE5MK73", Patient: Patient{FirstName: "Jane", LastName: "Doe", DateOfBirth: "19550505"}},
		},
		"dental individual provider with CDT code": {
			TradingPartnerServiceID: "62308", Provider: &Provider{FirstName: "Ann", LastName: "Smith", NPI: "1999999984"},
			Subscriber: &Subscriber{MemberID: "U9876543210", Patient: Patient{FirstName: "James", LastName: "Doe", DateOfBirth: "19010101"}},
			Encounter:  &Encounter{ProcedureCode: "D0120", ProductOrServiceIDQualifier: "AD"},
		},
		"no encounter (defaults to 30)": {
			TradingPartnerServiceID: "87726", Provider: &Provider{OrganizationName: "P", NPI: "1999999984"},
			Subscriber: &Subscriber{MemberID: "UHC123456"},
		},
	}
	for name, req := range tests {
		t.Run(name, func(t *testing.T) {
			if err := Validate(req, lookup(req.TradingPartnerServiceID)); err != nil {
				t.Fatalf("Validate: %v", err)
			}
		})
	}
}

func TestValidateRejects(t *testing.T) {
	tests := []struct {
		name     string
		payerID  string // directory entry to pass; "" = unknown payer
		mutate   func(r *Request)
		wantPath string
		wantText string // substring of the message
	}{
		{"missing payer", "", func(r *Request) { r.TradingPartnerServiceID = "" }, "/tradingPartnerServiceId", "is required"},
		{"missing provider", "87726", func(r *Request) { r.Provider = nil }, "/provider", "is required"},
		{"provider without name", "87726", func(r *Request) { r.Provider.OrganizationName = "" }, "/provider/organizationName", "provider name is required"},
		{"provider without id", "87726", func(r *Request) { r.Provider.NPI = "" }, "/provider/npi", "provider identifier is required"},
		{"npi wrong length", "87726", func(r *Request) { r.Provider.NPI = "199999998" }, "/provider/npi", "10-digit"},
		{"npi check digit", "87726", func(r *Request) { r.Provider.NPI = "1999999985" }, "/provider/npi", "check digit"},
		{"tax id", "87726", func(r *Request) { r.Provider.TaxID = "12-3456789" }, "/provider/taxId", "9 digits"},
		{"taxonomy without provider code", "87726", func(r *Request) { r.Provider.ReferenceIdentification = "122300000X" }, "/provider/providerCode", "is required"},
		{"bad provider code", "87726", func(r *Request) { r.Provider.ProviderCode = "ZZ" }, "/provider/providerCode", "not a provider code"},
		{"missing subscriber", "87726", func(r *Request) { r.Subscriber = nil }, "/subscriber", "is required"},
		{"subscriber without any search key", "87726", func(r *Request) { r.Subscriber = &Subscriber{Patient: Patient{FirstName: "John"}} }, "/subscriber", "at least one of memberId"},
		{"member id characters", "87726", func(r *Request) { r.Subscriber.MemberID = "UHC#1" }, "/subscriber/memberId", "only letters"},
		{"member id too short", "87726", func(r *Request) { r.Subscriber.MemberID = "U" }, "/subscriber/memberId", "2–80"},
		{"impossible birth date", "87726", func(r *Request) { r.Subscriber.DateOfBirth = "19990230" }, "/subscriber/dateOfBirth", "real date"},
		{"dashed birth date", "87726", func(r *Request) { r.Subscriber.DateOfBirth = "1999-02-03" }, "/subscriber/dateOfBirth", "YYYYMMDD"},
		{"gender", "87726", func(r *Request) { r.Subscriber.Gender = "X" }, "/subscriber/gender", "one of M, F"},
		{"ssn", "87726", func(r *Request) { r.Subscriber.SSN = "123-45-6789" }, "/subscriber/ssn", "9 digits"},
		{"address without city", "87726", func(r *Request) { r.Subscriber.Address = &Address{Address1: "1 Main St"} }, "/subscriber/address/city", "is required"},
		{"zip", "87726", func(r *Request) {
			r.Subscriber.Address = &Address{Address1: "1 Main", City: "Austin", PostalCode: "7870"}
		}, "/subscriber/address/postalCode", "ZIP"},
		{"diagnosis with dot", "87726", func(r *Request) {
			r.Subscriber.HealthCareCodeInformation = []DiagnosisCode{{DiagnosisTypeCode: "ABK", DiagnosisCode: "E11.9"}}
		}, "/subscriber/healthCareCodeInformation/0/diagnosisCode", "without the dot"},
		{"second diagnosis must be ABF", "87726", func(r *Request) {
			r.Subscriber.HealthCareCodeInformation = []DiagnosisCode{{"ABK", "E119"}, {"ABK", "I10"}}
		}, "/subscriber/healthCareCodeInformation/1/diagnosisTypeCode", "must be ABF"},
		{"two dependents", "87726", func(r *Request) { r.Dependents = append(r.Dependents, r.Dependents[0]) }, "/dependents", "at most one"},
		{"empty dependent", "87726", func(r *Request) { r.Dependents = []Dependent{{}} }, "/dependents/0", "firstName, lastName"},
		{"dependent birth date", "87726", func(r *Request) { r.Dependents[0].DateOfBirth = "20011301" }, "/dependents/0/dateOfBirth", "real date"},
		{"relationship", "87726", func(r *Request) { r.Dependents[0].IndividualRelationshipCode = "18" }, "/dependents/0/individualRelationshipCode", "one of 01, 19, 34"},
		{"control number", "87726", func(r *Request) { r.ControlNumber = "12345" }, "/controlNumber", "9 digits"},
		{"unknown service type", "87726", func(r *Request) { r.Encounter.ServiceTypeCodes = []string{"30", "ZZ"} }, "/encounter/serviceTypeCodes/1", "not an X12 005010 service type"},
		{"response-only service type", "87726", func(r *Request) { r.Encounter.ServiceTypeCodes = []string{"V7"} }, "/encounter/serviceTypeCodes/0", "not an X12 005010 service type"},
		{"procedure without qualifier", "87726", func(r *Request) { r.Encounter.ProcedureCode = "D0120" }, "/encounter/productOrServiceIDQualifier", "AD for CDT"},
		{"bad qualifier", "87726", func(r *Request) { r.Encounter.ProcedureCode, r.Encounter.ProductOrServiceIDQualifier = "D0120", "XX" }, "/encounter/productOrServiceIDQualifier", "one of AD"},
		{"pointer", "87726", func(r *Request) {
			r.Encounter.ProcedureCode, r.Encounter.ProductOrServiceIDQualifier = "99213", "CJ"
			r.Encounter.DiagnosisCodePointer = []string{"9"}
		}, "/encounter/diagnosisCodePointer/0", "\"1\" to \"8\""},
		{"medical procedure needs code", "87726", func(r *Request) {
			r.Encounter.MedicalProcedures = []MedicalProcedure{{ProductOrServiceIDQualifier: "CJ"}}
		}, "/encounter/medicalProcedures/0/procedureCode", "is required"},
		{"date and range", "87726", func(r *Request) {
			r.Encounter.DateOfService, r.Encounter.BeginningDateOfService, r.Encounter.EndDateOfService = "20240101", "20240101", "20240102"
		}, "/encounter/dateOfService", "not both"},
		{"range half", "87726", func(r *Request) { r.Encounter.BeginningDateOfService = "20240101" }, "/encounter/endDateOfService", "is required"},
		{"range order", "87726", func(r *Request) {
			r.Encounter.BeginningDateOfService, r.Encounter.EndDateOfService = "20240105", "20240101"
		}, "/encounter/endDateOfService", "must not be before"},
		{"place of service", "87726", func(r *Request) { r.Encounter.IndustryCode = "Office" }, "/encounter/industryCode", "two-digit"},
		{"auth number without qualifier", "87726", func(r *Request) { r.Encounter.PriorAuthorizationOrReferralNumber = "A1" }, "/encounter/referenceIdentificationQualifier", "G1"},
		{"delimiter in data", "87726", func(r *Request) { r.Subscriber.LastName = "DOE*SMITH" }, "/subscriber/lastName", "delimiter"},
		{"delimiter in dependent", "87726", func(r *Request) { r.Dependents[0].FirstName = "JANE~" }, "/dependents/0/firstName", "delimiter"},
		{"control character", "87726", func(r *Request) { r.Provider.OrganizationName = "A\nB" }, "/provider/organizationName", "control character"},
		{"name too long", "87726", func(r *Request) { r.Subscriber.FirstName = strings.Repeat("A", 36) }, "/subscriber/firstName", "1–35"},
		// Medicare and the MBI lookup.
		{"CMS without member id", "CMS", func(r *Request) { r.TradingPartnerServiceID = "CMS"; r.Subscriber.MemberID = ""; r.Dependents = nil }, "/subscriber/memberId", "MBI lookup"},
		{"CMS with a non-MBI", "CMS", func(r *Request) {
			r.TradingPartnerServiceID = "CMS"
			r.Subscriber.MemberID = "CMS12345678"
			r.Dependents = nil
		}, "/subscriber/memberId", "not a Medicare Beneficiary Identifier"},
		{"CMS with dependent", "CMS", func(r *Request) { r.TradingPartnerServiceID = "CMS"; r.Subscriber.MemberID = "1EG4TE5MK73" }, "/dependents", "own MBI"},
		{"MBILU without ssn", "MBILU", func(r *Request) {
			r.TradingPartnerServiceID, r.Dependents = "MBILU", nil
			r.Subscriber = &Subscriber{Patient: Patient{LastName: "Doe", DateOfBirth: "19550505"}}
		}, "/subscriber/ssn", "MBILUNOSSN"},
		{"MBILU without birth date", "MBILU", func(r *Request) {
			r.TradingPartnerServiceID, r.Dependents = "MBILU", nil
			r.Subscriber = &Subscriber{Patient: Patient{LastName: "Doe", SSN: "123456789"}}
		}, "/subscriber/dateOfBirth", "MBI lookup"},
		{"MBILU with member id", "MBILU", func(r *Request) {
			r.TradingPartnerServiceID, r.Dependents = "MBILU", nil
			r.Subscriber = &Subscriber{MemberID: "1EG4TE5MK73", Patient: Patient{LastName: "Doe", DateOfBirth: "19550505", SSN: "123456789"}}
		}, "/subscriber/memberId", "must be empty"},
		{"MBILUNOSSN without state", "MBILUNOSSN", func(r *Request) {
			r.TradingPartnerServiceID, r.Dependents = "MBILUNOSSN", nil
			r.Subscriber = &Subscriber{Patient: Patient{FirstName: "Jane", LastName: "Doe", DateOfBirth: "19550505"}}
		}, "/subscriber/address/state", "is required"},
		{"unknown payer still gets CMS rules by id", "", func(r *Request) { r.TradingPartnerServiceID = "cms"; r.Subscriber.MemberID = "X1"; r.Dependents = nil }, "/subscriber/memberId", "not a Medicare"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := validRequest()
			tt.mutate(req)
			var p *payers.Payer
			if tt.payerID != "" {
				entry, ok := payers.Default().Lookup(tt.payerID)
				if !ok {
					t.Fatalf("payer %s not in the directory", tt.payerID)
				}
				p = &entry
			}
			err := Validate(req, p)
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("Validate = %v, want *ValidationError", err)
			}
			for _, f := range ve.Fields {
				if f.Path == tt.wantPath && strings.Contains(f.Message, tt.wantText) {
					return
				}
			}
			t.Errorf("no field error %s containing %q; got %+v", tt.wantPath, tt.wantText, ve.Fields)
		})
	}
}

func TestValidateReportsEveryProblem(t *testing.T) {
	req := &Request{Provider: &Provider{NPI: "123"}, Subscriber: &Subscriber{Patient: Patient{DateOfBirth: "2001"}}}
	var ve *ValidationError
	if !errors.As(Validate(req, nil), &ve) {
		t.Fatal("want a ValidationError")
	}
	paths := map[string]bool{}
	for _, f := range ve.Fields {
		paths[f.Path] = true
	}
	for _, want := range []string{"/tradingPartnerServiceId", "/provider/organizationName", "/provider/npi", "/subscriber/dateOfBirth"} {
		if !paths[want] {
			t.Errorf("missing %s in %+v", want, ve.Fields)
		}
	}
	if !strings.Contains(ve.Error(), "/provider/npi") {
		t.Errorf("Error() = %q, want the paths listed", ve.Error())
	}
}
