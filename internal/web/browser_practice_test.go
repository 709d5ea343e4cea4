package web

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/clearhouse/clearhouse/internal/mockpayer"
)

// TestBrowserPracticeClaim is issue 28's walk in Chromium, at 1280 and at
// 390 px: the practice and its dentist saved through their forms; an empty
// claim reports every required input's problem at once (focus on the
// summary); a claim from the saved practice with two procedure lines,
// typed in one pass, is rejected (the mock rejects its member), corrected
// and resent from its page, then accepted and paid (the mock payer's 835
// a few seconds after its 277CA) with per-line amounts, adjustments in
// words and the patient's share; the 835's file page shows its payment;
// an empty professional claim reports every required input at once, and
// a professional claim typed on the CMS-1500-shaped form from the saved
// practice is accepted and paid. Screenshots go to $CLEARHOUSE_ARTIFACTS
// (practice-<width>-*.png).
//
//	CLEARHOUSE_ARTIFACTS=$PWD/artifacts go test ./internal/web/ -run TestBrowserPracticeClaim -v
func TestBrowserPracticeClaim(t *testing.T) {
	for _, width := range []int{1280, 390} {
		t.Run(strconv.Itoa(width), func(t *testing.T) { practiceWalk(t, width) })
	}
}

func practiceWalk(t *testing.T, width int) {
	ctx := newBrowser(t)
	if width < 1280 {
		step(t, ctx, "phone viewport", chromedp.EmulateViewport(int64(width), 844, chromedp.EmulateScale(2), chromedp.EmulateMobile))
	}
	console := watchConsole(t, ctx)
	// The 835 comes 3 s after the 277CA (serve --mock-remit-delay), so
	// the walk sees the claim accepted before it is paid; an accepted
	// claim's page asks again every second here (a minute by default).
	srv := newEDIServerWith(t, serverOptions{RemitDelay: 3 * time.Second, DecisionPoll: time.Second})
	key, _ := srv.claimsKey(t, "Sunrise Family Dental")
	shots := artifactsDir(t)
	shoot := func(name string) {
		t.Helper()
		step(t, ctx, "settle", settled)
		screenshot(t, ctx, shots, "practice-"+strconv.Itoa(width)+"-"+name+".png")
		noSidewaysScroll(t, ctx, name, width)
	}
	// Each field is typed in a step of its own: a key is a round trip to
	// the browser, and a whole claim's keys in one step's 20 s ran out at
	// load 36.
	fill := func(what string, fields map[string]string) {
		t.Helper()
		for id, v := range fields {
			step(t, ctx, what+": "+id, chromedp.SendKeys(chromedp.CSS("#"+id), v))
		}
	}
	signInBrowser(t, ctx, srv.URL, key)

	// The practice and its dentist, saved once.
	step(t, ctx, "open the practice form", chromedp.Navigate(srv.URL+"/practice/billing/new"), chromedp.WaitVisible(chromedp.CSS("#p-org")))
	fill("type the practice", map[string]string{"p-org": "Sunrise Family Dental", "p-npi": "1999999992", "p-tin": "12-3456789",
		"p-taxonomy": "1223G0001X", "p-address1": "123 Main St", "p-city": "Denver", "p-state": "CO", "p-zip": "80238-3000",
		"p-contact": "Billing Office", "p-phone": "303 555 0100"})
	follow(t, ctx, "save the practice", chromedp.Click(chromedp.CSS("#save-provider")))
	step(t, ctx, "open the dentist form", chromedp.Navigate(srv.URL+"/practice/rendering/new"), chromedp.WaitVisible(chromedp.CSS("#p-last")))
	fill("type the dentist", map[string]string{"p-first": "Jane", "p-last": "Smith", "p-npi": "1999999992"})
	follow(t, ctx, "save the dentist", chromedp.Click(chromedp.CSS("#save-provider")))
	wantContains(t, "practice page", text(t, ctx, "main"), "Sunrise Family Dental", "Default", "Jane Smith")
	shoot("practice")
	checkA11y(t, ctx, "practice page")

	// An empty claim: every required input's problem at once.
	step(t, ctx, "open the claim form", chromedp.Navigate(srv.URL+"/claims/new"), chromedp.WaitVisible(chromedp.CSS("#send-claim")))
	if got := eval[string](t, ctx, `document.querySelector("#c-bill_id").selectedOptions[0].innerText`); !strings.Contains(got, "Sunrise Family Dental") {
		t.Errorf("the saved practice is not preselected: %q", got)
	}
	step(t, ctx, "send the empty claim", chromedp.Click(chromedp.CSS("#send-claim")), chromedp.WaitVisible(chromedp.CSS("#error-summary")))
	console.forget("status of 400 (Bad Request) " + srv.URL + "/claims")
	summary := text(t, ctx, "#error-summary")
	for _, label := range []string{"Insurance company", "Your claim number", "Last name (insured person)", "Member ID (insured person)",
		"Date of birth (insured person)", "Sex (insured person)",
		"Street address (insured person)", "City (insured person)", "State (insured person)", "ZIP code (insured person)",
		"Date of service", "Procedure 1", "Charge ($) (procedure 1)"} {
		wantContains(t, "empty claim's summary", summary, label+":")
	}
	if got := eval[string](t, ctx, `document.activeElement.id`); got != "error-summary" {
		t.Errorf("focus after the empty claim: %q, want the error summary", got)
	}
	if got := eval[string](t, ctx, `document.querySelector("#c-sub_member_id").getAttribute("aria-describedby")`); !strings.Contains(got, "c-sub_member_id-error") {
		t.Errorf("the member ID's error is not described: %q", got)
	}
	shoot("empty")
	checkA11y(t, ctx, "empty claim")

	// A claim in one pass: the patient, the visit and two lines.
	pcn := "P" + strconv.Itoa(width) + time.Now().Format("150405")
	fill("type the claim", map[string]string{"c-payer": "UnitedHealthcare Dental (52133)", "c-pcn": pcn,
		"c-sub_first": "John", "c-sub_last": "Doe", "c-sub_member_id": mockpayer.ClaimRejectMemberID, "c-sub_address1": "1234 Some St",
		"c-sub_city": "Buckeye", "c-sub_state": "AZ", "c-sub_zip": "85326",
		"c-line1_code": "D0120", "c-line1_charge": "65", "c-line2_code": "D2150", "c-line2_tooth": "3", "c-line2_surfaces": "MO", "c-line2_charge": "180.00"})
	step(t, ctx, "pick the dates and sex",
		chromedp.SetValue(chromedp.CSS("#c-sub_dob"), "1980-06-15"), chromedp.SetValue(chromedp.CSS("#c-sub_gender"), "M"),
		chromedp.SetValue(chromedp.CSS("#c-service_date"), time.Now().AddDate(0, 0, -1).Format("2006-01-02")))
	follow(t, ctx, "send the claim", chromedp.Click(chromedp.CSS("#send-claim")))
	waitText(t, ctx, "#claim-status", "Rejected")
	wantContains(t, "rejected claim", text(t, ctx, "main"), "member number", "What was billed", "D0120", "$65.00", "D2150", "MO", "$180.00")
	shoot("rejected")
	checkA11y(t, ctx, "rejected claim")

	// Corrected and resent from its page.
	follow(t, ctx, "correct and resend", chromedp.Click(chromedp.CSS("#correct-claim")))
	wantContains(t, "the payer's reason beside the member ID", text(t, ctx, "#c-sub_member_id-error"), "member number")
	shoot("correct")
	// The right member ID is one the mock pays in part (20 % written off,
	// 10 % a deductible), so the payment has something to explain.
	step(t, ctx, "type the right member ID", chromedp.SetValue(chromedp.CSS("#c-sub_member_id"), mockpayer.RemitMember(mockpayer.RemitPartial)))
	follow(t, ctx, "resend", chromedp.Click(chromedp.CSS("#send-claim")))
	stepWithin(t, ctx, pipelineWait, "wait for Accepted", poll(
		`/Accepted|Paid/.test(document.querySelector("#claim-status")?.innerText || "")`, chromedp.WithPollingTimeout(pipelineWait)))
	wantContains(t, "resent claim", text(t, ctx, "main"), "Claim acknowledgment (277CA): Accepted", "Replace this claim", "Void this claim")
	shoot("accepted")
	checkA11y(t, ctx, "accepted claim")

	// Paid, line by line: $65 and $180 allowed at 80 %, a 10 % deductible
	// left to the patient.
	waitPaid(t, ctx)
	wantContains(t, "paid claim", text(t, ctx, "#claim-paid"), "What was paid", "$245.00", "$171.50", "$24.50",
		"D0120", "D2150", "$45.50", "$126.00", "Charge exceeds fee schedule", "Deductible Amount", "Patient responsibility")
	shoot("paid")
	checkA11y(t, ctx, "paid claim")

	// The 835's file page: the payment that paid it, linking the claim.
	follow(t, ctx, "open the 835", chromedp.Click(chromedp.CSS(".answer-835 .answer-file")))
	waitText(t, ctx, ".payment-summary", "Total paid")
	wantContains(t, "835 file", text(t, ctx, ".payment-summary"), "UnitedHealthcare Dental", "Electronic funds transfer (ACH)", "$171.50",
		"1 claim: 1 paid in part", "NPI 1999999992", pcn)
	shoot("remit")
	checkA11y(t, ctx, "835 file")

	// A professional claim: an empty one first, every problem at once.
	step(t, ctx, "open the professional form", chromedp.Navigate(srv.URL+"/claims/new?kind=professional"), chromedp.WaitVisible(chromedp.CSS("#send-claim")))
	wantContains(t, "professional form", text(t, ctx, "h1"), "New professional claim (CMS-1500)")
	step(t, ctx, "send the empty professional claim", chromedp.Click(chromedp.CSS("#send-claim")), chromedp.WaitVisible(chromedp.CSS("#error-summary")))
	console.forget("status of 400 (Bad Request) " + srv.URL + "/claims")
	summary = text(t, ctx, "#error-summary")
	for _, label := range []string{"Insurance company", "Your claim number", "Member ID (insured person)", "Date of birth (insured person)",
		"Date of service", "Diagnosis A", "Service 1", "Charge ($) (line 1)"} {
		wantContains(t, "empty professional claim's summary", summary, label+":")
	}
	for _, leak := range []string{"claimInformation", "professionalService", "2400", "837P", "{"} {
		if strings.Contains(summary, leak) {
			t.Errorf("the professional summary says %q:\n%s", leak, summary)
		}
	}
	shoot("professional-empty")
	checkA11y(t, ctx, "empty professional claim")

	// Typed in one pass from the saved practice: two diagnoses, two lines.
	ppcn := "M" + strconv.Itoa(width) + time.Now().Format("150405")
	fill("type the professional claim", map[string]string{"c-payer": "UnitedHealthcare (87726)", "c-pcn": ppcn,
		"c-sub_first": "Mary", "c-sub_last": "Major", "c-sub_member_id": mockpayer.RemitMember(mockpayer.RemitPartial), "c-sub_address1": "1234 Some St",
		"c-sub_city": "Buckeye", "c-sub_state": "AZ", "c-sub_zip": "85326", "c-dx1": "J06.9", "c-dx2": "R05.9",
		"c-line1_code": "99213", "c-line1_ptr": "AB", "c-line1_charge": "125", "c-line2_code": "87880", "c-line2_mods": "QW", "c-line2_ptr": "A", "c-line2_charge": "35"})
	step(t, ctx, "pick the professional dates and sex",
		chromedp.SetValue(chromedp.CSS("#c-sub_dob"), "1975-02-03"), chromedp.SetValue(chromedp.CSS("#c-sub_gender"), "F"),
		chromedp.SetValue(chromedp.CSS("#c-service_date"), time.Now().AddDate(0, 0, -1).Format("2006-01-02")))
	shoot("professional-form")
	follow(t, ctx, "send the professional claim", chromedp.Click(chromedp.CSS("#send-claim")))
	waitPaid(t, ctx)
	wantContains(t, "professional claim", text(t, ctx, "main"), "went out as an 837P", "Claim acknowledgment (277CA): Accepted",
		"99213", "87880", "QW", "$125.00", "$35.00", "$87.50", "$24.50", "$16.00")
	shoot("professional-paid")
	checkA11y(t, ctx, "paid professional claim")

	// The UB-04-shaped form, filled from a test sample.
	step(t, ctx, "open the institutional form", chromedp.Navigate(srv.URL+"/claims/new?kind=institutional&sample=accepted"),
		chromedp.WaitVisible(chromedp.CSS("#c-tob")))
	wantContains(t, "institutional form", text(t, ctx, "main"), "New institutional claim (UB-04)", "Type of bill", "Statement from",
		"Patient status", "Principal diagnosis", "Revenue code 1")
	shoot("institutional-form")
	checkA11y(t, ctx, "institutional form")

	step(t, ctx, "open the claims list", chromedp.Navigate(srv.URL+"/claims"), chromedp.WaitVisible(chromedp.CSS(".claims-table")))
	wantContains(t, "claims list", text(t, ctx, ".claims-table"), "UnitedHealthcare Dental (52133)", "UnitedHealthcare (87726)")
	shoot("list")
	console.none(t)
}

