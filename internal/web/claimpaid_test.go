package web

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/core/coretest"
)

// What was paid: the mock payer's 835 pays the partial sample 80 % of each
// line (CO-45 written off) and leaves a 10 % deductible (PR-1) to the
// patient; the claim page shows it per line, in words, with the totals.
// The reversed sample is paid, reversed and paid again: the page shows
// the net and the history.
func TestClaimPagePaid(t *testing.T) {
	srv := newEDIServerRemit(t, 200*time.Millisecond)
	key, _ := srv.claimsKey(t, "Sunrise Family Dental")
	b := srv.browser(t)
	b.signIn(key)

	partial := b.submitSample("partial", nil)
	page := b.waitClaim(partial, "Partly paid", "What was paid")
	// Lines of $65 and $180: paid 80 % less the 10 % deductible: $45.50
	// and $126; the patient owes $6.50 + $18 = $24.50.
	wantContains(t, "partially paid claim", page, "What was paid", "Billed $245.00", "Paid by the payer $171.50", "Patient owes $24.50",
		"D0120", "D2150", "tooth 3", "$45.50", "$126.00", "$13.00 Contractual (the practice writes it off): Charge exceeds fee schedule",
		"(CO-45)", "$6.50 Patient responsibility: Deductible Amount (PR-1)", "Electronic funds transfer (ACH)")
	if strings.Contains(page, "Payment history") {
		t.Errorf("one payment shows a history:\n%s", page)
	}

	reversed := b.submitSample("reversed", nil)
	page = b.waitClaim(reversed, "Partly paid", "Payment history")
	// Paid $245, reversed −$245, paid again at 80 %: $196 net.
	wantContains(t, "reversed claim", page, "Paid by the payer $196.00 (net, after the reversal below)", "Payment reversed −$245.00",
		"Paid $245.00 of $245.00", "Paid $196.00 of $245.00", "Net paid after the reversal: $196.00")

	// The 835's file page: the payment summary, linking the claim.
	m := regexp.MustCompile(`(?s)answer-835.*?href="/files/([^"]+)"`).FindStringSubmatch(b.get(reversed).Body)
	if m == nil {
		t.Fatal("no 835 file on the claim page")
	}
	file := b.get("/files/" + m[1])
	wantContains(t, "835 file summary", htmlUnescape(visible(file.Body)), "From (payer)", "To (payee)",
		"Electronic funds transfer (ACH)", "Trace number", "Payment date", "Total paid", "3 claims: 1 paid in full, 1 paid in part, 1 reversed", "Payment of $196.00 from")
	if !strings.Contains(file.Body, `href="/claims/`+strings.TrimPrefix(reversed, "/claims/")+`" class="payment-claim"`) {
		t.Errorf("the payment does not link its claim %s", reversed)
	}

	denied := b.submitSample("denied", nil)
	page = b.waitClaim(denied, "Denied", "What was paid")
	wantContains(t, "denied claim", page, "The payer denied this claim", "Paid by the payer $0.00",
		"Claim/service lacks information", "(CO-16)", "Remark: Missing/incomplete/invalid rendering provider primary identifier. (N290)")
}

// An 835 names claims only of its own account: the same file uploaded by
// another account shows the claim number unlinked, and the owner's claim
// page shows no payment from it; uploaded by the claim's account, it links
// the claim and the claim page shows what it paid.
func TestFilePaymentsStayInTheirAccount(t *testing.T) {
	srv := newEDIServer(t)
	keyA, _ := srv.claimsKey(t, "Sunrise Family Dental")
	keyB, _ := srv.partneredKey(t, "Other Practice")
	a, other := srv.browser(t), srv.browser(t)
	a.signIn(keyA)
	other.signIn(keyB)
	claim := a.submitSample("accepted", func(v url.Values) { v.Set("pcn", "PCN1-00000") })
	a.waitClaim(claim, "Accepted")
	remit := coretest.Gen835([]int{1}, 1, 0) // pays PCN1-00000

	theirs := other.upload("remit-other.x12", remit)
	waitFor(t, "the other account's 835", func() bool { return strings.Contains(other.get(theirs).Body, "Payment of $450.00") })
	page := other.get(theirs).Body
	if strings.Contains(page, `href="/claims/`) || !strings.Contains(htmlUnescape(visible(page)), "PCN1-00000 (no claim of yours)") {
		t.Errorf("another account's 835 links the claim:\n%s", visible(page))
	}
	if strings.Contains(a.get(claim).Body, `id="claim-paid"`) {
		t.Error("another account's 835 paid the claim")
	}

	mine := a.upload("remit-mine.x12", remit)
	waitFor(t, "the account's own 835", func() bool { return strings.Contains(a.get(mine).Body, `class="payment-claim"`) })
	if !strings.Contains(a.get(mine).Body, `href="`+claim+`" class="payment-claim"`) {
		t.Errorf("the account's own 835 does not link its claim %s", claim)
	}
	wantContains(t, "claim paid by the uploaded 835", a.waitClaim(claim, "Partly paid", "What was paid"), "$450.00", "TRACE0001", "Electronic funds transfer (ACH)", "Deductible Amount", "reason code A2 (CO-A2)")
}
