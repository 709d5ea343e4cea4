package reports

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// readPDF writes the PDF and reads it back with Poppler, an independent
// reader: its page count and its text.
func readPDF(t *testing.T, pdf []byte) (pages string, text string) {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Fatal("pdftotext (poppler-utils) is needed to read the PDF back; .ci/run installs it")
	}
	path := filepath.Join(t.TempDir(), "era.pdf")
	if err := os.WriteFile(path, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	info, err := exec.Command("pdfinfo", path).Output()
	if err != nil {
		t.Fatalf("pdfinfo: %v", err)
	}
	for _, l := range strings.Split(string(info), "\n") {
		if strings.HasPrefix(l, "Pages:") {
			pages = strings.TrimSpace(strings.TrimPrefix(l, "Pages:"))
		}
	}
	out, err := exec.Command("pdftotext", "-layout", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	// Columns are laid out by position: compare text with runs of blanks
	// folded to one space.
	return pages, strings.Join(strings.Fields(string(out)), " ")
}

func TestERAPDFContractExample(t *testing.T) {
	src, err := os.ReadFile("testdata/contract-example.835.x12")
	if err != nil {
		t.Fatal(err)
	}
	pdf, err := ERAPDF(bytes.NewReader(src), Meta{ApplicationMode: "production", TransactionID: "7647d644-9348-4596-a3b4-6830b8b48cc8"})
	if err != nil {
		t.Fatal(err)
	}
	pages, text := readPDF(t, pdf)
	if pages != "1" {
		t.Errorf("pages = %s, want 1", pages)
	}
	for _, want := range []string{"ELECTRONIC REMITTANCE ADVICE", "PAYER: RUSHMORE LIFE", "PAYEE: ACME MEDICAL CENTER", "NPI: 1999999984",
		"CHECK/EFT #: 71700666555", "PAYMENT: 1100.00 EFT (ACH) DATE: 03/16/2019", "NAME: DOE, JOHN", "ACNT: 1112223333",
		"ICN: 94060555410000", "99211", "800.00", "500.00", "NET 500.00", "NET 600.00", "# OF CLAIMS 2", "CHECK AMT 1100.00",
		"PR-1 Deductible Amount", "PR Patient Responsibility"} {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF does not say %q:\n%s", want, text)
		}
	}
}

func TestERAPDFPagesAndRemarks(t *testing.T) {
	var src bytes.Buffer
	write835(&src, 60)
	pdf, err := ERAPDF(&src, Meta{ApplicationMode: "test"})
	if err != nil {
		t.Fatal(err)
	}
	pages, text := readPDF(t, pdf)
	if pages == "1" || pages == "" {
		t.Errorf("60 claims on %s page(s)", pages)
	}
	for _, want := range []string{"TEST MODE", "CO-16 80.00", "CO-45 Charge exceeds fee schedule", "Remark N290 Missing/incomplete/invalid rendering provider",
		"PROVIDER ADJUSTMENTS", "WO Overpayment Recovery", "# OF CLAIMS 60", "PCN0000059"} {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF does not say %q", want)
		}
	}
}

func TestERAPDFTooLarge(t *testing.T) {
	var src bytes.Buffer
	write835(&src, MaxPDFClaims+1)
	if _, err := ERAPDF(&src, Meta{}); err == nil || !strings.Contains(err.Error(), "too many claims") {
		t.Fatalf("err = %v, want ErrTooLargeForPDF", err)
	}
}
