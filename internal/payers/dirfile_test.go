package payers

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// hostedCSV is the hosted API's own CSV example (its header and the
// Trinity Health Plan row, one line).
const hostedCSV = `"StediId","PrimaryPayerId","DisplayName","Names","Aliases","EligibilityInquiry","EligibilityInquiryEnrollmentRequired","EligibilityInquiryEnrollmentType","EligibilityInquiryEnrollmentTimeframe","EligibilityInquiryEnrollmentRequestedEffectiveDate","ClaimStatusInquiry","ClaimStatusInquiryEnrollmentRequired","ClaimStatusInquiryEnrollmentType","ClaimStatusInquiryEnrollmentTimeframe","ClaimStatusInquiryEnrollmentRequestedEffectiveDate","ProfessionalClaim","ProfessionalClaimEnrollmentRequired","ProfessionalClaimEnrollmentType","ProfessionalClaimEnrollmentTimeframe","ProfessionalClaimEnrollmentRequestedEffectiveDate","InstitutionalClaim","InstitutionalClaimEnrollmentRequired","InstitutionalClaimEnrollmentType","InstitutionalClaimEnrollmentTimeframe","InstitutionalClaimEnrollmentRequestedEffectiveDate","DentalClaim","DentalClaimEnrollmentRequired","DentalClaimEnrollmentType","DentalClaimEnrollmentTimeframe","DentalClaimEnrollmentRequestedEffectiveDate","ClaimPaymentAdvice","ClaimPaymentAdviceEnrollmentRequired","ClaimPaymentEnrollmentType","ClaimPaymentEnrollmentTimeframe","ClaimPaymentEnrollmentSupportedAggregationPreferences","ClaimPaymentEnrollmentRequestedEffectiveDate","CoordinationOfBenefits","CoordinationOfBenefitsEnrollmentRequired","CoordinationOfBenefitsEnrollmentType","CoordinationOfBenefitsEnrollmentTimeframe","CoordinationOfBenefitsEnrollmentRequestedEffectiveDate","ClaimAttachmentsSupport","ClaimAttachmentsSupportEnrollmentRequired","ClaimAttachmentEnrollmentType","ClaimAttachmentEnrollmentTimeframe","ClaimAttachmentEnrollmentRequestedEffectiveDate","EmployerIdentificationNumbers","CoverageTypes","OperatingStates","PtanRequired","ParentPayerGroupId","WebsiteUrl"
"YKHRB","95655","Trinity Health Plan","MediGold|Medigold Health Plans|Mount Carmel Health Plan|Mount Carmel MediGold|Trinity Health Plan of Michigan","00420|13123|1584|4714|95655|MEDGL|MEDGLD|MEDIGOLD","true","false","","","","true","false","","","","true","false","","","","true","false","","","","false","false","","","","true","true","ONE_CLICK","DAYS","NPI|TIN","NOT_SUPPORTED","false","false","","","","false","false","","","","","dental|medical","ID|IA|MI|NY|OH","false","GTRSH","https://www.thpmedicare.org"
`

// The hosted CSV's header is ours, column for column, and its example row
// reads into the record of the hosted JSON example.
func TestHostedCSVReads(t *testing.T) {
	if got := strings.Join(CSVColumns(), ","); got != strings.ReplaceAll(strings.SplitN(hostedCSV, "\n", 2)[0], `"`, "") {
		t.Fatalf("our CSV header differs from the hosted one:\n%s", got)
	}
	f, err := ParseDirectoryFile("hosted.csv", []byte(hostedCSV))
	if err != nil {
		t.Fatal(err)
	}
	d, err := Default().WithDirectoryFile("hosted.csv", f)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"YKHRB", "95655", "medigold"} {
		p, ok := d.Lookup(id)
		if !ok || p.Name != "Trinity Health Plan" {
			t.Fatalf("Lookup(%s) = %+v, %v", id, p, ok)
		}
	}
	p, _ := d.Lookup("YKHRB")
	r := p.Record()
	ts := r.TransactionSupport
	if r.StediID != "YKHRB" || r.PrimaryPayerID != "95655" || ts.ClaimPayment != EnrollmentRequired || ts.EligibilityCheck != Supported ||
		ts.DentalClaimSubmission != NotSupported || ts.ClaimSubmission != Supported || strings.Join(r.OperatingStates, " ") != "ID IA MI NY OH" ||
		r.URLs == nil || r.URLs.Website != "https://www.thpmedicare.org" || r.ParentPayerGroupID != "GTRSH" {
		t.Errorf("record = %+v", r)
	}
	proc := r.Enrollment.TransactionEnrollmentProcesses["claimPayment"]
	if proc.Type != "ONE_CLICK" || proc.Timeframe != "DAYS" || strings.Join(proc.SupportedAggregationPreferences, "|") != "NPI|TIN" ||
		proc.RequestedEffectiveDate != NotSupported || r.Enrollment.PtanRequired == nil || *r.Enrollment.PtanRequired {
		t.Errorf("enrollment = %+v", r.Enrollment)
	}
	if !p.NeedsEnrollment(Remittance) || p.NeedsEnrollment(Eligibility) || p.Supports(DentalClaim) {
		t.Errorf("payer = %+v", p)
	}
}

