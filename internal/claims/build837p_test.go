package claims

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/clearhouse/clearhouse/internal/testenv"
)

// loadProfessional decodes a professional request from testdata.
func loadProfessional(t testing.TB, name string) *ProfessionalRequest {
	t.Helper()
	b, err := os.ReadFile("testdata/professional/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var r ProfessionalRequest
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

func mustBuildProfessional(t testing.TB, r *ProfessionalRequest, payerID string) *Built {
	t.Helper()
	if err := ValidateProfessional(r); err != nil {
		t.Fatalf("ValidateProfessional: %v", err)
	}
	opts := testOptions()
	opts.PayerID, opts.PayerName = payerID, ""
	b, err := Build837P(r, opts)
	if err != nil {
		t.Fatalf("Build837P: %v", err)
	}
	return b
}

// The contract's professional example request (ClaimsSubmission_example1,
// with the patient control number and submitter id of its raw-X12 sibling)
// maps segment for segment onto the 837P of the contract's raw-X12 example
// (ClaimsRawX12Submission_example1), except where the published X12 leaves
// out what the request sends (see docs/api/professional-claims.md,
// "Mapping and the contract's example"): the submitter contact's name
// (PER02, required in X222A1 1000A), the facility's NPI, and our
// clearinghouse trace REF*D9.
func TestProfessionalExampleMapsSegmentForSegment(t *testing.T) {
	b := mustBuildProfessional(t, loadProfessional(t, "example.json"), "6400")
	published := "BHT*0019*00*01KHCBK84E40QQYJVXA5VVXG54*20260213*2038*CH~NM1*41*2*Test Data Health Services, Inc.*****46*123435~PER*IC**TE*5552223333~NM1*40*2*Cigna*****46*6400~HL*1**20*1~PRV*BI*PXC*2084P0800X~NM1*85*2*Therapy Associates*****XX*1999999984~N3*123 Some St*Floor 1~N4*A City*NY*123450000~REF*EI*123456789~PER*IC*Test Data Health Services, Inc.*TE*5553334444~HL*2*1*22*0~SBR*P*18*3335555******CI~NM1*IL*1*Anon*John****MI*U7777788888~N3*2222 Random St~N4*A City*NY*123450000~DMG*D8*20000101*M~NM1*PR*2*Cigna*****PI*6400~CLM*123456789*109.2***02>B>1*Y*A*Y*Y~HI*ABK>F1111~NM1*77*2*Smith Associates~N3*1234 Other St~N4*A City*NY*123450000~LX*1~SV1*HC>90837>95*109.2*UN*1***1~DTP*472*D8*20240101~REF*6R*111222333"
	want := strings.Split(strings.ReplaceAll(published, ">", ":"), "~")
	want[0] = "BHT*0019*00*01KHCCA4V6K00NFPX588G859SJ*20261123*1405*CH" // our trace and time
	ours := map[int]string{                                             // index in want → what we write instead, and why
		2:  "PER*IC*Test Data Health Services, Inc.*TE*5552223333", // PER02 is required in 1000A; the request names the contact
		20: "NM1*77*2*Smith Associates*****XX*1999999984",          // the request's facility NPI
	}
	for i, s := range ours {
		want[i] = s
	}
	// After CLM: our clearinghouse trace. The line's rendering provider
	// has the billing provider's NPI, so, like the published X12, we send
	// no 2420A (X222A1: only when it differs; "do not send" otherwise).
	want = append(want[:19], append([]string{"REF*D9*01KHCCA4V6K00NFPX588G859SJ"}, want[19:]...)...)
	if diff := cmp.Diff(want, segmentsBetween(b.X12, "BHT", "SE")); diff != "" {
		t.Errorf("837P body (-want +got):\n%s", diff)
	}
	if f := guideFindings(t, b.X12); len(f) > 0 {
		t.Errorf("the 837P does not pass the 005010X222A1 guide:\n%s", strings.Join(f, "\n"))
	}
	testenv.Golden(t, "testdata/golden/professional-example.837p", b.X12)
}

// A professional claim using most objects of the model (dependent, pay-to,
// claim-level referring/rendering/supervising, accident and disability
// dates, attachments, note, facility, COB with line adjudication, a drug
// line with a date range, line rendering and ordering providers) builds an
// 837P that passes the guide.
func TestFullProfessionalPassesTheGuide(t *testing.T) {
	req := loadProfessional(t, "full.json")
	b := mustBuildProfessional(t, req, "87726")
	if f := guideFindings(t, b.X12); len(f) > 0 {
		t.Errorf("the 837P does not pass the guide:\n%s\n%s", strings.Join(f, "\n"), b.X12)
	}
	for _, want := range []string{"~PAT*19~", "~DTP*314*RD8*20241001-20241010~", "~LIN**N4*00409379601~", "~CTP****2*ML~",
		"~DTP*472*RD8*20241002-20241003~", "~NM1*DK*1*Order*Olga****XX*1999999992~", "~SBR*P**GRP100******CI~"} {
		if !strings.Contains(string(b.X12), want) {
			t.Errorf("the 837P lacks %s", want)
		}
	}
	if req.Dependent.FirstName != "Jose" {
		t.Errorf("dependent first name not transliterated: %q", req.Dependent.FirstName)
	}
	testenv.Golden(t, "testdata/golden/professional-full.837p", b.X12)
}

// 2310B and 2420A are sent only when the rendering provider differs from
// who the claim already names (X222A1: "if not required by this
// implementation guide, do not send"): a claim-level rendering provider
// with the billing NPI is dropped; a line's with the claim rendering
// provider's NPI too; another NPI is written.
func TestRenderingProviderOnlyWhenDifferent(t *testing.T) {
	count := func(x []byte) int { return strings.Count(string(x), "~NM1*82*") }
	req := loadProfessional(t, "example.json")
	req.Rendering = &Provider{LastName: "Same", FirstName: "Billing", NPI: req.Billing.NPI}
	if n := count(mustBuildProfessional(t, req, "6400").X12); n != 0 {
		t.Errorf("rendering = billing NPI: %d NM1*82, want 0", n)
	}
	req = loadProfessional(t, "example.json")
	req.ClaimInformation.ServiceLines[0].RenderingProvider.NPI = "1999999976"
	if n := count(mustBuildProfessional(t, req, "6400").X12); n != 1 {
		t.Errorf("line rendering with its own NPI: %d NM1*82, want 1", n)
	}
}

// Line-level ambulance (2400 CR1, CRC*07, QTY*PT, 2420G/H pick-up and
// drop-off), claim and line repricing (HCP) and the contract's object form
// of tradingPartnerSecondaryIdentifiers (2010BB REF*2U, REF*NF), and DME
// (SV5, PWK*CT, CR3, CRC*09), line dates, MEA, CN1, K3, PS1, LQ/FRM,
// hospice CRC*70, CR2, vision and EPSDT CRC, anesthesia and condition HI,
// MOA and the other payer's provider loops (2330D, 2330G): each field
// lands in its X222A1 segment, and the 837P passes the guide.
func TestProfessionalLessCommonDataMapsToItsSegments(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []string
	}{
		{"ambulance.json", []string{
			"~NM1*PR*2*UnitedHealthcare*****PI*87726~REF*2U*UHC01~REF*NF*79413~",
			"~REF*EI*123456789~", // employerIdentificationNumber, employerId's other name
			"~HI*ABK:S72001A~HCP*02*800*100*REPRICER1**********1~NM1*PW*2~N3*9 Elm St~",
			"~SV1*HC:A0427:RH*750*UN*1***1~CR1*LB*180**A*DH*12****Hip fracture, cannot sit~CRC*07*Y*01*04~DTP*472*D8*20241005~QTY*PT*2~",
			"~REF*6R*AMB-L1~HCP*02*650~NM1*PW*2~N3*9 Elm St~N4*Austin*TX*78702~NM1*45*2~N3*1500 Red River St~N4*Austin*TX*78701~LX*2~",
			"~CR1****A*DH*12~CRC*07*Y*01~",
		}},
		{"dme.json", []string{
			"~REF*EI*123456789~REF*1G*A12345~",
			"~REF*D9*01KHCCA4V6K00NFPX588G859SJ~CR2********C**Chronic low back~CRC*E1*Y*L1~CRC*ZZ*N*NU~HI*ABK:J449*ABF:M5416~HI*BP:27447~HI*BG:07*BG:09~SBR*P*18*",
			"~OI***Y*P**Y~MOA*0.8*200*MA01*N130~NM1*IL*1*Breathe*Bo****MI*1EG4TE5MK73~REF*SY*123456789~",
			"~DTP*573*D8*20241020~NM1*82*1~REF*G2*MCR-R1~NM1*85*2~REF*G2*MCR-B1~LX*1~",
			"~SV5*HC:E1390*DA*30*300*2400*4~PWK*CT*FX***AC*CMN-77~PWK*CT*AB~CR3*I*MO*12~CRC*70*N*65~CRC*09*Y*38~DTP*472*RD8*20241001-20241031~DTP*463*D8*20240915~DTP*461*D8*20240910~MEA*OG*HT*70~CN1*02*250~REF*6R*DME-L1~K3*OXYGEN 2L~",
			"~NM1*82*1*Pulmo*Pat****XX*1999999976~REF*G2*UHC-PP1~LQ*UT*48403~FRM*1A****88~FRM*2***20240910~FRM*3*Y~LX*2~",
			"~QTY*FL*2~REF*6R*LINE2~PS1*1999999992*40~NM1*QB*2******XX*1999999992~SE*",
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			b := mustBuildProfessional(t, loadProfessional(t, tc.file), "87726")
			for _, w := range tc.want {
				if !strings.Contains(string(b.X12), w) {
					t.Errorf("the 837P lacks %s", w)
				}
			}
			if f := guideFindings(t, b.X12); len(f) > 0 {
				t.Errorf("the 837P does not pass the guide:\n%s", strings.Join(f, "\n"))
			}
			testenv.Golden(t, "testdata/golden/professional-"+strings.TrimSuffix(tc.file, ".json")+".837p", b.X12)
		})
	}
}

// The deprecated claim-level ordering provider has no 837P loop; it is
// written as each line's 2420E, unless the line names its own — never
// dropped.
func TestClaimOrderingProviderGoesToEachLine(t *testing.T) {
	req := loadProfessional(t, "full.json")
	req.Ordering = &Provider{LastName: "Claim", FirstName: "Level", NPI: "1999999976"}
	x := string(mustBuildProfessional(t, req, "87726").X12)
	if n := strings.Count(x, "~NM1*DK*1*Claim*Level****XX*1999999976~"); n != 1 {
		t.Errorf("claim-level ordering provider on %d lines, want 1 (the line without its own):\n%s", n, x)
	}
	if !strings.Contains(x, "~NM1*DK*1*Order*Olga****XX*1999999992~") {
		t.Errorf("the line's own ordering provider is gone")
	}
	if f := guideFindings(t, []byte(x)); len(f) > 0 {
		t.Errorf("%s", strings.Join(f, "\n"))
	}
}
