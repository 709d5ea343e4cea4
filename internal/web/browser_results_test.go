package web

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// signInBrowser opens the console in the browser and signs in with key.
func signInBrowser(t *testing.T, ctx context.Context, base, key string) {
	t.Helper()
	step(t, ctx, "open the sign-in page", chromedp.Navigate(base+"/signin"), chromedp.WaitVisible(chromedp.CSS("#key")))
	step(t, ctx, "type the key", chromedp.SendKeys(chromedp.CSS("#key"), key))
	follow(t, ctx, "sign in", chromedp.Click(chromedp.CSS("form[action='/signin'] button[type=submit]")))
}

// atWidth sets the browser to a desktop (1280) or phone (390) screen.
func atWidth(t *testing.T, ctx context.Context, width int) {
	t.Helper()
	if width >= 1000 {
		step(t, ctx, "desktop viewport", chromedp.EmulateViewport(int64(width), 900))
		return
	}
	step(t, ctx, "phone viewport", chromedp.EmulateViewport(int64(width), 844, chromedp.EmulateScale(2), chromedp.EmulateMobile))
}

// TestBrowserResults runs an HMO, the Medicare and a dental check in the
// browser, then reads each stored result at 1280 and 390 px: the grid's
// height, Medicare's parts and dental's classes and limits in the words
// a front desk uses, no focus ring painted on load, no sideways scrolling,
// no console errors. Screenshots: result-{hmo,medicare,dental}-{1280,390}.png.
func TestBrowserResults(t *testing.T) {
	ctx := newBrowser(t)
	console := watchConsole(t, ctx)
	srv := newTestServer(t)
	key, _ := srv.key(t, "Sunrise Family Practice", "test")
	shots := artifactsDir(t)
	signInBrowser(t, ctx, srv.URL, key)

	results := map[string]string{}
	for _, r := range []struct{ kind, mock, member string }{
		{"hmo", "uhc-subscriber", "UHC123456"},
		{"medicare", "cms-subscriber", "1EG4TE5MK73"},
		{"dental", "cigna-dental", "U3141592653"},
	} {
		runMock(t, ctx, srv.URL, r.mock, r.member)
		// The result takes the page's width; the form folds to one line.
		if w := eval[float64](t, ctx, `document.querySelector("#result .result").getBoundingClientRect().width`); w < 1100 {
			t.Errorf("%s: the result is %.0fpx wide at 1280 px; it should use the page's width", r.kind, w)
		}
		if shown := eval[bool](t, ctx, `getComputedStyle(document.querySelector("#check-form")).display !== "none"`); shown {
			t.Errorf("%s: the form stays open beside the result", r.kind)
		}
		wantContains(t, r.kind+" form summary", text(t, ctx, ".form-summary"), "Checked ")
		// Focus moved to the result for screen readers, without a ring.
		if got := eval[string](t, ctx, `(() => { const h = document.activeElement;
			return h.id + "|" + getComputedStyle(h).outlineStyle + "|" + getComputedStyle(h).boxShadow })()`); got != "result-title|none|none" {
			t.Errorf("%s: focus after the check: %q, want the result heading without a ring", r.kind, got)
		}
		results[r.kind] = eval[string](t, ctx, `document.querySelector("#result .result-meta a[href^='/checks/ec_']").href`)
	}

	for _, width := range []int{1280, 390} {
		atWidth(t, ctx, width)
		for _, kind := range []string{"hmo", "medicare", "dental"} {
			step(t, ctx, "open the "+kind+" result", chromedp.Navigate(results[kind]), chromedp.WaitVisible(chromedp.CSS(".result")))
			name := "result-" + kind + "-" + map[bool]string{true: "1280", false: "390"}[width > 1000] + ".png"
			screenshot(t, ctx, shots, name)
			noSidewaysScroll(t, ctx, name, width)
			checkA11y(t, ctx, name)
			if got := eval[string](t, ctx, `(() => { const h = document.querySelector("#result-title");
				return (document.activeElement === h) + "|" + getComputedStyle(h).outlineStyle })()`); got != "false|none" {
				t.Errorf("%s: the result heading on load: %q, want no focus and no ring", name, got)
			}
			page := text(t, ctx, ".result")
			if m := developerWords.FindString(page); m != "" {
				t.Errorf("%s speaks developer (%q)", name, m)
			}
			switch kind {
			case "hmo":
				wantContains(t, name, page, "NAVIGATE HMO", "Deductible", "Individual", "Family", "$1,000", "$1,722.50", "left",
					"Out-of-pocket maximum", "$9,515.30", "Benefits by service", "$20 copay", "$45 copay", "Patient pays 10% (plan pays 90%)",
					"Not covered", "Primary Care Provider", "NPI 1682037191", "(972) 555-0188", "Payer phone", "(800) 555-0142")
				if strings.Contains(page, "Uniform Resource Locator") {
					t.Errorf("%s: contact labels read like X12", name)
				}
				// One header row over the grid, a row per service (eight
				// here, several service types merged), and no more than
				// two screens at 1280 px.
				if n := eval[int](t, ctx, `document.querySelectorAll(".service-grid thead tr").length`); n != 1 {
					t.Errorf("%s: %d header rows over the grid, want 1", name, n)
				}
				rows := eval[int](t, ctx, `document.querySelectorAll(".service-grid tbody tr").length`)
				if rows < 6 || rows > 10 {
					t.Errorf("%s: %d grid rows", name, rows)
				}
				if width > 1000 {
					h := eval[float64](t, ctx, `document.querySelector(".result").getBoundingClientRect().height`)
					if h > 2*900 {
						t.Errorf("%s: the result is %.0fpx tall; it should fit in two 900px screens", name, h)
					}
					t.Logf("HMO result at 1280 px: %.0f px tall, %d grid rows", h, rows)
				}
			case "medicare":
				wantContains(t, name, page, "Medicare", "Part A (hospital)", "Part B (medical)", "Deductible remaining",
					"$1,676 per benefit period", "$257 per calendar year", "$91.12", "Patient pays 20%",
					"Member ID (Medicare number, MBI)", "1EG4TE5MK73")
				// Each number sits under its own part and label.
				pairs := eval[[]string](t, ctx, `[...document.querySelectorAll(".medicare-part")].map(p =>
					p.querySelector("h4").textContent + ": " + [...p.querySelectorAll("dt")].map(dt => dt.textContent + "=" + dt.nextElementSibling.textContent).join("; "))`)
				joined := strings.Join(pairs, "\n")
				wantContains(t, name+" parts", joined, "Part A (hospital): ", "Lifetime reserve days remaining=60",
					"Deductible remaining=$1,676", "Part B (medical): ", "Deductible remaining=$91.12", "Coinsurance=Patient pays 20%")
			case "dental":
				wantContains(t, name, page, "Dental", "Annual maximum", "$1,500", "$1,182.60", "Orthodontic lifetime maximum",
					"up to age 19", "Coinsurance by class", "Preventive and diagnostic", "Basic", "Major", "Orthodontics",
					"Patient pays 20% (plan pays 80%)", "Patient pays 50% (plan pays 50%)", "Frequency limits", "D1110",
					"2 visits per calendar year", "D0274", "1 visit per 12 months", "Waiting periods", "12 MONTH WAITING PERIOD")
			}
		}
	}
	console.none(t)
}

