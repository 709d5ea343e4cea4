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
