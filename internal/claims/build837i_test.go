package claims

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/clearhouse/clearhouse/internal/testenv"
)

func loadInstitutional(t testing.TB, name string) *InstitutionalRequest {
	t.Helper()
	b, err := os.ReadFile("testdata/institutional/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var r InstitutionalRequest
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

func mustBuildInstitutional(t testing.TB, r *InstitutionalRequest, payerID string) *Built {
	t.Helper()
	if err := ValidateInstitutional(r); err != nil {
		t.Fatalf("ValidateInstitutional: %v", err)
	}
	opts := testOptions()
	opts.PayerID, opts.PayerName = payerID, ""
	b, err := Build837I(r, opts)
	if err != nil {
		t.Fatalf("Build837I: %v", err)
	}
	return b
}

// The contract's institutional example request
// (InstitutionalClaimsSubmission_example1, with its raw sibling's patient
// control number) maps segment for segment onto the published raw 837I
// (InstitutionalClaimsRawX12Submission_example1), except: the billing
// provider's contact (PER, sent in the request, absent from the published
// X12) and our clearinghouse trace REF*D9. The published X12 is labelled
// 005010X223A2; we write the current 005010X223A3 (GS08, ST03).
func TestInstitutionalExampleMapsSegmentForSegment(t *testing.T) {
	b := mustBuildInstitutional(t, loadInstitutional(t, "example.json"), "87726")
	published := "BHT*0019*00*01KHC9KCMYMA7YSW4K1ZM774ZA*20260213*2003*CH~NM1*41*2*Test Facility*****46*123456789~PER*IC**TE*2225551234~NM1*40*2*UnitedHealthcare*****46*87726~HL*1**20*1~NM1*85*2*Test Facility*****XX*1999999976~N3*123 Mulberry Street~N4*Seattle*WA*111135272~REF*EI*123456789~HL*2*1*22*0~SBR*P*18*******ZZ~NM1*IL*1*DOE*JANE****MI*98765~N3*1234 Some St~N4*Buckeye*AZ*85326~DMG*D8*19000101*F~NM1*PR*2*UnitedHealthcare*****PI*87726~CLM*55556666777888*500***11>A>0**C*Y*Y~DTP*434*RD8*20241015-20241015~DTP*435*DT*202409091000~CL1*3*9*30~HI*ABK>R45851~NM1*71*1*Provider*Doctor****XX*1999999976~LX*1~SV2*0800*HC>H0001*500*UN*1~DTP*472*RD8*20241015-20241015~REF*6R*111222333"
	want := strings.Split(strings.ReplaceAll(published, ">", ":"), "~")
	want[0] = "BHT*0019*00*01KHCCA4V6K00NFPX588G859SJ*20261123*1405*CH" // our trace and time
	want[2] = "PER*IC*Test Facility*TE*2225551234"                      // PER02 is required in 1000A; the request names the contact
	// After the billing provider's REF*EI: its contact, which the request
	// sends. After CL1: our clearinghouse trace.
	want = append(want[:9], append([]string{"PER*IC*Test Facility*TE*2065551234"}, want[9:]...)...)
	cl1 := 0
	for i, s := range want {
		if strings.HasPrefix(s, "CL1*") {
			cl1 = i
		}
	}
	want = append(want[:cl1+1], append([]string{"REF*D9*01KHCCA4V6K00NFPX588G859SJ"}, want[cl1+1:]...)...)
	if diff := cmp.Diff(want, segmentsBetween(b.X12, "BHT", "SE")); diff != "" {
		t.Errorf("837I body (-want +got):\n%s", diff)
	}
	if f := guideFindings(t, b.X12); len(f) > 0 {
		t.Errorf("the 837I does not pass the 005010X223A3 guide:\n%s", strings.Join(f, "\n"))
	}
	testenv.Golden(t, "testdata/golden/institutional-example.837i", b.X12)
}

// An inpatient claim using most of the institutional model (attending,
// operating and referring providers, CL1, admission and discharge hours,
// every HI code set, supplemental references, a room-and-board line in
// days, a surgery line with a CPT code, a drug line) builds an 837I that
// passes the guide.
func TestFullInstitutionalPassesTheGuide(t *testing.T) {
	b := mustBuildInstitutional(t, loadInstitutional(t, "full.json"), "87726")
	if f := guideFindings(t, b.X12); len(f) > 0 {
		t.Errorf("the 837I does not pass the guide:\n%s\n%s", strings.Join(f, "\n"), b.X12)
	}
	for _, want := range []string{"~DTP*096*TM*1400~", "~DTP*435*DT*202410010830~", "~CL1*1*7*01~", "~HI*ABK:K3580:::::::Y~",
		"~HI*BBR:0DTJ4ZZ:D8:20241001~", "~HI*BE:80:::3~", "~NM1*71*1*Attend*Alan****XX*1999999984~", "~SV2*0120**8000*DA*3~"} {
		if !strings.Contains(string(b.X12), want) {
			t.Errorf("the 837I lacks %s", want)
		}
	}
	testenv.Golden(t, "testdata/golden/institutional-full.837i", b.X12)
}

// 2310D is sent only when the rendering provider is not the attending one,
// 2420C only when a line's rendering provider is not the claim's.
func TestInstitutionalRenderingOnlyWhenDifferent(t *testing.T) {
	count := func(x []byte) int { return strings.Count(string(x), "~NM1*82*") }
	req := loadInstitutional(t, "full.json")
	req.Rendering = &Provider{LastName: "Attend", FirstName: "Alan", NPI: req.Attending.NPI}
	req.ClaimInformation.ServiceLines[1].RenderingProvider = &Provider{LastName: "Attend", FirstName: "Alan", NPI: req.Attending.NPI}
	if n := count(mustBuildInstitutional(t, req, "87726").X12); n != 0 {
		t.Errorf("rendering = attending: %d NM1*82, want 0", n)
	}
	req.ClaimInformation.ServiceLines[1].RenderingProvider.NPI = "1999999976"
	if n := count(mustBuildInstitutional(t, req, "87726").X12); n != 1 {
		t.Errorf("a line's own rendering provider: %d NM1*82, want 1", n)
	}
}
