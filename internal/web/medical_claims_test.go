package web

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/claims/claimstest"
	"github.com/clearhouse/clearhouse/internal/store"
)

// A professional claim sent through the API shows in the console's claims
// list and on its page like a dental one: its 837P file, the mock payer's
// 999 and 277CA linked to it.
func TestProfessionalClaimInConsole(t *testing.T) {
	srv := newEDIServer(t)
	key, rec := srv.partneredKey(t, "Austin Family Medicine")
	if err := claimstest.SetupMockPartners(context.Background(), srv.Store, rec.AccountID, store.ModeTest, "62308"); err != nil {
		t.Fatal(err)
	}
	body, err := os.Open("../claims/testdata/professional/example.json")
	if err != nil {
		t.Fatal(err)
	}
	defer body.Close()
	req, _ := http.NewRequest("POST", srv.URL+"/2024-04-01/change/medicalnetwork/professionalclaims/v3/submission", body)
	req.Header.Set("Authorization", key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var answer struct {
		ClaimReference struct {
			CorrelationID string `json:"correlationId"`
		} `json:"claimReference"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&answer); err != nil || resp.StatusCode != 200 {
		t.Fatalf("submission: %d %v", resp.StatusCode, err)
	}
	b := srv.browser(t)
	b.signIn(key)
	page := b.waitClaim("/claims/"+answer.ClaimReference.CorrelationID, "Accepted", "Claim acknowledgment (277CA)")
	wantContains(t, "professional claim", page, "John Anon", "Cigna (62308)", "$109.20", "went out as an 837P",
		"Claim acknowledgment (277CA): Accepted")
	if list := b.claimRows("/claims"); !strings.Contains(list, "John Anon") || !strings.Contains(list, "Accepted") {
		t.Errorf("claims list:\n%s", list)
	}
}
