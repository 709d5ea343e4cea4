package eligibility

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/testenv"
	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

var buildTime = time.Date(2024, 8, 1, 9, 30, 0, 0, time.UTC)

// inquiries are the request shapes every 270 test builds: one per way a
// check can look (api-contract.md §1.1, §2, §3).
func inquiries() map[string]*Request {
	provider := &Provider{OrganizationName: "Provider Name", NPI: "1999999984"}
	return map[string]*Request{
		"subscriber": {
			TradingPartnerServiceID: "60054", Provider: provider,
			Subscriber: &Subscriber{MemberID: "AETNA12345", Patient: Patient{FirstName: "Jane", LastName: "Doe", DateOfBirth: "20040404", Gender: "F"}},
			Encounter:  &Encounter{ServiceTypeCodes: []string{"30"}, DateOfService: "20240801"},
		},
		"dependent": {
			TradingPartnerServiceID: "87726", Provider: provider,
			Subscriber: &Subscriber{MemberID: "UHC202649", Patient: Patient{FirstName: "John", LastName: "Doe"}},
			Dependents: []Dependent{{Patient: Patient{FirstName: "Jane", LastName: "Doe", DateOfBirth: "19521121"}, IndividualRelationshipCode: "01"}},
			Encounter:  &Encounter{ServiceTypeCodes: []string{"30"}},
		},
		"mbi-lookup": {
			TradingPartnerServiceID: "MBILU", Provider: &Provider{OrganizationName: "ACME Health Services", NPI: "1999999984"},
			Subscriber: &Subscriber{Patient: Patient{FirstName: "Jane", LastName: "Doe", DateOfBirth: "19550505", SSN: "123456789"}},
			Encounter:  &Encounter{ServiceTypeCodes: []string{"30"}},
		},
		"dental": {
			TradingPartnerServiceID: "62308", Provider: &Provider{FirstName: "Ann", LastName: "Smith", NPI: "1999999984",
				ProviderCode: "PE", ReferenceIdentification: "1223G0001X"},
			Subscriber: &Subscriber{MemberID: "U9876543210", Patient: Patient{GroupNumber: "G1", FirstName: "James", LastName: "Doe", DateOfBirth: "19010101"}},
			Encounter: &Encounter{ServiceTypeCodes: []string{"35", "23"}, ProcedureCode: "D0120", ProductOrServiceIDQualifier: "AD",
				MedicalProcedures:      []MedicalProcedure{{ProcedureCode: "D1110", ProductOrServiceIDQualifier: "AD"}},
				BeginningDateOfService: "20240801", EndDateOfService: "20240831", IndustryCode: "11"},
		},
		"mbi-lookup-no-ssn": {
			TradingPartnerServiceID: "MBILUNOSSN", Provider: provider,
			Subscriber: &Subscriber{Patient: Patient{FirstName: "Jane", LastName: "Doe", DateOfBirth: "19550505", Address: &Address{State: "TX"}}},
		},
	}
}

func build(t testing.TB, name string, req *Request, test bool) *Built270 {
	t.Helper()
	p, ok := payers.Default().Lookup(req.TradingPartnerServiceID)
	if !ok {
		t.Fatalf("%s: payer %s not in the directory", name, req.TradingPartnerServiceID)
	}
	if err := Validate(req, &p); err != nil {
		t.Fatalf("%s: request invalid: %v", name, err)
	}
	b, err := Build270(req, p, Build270Options{
		Numbers: &x12.SequentialControlNumbers{Interchange: 41, Group: 6, Transaction: 0},
		TraceID: "01J0TRACE" + strings.ToUpper(strings.ReplaceAll(name, "-", "")), Now: buildTime, Test: test,
	})
	if err != nil {
		t.Fatalf("%s: Build270: %v", name, err)
	}
	return b
}

func TestBuild270Golden(t *testing.T) {
	for name, req := range inquiries() {
		t.Run(name, func(t *testing.T) {
			b := build(t, name, req, true)
			got := bytes.ReplaceAll(b.X12, []byte("~"), []byte("~\n"))
			testenv.Golden(t, filepath.Join("testdata", "golden", "270_"+name+".x12"), got)
		})
	}
}

