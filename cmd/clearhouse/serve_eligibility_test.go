package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/eligibility"
)

const checkPath = "/2024-04-01/change/medicalnetwork/eligibility/v3"

// uhcSubscriber is the published UnitedHealthcare subscriber mock request.
const uhcSubscriber = `{"tradingPartnerServiceId":"87726","provider":{"organizationName":"Provider Name","npi":"1999999984"},` +
	`"subscriber":{"memberId":"UHC123456","firstName":"Jane","lastName":"Doe","dateOfBirth":"19710101"},"encounter":{"serviceTypeCodes":["30"]}}`

func post(t *testing.T, url, key, body string) (int, string) {
	t.Helper()
	return call(t, "POST", url, key, body)
}

// TestServeEligibility: a test key's check reaches the mock payer and its
// 270 carries an interchange control number from the store, which keeps
// counting after a restart; a production key's check to a payer whose
// --payers connection this build lacks answers "not configured".
func TestServeEligibility(t *testing.T) {
	data := t.TempDir()
	testKey := lastLine(runOK(t, "keys", "create", "--create", "--data", data, "--account", "Acme", "--mode", "test"))
	liveKey := lastLine(runOK(t, "keys", "create", "--data", data, "--account", "Acme", "--mode", "production"))
	payersFile := filepath.Join(t.TempDir(), "payers.json")
	if err := os.WriteFile(payersFile, []byte(`{"payers":[{"id":"87726","connection":"uhc-core"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	withPayers := func(c *serveConfig) { c.payersFile = payersFile }

	controlNumbers := func(base string) []string {
		_, body := get(t, base+"/2024-04-01/eligibility-checks", testKey)
		var page struct {
			Items []struct{ InterchangeControlNumber string }
		}
		if err := json.Unmarshal([]byte(body), &page); err != nil {
			t.Fatalf("history: %v: %s", err, body)
		}
		var out []string
		for _, it := range page.Items {
			out = append(out, it.InterchangeControlNumber)
		}
		return out
	}

	base, stop := startServe(t, data, withPayers)
	if code, body := post(t, base+checkPath, testKey, uhcSubscriber); code != 200 || !strings.Contains(body, `"benefitsInformation"`) {
		t.Fatalf("test check: %d %.200s", code, body)
	}
	code, body := post(t, base+checkPath, liveKey, uhcSubscriber)
	if code != 400 || !strings.Contains(body, `"code":"79"`) || !strings.Contains(body, `connection \"uhc-core\" is not available`) {
		t.Errorf("production check: %d %s", code, body)
	}
	if got := controlNumbers(base); len(got) != 1 || got[0] != "000000001" {
		t.Errorf("first run's ISA13s %v, want [000000001]", got)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}

	base, _ = startServe(t, data, withPayers)
	if code, body := post(t, base+checkPath, testKey, uhcSubscriber); code != 200 {
		t.Fatalf("test check after restart: %d %.200s", code, body)
	}
	// The first run reserved a block (1–ControlNumberBlock); the restarted
	// process starts a new one.
	want := fmt.Sprintf("%09d", eligibility.ControlNumberBlock+1)
	if got := controlNumbers(base); len(got) != 2 || got[0] != want {
		t.Errorf("ISA13s after a restart %v, want %s first", got, want)
	}
}

// TestServeRefusesBadPayersFile: a typo in the override file stops the
// start, naming the file, rather than leaving a payer silently unconfigured.
func TestServeRefusesBadPayersFile(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "payers.json")
	if err := os.WriteFile(bad, []byte(`{"payers":[{"id":"87726","conection":"uhc"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	cfg := serveConfig{listen: "127.0.0.1:0", dataDir: t.TempDir(), payersFile: bad, shutdownTimeout: time.Second}
	err := serve(t.Context(), cfg, slog.New(slog.NewJSONHandler(&logs, nil)), nil)
	if err == nil || !strings.Contains(err.Error(), "--payers") || !strings.Contains(err.Error(), "conection") {
		t.Errorf("serve with a bad payers file: %v", err)
	}
}