// Export writes what import reads: JSON and CSV both come back to the
// same directory, byte for byte, enrollments included in JSON.
func TestDirectoryFileRoundTrip(t *testing.T) {
	f, err := ParseDirectoryFile("hosted.csv", []byte(hostedCSV))
	if err != nil {
		t.Fatal(err)
	}
	f.Enrollments = []FileEnrollment{{Line: 9, Enrollment: Enrollment{PayerID: "YKHRB", AccountID: "acct1", Transactions: []string{"claimPayment"}}}}
	start, err := Default().WithDirectoryFile("x", f)
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"json", "csv"} {
		export := func(d *Directory) []byte {
			var b bytes.Buffer
			var err error
			if format == "json" {
				err = d.ExportJSON(&b)
			} else {
				err = d.ExportCSV(&b)
			}
			if err != nil {
				t.Fatal(err)
			}
			return b.Bytes()
		}
		first := export(start)
		back, err := ParseDirectoryFile("export."+format, first)
		if err != nil {
			t.Fatalf("%s: the export does not read back: %v", format, err)
		}
		again, err := Default().WithDirectoryFile("export", back)
		if err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		if second := export(again); !bytes.Equal(first, second) {
			t.Errorf("%s: export → import → export differs", format)
		}
		if again.Len() != start.Len() {
			t.Errorf("%s: %d payers, want %d", format, again.Len(), start.Len())
		}
		if p, _ := again.Lookup("YKHRB"); !p.NeedsEnrollment(Remittance) {
			t.Errorf("%s: enrollment flag lost", format)
		}
		if format == "json" && !again.Enrolled("95655", Remittance, "acct1") {
			t.Error("json: the account's enrollment was lost")
		}
	}
}

