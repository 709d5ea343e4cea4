package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/claims/claimstest"
	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/core/coretest"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/statusinquiry"
	"github.com/clearhouse/clearhouse/internal/store"
)

// claimsKey issues a test key whose account has the mock payers' test
// partnerships (as the seeded test setup gives every account) and the
// coretest partners (for uploads).
func (s *ediServer) claimsKey(t testing.TB, account string) (string, store.APIKey) {
	t.Helper()
	plain, rec := s.partneredKey(t, account)
	if err := claimstest.SetupMockPartners(context.Background(), s.Store, rec.AccountID, store.ModeTest, "52133", "87726", mockpayer.UnreachablePayerID); err != nil {
		t.Fatal(err)
	}
	return plain, rec
}

var hiddenValue = func(name string) *regexp.Regexp {
	return regexp.MustCompile(`name="` + name + `" value="([^"]*)"`)
}

// sampleValues is the claim form filled with a test sample, as posted.
func (b *browser) sampleValues(sample string) url.Values {
	b.t.Helper()
	page := b.get("/claims/new?sample=" + sample)
	if page.StatusCode != 200 {
		b.t.Fatalf("new claim page: %d", page.StatusCode)
	}
	v := formValues(b.t, page.Body)
	if m := hiddenValue("sample").FindStringSubmatch(page.Body); m != nil {
		v.Set("sample", m[1])
	}
	return v
}

func htmlUnescape(s string) string {
	return strings.NewReplacer("&#39;", "'", "&amp;", "&", "&lt;", "<", "&gt;", ">", "&#34;", `"`, "&quot;", `"`).Replace(s)
}

// submitSample posts a sample claim and returns its page's path.
func (b *browser) submitSample(sample string, edit func(url.Values)) string {
	b.t.Helper()
	v := b.sampleValues(sample)
	if edit != nil {
		edit(v)
	}
	resp := b.post("/claims", v)
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/claims/") {
		b.t.Fatalf("send %s: %d %s\n%.1500s", sample, resp.StatusCode, resp.Header.Get("Location"), visible(resp.Body))
	}
	return resp.Header.Get("Location")
}

// waitClaim polls a claim's page until its status badge says want.
// waitClaim waits until the claim's status is want and its page shows
// every also (answers come in separate files, in any order).
func (b *browser) waitClaim(path, want string, also ...string) string {
	b.t.Helper()
	var text string
	waitFor(b.t, path+" "+want, func() bool {
		body := b.get(path).Body
		text = htmlUnescape(visible(body))
		if !strings.Contains(body, `id="claim-status">`+want+`<`) {
			return false
		}
		for _, s := range also {
			if !strings.Contains(text, s) {
				return false
			}
		}
		return true
	})
	return text
}

// claimRows is the claims table's text, one row a line.
func (b *browser) claimRows(path string) string {
	b.t.Helper()
	body := b.get(path).Body
	i := strings.Index(body, "<tbody>")
	if i < 0 {
		return ""
	}
	rows := strings.Split(body[i:], "</tr>")
	out := make([]string, 0, len(rows))
	for _, r := range rows {
		if t := htmlUnescape(visible(r)); strings.Contains(r, "<td") {
			out = append(out, t)
		}
	}
	return strings.Join(out, "\n")
}

