package web

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/clearhouse/clearhouse/internal/core/coretest"
)

// uploadInBrowser uploads a file through the upload form and waits for its
// page.
func uploadInBrowser(t *testing.T, ctx context.Context, base, name, content string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	step(t, ctx, "open the upload page", chromedp.Navigate(base+"/files/upload"), chromedp.WaitVisible(chromedp.CSS("#upload-file")))
	step(t, ctx, "choose "+name, chromedp.SetUploadFiles(chromedp.CSS("#upload-file"), []string{path}))
	follow(t, ctx, "upload "+name, chromedp.Click(chromedp.CSS("#upload-submit")))
}

// waitText waits until the element's text contains want.
func waitText(t *testing.T, ctx context.Context, sel, want string) {
	t.Helper()
	stepWithin(t, ctx, pipelineWait, "wait for "+want+" in "+sel, poll(
		`(document.querySelector(`+jsString(sel)+`)?.innerText || "").includes(`+jsString(want)+`)`,
		chromedp.WithPollingTimeout(pipelineWait)))
}

func jsString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}

// TestBrowserFiles walks the files pages in Chromium: a failed upload with
// its failing segment marked, a processed file followed live, its Events
// tab with a webhook's deliveries, and Retry showing the new attempt; then
// the same pages on a phone.
func TestBrowserFiles(t *testing.T) {
	ctx := newBrowser(t)
	console := watchConsole(t, ctx)
	srv := newEDIServer(t)
	key, _ := srv.partneredKey(t, "Sunrise Family Dental")
	rc := newReceiver(t)
	shots := artifactsDir(t)

	signInBrowser(t, ctx, srv.URL, key)

	// A webhook, added through its form: the secret is shown once.
	step(t, ctx, "open webhooks", chromedp.Navigate(srv.URL+"/webhooks"), chromedp.WaitVisible(chromedp.CSS("#add-webhook")))
	follow(t, ctx, "add a webhook", chromedp.Click(chromedp.CSS("#add-webhook")))
	step(t, ctx, "fill the webhook", chromedp.SendKeys(chromedp.CSS("#w-url"), rc.URL), chromedp.SendKeys(chromedp.CSS("#w-description"), "Billing system"))
	screenshot(t, ctx, shots, "webhook-new.png")
	checkA11y(t, ctx, "webhook form")
	follow(t, ctx, "save the webhook", chromedp.Click(chromedp.CSS("#save-webhook")))
	if s := eval[string](t, ctx, `document.querySelector("#new-secret").value`); !strings.HasPrefix(s, "whsec_") {
		t.Errorf("the new webhook's secret: %q", s)
	}
	hookURL := eval[string](t, ctx, `location.origin + document.querySelector("#edit-webhook").getAttribute("href").replace("/edit", "")`)
	screenshot(t, ctx, shots, "webhook-created.png")
	checkA11y(t, ctx, "new webhook")

	// A failed file: the failing segment is highlighted with the message.
	uploadInBrowser(t, ctx, srv.URL, "remit-bad.x12", coretest.Gen835([]int{1}, 1, 1))
	waitText(t, ctx, "#file-status", "Failed")
	step(t, ctx, "the failing segment", chromedp.WaitVisible(chromedp.CSS("#problems")), chromedp.WaitVisible(chromedp.CSS(".seg-bad")))
	wantContains(t, "failing segment", text(t, ctx, ".seg-bad"), "CLP*PCN1-00000*Q9*", "Problem here:")
	wantContains(t, "problems", text(t, ctx, "#problems"), "Why this file failed", "Segment", "What to do:")
	step(t, ctx, "jump to the segment", chromedp.Click(chromedp.CSS("#problems a[href^='#seg-']")))
	if got := eval[string](t, ctx, `document.querySelector(":target")?.className || ""`); got != "seg-bad" {
		t.Errorf("the problem's link targets %q, want the failing segment", got)
	}
	screenshot(t, ctx, shots, "file-failed.png")
	noSidewaysScroll(t, ctx, "file-failed.png", 1280)
	checkA11y(t, ctx, "failed file")

	// A good file: the page follows it to Processed without a reload.
	uploadInBrowser(t, ctx, srv.URL, "remit-0102.x12", coretest.Gen835([]int{1}, 2, 0))
	waitText(t, ctx, "#file-status", "Processed")
	fileURL := eval[string](t, ctx, `location.href`)
	screenshot(t, ctx, shots, "file-processed.png")
	follow(t, ctx, "open the transactions tab", chromedp.Click(chromedp.CSS("#tab-transactions")))
	wantContains(t, "transactions tab", text(t, ctx, ".tab-panel"), "Claim payment (835)", "Processed")
	screenshot(t, ctx, shots, "file-transactions.png")

	// The transaction: its Guide JSON as a tree, its EDI, its fragments.
	follow(t, ctx, "open the transaction", chromedp.Click(chromedp.CSS(".tx-table a")))
	step(t, ctx, "the Guide JSON tree", chromedp.WaitVisible(chromedp.CSS("#guide-tree")))
	txURL := eval[string](t, ctx, `location.href`)
	closed := eval[int](t, ctx, `document.querySelectorAll("#guide-tree details:not([open])").length`)
	step(t, ctx, "open a closed branch", chromedp.Click(chromedp.CSS("#guide-tree details:not([open]) > summary")))
	if now := eval[int](t, ctx, `document.querySelectorAll("#guide-tree details:not([open])").length`); closed == 0 || now != closed-1 {
		t.Errorf("closed branches: %d, then %d after opening one", closed, now)
	}
	wantContains(t, "transaction", text(t, ctx, "main"), "Claim payment (835) 0001", "Payer identification", "ST*835*0001", "Fragment 1")
	screenshot(t, ctx, shots, "transaction.png")
	noSidewaysScroll(t, ctx, "transaction.png", 1280)
	checkA11y(t, ctx, "transaction")
	step(t, ctx, "back to the file", chromedp.Navigate(fileURL), chromedp.WaitVisible(chromedp.CSS("#tab-events")))

	// Events tab: each event with its delivery; Retry adds an attempt.
	follow(t, ctx, "open the events tab", chromedp.Click(chromedp.CSS("#tab-events")))
	step(t, ctx, "deliveries done", poll(
		`document.querySelectorAll(".event").length === 3 && document.querySelectorAll(".event .attempt").length === 3`,
		chromedp.WithPollingTimeout(15*time.Second)))
	wantContains(t, "events", text(t, ctx, ".tab-panel"), "File processed", "Transaction processed", "Delivered", "answered 200")
	screenshot(t, ctx, shots, "file-events.png")
	checkA11y(t, ctx, "events tab")
	step(t, ctx, "retry the first event",
		poll(`window.htmx !== undefined && document.readyState === "complete"`),
		chromedp.Click(chromedp.CSS(".event button.retry")))
	waitText(t, ctx, "#retry-notice", "is being sent again to 1 webhook")
	waitText(t, ctx, ".event", "Attempt 2 (retry): answered 200")
	// The view was swapped (the retry's answer, then the refresh that
	// brought the attempt): keyboard focus is still on the same button,
	// and the live region outside the view said what happened.
	step(t, ctx, "settle", settled)
	if got := eval[string](t, ctx, `document.activeElement.id + "|" + document.querySelector(".event button.retry").id`); !strings.HasPrefix(got, "retry-") || strings.Split(got, "|")[0] != strings.Split(got, "|")[1] {
		t.Errorf("focus after Retry and the refresh: %q, want the first event's Retry button", got)
	}
	waitText(t, ctx, "#file-live", "Attempt 2 (retry): answered 200")
	eventID := eval[string](t, ctx, `document.querySelector(".event").id.replace("event-", "")`)
	if n := rc.calls(eventID); n != 2 {
		t.Errorf("the receiver got event %s %d times, want 2 with the same webhook-id", eventID, n)
	}
	screenshot(t, ctx, shots, "file-events-retried.png")
	noSidewaysScroll(t, ctx, "file-events-retried.png", 1280)

	// The webhook's delivery log shows the deliveries and the retry.
	step(t, ctx, "open the webhook", chromedp.Navigate(hookURL), chromedp.WaitVisible(chromedp.CSS("#log-title")))
	wantContains(t, "delivery log", text(t, ctx, "main"), "Delivered", "Attempt 2 (retry): answered 200", "Attempt 1: answered 200")
	screenshot(t, ctx, shots, "webhook-log.png")
	noSidewaysScroll(t, ctx, "webhook-log.png", 1280)
	checkA11y(t, ctx, "webhook log")

	step(t, ctx, "open the files list", chromedp.Navigate(srv.URL+"/files"), chromedp.WaitVisible(chromedp.CSS(".files-table")))
	rows := eval[[]string](t, ctx, `[...document.querySelectorAll(".files-table tbody tr")].map(r => r.innerText.replace(/\s+/g, " "))`)
	// Each upload sent its 999 back (pending: the test partner has no
	// connection).
	if len(rows) != 4 || !strings.Contains(rows[0], "999-remit-0102.x12 Sent") || !strings.Contains(rows[0], "Pending delivery") ||
		!strings.Contains(rows[1], "remit-0102.x12 Received") || !strings.Contains(rows[1], "Processed") ||
		!strings.Contains(rows[3], "remit-bad.x12 Received") || !strings.Contains(rows[3], "Failed") {
		t.Errorf("files list rows:\n%s", strings.Join(rows, "\n"))
	}
	screenshot(t, ctx, shots, "files.png")
	noSidewaysScroll(t, ctx, "files.png", 1280)
	checkA11y(t, ctx, "files list")

	// Phone width.
	step(t, ctx, "phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile))
	for _, p := range []struct{ url, file string }{
		{srv.URL + "/files", "phone-files.png"},
		{fileURL + "?tab=events", "phone-file-events.png"},
		{srv.URL + "/files?status=FAILED", "phone-files-failed.png"},
		{txURL, "phone-transaction.png"},
		{srv.URL + "/transactions", "phone-transactions.png"},
		{hookURL, "phone-webhook-log.png"},
		{srv.URL + "/webhooks", "phone-webhooks.png"},
	} {
		step(t, ctx, "open "+p.url, chromedp.Navigate(p.url), chromedp.WaitVisible(chromedp.CSS("main")))
		noSidewaysScroll(t, ctx, p.file, 390)
		screenshot(t, ctx, shots, p.file)
	}
	step(t, ctx, "failed files", chromedp.Navigate(srv.URL+"/files?status=FAILED"), chromedp.WaitVisible(chromedp.CSS(".files-table")))
	follow(t, ctx, "open the failed file", chromedp.Click(chromedp.CSS(".files-table .row-target")))
	step(t, ctx, "failed file on a phone", chromedp.WaitVisible(chromedp.CSS(".seg-bad")))
	noSidewaysScroll(t, ctx, "phone-file-failed.png", 390)
	screenshot(t, ctx, shots, "phone-file-failed.png")
	console.none(t)
}
