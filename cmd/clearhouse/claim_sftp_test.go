package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/clearhouse/clearhouse/internal/secrets"
)

// TestDentalClaimOverSFTPBecomesEvents: a production dental claim to a
// payer whose partnership delivers over an SFTP connection reaches
// `mockpayer serve` over SFTP; the payer's 999 and 277CA are polled back
// from its outbound/ and come out as transaction.processed.v2 events, after
// file.delivered.v2 for the 837D.
func TestDentalClaimOverSFTPBecomesEvents(t *testing.T) {
	_, side := startMockpayerLogs(t, "--username", "clearhouse", "--password", "mock-pw-123", "--sftp-listen", "127.0.0.1:0")
	hostKey, _, _, _, err := ssh.ParseAuthorizedKey([]byte(side.hostKey))
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := strings.Cut(side.addr, ":")
	data := t.TempDir()
	key := secrets.NewKey()
	runOK(t, "keys", "create", "--create", "--data", data, "--account", "Demo Clinic", "--mode", "test")
	live := lastLine(runOK(t, "keys", "create", "--data", data, "--account", "Demo Clinic", "--mode", "production"))
	doc := `{"profiles":[{"profileId":"clearhouse","profileType":"local","interchangeQualifier":"ZZ","interchangeId":"CLEARHOUSE","applicationId":"CLEARHOUSE"},
  {"profileId":"uhc-dental","profileType":"partner","interchangeQualifier":"ZZ","interchangeId":"52133","applicationId":"52133"}],
 "connections":[{"connectionId":"uhc-dental-sftp","connectionType":"SFTP","name":"UHC Dental over SFTP",
   "settings":{"host":"127.0.0.1","port":` + port + `,"username":"clearhouse","inboundPath":"outbound","outboundPath":"inbound","hostKey":"` + ssh.FingerprintSHA256(hostKey) + `"},
   "secrets":{"password":"mock-pw-123"}}],
 "partnerships":[{"partnershipId":"clearhouse_uhc-dental","partnershipType":"x12","localProfileId":"clearhouse","partnerProfileId":"uhc-dental","connectionId":"uhc-dental-sftp",
   "inboundTransactions":[{"direction":"INBOUND","transactionSetIdentifier":"277","guideId":"005010X214"},{"direction":"INBOUND","transactionSetIdentifier":"999","guideId":"005010X231A1"}],
   "outboundTransactions":[{"direction":"OUTBOUND","transactionSetIdentifier":"837","guideId":"005010X224A2","connectionId":"uhc-dental-sftp"}]}]}`
	file := filepath.Join(t.TempDir(), "production.json")
	if err := os.WriteFile(file, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	runOK(t, "partners", "apply", "-f", file, "--data", data, "--account", "Demo Clinic", "--mode", "production", "--secrets-key", key)
	base, _ := startServe(t, data, func(c *serveConfig) {
		c.secrets.key, c.connections.allowPrivate, c.sftpPoll = key, true, 200*time.Millisecond
		c.writeTimeout = 20 * time.Second
	})
	claim, err := os.ReadFile("../../internal/claims/testdata/example.json")
	if err != nil {
		t.Fatal(err)
	}
	if code, body := post(t, base+"/2024-04-01/dental-claims/submission", live, string(claim)); code != 200 {
		t.Fatalf("claim: %d %s", code, body)
	}
	type event struct {
		Type   string `json:"detail-type"`
		Detail struct {
			ConnectionID string `json:"connectionId"`
			X12          struct {
				Metadata struct {
					Transaction struct {
						Set string `json:"transactionSetIdentifier"`
					} `json:"transaction"`
				} `json:"metadata"`
			} `json:"x12"`
		} `json:"detail"`
	}
	var got []string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		_, body := get(t, base+"/2023-08-01/events", live)
		var page struct{ Items []event }
		json.Unmarshal([]byte(body), &page)
		got = got[:0]
		for _, e := range page.Items {
			got = append(got, e.Type+" "+e.Detail.X12.Metadata.Transaction.Set+" "+e.Detail.ConnectionID)
		}
		if strings.Contains(strings.Join(got, "|"), "transaction.processed.v2 277 uhc-dental-sftp") &&
			strings.Contains(strings.Join(got, "|"), "transaction.processed.v2 999 uhc-dental-sftp") {
			break
		}
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{"file.delivered.v2", "transaction.processed.v2 999 uhc-dental-sftp", "transaction.processed.v2 277 uhc-dental-sftp"} {
		if !strings.Contains(all, want) {
			t.Errorf("no %q event; events:\n%s", want, all)
		}
	}
}
