package eligibility

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/testenv"
)

// corpus271s lists every 271 of the shared corpus: the 271 folder and the
// 271s among the invalid files.
func corpus271s(t testing.TB) []string {
	dir := testenv.CorpusDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "271", "*"))
	if err != nil {
		t.Fatal(err)
	}
	invalid, err := filepath.Glob(filepath.Join(dir, "invalid", "271*"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, invalid...)
	if len(files) == 0 {
		t.Fatalf("no 271 files under %s", dir)
	}
	return files
}

// TestMap271Corpus maps every corpus 271 and checks the invariants the
// contract promises whatever the payer sent.
func TestMap271Corpus(t *testing.T) {
	for _, path := range corpus271s(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Map271(data)
			if err != nil {
				t.Fatalf("Map271: %v", err)
			}
			checkResponseInvariants(t, r)
			if r.Payer == nil || (r.Payer.Name == "" && r.Payer.LastName == "") {
				t.Error("no payer name mapped")
			}
			if r.Subscriber == nil && len(r.Errors) == 0 {
				t.Error("neither a subscriber nor an AAA error mapped")
			}
			if r.Meta == nil || r.Meta.ApplicationMode == "" && r.ControlNumber != "" {
				t.Error("ISA15 not mapped to meta.applicationMode")
			}
		})
	}
}

func checkResponseInvariants(t *testing.T, r *Response) {
	t.Helper()
	if r.Errors == nil {
		t.Error("errors must be [] rather than absent")
	}
	for i, b := range r.BenefitsInformation {
		if b.Code == "" || b.Name == "" {
			t.Errorf("benefit %d has no code/name: %+v", i, b)
		}
		if len(b.ServiceTypes) != len(b.ServiceTypeCodes) {
			t.Errorf("benefit %d: serviceTypes and serviceTypeCodes are not parallel", i)
		}
		if strings.HasPrefix(b.BenefitPercent, ".") || strings.HasPrefix(b.BenefitAmount, ".") {
			t.Errorf("benefit %d: decimal without leading zero", i)
		}
	}
	for _, e := range r.Errors {
		if e.Field != "AAA" || e.Code == "" || e.Description == "" || !strings.HasPrefix(e.Location, "Loop ") {
			t.Errorf("incomplete AAA error %+v", e)
		}
	}
	if _, err := json.Marshal(r); err != nil {
		t.Errorf("response does not marshal: %v", err)
	}
}

// TestMap271Golden pins the complete JSON of a few 271s. Only permissively
// licensed samples are used for goldens (see corpus/SOURCES.md).
func TestMap271Golden(t *testing.T) {
	dir := testenv.CorpusDir(t)
	for _, name := range []string{
		"271/5010_lfh_subscriber-benefits.x12",
		"271/5010_lfh_subscriber-AAA-reject.x12",
		"271/5010_x12org_ex1b_subscriber-response_ST-SE-only.edi",
		"271/5010_x12org_ex1c_AAA-50-provider-ineligible_ST-SE-only.edi",
		"271/5010_x12org_ex2b_dependent-response_ST-SE-only.edi",
		"invalid/271_ims_mixed-4010-envelope-5010-body.txt",
	} {
		t.Run(filepath.Base(name), func(t *testing.T) {
			if !testenv.CorpusHas(dir, name) {
				t.Skip("withheld from the vendored corpus (x12/testdata/corpus/README.md)")
			}
			data, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			r, err := Map271(data)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, filepath.Base(name)+".json", r)
		})
	}
}

// checkGolden compares v's indented JSON with testdata/golden/name, or
// rewrites the file under -update.
func checkGolden(t *testing.T, name string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	testenv.Golden(t, filepath.Join("testdata", "golden", name), got)
}

