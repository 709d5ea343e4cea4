package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/services"
)

// TestPartnersCLI: keys create seeds the test-mode partners; export then
// apply changes nothing; a file with a mistake is refused naming the entry
// and changes nothing; secrets need --secrets-key and never come back out.
func TestPartnersCLI(t *testing.T) {
	data := t.TempDir()
	db := []string{"--data", data}
	runOK(t, append([]string{"keys", "create", "--create", "--account", "Acme", "--mode", "test"}, db...)...)
	exported := runOK(t, append([]string{"partners", "export", "--account", "Acme"}, db...)...)
	for _, want := range []string{`"profileId": "clearhouse"`, `"partnershipId": "clearhouse_mock-87726"`, `"connectionType": "MOCK"`} {
		if !strings.Contains(exported, want) {
			t.Errorf("export lacks %s", want)
		}
	}
	file := filepath.Join(t.TempDir(), "partners.json")
	if err := os.WriteFile(file, []byte(exported), 0o600); err != nil {
		t.Fatal(err)
	}
	out := runOK(t, append([]string{"partners", "apply", "-f", file, "--account", "Acme"}, db...)...)
	if want := fmt.Sprintf("No changes: %d records", 2+6*len(services.MockPayers())); !strings.HasPrefix(out, want) {
		t.Errorf("applying the export: %q", out)
	}

	bad := strings.Replace(exported, `"partnerProfileId": "mock-87726"`, `"partnerProfileId": "mock-8772"`, 1)
	if err := os.WriteFile(file, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCmd(append([]string{"partners", "apply", "-f", file, "--account", "Acme"}, db...)...)
	if code != 1 || !strings.Contains(stderr, `partnership "clearhouse_mock-87726": partnerProfileId "mock-8772" names no profile`) {
		t.Errorf("dangling reference: exit %d\n%s", code, stderr)
	}

	prod := `{"profiles": [
	  {"profileId": "acme", "profileType": "local", "interchangeQualifier": "ZZ", "interchangeId": "ACME"},
	  {"profileId": "uhc", "profileType": "partner", "interchangeQualifier": "ZZ", "interchangeId": "87726"}],
	 "connections": [{"connectionId": "uhc-sftp", "connectionType": "SFTP",
	   "settings": {"host": "sftp.example.com", "username": "acme", "hostKey": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"}, "secrets": {"password": "s3cret-value"}}],
	 "partnerships": [{"partnershipId": "acme_uhc", "localProfileId": "acme", "partnerProfileId": "uhc", "connectionId": "uhc-sftp"}]}`
	if err := os.WriteFile(file, []byte(prod), 0o600); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"partners", "apply", "-f", file, "--account", "Acme", "--mode", "production"}, db...)
	if code, _, stderr := runCmd(args...); code != 1 || !strings.Contains(stderr, "no secrets key configured") {
		t.Errorf("secret without a key: exit %d\n%s", code, stderr)
	}
	key := []string{"--secrets-key", secrets.NewKey()}
	if out := runOK(t, append(append(args, key...), "--dry-run")...); !strings.Contains(out, "Dry run, nothing changed: 4 created") {
		t.Errorf("dry run: %q", out)
	}
	if out := runOK(t, append(args, key...)...); !strings.Contains(out, "4 created, 0 updated, 0 deleted") {
		t.Errorf("production apply: %q", out)
	}
	if out := runOK(t, append(args, key...)...); !strings.HasPrefix(out, "No changes") {
		t.Errorf("production apply again: %q", out)
	}
	exported = runOK(t, append([]string{"partners", "export", "--account", "Acme", "--mode", "production"}, db...)...)
	if strings.Contains(exported, "s3cret") || !strings.Contains(exported, `"password": null`) {
		t.Errorf("production export shows or loses the secret:\n%s", exported)
	}
	if code, _, _ := runCmd(append([]string{"partners", "export", "--account", "Nobody"}, db...)...); code != 1 {
		t.Errorf("unknown account: exit %d", code)
	}
}