// TestBuild270Envelope runs every 270 we build through the x12 envelope
// validator: counts, control numbers, ISA layout and segment syntax.
func TestBuild270Envelope(t *testing.T) {
	for name, req := range inquiries() {
		for _, test := range []bool{true, false} {
			b := build(t, name, req, test)
			rep, err := x12.Validate(bytes.NewReader(b.X12), x12.ValidateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range rep.All() {
				t.Errorf("%s: %s", name, f)
			}
			if len(rep.Interchanges) != 1 {
				t.Fatalf("%s: %d interchanges", name, len(rep.Interchanges))
			}
			ic := rep.Interchanges[0]
			wantUsage := map[bool]string{true: "T", false: "P"}[test]
			if ic.Usage != wantUsage || ic.ControlNumber != "000000042" || ic.ControlNumber != b.Controls.Interchange {
				t.Errorf("%s: ISA15 %q ISA13 %q, controls %+v", name, ic.Usage, ic.ControlNumber, b.Controls)
			}
			g := ic.Groups[0]
			if g.FunctionalID != "HS" || g.Version != Version270 || g.Sets[0].ImplementationRef != Version270 {
				t.Errorf("%s: GS01 %s GS08 %s ST03 %s", name, g.FunctionalID, g.Version, g.Sets[0].ImplementationRef)
			}
		}
	}
}

// TestBuild270Structure reads our 270s back and checks the loops the
// contract's skeleton prescribes.
func TestBuild270Structure(t *testing.T) {
	reqs := inquiries()
	segs := func(name string) []string {
		b := build(t, name, reqs[name], true)
		var out []string
		rd := x12.NewReader(bytes.NewReader(b.X12))
		for {
			s, err := rd.Next()
			if err != nil {
				break
			}
			out = append(out, s.String())
		}
		return out
	}
	has := func(t *testing.T, got []string, want ...string) {
		t.Helper()
		i := 0
		for _, s := range got {
			if i < len(want) && s == want[i] {
				i++
			}
		}
		if i < len(want) {
			t.Errorf("missing (in order) %q in\n%s", want[i], strings.Join(got, "\n"))
		}
	}
	t.Run("subscriber", func(t *testing.T) {
		has(t, segs("subscriber"),
			"BHT*0022*13*01J0TRACESUBSCRIBER*20240801*0930",
			"HL*1**20*1", "NM1*PR*2*Aetna*****PI*60054",
			"HL*2*1*21*1", "NM1*1P*2*Provider Name*****XX*1999999984",
			"HL*3*2*22*0", "TRN*1*01J0TRACESUBSCRIBER*9CLEARHOUS",
			"NM1*IL*1*Doe*Jane****MI*AETNA12345", "DMG*D8*20040404*F", "DTP*291*D8*20240801", "EQ*30")
	})
	t.Run("dependent", func(t *testing.T) {
		got := segs("dependent")
		has(t, got, "HL*3*2*22*1", "NM1*IL*1*Doe*John****MI*UHC202649",
			"HL*4*3*23*0", "TRN*1*01J0TRACEDEPENDENT*9CLEARHOUS", "NM1*03*1*Doe*Jane",
			"DMG*D8*19521121", "INS*N*01", "EQ*30")
		for _, s := range got[:8] {
			if strings.HasPrefix(s, "TRN") {
				t.Error("the trace goes with the patient (2000D), not the subscriber")
			}
		}
	})
	t.Run("mbi-lookup", func(t *testing.T) {
		has(t, segs("mbi-lookup"), "NM1*PR*2*CMS MBI Lookup*****PI*MBILU", "NM1*IL*1*Doe*Jane", "REF*SY*123456789", "DMG*D8*19550505", "EQ*30")
	})
	t.Run("dental", func(t *testing.T) {
		has(t, segs("dental"), "NM1*1P*1*Smith*Ann****XX*1999999984", "PRV*PE*PXC*1223G0001X",
			"REF*6P*G1", "DTP*291*RD8*20240801-20240831", "EQ*35^23*AD:D0120", "III*ZZ*11", "EQ**AD:D1110")
	})
	t.Run("mbi-lookup-no-ssn", func(t *testing.T) {
		has(t, segs("mbi-lookup-no-ssn"), "N4*DUMMY*TX", "EQ*30")
	})
}

func TestBuild270Errors(t *testing.T) {
	p, _ := payers.Default().Lookup("87726")
	if _, err := Build270(&Request{}, p, Build270Options{Numbers: &x12.SequentialControlNumbers{}}); err == nil {
		t.Error("a request without provider and subscriber must not build")
	}
	req := inquiries()["subscriber"]
	if _, err := Build270(req, p, Build270Options{}); err == nil {
		t.Error("building without a control number source must fail")
	}
	// Validation keeps delimiters out; the writer is the backstop.
	bad := *req
	bad.TradingPartnerName = "A*B"
	if _, err := Build270(&bad, p, Build270Options{Numbers: &x12.SequentialControlNumbers{}}); err == nil {
		t.Error("a delimiter in data must fail the build")
	}
}

// TestBuild270PassesGuide validates every 270 we build against the
// 005010X279A1 implementation guide (package x12/guide): loops, segment
// usage and repeats, element types, lengths and code values, NPI rules.
func TestBuild270PassesGuide(t *testing.T) {
	for name, req := range inquiries() {
		b := build(t, name, req, true)
		rep, err := guide.Validate(bytes.NewReader(b.X12), guide.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range rep.All() {
			t.Errorf("%s: %s", name, f)
		}
	}
}

// TestGuideCatchesBrokenInquiry is the control for TestBuild270PassesGuide:
// the validator must flag a 270 we broke on purpose.
func TestGuideCatchesBrokenInquiry(t *testing.T) {
	b := build(t, "subscriber", inquiries()["subscriber"], true)
	broken := bytes.Replace(b.X12, []byte("DMG*D8*20040404*F~"), []byte("DMG*D8*2004-04-04*X~"), 1)
	rep, err := guide.Validate(bytes.NewReader(broken), guide.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.All()) == 0 {
		t.Error("a DMG with a malformed date and gender passed the guide")
	}
}