// Every problem of a file is reported at once, each with its line.
func TestDirectoryFileProblems(t *testing.T) {
	header := strings.SplitN(hostedCSV, "\n", 2)[0]
	row := strings.SplitN(hostedCSV, "\n", 3)[1]
	tests := []struct {
		name, file string
		want       []string // "line N: field" of each problem, in order
	}{
		{"csv: unknown and missing columns", `"StediId","Nmes"` + "\n",
			[]string{"line 1: Nmes", "line 1: PrimaryPayerId", "line 1: DisplayName"}},
		{"csv: bad values on two rows", header + "\n" +
			strings.Replace(row, `"true","false","","",""`, `"yes","false","","",""`, 1) + "\n" +
			strings.Replace(strings.Replace(row, `"YKHRB","95655"`, `"ABCDE","11111"`, 1), `"ID|IA|MI|NY|OH"`, `"ID|XX"`, 1) + "\n",
			[]string{"line 2: EligibilityInquiry", "line 3: operatingStates", "line 3: aliases"}},
		{"csv: enrollment without support", header + "\n" + strings.Replace(row, `"false","false","","","","true","true"`, `"false","true","","","","true","true"`, 1) + "\n",
			[]string{"line 2: DentalClaimEnrollmentRequired"}},
		{"csv: short row", header + "\n" + `"A","B"` + "\n", []string{"line 2: row"}},
		{"json: bad records and enrollments", `{"items": [
  {"stediId": "AAAAA", "primaryPayerId": "1", "displayName": "A", "names": [], "aliases": [],
   "transactionSupport": {"eligibilityCheck": "MAYBE", "claimStatus": "SUPPORTED", "professionalClaimSubmission": "SUPPORTED",
     "institutionalClaimSubmission": "SUPPORTED", "dentalClaimSubmission": "SUPPORTED", "claimPayment": "SUPPORTED",
     "coordinationOfBenefits": "SUPPORTED", "unsolicitedClaimAttachment": "NOT_SUPPORTED"}},
  {"stediId": "", "primaryPayerId": "2 2", "displayName": "", "names": [], "aliases": [], "coverageTypes": ["pet"],
   "employerIdentificationNumbers": ["123"], "transactionSupport": {}},
  {"stediId": "CCCCC", "primaryPayerId": "3", "displayName": "C", "typo": 1}
],
"enrollments": [
  {"payerId": "1", "accountId": "", "transactions": ["coordinationOfBenefits"]}
]}`, []string{
			"line 2: transactionSupport.eligibilityCheck",
			"line 6: stediId", "line 6: primaryPayerId", "line 6: displayName", "line 6: coverageTypes",
			"line 6: employerIdentificationNumbers", "line 6: transactionSupport.eligibilityCheck",
			"line 8: items",
			"line 11: accountId", "line 11: transactions"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseDirectoryFile("f", []byte(tt.file))
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want a FileError", err)
			}
			var got []string
			for _, p := range fe.Problems {
				got = append(got, "line "+strconv.Itoa(p.Line)+": "+p.Field)
			}
			for _, w := range tt.want {
				if !slices.Contains(got, w) {
					t.Errorf("missing %q in\n%s", w, err)
				}
			}
		})
	}
	// Problems found only against the directory (an alias of another
	// payer, an enrollment for no payer) are reported together too.
	f, err := ParseDirectoryFile("f", []byte(`{"items": [
{"stediId": "NEWPY", "primaryPayerId": "NEWPY", "displayName": "New", "names": [], "aliases": ["87726"],
 "transactionSupport": {"eligibilityCheck": "SUPPORTED", "claimStatus": "SUPPORTED", "professionalClaimSubmission": "SUPPORTED",
   "institutionalClaimSubmission": "SUPPORTED", "dentalClaimSubmission": "SUPPORTED", "claimPayment": "SUPPORTED",
   "coordinationOfBenefits": "SUPPORTED", "unsolicitedClaimAttachment": "NOT_SUPPORTED"}}],
"enrollments": [{"payerId": "8772", "accountId": "a", "transactions": ["eligibilityCheck"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Default().WithDirectoryFile("f", f)
	if err == nil || !strings.Contains(err.Error(), "line 2: aliases") || !strings.Contains(err.Error(), "line 6: payerId") ||
		!strings.Contains(err.Error(), "Did you mean 87726 (UnitedHealthcare)") {
		t.Errorf("err = %v", err)
	}
}

// A transaction the --payers file routes is at least SUPPORTED; one the
// directory file marks ENROLLMENT_REQUIRED stays so, and an enrolled
// account passes the check while another does not.
func TestRoutesJoinAndEnrollment(t *testing.T) {
	f, err := ParseDirectoryFile("f", []byte(`{"items": [
{"stediId": "87726", "primaryPayerId": "87726", "displayName": "UnitedHealthcare", "names": [], "aliases": ["UHC"],
 "transactionSupport": {"eligibilityCheck": "ENROLLMENT_REQUIRED", "claimStatus": "NOT_SUPPORTED", "professionalClaimSubmission": "NOT_SUPPORTED",
   "institutionalClaimSubmission": "NOT_SUPPORTED", "dentalClaimSubmission": "NOT_SUPPORTED", "claimPayment": "NOT_SUPPORTED",
   "coordinationOfBenefits": "NOT_SUPPORTED", "unsolicitedClaimAttachment": "NOT_SUPPORTED"}}],
"enrollments": [{"payerId": "UHC", "accountId": "acct-in", "transactions": ["eligibilityCheck"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	d, err := Default().WithDirectoryFile("f", f)
	if err != nil {
		t.Fatal(err)
	}
	d, err = d.WithOverrides([]byte(`{"payers": [{"id": "87726", "connections": {"eligibility": ["b"], "claims": ["b"]}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := d.Lookup("87726")
	ts := p.Record().TransactionSupport
	if ts.EligibilityCheck != EnrollmentRequired || ts.ProfessionalClaimSubmission != Supported || ts.DentalClaimSubmission != Supported ||
		ts.ClaimStatus != NotSupported || ts.ClaimPayment != NotSupported {
		t.Errorf("joined support = %+v", ts)
	}
	if err := d.CheckEnrollment(p, Eligibility, true, "acct-in"); err != nil {
		t.Errorf("enrolled account refused: %v", err)
	}
	var ne *NotEnrolledError
	if err := d.CheckEnrollment(p, Eligibility, true, "acct-out"); !errors.As(err, &ne) || !strings.Contains(err.Error(), "requires transaction enrollment for eligibilityCheck") {
		t.Errorf("account without enrollment: %v", err)
	}
	if err := d.CheckEnrollment(p, Eligibility, false, "acct-out"); err != nil {
		t.Errorf("test mode checked enrollment: %v", err)
	}
	if err := d.CheckEnrollment(p, ProfessionalClaim, true, "acct-out"); err != nil {
		t.Errorf("a SUPPORTED transaction checked enrollment: %v", err)
	}
}