func TestMap271Details(t *testing.T) {
	// A 271 that exercises the sub-objects the corpus lacks: HSD, REF and
	// DTP at benefit level, III, MSG, EB13 procedures, percents, PER on the
	// payer and in a 2120 loop, INS maintenance codes and a 999.
	const x = "ISA*00*          *00*          *ZZ*PAYER          *ZZ*CLEARHOUSE     *240801*1200*^*00501*345459952*0*T*:~" +
		"GS*HB*PAYER*CLEARHOUSE*20240801*1200*1*X*005010X279A1~ST*271*0001*005010X279A1~" +
		"BHT*0022*11*TRACE1*20240801*1200~HL*1**20*1~NM1*PR*2*UNITEDHEALTHCARE*****PI*87726~" +
		"PER*IC**UR*WWW.UHCPROVIDER.COM*TE*8008771234~HL*2*1*21*1~NM1*1P*2*PROVIDER NAME*****XX*1999999984~" +
		"HL*3*2*22*1~NM1*IL*1*DOE*JOHN*A***MI*UHC202649~REF*6P*186084*GROUP ONE~REF*18*UVdQAC5j6f~" +
		"DMG*D8*19760214*M~DTP*291*RD8*20240101-20241231~" +
		"HL*4*3*23*0~NM1*03*1*DOE*JANE*ALEX~REF*18*UVdQAC5j6f~DMG*D8*19521121*F~INS*N*01*001*25~DTP*346*D8*20240101~" +
		"EB*C*FAM*30***23*3200*****Y~MSG*DEDUCTIBLE IS MET WHEN FAMILY AMOUNT IS SATISFIED~" +
		"EB*A*IND*A6***27**.2****Y~III*ZZ*11~" +
		"EB*F*IND*35***23***VS*2***AD:D0120:XX:::::D0150*1:2~HSD*VS*2***23*1*7*A~REF*NQ*MCD1~DTP*435*D8*20240102~DTP*435*D8*20240305~" +
		"EB*1**30^35*C1*CHOICE PLUS*******W~DTP*636*D8*20240731~LS*2120~NM1*PR*2*UNITEDHEALTHCARE*****PI*87726~" +
		"N3*PO BOX 1~N4*SALT LAKE CITY*UT*84130~PER*IC**TE*8008771234*EX*12~PRV*PE*PXC*207Q00000X~LE*2120~" +
		"EB*1**30~AAA*N**57*C~" +
		"SE*32*0001~GE*1*1~IEA*1*345459952~"
	r, err := Map271([]byte(x))
	if err != nil {
		t.Fatal(err)
	}
	checkResponseInvariants(t, r)
	checkGolden(t, "details.json", r)

	if r.ControlNumber != "345459952" || r.ReassociationKey != "345459952" || r.Meta.ApplicationMode != "test" {
		t.Errorf("envelope: %+v %+v", r.ControlNumber, r.Meta)
	}
	if got := r.PlanDateInformation; got["planBegin"] != "20240101" || got["plan"] != "" {
		t.Errorf("dependent dates must replace the subscriber's: %v", got)
	}
	if got := r.PlanInformation; got["groupNumber"] != "186084" || got["groupDescription"] != "GROUP ONE" || got["planNumber"] != "UVdQAC5j6f" {
		t.Errorf("planInformation: %v", got)
	}
	coins := r.BenefitsInformation[1]
	if coins.BenefitPercent != "0.2" || coins.EligibilityAdditionalInformation == nil || coins.EligibilityAdditionalInformation.Industry != "Office" {
		t.Errorf("coinsurance: %+v", coins)
	}
	lim := r.BenefitsInformation[2]
	if p := lim.CompositeMedicalProcedureIdentifier; p == nil || p.ProcedureCode != "D0120" || p.ProductOrServiceID != "D0150" ||
		p.ProductOrServiceIDQualifier != "American Dental Association Codes" || strings.Join(p.DiagnosisCodePointer, ",") != "1,2" {
		t.Errorf("procedure: %+v", lim.CompositeMedicalProcedureIdentifier)
	}
	if d := lim.BenefitsDateInformation; d == nil || len(d.Admissions) != 2 || d.Dates["admission"] != "" {
		t.Errorf("two admissions must become a list: %+v", lim.BenefitsDateInformation)
	}
	if lim.BenefitsAdditionalInformation["medicaidRecipientIdNumber"] != "MCD1" {
		t.Errorf("benefit REF: %v", lim.BenefitsAdditionalInformation)
	}
	if r.Errors[0].Location != "Loop 2110D" || r.Errors[0].Code != "57" {
		t.Errorf("2110D AAA: %+v", r.Errors)
	}
	if len(r.PlanStatus) != 2 || r.PlanStatus[0].PlanDetails != "CHOICE PLUS" {
		t.Errorf("planStatus: %+v", r.PlanStatus)
	}
}

func TestMap271Placement(t *testing.T) {
	// The same dependent check answered the two ways payers do.
	const head = "ST*271*0001*005010X279A1~BHT*0022*11*T*20240801*1200~HL*1**20*1~NM1*PR*2*BCBS TX*****PI*G84980~" +
		"HL*2*1*21*1~NM1*1P*2*P*****XX*1999999984~"
	asDependent := head + "HL*3*2*22*1~NM1*IL*1*DOE*JOHN****MI*A2CBCBSTX123~HL*4*3*23*0~NM1*03*1*DOE*JANE~DMG*D8*20150101*F~INS*N*19~EB*1**30~SE*12*0001~"
	asSubscriber := head + "HL*3*2*22*0~NM1*IL*1*DOE*JANE****MI*A2CBCBSTX123~DMG*D8*20150101*F~EB*1**30~SE*10*0001~"

	r, err := Map271([]byte(asDependent))
	if err != nil {
		t.Fatal(err)
	}
	if r.Subscriber.FirstName != "JOHN" || len(r.Dependents) != 1 || r.Dependents[0].FirstName != "JANE" {
		t.Errorf("2000D answer: subscriber %+v dependents %+v", r.Subscriber, r.Dependents)
	}
	r, err = Map271([]byte(asSubscriber))
	if err != nil {
		t.Fatal(err)
	}
	if r.Subscriber.FirstName != "JANE" || r.Subscriber.DateOfBirth != "20150101" || r.Dependents != nil {
		t.Errorf("2100C answer: subscriber %+v dependents %+v", r.Subscriber, r.Dependents)
	}
	b, _ := json.Marshal(r)
	if bytes.Contains(b, []byte(`"dependents"`)) {
		t.Errorf("a subscriber-placed answer must have no dependents array: %s", b)
	}
}

