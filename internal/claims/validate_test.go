package claims

import (
	"errors"
	"strings"
	"testing"
)

// Each rule names the field, says what is wrong and how to fix it; a
// request breaking several rules gets every problem at once.
func TestValidateRules(t *testing.T) {
	tests := []struct {
		name   string
		edit   func(r *Request)
		path   string
		substr string
	}{
		{"npi check digit", func(r *Request) { r.Billing.NPI = "1999999993" }, "/billing/npi", "check digit"},
		{"npi length", func(r *Request) { r.Rendering.NPI = "12345" }, "/rendering/npi", "10-digit"},
		{"ein", func(r *Request) { r.Billing.EmployerID = "12-3456789" }, "/billing/employerId", "9 digits"},
		{"ein or ssn", func(r *Request) { r.Billing.EmployerID = "" }, "/billing/employerId", "tax id is required"},
		{"date exists", func(r *Request) { r.Subscriber.DateOfBirth = "20230230" }, "/subscriber/dateOfBirth", "real date"},
		{"gender", func(r *Request) { r.Subscriber.Gender = "X" }, "/subscriber/gender", "M male"},
		{"relationship", func(r *Request) {
			r.Dependent = &Dependent{FirstName: "A", LastName: "B", DateOfBirth: "20100101", Gender: "F", RelationshipToSubscriberCode: "18",
				Address: &Address{Address1: "1 A St", City: "Austin", State: "TX", PostalCode: "78701"}}
		}, "/dependent/relationshipToSubscriberCode", "19 child"},
		{"place of service", func(r *Request) { r.ClaimInformation.PlaceOfServiceCode = "98" }, "/claimInformation/placeOfServiceCode", "place of service"},
		{"frequency", func(r *Request) { r.ClaimInformation.ClaimFrequencyCode = "2" }, "/claimInformation/claimFrequencyCode", "1 original"},
		{"replacement needs the payer's number", func(r *Request) { r.ClaimInformation.ClaimFrequencyCode = "7" },
			"/claimInformation/claimSupplementalInformation/claimControlNumber", "claimFrequencyCode is 7"},
		{"filing code", func(r *Request) { r.ClaimInformation.ClaimFilingCode = "XX" }, "/claimInformation/claimFilingCode", "CI commercial"},
		{"tooth number", func(r *Request) { r.ClaimInformation.ServiceLines[0].TeethInformation[0].ToothCode = "33" },
			"/claimInformation/serviceLines/0/teethInformation/0/toothCode", "Universal numbering"},
		{"primary tooth U", func(r *Request) { r.ClaimInformation.ToothStatus[0].ToothNumber = "U" },
			"/claimInformation/toothStatus/0/toothNumber", "A–T"},
		{"surface", func(r *Request) {
			r.ClaimInformation.ServiceLines[0].TeethInformation[0].ToothSurfaceCodes = []string{"X"}
		},
			"/claimInformation/serviceLines/0/teethInformation/0/toothSurfaceCodes/0", "O occlusal"},
		{"oral cavity", func(r *Request) {
			r.ClaimInformation.ServiceLines[0].DentalService.OralCavityDesignation = []string{"50"}
		},
			"/claimInformation/serviceLines/0/dentalService/oralCavityDesignation/0", "upper right"},
		{"charge sum", func(r *Request) { r.ClaimInformation.ClaimChargeAmount = "800" }, "/claimInformation/claimChargeAmount", "lines add up to 832"},
		{"amount format", func(r *Request) { r.ClaimInformation.ClaimChargeAmount = "$832" }, "/claimInformation/claimChargeAmount", "two decimals"},
		{"pointer past the diagnoses", func(r *Request) {
			r.ClaimInformation.ServiceLines[0].DentalService.CompositeDiagnosisCodePointers.DiagnosisCodePointers = []string{"2"}
		}, "/claimInformation/serviceLines/0/dentalService/compositeDiagnosisCodePointers/diagnosisCodePointers/0", "holds 1"},
		{"principal diagnosis first", func(r *Request) { r.ClaimInformation.HealthCareCodeInformation[0].DiagnosisTypeCode = "ABF" },
			"/claimInformation/healthCareCodeInformation/0/diagnosisTypeCode", "ABK"},
		{"diagnosis dot", func(r *Request) { r.ClaimInformation.HealthCareCodeInformation[0].DiagnosisCode = "K08.1" },
			"/claimInformation/healthCareCodeInformation/0/diagnosisCode", "without the dot"},
		{"too many lines", func(r *Request) {
			for len(r.ClaimInformation.ServiceLines) <= MaxServiceLines {
				r.ClaimInformation.ServiceLines = append(r.ClaimInformation.ServiceLines, r.ClaimInformation.ServiceLines[0])
			}
		}, "/claimInformation/serviceLines", "at most 50"},
		{"CDT code", func(r *Request) { r.ClaimInformation.ServiceLines[0].DentalService.ProcedureCode = "99213" },
			"/claimInformation/serviceLines/0/dentalService/procedureCode", "CDT"},
		{"replacement prosthesis needs prior date", func(r *Request) {
			r.ClaimInformation.ServiceLines[0].DentalService.ProsthesisCrownOrInlayCode = "R"
		}, "/claimInformation/serviceLines/0/serviceLineDateInformation/priorPlacementDate", "replacement"},
		{"service date", func(r *Request) { r.ClaimInformation.ServiceLines[0].ServiceDate = "" },
			"/claimInformation/serviceLines/0/serviceDate", "date of service"},
		{"delimiter", func(r *Request) { r.Subscriber.LastName = "Doe~Smith" }, "/subscriber/lastName", "delimiter"},
		{"control character", func(r *Request) { r.Submitter.OrganizationName = "ABA\nInc" }, "/submitter/organizationName", "control character"},
		{"non-Latin text", func(r *Request) { r.Subscriber.FirstName = "李" }, "/subscriber/firstName", "X12 cannot carry"},
		{"required submitter", func(r *Request) { r.Submitter = nil }, "/submitter", "is required"},
		{"required member id", func(r *Request) { r.Subscriber.MemberID = "" }, "/subscriber/memberId", "is required"},
		{"billing zip+4", func(r *Request) { r.Billing.Address.PostalCode = "80238" }, "/billing/address/postalCode", "ZIP+4"},
		{"phone", func(r *Request) { r.Submitter.ContactInformation.PhoneNumber = "313-123-4567" },
			"/submitter/contactInformation/phoneNumber", "10 digits"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := loadExample(t)
			tt.edit(r)
			err := Validate(r)
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("Validate = %v, want a *ValidationError", err)
			}
			for _, f := range ve.Fields {
				if f.Path == tt.path && strings.Contains(f.Message, tt.substr) {
					return
				}
			}
			t.Errorf("no error at %s containing %q; got %v", tt.path, tt.substr, ve.Fields)
		})
	}
}