func TestClaimPages(t *testing.T) {
	srv := newEDIServer(t)
	key, acct := srv.claimsKey(t, "Sunrise Family Dental")
	b := srv.browser(t)
	b.signIn(key)

	// Accepted: delivered to the mock payer, whose 999 and 277CA come back
	// and are linked to the claim.
	accepted := b.submitSample("accepted", nil)
	page := b.waitClaim(accepted, "Accepted", "File acknowledgment (999)")
	wantContains(t, "accepted claim", page, "John Doe", "UnitedHealthcare Dental (52133)", "$245.00",
		"File acknowledgment (999): File accepted", "Claim acknowledgment (277CA): Accepted",
		"Accepted for adjudication: accepted for processing (A2:20)", "The payer's claim number is")
	body := b.get(accepted).Body
	if n := strings.Count(body, `class="answer-file"`); n != 2 || !strings.Contains(body, `id="claim-file"`) || !strings.Contains(body, `id="claim-transaction"`) {
		t.Errorf("the claim links its 837D and %d answer files:\n%s", n, page)
	}
	// Accepted is not final: the page keeps asking for the payer's
	// decision, gently.
	if !strings.Contains(body, `hx-trigger="every 60s"`) || strings.Contains(body, `every 2s`) {
		t.Errorf("an accepted claim's page does not follow it gently (every 60 s)")
	}

	// Paid: an 835 whose CLP01 is the claim's number arrives (uploaded,
	// as if from the payer's connection).
	paid := b.submitSample("accepted", func(v url.Values) { v.Set("pcn", "PCN1-00000") })
	b.waitClaim(paid, "Accepted")
	if _, err := srv.Core.Receive(context.Background(), core.ReceiveParams{AccountID: acct.AccountID, Mode: store.ModeTest,
		Name: "remit.x12", Dirname: "test", Body: strings.NewReader(coretest.Gen835([]int{1}, 1, 0))}); err != nil {
		t.Fatal(err)
	}
	page = b.waitClaim(paid, "Partly paid")
	wantContains(t, "paid claim", page, "Payment (835): Partly paid", "paid $450.00 of $800.00 charged", "The patient owes $300.00")
	for _, jargon := range []string{"CLP0", "IK5", "(CLP", "999 accepted", "(277CA) comes"} {
		if strings.Contains(page, jargon) {
			t.Errorf("the paid claim's page says %q", jargon)
		}
	}

	// A real-time claim status request about it (from the API): the
	// payer's answer is in what happened.
	var ask statusinquiry.Request
	if err := json.Unmarshal([]byte(`{"tradingPartnerServiceId": "52133",
	  "providers": [{"providerType": "BillingProvider", "organizationName": "ABA Inc", "npi": "1999999992"}],
	  "subscriber": {"memberId": "W000000001", "firstName": "John", "lastName": "Doe"},
	  "encounter": {"patientAccountNumber": "PCN1-00000", "beginningDateOfService": "20230428"}}`), &ask); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.StatusInquiry.Check(context.Background(), payers.Caller{AccountID: acct.AccountID, Mode: payers.ModeTest}, &ask); err != nil {
		t.Fatal(err)
	}
	page = b.waitClaim(paid, "Partly paid", "Asked the payer about the claim")
	wantContains(t, "paid claim's status answer", page, "Asked the payer about the claim", "Finalized/Payment", "(F1:65)")
	if m := x12Element.FindString(page); m != "" {
		t.Errorf("the paid claim's page names the X12 element %s", m)
	}

	// Rejected: the 277CA's reason in words.
	rejected := b.submitSample("rejected", nil)
	page = b.waitClaim(rejected, "Rejected")
	wantContains(t, "rejected claim", page, "Rejected for invalid information: the subscriber's contract/member number (A7:164:IL)")

	// Undeliverable: the first attempt fails; the next one is scheduled.
	down := b.submitSample("undeliverable", nil)
	page = b.waitClaim(down, "Delivery failed, retrying")
	wantContains(t, "undeliverable claim", page, "Next delivery attempt", "Attempt 1 of 3 failed", "MOCKDOWN never answers")
	// Its file, in the files list and on its page, says when it is tried again.
	wantContains(t, "files list", visible(b.get("/files?status=PENDING_DELIVERY").Body), "Pending delivery next attempt")
	filePath := regexp.MustCompile(`href="(/files/[^"]+)" id="claim-file"`).FindStringSubmatch(b.get(down).Body)[1]
	wantContains(t, "pending file", visible(b.get(filePath).Body), "Next delivery attempt")

	// The list: newest first, filters.
	list := b.claimRows("/claims")
	wantContains(t, "claims list", list, "Delivery failed, retrying", "next attempt", "Rejected", "Accepted",
		"the subscriber's contract/member number (A7:164:IL)")
	if i, j := strings.Index(list, "Delivery failed"), strings.Index(list, "Accepted"); i > j {
		t.Errorf("claims list is not newest first:\n%s", list)
	}
	only := b.claimRows("/claims?status=rejected")
	if strings.Count(only, "Rejected for invalid") != 1 || strings.Contains(only, "Accepted") {
		t.Errorf("rejected filter:\n%s", only)
	}
	pcn := regexp.MustCompile(`Claim (T\d{4}-\d{6})`).FindStringSubmatch(page)[1]
	if byPCN := b.claimRows("/claims?pcn=" + pcn); !strings.Contains(byPCN, pcn) || strings.Count(byPCN, "\n") != 0 {
		t.Errorf("claim number filter %s:\n%s", pcn, byPCN)
	}
	if resp := b.get("/claims?from=yesterday"); resp.StatusCode != http.StatusBadRequest || !strings.Contains(resp.Body, "Enter a date like") {
		t.Errorf("bad date: %d", resp.StatusCode)
	}

	// The server's rules, in words, next to the inputs.
	v := b.sampleValues("accepted")
	v.Set("bill_npi", "1234567890")
	v.Set("line2_tooth", "99")
	v.Set("sub_last", "")
	resp := b.post("/claims", v)
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("bad claim: %d", resp.StatusCode)
	}
	for _, id := range []string{"c-bill_npi-error", "c-line2_tooth-error", "c-sub_last-error", "error-summary"} {
		if !strings.Contains(resp.Body, `id="`+id+`"`) {
			t.Errorf("no %s in the refused form:\n%s", id, visible(resp.Body))
		}
	}
	text := visible(resp.Body)
	for _, jsonish := range []string{"/billing", "serviceLines", "toothCode", "Loop 2", "lastName"} {
		if strings.Contains(text, jsonish) {
			t.Errorf("the refused form speaks JSON (%q):\n%s", jsonish, text)
		}
	}

	// The same form sent twice (a double click) is one claim.
	v = b.sampleValues("accepted")
	first := b.post("/claims", v).Header.Get("Location")
	if again := b.post("/claims", v).Header.Get("Location"); first == "" || again != first {
		t.Errorf("a form sent twice: %q then %q", first, again)
	}

	// Another account never sees these claims.
	other, _ := srv.claimsKey(t, "Other Dental")
	ob := srv.browser(t)
	ob.signIn(other)
	if resp := ob.get(accepted); resp.StatusCode != http.StatusNotFound {
		t.Errorf("another account opens a claim: %d", resp.StatusCode)
	}
	if strings.Contains(ob.get("/claims").Body, "John Doe") {
		t.Errorf("another account lists the claims")
	}
}
