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

// The institutional fields beyond the inpatient stay land in their X223A3
// segments: pay-to address and plan (2010AB/AC), the payer's secondary id
// in the contract's object form and the receiver's ETIN, K3, coded claim
// notes and the billing note, EPSDT CRC*ZZ, treatment codes HI*TC, HCP,
// the attending provider's secondary id, the service facility (2310E),
// coordination of benefits as the contract's one object (2320 with CAS,
// AMT, OI, MOA; 2330A/B; the other payer's attending and billing provider
// ids 2330C/I), and on the lines PWK (both forms), REF*9B/9D, AMT*GT
// service tax and AMT*N8 facility tax, NTE*TPO, HCP, line provider ids
// and 2430 (SVD04 the revenue code). The 837I passes the guide.
func TestInstitutionalCOBAndMoreMapToTheirSegments(t *testing.T) {
	b := mustBuildInstitutional(t, loadInstitutional(t, "cob.json"), "87726")
	for _, w := range []string{
		"~NM1*40*2*UnitedHealthcare*****46*RCV0001~",
		"~REF*EI*987654321~NM1*87*2~N3*PO Box 40~N4*Dallas*TX*752020040~NM1*PE*2*State Medicaid*****PI*TXMCD~N3*1 Capitol Way~N4*Austin*TX*787010001~REF*FY*MCD-OFF~REF*EI*741234567~HL*2*",
		"~NM1*PR*2*UnitedHealthcare*****PI*87726~REF*FY*OFF7~CLM*",
		"~REF*D9*01KHCCA4V6K00NFPX588G859SJ~K3*HH EPISODE 1~NTE*ALG*Penicillin~NTE*MED*Furosemide 40 mg daily~NTE*ADD*Recertification period~CRC*ZZ*Y*ST~HI*ABK:I509~HI*TC:12345~HCP*05*600**PRICER9~",
		"~NM1*71*1*Attend*Amy****XX*1999999984~REF*G2*UHC-AA1~NM1*77*2*Valley Home Health Branch*****XX*1999999992~N3*7 Branch St~N4*Dallas*TX*752031234~REF*LU*BR-7~",
		"~SBR*P*18*MCR-GRP******MA~CAS*CO*45*200~AMT*D*400~AMT*EAF*50~OI***Y***Y~MOA*0.8**MA01~NM1*IL*1*Home*Hal****MI*1EG4TE5MK74~N3*2 Pine Rd~N4*Dallas*TX*75202~REF*SY*123456789~NM1*PR*2*Medicare A*****PI*04411~DTP*573*D8*20241105~REF*2U*MCRA~NM1*71*1~REF*G2*MCR-ATT~NM1*85*2~REF*G2*MCR-BILL~LX*1~",
		"~SV2*0551*HC:G0299*500*UN*8~PWK*08*FX***AC*POC-1~DTP*472*RD8*20241001-20241031~REF*6R*HH-L1~REF*9B*RPL-1~REF*9D*ARPL-1~AMT*GT*5~AMT*N8*3~NTE*TPO*Visits per plan of care~HCP*05*450~NM1*82*1*Nurse*Nora****XX*1999999992~REF*G2*UHC-NN~SVD*04411*300*HC:G0299*0551*8~CAS*CO*45*200~DTP*573*D8*20241105~LX*2~",
		"~PWK*09*AA~DTP*472*D8*20241002~REF*6R*LINE2~NM1*72*1*Cutter*Cy****XX*1999999976~REF*0B*TX-LIC-9~SE*",
	} {
		if !strings.Contains(string(b.X12), w) {
			t.Errorf("the 837I lacks %s", w)
		}
	}
	if f := guideFindings(t, b.X12); len(f) > 0 {
		t.Errorf("the 837I does not pass the guide:\n%s", strings.Join(f, "\n"))
	}
	testenv.Golden(t, "testdata/golden/institutional-cob.837i", b.X12)
}
