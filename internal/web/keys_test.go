package web

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/store"
)

func TestKeysPage(t *testing.T) {
	srv := newEDIServer(t)
	key, rec := srv.key(t, "Sunrise Family Dental", store.ModeTest)
	_, otherRec := srv.key(t, "Other Dental", store.ModeTest)
	b := srv.browser(t)
	b.signIn(key)
	page := b.get("/keys")
	if page.StatusCode != 200 || !strings.Contains(page.Body, rec.ID) || strings.Contains(page.Body, otherRec.ID) {
		t.Fatalf("keys page: %d", page.StatusCode)
	}
	if !strings.Contains(visible(page.Body), "Not used yet") {
		t.Errorf("a key never used for an API call does not say so")
	}
	// An API call with the key shows as its last use.
	req, _ := http.NewRequest("GET", srv.URL+"/2023-08-01/events", nil)
	req.Header.Set("Authorization", key)
	if api := b.do(req); api.StatusCode != 200 {
		t.Fatalf("API call: %d", api.StatusCode)
	}
	waitFor(t, "the key's last use", func() bool { return strings.Contains(visible(b.get("/keys").Body), "just now") })
	resp := b.post("/keys", url.Values{"csrf": {b.csrf(page.Body)}, "label": {"Billing system"}})
	m := regexp.MustCompile(`id="new-key" value="([^"]+)"`).FindStringSubmatch(resp.Body)
	if resp.StatusCode != 200 || m == nil {
		t.Fatalf("create key: %d", resp.StatusCode)
	}
	// The new key works, and is shown once.
	nb := srv.browser(t)
	nb.signIn(m[1])
	if strings.Contains(b.get("/keys").Body, m[1]) {
		t.Errorf("the new key is shown again")
	}
	// Another account's key cannot be revoked from here.
	if resp := b.post("/keys/"+otherRec.ID+"/revoke", url.Values{"csrf": {b.csrf(page.Body)}}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("revoke another account's key: %d", resp.StatusCode)
	}
	if k, _ := srv.Store.GetAPIKey(t.Context(), otherRec.ID); k.Revoked() {
		t.Errorf("another account's key was revoked")
	}
	// Revoking ends the key's sessions at once.
	newID := strings.SplitN(strings.TrimPrefix(m[1], "test_"), "_", 2)[0]
	keys, _ := srv.Store.ListAPIKeys(t.Context(), rec.AccountID)
	for _, k := range keys {
		if k.Name == "Billing system" {
			newID = k.ID
		}
	}
	// Revoking asks first: the first post only shows what will happen.
	resp = b.post("/keys/"+newID+"/revoke", url.Values{"csrf": {b.csrf(page.Body)}})
	if resp.StatusCode != 200 || !strings.Contains(visible(resp.Body), "Revoke the test key "+newID) || !strings.Contains(resp.Body, `name="confirm" value="yes"`) {
		t.Fatalf("revoke without confirmation: %d %s", resp.StatusCode, visible(resp.Body))
	}
	if k, _ := srv.Store.GetAPIKey(t.Context(), newID); k.Revoked() {
		t.Fatalf("the key was revoked before it was confirmed")
	}
	resp = b.post("/keys/"+newID+"/revoke", url.Values{"csrf": {b.csrf(page.Body)}, "confirm": {"yes"}})
	if resp.StatusCode != 200 || !strings.Contains(resp.Body, "revoked") {
		t.Fatalf("revoke: %d", resp.StatusCode)
	}
	if resp := nb.get("/keys"); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("a revoked key's session still opens pages: %d", resp.StatusCode)
	}
}

// TestTestSessionCannotRevokeProductionKeys: a console session signed in
// with a test key cannot revoke the account's production keys (before, it
// could, with one click); a production session can.
func TestTestSessionCannotRevokeProductionKeys(t *testing.T) {
	srv := newEDIServer(t)
	testKey, _ := srv.key(t, "Sunrise Family Dental", store.ModeTest)
	prodKey, prodRec := srv.key(t, "Sunrise Family Dental", store.ModeProduction)
	b := srv.browser(t)
	b.signIn(testKey)
	page := b.get("/keys")
	if !strings.Contains(page.Body, prodRec.ID) || strings.Contains(page.Body, "/keys/"+prodRec.ID+"/revoke") {
		t.Errorf("the test session's keys page offers to revoke the production key")
	}
	for _, form := range []url.Values{{"csrf": {b.csrf(page.Body)}}, {"csrf": {b.csrf(page.Body)}, "confirm": {"yes"}}} {
		if resp := b.post("/keys/"+prodRec.ID+"/revoke", form); resp.StatusCode != http.StatusForbidden {
			t.Errorf("test session revokes the production key (%v): %d", form, resp.StatusCode)
		}
	}
	if k, _ := srv.Store.GetAPIKey(t.Context(), prodRec.ID); k.Revoked() {
		t.Fatal("a test session revoked a production key")
	}
	pb := srv.browser(t)
	pb.signIn(prodKey)
	page = pb.get("/keys")
	_, testRec := srv.key(t, "Sunrise Family Dental", store.ModeTest)
	if resp := pb.post("/keys/"+testRec.ID+"/revoke", url.Values{"csrf": {pb.csrf(page.Body)}, "confirm": {"yes"}}); resp.StatusCode != 200 {
		t.Errorf("production session revokes a test key: %d", resp.StatusCode)
	}
}
