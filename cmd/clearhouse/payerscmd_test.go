package main

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/payers"
)

// TestPayersPageIsCurrent: docs/payers.md is what 'clearhouse payers
// --markdown' prints, so the list the error messages point at exists and
// names every shipped payer.
func TestPayersPageIsCurrent(t *testing.T) {
	page, err := os.ReadFile("../../docs/payers.md")
	if err != nil {
		t.Fatal(err)
	}
	if got := runOK(t, "payers", "--markdown"); got != string(page) {
		t.Error("docs/payers.md is stale: run go run ./cmd/clearhouse payers --markdown > docs/payers.md")
	}
	if out := runOK(t, "payers"); !strings.Contains(out, "87726") || !strings.Contains(out, "UnitedHealthcare") {
		t.Errorf("clearhouse payers:\n%s", out)
	}
}

// payers import reports every problem of a file with its line and writes
// nothing; a good file is written where serve reads it, and payers export
// of that directory reads back to the same bytes (JSON and CSV).
func TestPayersImportExport(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	good := filepath.Join(dir, "good.json")
	out := filepath.Join(dir, "directory.json")
	os.WriteFile(bad, []byte("\"StediId\",\"PrimaryPayerId\",\"DisplayName\",\"Nmes\"\n\"A\",\"B\",\"C\",\"D\"\n"), 0o600)
	code, _, stderr := runCmd("payers", "import", bad, "--out", out)
	if code != 1 || !strings.Contains(stderr, "line 1: Nmes") || !strings.Contains(stderr, "line 1: EligibilityInquiry: column is missing") {
		t.Errorf("bad file: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Error("a file with problems was written")
	}
	os.WriteFile(good, []byte(`{"items": [
{"stediId": "87726", "primaryPayerId": "87726", "displayName": "UnitedHealthcare", "names": [], "aliases": ["UHC"],
 "operatingStates": ["NATIONAL"],
 "transactionSupport": {"eligibilityCheck": "ENROLLMENT_REQUIRED", "claimStatus": "SUPPORTED", "professionalClaimSubmission": "SUPPORTED",
   "institutionalClaimSubmission": "SUPPORTED", "dentalClaimSubmission": "NOT_SUPPORTED", "claimPayment": "ENROLLMENT_REQUIRED",
   "coordinationOfBenefits": "SUPPORTED", "unsolicitedClaimAttachment": "NOT_SUPPORTED"}}],
"enrollments": [{"payerId": "UHC", "accountId": "acct-1", "transactions": ["eligibilityCheck"]}]}`), 0o600)
	if got := runOK(t, "payers", "import", good, "--out", out); !strings.Contains(got, "1 payer records, 1 enrollments: no problems") {
		t.Errorf("import: %s", got)
	}
	if got := runOK(t, "payers", "--payer-directory", out); !strings.Contains(got, "270* 276 837P 837I 835*") {
		t.Errorf("payers list does not mark ENROLLMENT_REQUIRED:\n%s", got)
	}
	written, _ := os.ReadFile(out)
	if exported := runOK(t, "payers", "export", "--payer-directory", out); exported != string(written) {
		t.Error("export of the imported directory differs from what import wrote")
	}
	csvPath := filepath.Join(dir, "directory.csv")
	os.WriteFile(csvPath, []byte(runOK(t, "payers", "export", "--format", "csv", "--payer-directory", out)), 0o600)
	if again := runOK(t, "payers", "export", "--format", "csv", "--payer-directory", csvPath); again != runOK(t, "payers", "export", "--format", "csv", "--payer-directory", out) {
		t.Error("CSV export → import → export differs")
	}
}

// TestServeRefusesBadPayerDirectory: serve does not start on a directory
// file with problems, and says every one, with its line.
func TestServeRefusesBadPayerDirectory(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "directory.csv")
	header := strings.Join(payers.CSVColumns(), ",")
	row := func(id, elig string) string {
		v := make([]string, len(payers.CSVColumns()))
		v[0], v[1], v[2], v[5] = id, id, "Payer "+id, elig
		return strings.Join(v, ",")
	}
	os.WriteFile(bad, []byte(header+"\n"+row("AAA01", "maybe")+"\n"+row("AAA02", "true")+"\n"+row("AAA01", "true")+"\n"), 0o600)
	cfg := serveConfig{listen: "127.0.0.1:0", dataDir: t.TempDir(), payerDirectory: bad, shutdownTimeout: time.Second}
	err := serve(t.Context(), cfg, slog.New(slog.NewJSONHandler(io.Discard, nil)), nil)
	if err == nil || !strings.Contains(err.Error(), "--payer-directory") || !strings.Contains(err.Error(), "line 2: EligibilityInquiry") ||
		!strings.Contains(err.Error(), "line 4: aliases") {
		t.Errorf("serve with a bad directory file: %v", err)
	}
}

// TestPayersListShowsRoutes: 'clearhouse payers' with the --payers file
// names each payer's production routes per kind, as serve routes them:
// the "connections" lists, and the single "connection" for the real-time
// kinds the payer takes.
func TestPayersListShowsRoutes(t *testing.T) {
	file := filepath.Join(t.TempDir(), "payers.json")
	os.WriteFile(file, []byte(`{"payers": [
 {"id": "87726", "connections": {"eligibility": ["uhc-a", "uhc-b"], "claimStatus": ["uhc-a"], "claims": ["uhc-c"]}},
 {"id": "99001", "name": "Acme Regional Health", "transactions": ["270"], "connection": "acme-up"}]}`), 0o600)
	out := runOK(t, "payers", "--payers", file)
	for _, want := range []string{"PRODUCTION ROUTES", "eligibility: uhc-a, uhc-b; claimStatus: uhc-a; claims: uhc-c", "eligibility: acme-up\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("clearhouse payers lacks %q:\n%s", want, out)
		}
	}
}