func TestValidateListsEveryProblem(t *testing.T) {
	r := loadExample(t)
	r.Billing.NPI = "1234567890"
	r.Subscriber.DateOfBirth = "19991399"
	r.ClaimInformation.ClaimChargeAmount = "1"
	err := Validate(r)
	var ve *ValidationError
	if !errors.As(err, &ve) || len(ve.Fields) != 3 {
		t.Fatalf("want 3 problems, got %v", err)
	}
}

// TestCharacterSet: claims follow the one X12 character-set rule
// (internal/x12text): diacritics are transliterated, anything else outside
// the set is refused naming the field. Before, claims kept a table of their
// own that also rewrote typographic quotes and turned a no-break space into
// a space, which the rule refuses.
func TestCharacterSet(t *testing.T) {
	for _, tc := range []struct{ in, want, problem string }{
		{"José Muñoz", "Jose Munoz", ""},
		{"Łódź Straße", "Lodz Strasse", ""},
		{"plain", "plain", ""},
		{"O’Brien", "", "U+2019"},
		{"Zoë\u00a0Ann", "", "no-break space"},
		{"Ann\u200b", "", "zero-width"},
		{"Ann 😀", "", "emoji"},
		{"Ann\u0085", "", "control character"},
		{"a*b", "", "delimiter"},
		{"a:b", "", "delimiter"},
		{"a^b", "", "delimiter"},
		{"a~b", "", "delimiter"},
		{"tab\t", "", "control character"},
		{"日本", "", "outside the X12 character set"},
	} {
		r := loadExample(t)
		r.Subscriber.FirstName = tc.in
		err := Validate(r)
		if tc.problem == "" {
			if err != nil || r.Subscriber.FirstName != tc.want {
				t.Errorf("%q: got %q, %v; want %q", tc.in, r.Subscriber.FirstName, err, tc.want)
			}
			continue
		}
		var ve *ValidationError
		if !errors.As(err, &ve) || len(ve.Fields) != 1 || ve.Fields[0].Path != "/subscriber/firstName" ||
			!strings.Contains(ve.Fields[0].Message, tc.problem) {
			t.Errorf("%q: want one problem at /subscriber/firstName naming %q, got %v", tc.in, tc.problem, err)
		}
	}
}

func TestValidTooth(t *testing.T) {
	for _, ok := range []string{"1", "9", "10", "32", "A", "T", "51", "82", "AS", "TS"} {
		if !validTooth(ok) {
			t.Errorf("%s refused", ok)
		}
	}
	for _, bad := range []string{"0", "00", "33", "50", "83", "U", "a", "US", "1S", "100", ""} {
		if validTooth(bad) {
			t.Errorf("%s accepted", bad)
		}
	}
}
