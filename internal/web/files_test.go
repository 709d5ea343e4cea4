package web

import (
	"bytes"
	"context"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/core/coretest"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// upload posts a file through the console's upload form and returns the
// file's page path.
func (b *browser) upload(name, content string) string {
	b.t.Helper()
	page := b.get("/files/upload")
	if page.StatusCode != 200 {
		b.t.Fatalf("upload page: %d", page.StatusCode)
	}
	resp := b.postFile(b.csrf(page.Body), name, content)
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/files/") {
		b.t.Fatalf("upload %s: %d %s\n%.600s", name, resp.StatusCode, resp.Header.Get("Location"), resp.Body)
	}
	return resp.Header.Get("Location")
}

// postFile sends the upload form with the token csrf and the file.
func (b *browser) postFile(csrf, name, content string) response {
	b.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("csrf", csrf)
	fw, _ := mw.CreateFormFile("file", name)
	fw.Write([]byte(content))
	mw.Close()
	req, _ := http.NewRequest("POST", b.base+"/files", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Origin", b.base)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	return b.do(req)
}

// settledFile waits until the file's page no longer follows processing.
func (b *browser) settledFile(path string) string {
	b.t.Helper()
	var body string
	waitFor(b.t, "the file to be processed", func() bool {
		body = b.get(path).Body
		return !strings.Contains(body, `hx-trigger="every 2s"`)
	})
	return body
}

var tagsRE = regexp.MustCompile(`<[^>]+>`)

// visible is a page's text without tags and with runs of spaces folded.
func visible(html string) string {
	return strings.Join(strings.Fields(tagsRE.ReplaceAllString(html, " ")), " ")
}

func TestFilesPages(t *testing.T) {
	srv := newEDIServer(t)
	key, rec := srv.partneredKey(t, "Sunrise Family Dental")
	b := srv.browser(t)
	b.signIn(key)

	// A good 835 processes into its transactions; the page follows it.
	good := b.upload("remit-0102.x12", coretest.Gen835([]int{2}, 2, 0))
	page := b.settledFile(good)
	wantContains(t, "processed file", visible(page), "remit-0102.x12", "Processed", "Transactions 2", "clinic_payer")
	tx := b.get(good + "?tab=transactions")
	wantContains(t, "transactions tab", visible(tx.Body), "Claim payment (835)", "0001", "0002")

	// A failed file: the failing segment is marked with what is wrong and
	// what to do.
	bad := b.upload("remit-bad.x12", coretest.Gen835([]int{1}, 1, 1))
	page = b.settledFile(bad)
	text := visible(page)
	wantContains(t, "failed file", text, "Failed", "Why this file failed", "What to do:")
	marked := regexp.MustCompile(`(?s)<li id="seg-(\d+)" value="\d+" class="seg-bad"><code>([^<]*)</code>`).FindAllStringSubmatch(page, -1)
	if len(marked) != 1 || !strings.HasPrefix(marked[0][2], "CLP*PCN1-00000*Q9*") {
		t.Errorf("marked segments: %q", marked)
	}
	if !strings.Contains(page, `<a href="#seg-`+marked[0][1]+`">Segment `+marked[0][1]+` (CLP)</a>`) {
		t.Errorf("the problem list does not link to the marked segment")
	}

	// The list: newest first, filtered by status and name.
	list := visible(b.get("/files").Body)
	if i, j := strings.Index(list, "remit-bad.x12"), strings.Index(list, "remit-0102.x12"); i < 0 || j < i {
		t.Errorf("files list, newest first:\n%s", list)
	}
	failed := visible(b.get("/files?status=FAILED").Body)
	if !strings.Contains(failed, "remit-bad.x12") || strings.Contains(failed, "remit-0102.x12") {
		t.Errorf("failed files:\n%s", failed)
	}
	named := visible(b.get("/files?name=0102").Body)
	if strings.Contains(named, "remit-bad.x12") || !strings.Contains(named, "remit-0102.x12") {
		t.Errorf("files named 0102:\n%s", named)
	}
	if resp := b.get("/files?status=NOPE"); resp.StatusCode != http.StatusBadRequest || !strings.Contains(resp.Body, "Pick a status") {
		t.Errorf("bad status filter: %d", resp.StatusCode)
	}

	// Events tab with deliveries; Retry re-emits the same event id.
	rc := newReceiver(t)
	u := rc.URL
	if _, _, err := srv.Webhooks.Create(context.Background(), webhooks.Caller{AccountID: rec.AccountID, Mode: store.ModeTest},
		webhooks.Input{URL: &u}); err != nil {
		t.Fatal(err)
	}
	third := b.upload("remit-0103.x12", coretest.Gen835([]int{1}, 1, 0))
	b.settledFile(third)
	var events string
	waitFor(t, "the deliveries", func() bool {
		events = b.get(third + "?tab=events").Body
		return strings.Count(events, "Attempt 1:") == strings.Count(events, `class="event card"`) &&
			!strings.Contains(events, `hx-trigger="every 2s"`)
	})
	wantContains(t, "events tab", visible(events), "File processed", "Transaction processed", "Fragment processed", "Delivered to "+rc.URL, "answered 200")
	retry := regexp.MustCompile(`action="(/files/[^"]+/events/([^"/]+)/retry)"`).FindAllStringSubmatch(events, -1)
	if len(retry) != 3 { // file, transaction, fragment
		t.Fatalf("retry buttons: %d", len(retry))
	}
	eventID := retry[0][2]
	if rc.calls(eventID) != 1 {
		t.Fatalf("the receiver saw event %s %d times before the retry", eventID, rc.calls(eventID))
	}
	resp := b.post(retry[0][1], url.Values{"csrf": {b.csrf(events)}}, "HX-Request", "true")
	if resp.StatusCode != 200 || !strings.Contains(resp.Body, "is being sent again to 1 webhook") {
		t.Fatalf("retry: %d\n%.800s", resp.StatusCode, resp.Body)
	}
	waitFor(t, "the retried attempt", func() bool {
		events = b.get(third + "?tab=events").Body
		return strings.Contains(events, "Attempt 2 (retry): answered 200")
	})
	if rc.calls(eventID) != 2 {
		t.Errorf("the receiver saw event %s %d times, want 2 (same webhook-id)", eventID, rc.calls(eventID))
	}

	// Without the token the retry is refused.
	if resp := b.post(retry[0][1], url.Values{}); resp.StatusCode != http.StatusForbidden {
		t.Errorf("retry without CSRF token: %d", resp.StatusCode)
	}
	// Another account sees none of it.
	other, _ := srv.key(t, "Other Dental", store.ModeTest)
	ob := srv.browser(t)
	ob.signIn(other)
	for _, p := range []string{good, third + "?tab=events"} {
		if resp := ob.get(p); resp.StatusCode != http.StatusNotFound {
			t.Errorf("another account opens %s: %d", p, resp.StatusCode)
		}
	}
	if resp := ob.post(retry[0][1], url.Values{"csrf": {ob.csrf(ob.get("/files").Body)}}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("another account retries an event: %d", resp.StatusCode)
	}
	if strings.Contains(ob.get("/files").Body, "remit-") {
		t.Errorf("another account lists this account's files")
	}
}

func TestTransactionPages(t *testing.T) {
	srv := newEDIServer(t)
	key, _ := srv.partneredKey(t, "Sunrise Family Dental")
	b := srv.browser(t)
	b.signIn(key)
	file := b.upload("remit-0102.x12", coretest.Gen835([]int{2}, 2, 0))
	b.settledFile(file)

	// The list, filtered by a patient control number (a CLP-01).
	list := b.get("/transactions?identifier=PCN2-00001")
	rows := regexp.MustCompile(`href="(/transactions/[^"]+)" class="row-target"`).FindAllStringSubmatch(list.Body, -1)
	if list.StatusCode != 200 || len(rows) != 1 {
		t.Fatalf("transactions with PCN2-00001: %d, %d rows", list.StatusCode, len(rows))
	}
	if all := b.get("/transactions?set=835"); strings.Count(all.Body, `class="row-target"`) != 2 {
		t.Errorf("835 transactions: %d rows", strings.Count(all.Body, `class="row-target"`))
	}
	if none := b.get("/transactions?identifier=NOPE"); !strings.Contains(none.Body, "No transactions match") {
		t.Errorf("an unknown identifier lists transactions")
	}

	page := b.get(rows[0][1])
	text := visible(page.Body)
	wantContains(t, "transaction page", text, "Claim payment (835) 0002", "remit-0102.x12", "transaction 2 of 2",
		"Claim payment information", "CLP", "PCN2-00001", "ST*835*0002", "Fragment 1")
	if !strings.Contains(page.Body, `<a href="`+file+`" id="tx-file">`) || !strings.Contains(page.Body, `href="`+file+`?tab=events"`) {
		t.Errorf("the transaction does not link to its file and events")
	}
	if n := strings.Count(page.Body, "<details"); n < 5 {
		t.Errorf("the Guide JSON tree has %d branches", n)
	}
	other, _ := srv.key(t, "Other Dental", store.ModeTest)
	ob := srv.browser(t)
	ob.signIn(other)
	if resp := ob.get(rows[0][1]); resp.StatusCode != http.StatusNotFound {
		t.Errorf("another account opens the transaction: %d", resp.StatusCode)
	}
}

func TestKeyWords(t *testing.T) {
	for _, c := range []struct{ key, label, code string }{
		{"claim_payment_information_CLP_loop", "Claim payment information", "CLP"},
		{"payer_identifier_01", "Payer identifier", "01"},
		{"heading", "Heading", ""},
		{"ABC", "ABC", ""},
	} {
		if l, code := keyWords(c.key); l != c.label || code != c.code {
			t.Errorf("keyWords(%q) = %q, %q; want %q, %q", c.key, l, code, c.label, c.code)
		}
	}
}
