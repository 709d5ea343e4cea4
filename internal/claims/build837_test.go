package claims

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/clearhouse/clearhouse/internal/testenv"
)

// The public example request maps segment for segment onto the 837D the
// hosted API shows for it (its raw-X12 example), envelope and our own
// trace aside: CLM with POS:B:frequency, DN2, REF*G1, HI ABK, 2310B,
// SV3 with the oral cavity composite, prosthesis, count and pointer, TOO
// with surfaces, DTP*472, REF*6R, 2420A.
func TestExampleMapsSegmentForSegment(t *testing.T) {
	b := mustBuild(t, loadExample(t))
	want := []string{
		"BHT*0019*00*01KHCCA4V6K00NFPX588G859SJ*20261123*1405*CH",
		"NM1*41*2*ABA Inc*****46*1234567",
		"PER*IC*BILLING DEPARTMENT*TE*3131234567",
		"NM1*40*2*United HealthCare Dental*****46*52133",
		"HL*1**20*1",
		"PRV*BI*PXC*106S00000X",
		"NM1*85*2*ABA Inc*****XX*1999999992",
		"N3*ABA Inc 123 Some St",
		"N4*Denver*CO*802383000",
		"REF*EI*123456789",
		"PER*IC*ABA Inc*TE*3134893157",
		"HL*2*1*22*0",
		"SBR*P*18*1234567890******FI",
		"NM1*IL*1*Doe*John****MI*123412345",
		"N3*1234 Some St",
		"N4*Buckeye*AZ*85326",
		"DMG*D8*20180615*F",
		"NM1*PR*2*United HealthCare Dental*****PI*52133",
		"N3*PO Box 7000",
		"N4*Camden*SC*29000",
		"CLM*12345*832***12:B:1*Y*A*Y*Y",
		"DN2*3*E****JP", // DN206 JP (tooth numbering: ADA Universal National Tooth Designation System) is required in X224A2
		"REF*G1*20231010012345678",
		"REF*D9*01KHCCA4V6K00NFPX588G859SJ", // ours: the clearinghouse trace
		"HI*ABK:K081",
		"NM1*82*1*Doe*Jane****XX*1999999992",
		"PRV*PE*PXC*106S00000X",
		"LX*1",
		"SV3*AD:D7140*832**01:02*I*2*****1", // "1", "2" written as the guide lists them,
		"TOO*JP*3*M:O",
		"DTP*472*D8*20230428",
		"REF*6R*a0UDo000000dd2dMAA",
		"NM1*82*1*Doe*Jane****XX*1999999992",
		"PRV*PE*PXC*122300000X",
	}
	if diff := cmp.Diff(want, segmentsBetween(b.X12, "BHT", "SE")); diff != "" {
		t.Errorf("837D body (-want +got):\n%s", diff)
	}
	if f := guideFindings(t, b.X12); len(f) > 0 {
		t.Errorf("the 837D does not pass the 005010X224A2 guide:\n%s", strings.Join(f, "\n"))
	}
	if got := b.LineItemControlNumbers; len(got) != 1 || got[0] != "a0UDo000000dd2dMAA" {
		t.Errorf("line item control numbers = %v", got)
	}
	testenv.Golden(t, "testdata/golden/example.837d", b.X12)
}

// A claim using every object of the request model (dependent, pay-to,
// referring/supervising/assistant surgeon, COB, dates, orthodontics, tooth
// status, attachments, line dates, references and adjudication) builds an
// 837D that passes the guide.
func TestFullRequestPassesTheGuide(t *testing.T) {
	b, err := os.ReadFile("testdata/full.json")
	if err != nil {
		t.Fatal(err)
	}
	var req Request
	if err := json.Unmarshal(b, &req); err != nil {
		t.Fatal(err)
	}
	built := mustBuild(t, &req)
	if f := guideFindings(t, built.X12); len(f) > 0 {
		t.Errorf("the 837D does not pass the guide:\n%s\n%s", strings.Join(f, "\n"), built.X12)
	}
	// 5010 names the taxonomy with PXC; ZZ is 4010's qualifier.
	if !strings.Contains(string(built.X12), "~PRV*RF*PXC*1223G0001X~") {
		t.Errorf("the referring provider's PRV is not PRV*RF*PXC*<taxonomy>:\n%s", built.X12)
	}
	if req.Dependent.FirstName != "Jose" {
		t.Errorf("dependent first name not transliterated: %q", req.Dependent.FirstName)
	}
	testenv.Golden(t, "testdata/golden/full.837d", built.X12)
}

// Fifty lines (the limit) still pass the guide; the 2400 loop allows 50.
func TestFiftyLinesPassTheGuide(t *testing.T) {
	req := loadExample(t)
	line := req.ClaimInformation.ServiceLines[0]
	req.ClaimInformation.ServiceLines = nil
	for i := 0; i < MaxServiceLines; i++ {
		l := line
		l.ProviderControlNumber = ""
		req.ClaimInformation.ServiceLines = append(req.ClaimInformation.ServiceLines, l)
	}
	req.ClaimInformation.ClaimChargeAmount = "41600"
	built := mustBuild(t, req)
	if f := guideFindings(t, built.X12); len(f) > 0 {
		t.Errorf("the 837D does not pass the guide:\n%s", strings.Join(f, "\n"))
	}
}