func TestMap271Unusual(t *testing.T) {
	tests := []struct {
		name, x12 string
		wantErr   bool
		check     func(t *testing.T, r *Response)
	}{
		{name: "not X12", x12: "hello", wantErr: true},
		{name: "a 270", x12: "ST*270*0001*005010X279A1~BHT*0022*13*1*20240101*1200~SE*3*0001~", wantErr: true},
		{name: "999 rejection", x12: "ST*999*0001*005010X231A1~AK1*HS*1*005010X279A1~AK2*270*0001*005010X279A1~IK5*R*5~AK9*R*1*1*0~SE*6*0001~",
			check: func(t *testing.T, r *Response) {
				if r.TransactionSetAcknowledgement != "R" || r.ImplementationTransactionSetSyntaxError != "5" {
					t.Errorf("999: %+v", r)
				}
			}},
		{name: "two subscribers", x12: "ST*271*1*005010X279A1~BHT*0022*11*T*20240801*1200~HL*1**20*1~NM1*PR*2*P*****PI*1~" +
			"HL*2*1*21*1~NM1*1P*2*X*****XX*1999999984~HL*3*2*22*0~NM1*IL*1*A~EB*1~HL*4*2*22*0~NM1*IL*1*B~EB*6~SE*1*1~",
			check: func(t *testing.T, r *Response) {
				if r.Subscriber.LastName != "A" || len(r.BenefitsInformation) != 1 || len(r.Warnings) != 1 {
					t.Errorf("second subscriber must be left out with a warning: %+v", r)
				}
			}},
		{name: "truncated", x12: "ST*271*1*005010X279A1~BHT*0022*11*T*20240801*1200~HL*1**20*1~NM1*PR*2*P*****PI*1~HL*2*1*21",
			check: func(t *testing.T, r *Response) {
				if r.Payer == nil || r.Payer.Name != "P" {
					t.Errorf("what was read must be kept: %+v", r)
				}
			}},
		{name: "segments before any HL", x12: "ST*271*1~EB*1~NM1*IL*1*A~AAA*N**42*R~DMG*D8*1~SE*1*1~",
			check: func(t *testing.T, r *Response) {
				if len(r.Errors) != 1 || r.Errors[0].Location != "Loop Header" {
					t.Errorf("AAA outside loops: %+v", r.Errors)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Map271([]byte(tt.x12))
			if tt.wantErr {
				if err == nil {
					t.Fatalf("want an error, got %+v", r)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			checkResponseInvariants(t, r)
			tt.check(t, r)
		})
	}
}

// FuzzMap271 checks that no input makes the mapper panic and that what it
// returns always marshals.
func FuzzMap271(f *testing.F) {
	for _, path := range corpus271s(f) {
		if data, err := os.ReadFile(path); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Map271(data)
		if err != nil {
			return
		}
		if _, err := json.Marshal(r); err != nil {
			t.Fatal(err)
		}
	})
}

// TestMap271SlicesAreTheCopies holds map271's strings, which are slices of
// the answer's text where the bytes are found there, to what copies of
// each element give (text "": nothing is found, everything is copied):
// every corpus 271 as it is, behind a byte-order mark, hard-wrapped (a line
// break after every 60 bytes: the reader removes them, so the elements are
// no longer where the segment's offset says), with CRLF after each
// terminator, and in UTF-16.
func TestMap271SlicesAreTheCopies(t *testing.T) {
	wrap := func(b []byte) []byte {
		var out []byte
		for len(b) > 60 {
			out = append(append(out, b[:60]...), '\n')
			b = b[60:]
		}
		return append(out, b...)
	}
	utf16 := func(b []byte) []byte {
		out := []byte{0xFF, 0xFE}
		for _, c := range b {
			out = append(out, c, 0)
		}
		return out
	}
	variants := []struct {
		name string
		f    func([]byte) []byte
	}{
		{"as sent", func(b []byte) []byte { return b }},
		{"BOM", func(b []byte) []byte { return append([]byte("\xEF\xBB\xBF"), b...) }},
		{"hard-wrapped", wrap},
		{"CRLF", func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("~"), []byte("~\r\n")) }},
		{"UTF-16", utf16},
	}
	for _, path := range corpus271s(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range variants {
			t.Run(filepath.Base(path)+"/"+v.name, func(t *testing.T) {
				in := v.f(data)
				got, gotErr := map271(in, string(in))
				want, wantErr := map271(in, "")
				if (gotErr == nil) != (wantErr == nil) {
					t.Fatalf("errors differ: %v, %v", gotErr, wantErr)
				}
				g, _ := json.Marshal(got)
				w, _ := json.Marshal(want)
				if !bytes.Equal(g, w) {
					t.Errorf("mapped with slices of the text:\n%s\nwith copies:\n%s", g, w)
				}
			})
		}
	}
}
