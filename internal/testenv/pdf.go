package testenv

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// PDFText checks that b is a PDF that poppler reads as exactly one page and
// returns its text. Poppler (pdfinfo, pdftotext) is an independent reader:
// a file our own writer could read but viewers cannot fails here.
func PDFText(t testing.TB, b []byte) string {
	t.Helper()
	if !bytes.HasPrefix(b, []byte("%PDF-")) || !bytes.Contains(b[max(0, len(b)-64):], []byte("%%EOF")) {
		t.Fatalf("not a PDF: %.40q … %q", b, b[max(0, len(b)-40):])
	}
	info, err := exec.LookPath("pdfinfo")
	if err != nil {
		Missing(t, "pdfinfo not found (apt-get install poppler-utils)")
		return ""
	}
	path := filepath.Join(t.TempDir(), "summary.pdf")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(info, path).CombinedOutput()
	if err != nil {
		t.Fatalf("pdfinfo: %v\n%s", err, out)
	}
	if !regexp.MustCompile(`(?m)^Pages:\s+1$`).Match(out) || !strings.Contains(string(out), "612 x 792 pts (letter)") {
		t.Errorf("pdfinfo: want one Letter page:\n%s", out)
	}
	if strings.Contains(string(out), "Syntax Error") {
		t.Errorf("pdfinfo reports syntax errors:\n%s", out)
	}
	text, err := exec.Command("pdftotext", "-layout", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(text)
}
