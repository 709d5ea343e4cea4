package web

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/clearhouse/clearhouse/internal/core/coretest"
)

// TestBrowserClaims is the console's whole walk in Chromium (issue 15's
// "done when"): a webhook added through its form; a test claim sent from
// the claim form, watched (no reload) until it is delivered and accepted;
// its 277CA file opened from the claim, its Events tab, Retry and the new
// attempt; a failed upload with its failing segment highlighted; the
// webhook's deliveries and a test event; then every page again on a
// 390 px phone. Screenshots of each page at both widths go to
// $CLEARHOUSE_ARTIFACTS (claims-*.png, phone-claims-*.png).
//
//	CLEARHOUSE_ARTIFACTS=$PWD/artifacts go test ./internal/web/ -run TestBrowserClaims -v
func TestBrowserClaims(t *testing.T) {
	ctx := newBrowser(t)
	console := watchConsole(t, ctx)
	srv := newEDIServer(t)
	key, _ := srv.claimsKey(t, "Sunrise Family Dental")
	rc := newReceiver(t)
	shots := artifactsDir(t)
	var pages []struct{ url, name string } // every page seen, for the phone
	shoot := func(name string) {
		t.Helper()
		screenshot(t, ctx, shots, "claims-"+name+".png")
		noSidewaysScroll(t, ctx, name, 1280)
		pages = append(pages, struct{ url, name string }{eval[string](t, ctx, `location.href`), name})
	}

	signInBrowser(t, ctx, srv.URL, key)

	// A webhook, added through its form, for every event.
	step(t, ctx, "open webhooks", chromedp.Navigate(srv.URL+"/webhooks/new"), chromedp.WaitVisible(chromedp.CSS("#w-url")))
	step(t, ctx, "fill the webhook", chromedp.SendKeys(chromedp.CSS("#w-url"), rc.URL), chromedp.SendKeys(chromedp.CSS("#w-description"), "Practice management system"))
	follow(t, ctx, "save the webhook", chromedp.Click(chromedp.CSS("#save-webhook")))
	hookURL := eval[string](t, ctx, `location.origin + document.querySelector("#edit-webhook").getAttribute("href").replace("/edit", "")`)

	// The claim form, filled with the accepted test claim.
	step(t, ctx, "open the claim form", chromedp.Navigate(srv.URL+"/claims/new"), chromedp.WaitVisible(chromedp.CSS("#sample")),
		poll(`window.htmx !== undefined && document.readyState === "complete"`))
	step(t, ctx, "pick the accepted test claim",
		chromedp.SetValue(chromedp.CSS("#sample"), "accepted"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector("#sample").dispatchEvent(new Event("change", {bubbles: true}))`),
		poll(`document.querySelector("#c-sub_member_id")?.value === "123412345"`, chromedp.WithPollingTimeout(10*time.Second)),
		settled)
	wantContains(t, "claim form", text(t, ctx, "#claim-form"), "Insured person", "Practice", "Procedure 1", "Tooth", "Surfaces", "Total charge: $245.00")
	if got := eval[string](t, ctx, `document.querySelector("#c-payer").value + "|" + document.querySelector("#c-line2_surfaces").value`); got != "UnitedHealthcare Dental (52133)|MO" {
		t.Errorf("the filled form: %q", got)
	}
	shoot("new")
	checkA11y(t, ctx, "claim form")

	// Sent: the page follows the claim without a reload until the 277CA.
	follow(t, ctx, "send the claim", chromedp.Click(chromedp.CSS("#send-claim")))
	step(t, ctx, "mark the page", chromedp.Evaluate[chromedp.Void](`window.sameDocument = true`))
	// Accepted by the 277CA; the mock payer's 835 follows some seconds
	// later, so the page may already say Paid.
	step(t, ctx, "wait for Accepted or Paid in #claim-status", poll(
		`/Accepted|Paid/.test(document.querySelector("#claim-status")?.innerText || "")`, chromedp.WithPollingTimeout(15*time.Second)))
	if !eval[bool](t, ctx, `window.sameDocument === true`) {
		t.Errorf("the claim page reloaded instead of updating in place")
	}
	wantContains(t, "accepted claim", text(t, ctx, "main"), "File acknowledgment (999): File accepted",
		"Claim acknowledgment (277CA): Accepted", "Accepted for adjudication: accepted for processing (A2:20)")
	step(t, ctx, "settle", settled)
	shoot("accepted")
	checkA11y(t, ctx, "accepted claim")

	// The 277CA file, from the claim; its Events tab; Retry.
	follow(t, ctx, "open the 277CA file", chromedp.Click(chromedp.CSS(".answer-277CA .answer-file")))
	waitText(t, ctx, ".file-title", "277CA-")
	follow(t, ctx, "open the events tab", chromedp.Click(chromedp.CSS("#tab-events")))
	step(t, ctx, "deliveries done", poll(
		`document.querySelectorAll(".event").length >= 2 && document.querySelectorAll(".event .attempt").length === document.querySelectorAll(".event").length`,
		chromedp.WithPollingTimeout(15*time.Second)), settled)
	wantContains(t, "277CA events", text(t, ctx, ".tab-panel"), "Transaction processed", "File processed", "answered 200")
	shoot("277ca-events")
	step(t, ctx, "retry the first event", chromedp.Focus(chromedp.CSS(".event button.retry")), chromedp.KeyEvent("\r"))
	waitText(t, ctx, "#retry-notice", "is being sent again to 1 webhook")
	waitText(t, ctx, ".event", "Attempt 2 (retry): answered 200")
	waitText(t, ctx, "#file-live", "Attempt 2 (retry)")
	step(t, ctx, "settle", settled)
	if got := eval[string](t, ctx, `document.activeElement.id`); got != eval[string](t, ctx, `document.querySelector(".event button.retry").id`) {
		t.Errorf("focus after Retry: %q", got)
	}
	shoot("277ca-retried")
	checkA11y(t, ctx, "277CA events")

	// A rejected claim: the reason in words, in the list too.
	step(t, ctx, "open the claim form", chromedp.Navigate(srv.URL+"/claims/new?sample=rejected"), chromedp.WaitVisible(chromedp.CSS("#send-claim")))
	follow(t, ctx, "send the rejected claim", chromedp.Click(chromedp.CSS("#send-claim")))
	waitText(t, ctx, "#claim-status", "Rejected")
	wantContains(t, "rejected claim", text(t, ctx, "#claim-reason"), "Rejected for invalid information: the subscriber's contract/member number (A7:164:IL)")
	step(t, ctx, "settle", settled)
	shoot("rejected")

	// A claim the form refuses: messages next to the fields, in words.
	step(t, ctx, "open the claim form", chromedp.Navigate(srv.URL+"/claims/new?sample=accepted"), chromedp.WaitVisible(chromedp.CSS("#send-claim")))
	step(t, ctx, "break the claim", chromedp.SetValue(chromedp.CSS("#c-bill_npi"), "1234567890"), chromedp.SetValue(chromedp.CSS("#c-line2_tooth"), "99"))
	step(t, ctx, "send the broken claim", chromedp.Click(chromedp.CSS("#send-claim")), chromedp.WaitVisible(chromedp.CSS("#error-summary")))
	wantContains(t, "refused claim", text(t, ctx, "#error-summary"), "The claim was not sent", "Practice NPI", "Tooth")
	if got := eval[string](t, ctx, `document.activeElement.id`); got != "error-summary" {
		t.Errorf("focus after a refused claim: %q, want the error summary", got)
	}
	console.forget("status of 400 (Bad Request) " + srv.URL + "/claims")
	screenshot(t, ctx, shots, "claims-refused.png")
	noSidewaysScroll(t, ctx, "refused", 1280)
	checkA11y(t, ctx, "refused claim")

	// The claims list, newest first.
	step(t, ctx, "open the claims list", chromedp.Navigate(srv.URL+"/claims"), chromedp.WaitVisible(chromedp.CSS(".claims-table")))
	rows := eval[[]string](t, ctx, `[...document.querySelectorAll(".claims-table tbody tr")].map(r => r.innerText.replace(/\s+/g, " "))`)
	if len(rows) != 2 || !strings.Contains(rows[0], "Rejected") || !strings.Contains(rows[1], "Accepted") && !strings.Contains(rows[1], "Paid") {
		t.Errorf("claims list:\n%s", strings.Join(rows, "\n"))
	}
	shoot("list")
	checkA11y(t, ctx, "claims list")

	// A failed upload: its failing segment highlighted.
	uploadInBrowser(t, ctx, srv.URL, "remit-bad.x12", coretest.Gen835([]int{1}, 1, 1))
	waitText(t, ctx, "#file-status", "Failed")
	step(t, ctx, "the failing segment", chromedp.WaitVisible(chromedp.CSS(".seg-bad")))
	wantContains(t, "failing segment", text(t, ctx, ".seg-bad"), "CLP*PCN1-00000*Q9*", "Problem here:")
	shoot("file-failed")

	// The webhook's deliveries, and a test event.
	step(t, ctx, "open the webhook", chromedp.Navigate(hookURL), chromedp.WaitVisible(chromedp.CSS("#log-title")))
	follow(t, ctx, "send a test event", chromedp.Click(chromedp.CSS("#send-test")))
	waitText(t, ctx, "#delivery-log", "Test event")
	waitText(t, ctx, "#delivery-log .delivery", "Delivered Test event")
	wantContains(t, "delivery log", text(t, ctx, "#delivery-log"), "Transaction processed", "File processed", "Attempt 2 (retry): answered 200")
	step(t, ctx, "the webhook's own address", chromedp.Navigate(hookURL), chromedp.WaitVisible(chromedp.CSS("#log-title")), settled)
	shoot("webhook")
	checkA11y(t, ctx, "webhook")

	step(t, ctx, "open the keys", chromedp.Navigate(srv.URL+"/keys"), chromedp.WaitVisible(chromedp.CSS(".keys-table")))
	shoot("keys")

	// Every page again on a phone.
	step(t, ctx, "phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile))
	for _, p := range pages {
		step(t, ctx, "open "+p.url, chromedp.Navigate(p.url), chromedp.WaitVisible(chromedp.CSS("main")), settled)
		noSidewaysScroll(t, ctx, "phone "+p.name, 390)
		screenshot(t, ctx, shots, "phone-claims-"+p.name+".png")
	}
	console.none(t)
}