// TestBrowserPayerPicker types payer names as a front desk does: the
// picker suggests by name, a name runs the check, and an unknown name is a
// message next to the box, not a check.
func TestBrowserPayerPicker(t *testing.T) {
	ctx := newBrowser(t)
	console := watchConsole(t, ctx)
	srv := newTestServer(t)
	key, _ := srv.key(t, "Sunrise Family Practice", "test")
	signInBrowser(t, ctx, srv.URL, key)
	runMock(t, ctx, srv.URL, "uhc-subscriber", "UHC123456") // a filled form to change

	step(t, ctx, "reopen the form and type a name",
		chromedp.Click(chromedp.CSS("#show-form")),
		chromedp.WaitVisible(chromedp.CSS("#f-payer")),
		chromedp.Evaluate[chromedp.Void](`document.querySelector("#f-payer").value = ""`),
		chromedp.SendKeys(chromedp.CSS("#f-payer"), "UnitedHealth"),
		poll(`[...document.querySelectorAll("#payer-options option")].some(o => o.value === "UnitedHealthcare (87726)")`,
			chromedp.WithPollingTimeout(5*1e9)),
	)
	options := eval[[]string](t, ctx, `[...document.querySelectorAll("#payer-options option")].map(o => o.value)`)
	wantContains(t, "suggestions for UnitedHealth", strings.Join(options, "; "), "UnitedHealthcare (87726)", "UnitedHealthcare Dental (52133)")
	step(t, ctx, "finish the name and run",
		chromedp.SendKeys(chromedp.CSS("#f-payer"), "care"),
		chromedp.Click(chromedp.CSS("#run-check")),
		chromedp.WaitVisible(chromedp.CSS("#result .result-head h2")),
		settled,
	)
	wantContains(t, "check by name", text(t, ctx, "#result"), "Active Coverage", "UnitedHealthcare (87726)")

	step(t, ctx, "an unknown payer",
		chromedp.Click(chromedp.CSS("#show-form")),
		chromedp.WaitVisible(chromedp.CSS("#f-payer")),
		chromedp.SetValue(chromedp.CSS("#f-payer"), "Acme Insurance of Nowhere"),
		chromedp.Click(chromedp.CSS("#run-check")),
		chromedp.WaitVisible(chromedp.CSS("#f-payer-error")),
		settled,
	)
	wantContains(t, "unknown payer message", text(t, ctx, "#f-payer-error"), "No payer called", "is in the payer list")
	if got := eval[string](t, ctx, `document.activeElement.id`); got != "error-summary" {
		t.Errorf("focus after the refused form is on %q, want the error summary", got)
	}
	step(t, ctx, "open history", chromedp.Navigate(srv.URL+"/checks"), chromedp.WaitVisible(chromedp.CSS(".history-table")))
	if n := eval[int](t, ctx, `document.querySelectorAll(".history-table tbody tr").length`); n != 2 {
		t.Errorf("history lists %d checks, want the two sent (the unknown payer was never sent)", n)
	}
	// The history's payer filter takes names.
	step(t, ctx, "search by payer name", chromedp.Click(chromedp.CSS(".more-filters summary")),
		chromedp.SendKeys(chromedp.CSS("#h-payer"), "unitedhealthcare"))
	follow(t, ctx, "search", chromedp.Click(chromedp.CSS(".filters button[type=submit]")))
	if n := eval[int](t, ctx, `document.querySelectorAll(".history-table tbody tr").length`); n != 2 {
		t.Errorf("payer name search lists %d checks, want 2", n)
	}

	// Phone: a history row keeps the payer's name and id on one line and
	// the status pill its own size.
	atWidth(t, ctx, 390)
	step(t, ctx, "phone history", chromedp.Navigate(srv.URL+"/checks"), chromedp.WaitVisible(chromedp.CSS(".history-table")))
	noSidewaysScroll(t, ctx, "phone history", 390)
	row := eval[map[string]float64](t, ctx, `(() => {
		const r = document.querySelector(".history-table tbody tr");
		const payer = r.querySelector(".payer-cell"), pill = r.querySelector(".status");
		const line = parseFloat(getComputedStyle(payer).lineHeight) || 20;
		return {payerRects: payer.getClientRects().length, payerHeight: payer.getBoundingClientRect().height, line,
			pillWidth: pill.getBoundingClientRect().width, pillHeight: pill.getBoundingClientRect().height,
			pillText: pill.scrollWidth, cellWidth: pill.parentElement.getBoundingClientRect().width};
	})()`)
	if row["payerRects"] != 1 || row["payerHeight"] > 1.6*row["line"] {
		t.Errorf("phone history: the payer wraps: %v", row)
	}
	if row["pillWidth"] > row["pillText"]+24 || row["pillWidth"] > row["cellWidth"]*0.8 || row["pillHeight"] > 40 {
		t.Errorf("phone history: the status pill stretches: %v", row)
	}
	viewportShot(t, ctx, artifactsDir(t), "phone-history-rows.png")
	console.none(t)
}
