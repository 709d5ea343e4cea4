package web

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/core/coretest"
	"github.com/clearhouse/clearhouse/internal/store"
)

var secretInput = regexp.MustCompile(`id="new-secret" value="([^"]+)"`)

func TestWebhookPages(t *testing.T) {
	srv := newEDIServer(t)
	key, _ := srv.partneredKey(t, "Sunrise Family Dental")
	b := srv.browser(t)
	b.signIn(key)
	rc := newReceiver(t)

	// A bad address is refused on the form, saying why.
	form := b.get("/webhooks/new")
	resp := b.post("/webhooks", url.Values{"csrf": {b.csrf(form.Body)}, "url": {"not a url"}})
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(resp.Body, `id="w-url-error"`) {
		t.Fatalf("bad address: %d\n%.600s", resp.StatusCode, visible(resp.Body))
	}
	// Created: the secret is shown once.
	resp = b.post("/webhooks", url.Values{"csrf": {b.csrf(form.Body)}, "url": {rc.URL}, "description": {"Billing system"},
		"events": {"file.processed.v2", "transaction.processed.v2"}})
	m := secretInput.FindStringSubmatch(resp.Body)
	if resp.StatusCode != 200 || m == nil || !strings.HasPrefix(m[1], "whsec_") {
		t.Fatalf("create: %d\n%.800s", resp.StatusCode, visible(resp.Body))
	}
	wantContains(t, "new webhook", visible(resp.Body), "Webhook added", "Copy it now", "Billing system", "File processed, Transaction processed", "Enabled")
	hookPath := regexp.MustCompile(`action="(/webhooks/[^"/]+)/rotate"`).FindStringSubmatch(resp.Body)[1]
	page := b.get(hookPath)
	if strings.Contains(page.Body, m[1]) || strings.Contains(page.Body, "new-secret") {
		t.Errorf("the secret is shown again")
	}
	if list := visible(b.get("/webhooks").Body); !strings.Contains(list, rc.URL) || !strings.Contains(list, "Billing system") {
		t.Errorf("webhooks list:\n%s", list)
	}

	// Edit, disable, enable, rotate.
	edit := b.get(hookPath + "/edit")
	resp = b.post(hookPath, url.Values{"csrf": {b.csrf(edit.Body)}, "url": {rc.URL}, "description": {"Billing"}, "events": {"file.processed.v2"}})
	wantContains(t, "edited", visible(resp.Body), "Changes saved", "Description Billing Events File processed")
	// Disabling and rotating ask first: without confirm=yes nothing changes.
	resp = b.post(hookPath+"/status", url.Values{"csrf": {b.csrf(edit.Body)}, "status": {store.WebhookDisabled}})
	if resp.StatusCode != 200 || !strings.Contains(resp.Body, `name="confirm" value="yes"`) || !strings.Contains(resp.Body, `name="status" value="DISABLED"`) {
		t.Errorf("disable without confirmation: %d", resp.StatusCode)
	}
	if resp := b.post(hookPath+"/rotate", url.Values{"csrf": {b.csrf(edit.Body)}}); strings.Contains(resp.Body, "whsec_") {
		t.Errorf("rotate without confirmation shows a new secret")
	}
	resp = b.post(hookPath+"/status", url.Values{"csrf": {b.csrf(edit.Body)}, "status": {store.WebhookDisabled}, "confirm": {"yes"}})
	wantContains(t, "disabled", visible(resp.Body), "Webhook disabled", "Disabled", "Enable")
	resp = b.post(hookPath+"/status", url.Values{"csrf": {b.csrf(edit.Body)}, "status": {store.WebhookEnabled}})
	wantContains(t, "enabled", visible(resp.Body), "Webhook enabled")
	resp = b.post(hookPath+"/rotate", url.Values{"csrf": {b.csrf(edit.Body)}, "confirm": {"yes"}})
	if m2 := secretInput.FindStringSubmatch(resp.Body); m2 == nil || m2[1] == m[1] {
		t.Errorf("rotate shows no new secret")
	}
	wantContains(t, "rotated", visible(resp.Body), "The previous secret also signs until")

	// The delivery log of a processed file, with the receiver's answer.
	b.settledFile(b.upload("remit-0102.x12", coretest.Gen835([]int{1}, 1, 0)))
	var log string
	waitFor(t, "the delivery", func() bool {
		log = visible(b.get(hookPath).Body)
		return strings.Contains(log, "answered 200")
	})
	wantContains(t, "delivery log", log, "Delivered File processed", "Attempt 1: answered 200", `{&#34;received&#34;:true}`)
	if strings.Contains(log, "Transaction processed") {
		t.Errorf("a transaction event reached a webhook that takes file events only")
	}

	// A test event goes to this webhook only, through the signed
	// delivery, and shows in its log; the API sends one too.
	resp = b.post(hookPath+"/test", url.Values{"csrf": {b.csrf(edit.Body)}})
	wantContains(t, "test event sent", visible(resp.Body), "Test event sent")
	waitFor(t, "the test delivery", func() bool {
		log = visible(b.get(hookPath).Body)
		return strings.Contains(log, "Delivered Test event")
	})
	testID := regexp.MustCompile(`Delivered Test event event (\S+)`).FindStringSubmatch(log)[1]
	if n := rc.calls(testID); n != 1 {
		t.Errorf("the receiver got the test event %d times", n)
	}
	req, _ := http.NewRequest("POST", srv.URL+"/2023-08-01"+hookPath+"/test", nil)
	req.Header.Set("Authorization", key)
	if api := b.do(req); api.StatusCode != http.StatusAccepted || !strings.Contains(api.Body, `"detailType":"webhook.test.v1"`) {
		t.Errorf("POST /2023-08-01/webhooks/{id}/test: %d %s", api.StatusCode, api.Body)
	}
	b.post(hookPath+"/status", url.Values{"csrf": {b.csrf(edit.Body)}, "status": {store.WebhookDisabled}, "confirm": {"yes"}})
	if resp := b.post(hookPath+"/test", url.Values{"csrf": {b.csrf(edit.Body)}}); resp.StatusCode != http.StatusConflict {
		t.Errorf("a test event to a disabled webhook: %d", resp.StatusCode)
	}

	// Another account can neither see nor change it.
	other, _ := srv.key(t, "Other Dental", store.ModeTest)
	ob := srv.browser(t)
	ob.signIn(other)
	token := ob.csrf(ob.get("/webhooks").Body)
	if resp := ob.get(hookPath); resp.StatusCode != http.StatusNotFound {
		t.Errorf("another account opens the webhook: %d", resp.StatusCode)
	}
	if resp := ob.post(hookPath+"/rotate", url.Values{"csrf": {token}, "confirm": {"yes"}}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("another account rotates the secret: %d", resp.StatusCode)
	}
	if resp := ob.post(hookPath+"/test", url.Values{"csrf": {token}}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("another account sends a test event: %d", resp.StatusCode)
	}
	if resp := ob.post(hookPath+"/status", url.Values{"csrf": {token}, "status": {store.WebhookDisabled}}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("another account disables the webhook: %d", resp.StatusCode)
	}
	if resp := ob.post(hookPath+"/delete", url.Values{"csrf": {token}, "confirm": {"yes"}}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("another account deletes the webhook: %d", resp.StatusCode)
	}

	// Deleting asks first, then removes it from the console and the API.
	resp = b.post(hookPath+"/delete", url.Values{"csrf": {b.csrf(edit.Body)}})
	if resp.StatusCode != 200 || !strings.Contains(resp.Body, `name="confirm" value="yes"`) || !strings.Contains(visible(resp.Body), "cannot be undone") {
		t.Fatalf("delete without confirmation: %d\n%.600s", resp.StatusCode, visible(resp.Body))
	}
	if page := b.get(hookPath); page.StatusCode != 200 {
		t.Fatalf("the webhook is gone before the confirmation: %d", page.StatusCode)
	}
	resp = b.post(hookPath+"/delete", url.Values{"csrf": {b.csrf(edit.Body)}, "confirm": {"yes"}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("delete: %d", resp.StatusCode)
	}
	resp = b.get(resp.Header.Get("Location"))
	wantContains(t, "deleted", visible(resp.Body), "Webhook deleted")
	if strings.Contains(visible(resp.Body), rc.URL) {
		t.Errorf("the deleted webhook is still listed")
	}
	if page := b.get(hookPath); page.StatusCode != http.StatusNotFound {
		t.Errorf("the deleted webhook's page: %d", page.StatusCode)
	}
	req, _ = http.NewRequest("GET", srv.URL+"/2023-08-01"+hookPath, nil)
	req.Header.Set("Authorization", key)
	if api := b.do(req); api.StatusCode != http.StatusNotFound {
		t.Errorf("GET /2023-08-01/webhooks/{id} after deleting: %d", api.StatusCode)
	}
}