// waitPaid waits until the 835 has paid the claim (both walks' claims
// are paid in part) on the page as it is: an accepted claim's page keeps
// following it, gently, until the payer's decision shows, so nobody has
// to open it again.
func waitPaid(t *testing.T, ctx context.Context) {
	t.Helper()
	paid := `(document.querySelector("#claim-status")?.innerText || "") === "Partly paid" && !!document.querySelector("#claim-paid")`
	deadline := time.Now().Add(pipelineWait)
	for !eval[bool](t, ctx, paid) {
		if time.Now().After(deadline) {
			failureShot(t, ctx)
			t.Fatalf("the claim was not paid within %s", pipelineWait)
		}
		// Until it is paid the page follows the claim (never reloaded
		// here): an accepted claim is not final.
		if !eval[bool](t, ctx, `!!document.querySelector("#claim-view[hx-trigger]")`) {
			failureShot(t, ctx)
			t.Fatalf("the claim's page stopped following it before it was paid (it says %q)",
				eval[string](t, ctx, `document.querySelector("#claim-status")?.innerText || ""`))
		}
		time.Sleep(time.Second)
	}
	// Paid: nothing more comes, and the page stops asking.
	if eval[bool](t, ctx, `!!document.querySelector("#claim-view[hx-trigger]")`) {
		t.Error("a paid claim's page still asks again")
	}
	// Plain words: no X12 element names in what happened.
	for _, jargon := range []string{"CLP0", "IK5", "STC0", "SVC0", "CAS0"} {
		if strings.Contains(text(t, ctx, "main"), jargon) {
			t.Errorf("the paid claim's page says %q", jargon)
		}
	}
}
