package web

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/chromedp"

	"github.com/clearhouse/clearhouse/internal/testenv"
)

// The browser tests drive the console in a real headless Chromium
// (Debian's /usr/bin/chromium, or $CLEARHOUSE_CHROMIUM) against the real
// server on a loopback port. Screenshots go to $CLEARHOUSE_ARTIFACTS (a
// temporary directory by default). Under CI=true a missing Chromium fails.
//
//	CLEARHOUSE_ARTIFACTS=$PWD/artifacts go test ./internal/web/ -run Browser -v

// chromiumPath finds the browser or skips (fails in CI).
func chromiumPath(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("CLEARHOUSE_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	testenv.Missing(t, "chromium not found (apt-get install --no-install-recommends chromium, or set CLEARHOUSE_CHROMIUM)")
	return ""
}

// artifactsDir is where screenshots go.
func artifactsDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("CLEARHOUSE_ARTIFACTS")
	if dir == "" {
		return t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// newBrowser starts a fresh headless Chromium with its own profile.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath(t)),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	t.Cleanup(func() { cancelCtx(); cancelAlloc() })
	// The first Run starts the browser; it must not carry a timeout.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// step runs actions with a deadline, failing the test with what was going on.
func step(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	stepWithin(t, ctx, 20*time.Second, what, actions...)
}

// pipelineWait bounds a wait for what the job queue does after a request (a
// claim's 999 and 277CA, a file processed): at load 40 on two cores a
// claim's 277CA took longer than 20 s to show.
const pipelineWait = time.Minute

// stepWithin is step with its own deadline.
func stepWithin(t *testing.T, ctx context.Context, within time.Duration, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	sctx, cancel := context.WithTimeout(ctx, within)
	defer cancel()
	if err := chromedp.Do(sctx, actions...); err != nil {
		failureShot(t, ctx)
		t.Fatalf("%s: %v", what, err)
	}
}

// failureShot saves what the page looked like when a step failed.
func failureShot(t *testing.T, ctx context.Context) {
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if png, err := chromedp.Run(sctx, chromedp.FullScreenshot(100)); err == nil {
		path := filepath.Join(artifactsDir(t), "failure-"+strings.ReplaceAll(t.Name(), "/", "_")+".png")
		if os.WriteFile(path, png, 0o644) == nil {
			t.Logf("failure screenshot %s", path)
		}
	}
}

// follow runs actions that load a new page (a click on a link or a plain
// form) and waits until that page has loaded.
func follow(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	resp, err := chromedp.RunResponse(sctx, actions...)
	if err != nil {
		failureShot(t, ctx)
		t.Fatalf("%s: %v", what, err)
	}
	if resp.Status >= 400 {
		failureShot(t, ctx)
		t.Fatalf("%s: HTTP %d", what, resp.Status)
	}
}

// text returns the visible text of the first element matching sel.
func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	s, err := chromedp.Run(sctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		t.Fatalf("text of %s: %v", sel, err)
	}
	return s
}

func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(sctx, survivesNavigation(chromedp.Evaluate[T](js)))
	if err != nil {
		t.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

// poll waits until the expression is true, like chromedp.Poll, on the page
// shown when it becomes true: a navigation meanwhile (a form's redirect, an
// htmx HX-Redirect, a reload) does not fail it.
func poll(expr string, opts ...chromedp.PollOption) chromedp.Action[chromedp.Void] {
	return survivesNavigation(chromedp.Poll[chromedp.Void](expr, opts...))
}

// survivesNavigation runs again an action that only reads the page (an
// evaluation, a poll) when a navigation replaced the page's JavaScript
// context under it. chromedp runs a poll in the context it last saw: if the
// page navigates meanwhile, the call fails with "Execution context was
// destroyed", or with "Cannot find context with specified id" when the old
// context was gone before the call reached the browser. The page that
// replaced it gets the action again, until ctx ends (the step's deadline).
func survivesNavigation[T any](a chromedp.Action[T]) chromedp.Action[T] {
	return func(ctx context.Context, tg *chromedp.Target) (T, error) {
		for {
			v, err := a(ctx, tg)
			if err == nil || !contextReplaced(err) {
				return v, err
			}
			select {
			case <-ctx.Done():
				return v, err
			case <-time.After(50 * time.Millisecond): // for chromedp to see the new page's context
			}
		}
	}
}

// contextReplaced reports whether err is the browser's answer to a call
// into a JavaScript context that a navigation has destroyed.
func contextReplaced(err error) bool {
	var e *cdproto.Error
	if !errors.As(err, &e) {
		return false
	}
	for _, msg := range []string{"Cannot find context with specified id", "Execution context was destroyed",
		"Cannot find default execution context", "Inspected target navigated or closed"} {
		if strings.Contains(e.Message, msg) {
			return true
		}
	}
	return false
}

// screenshot saves a full-page PNG into the artifacts directory.
func screenshot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	saveShot(t, ctx, dir, name, chromedp.FullScreenshot(100))
}

// viewportShot saves what the screen shows without scrolling.
func viewportShot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	saveShot(t, ctx, dir, name, chromedp.CaptureScreenshot())
}

func saveShot(t *testing.T, ctx context.Context, dir, name string, shot chromedp.Action[[]byte]) {
	t.Helper()
	sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	png, err := chromedp.Run(sctx, shot)
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot %s", path)
}

func wantContains(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%s lacks %q; it shows:\n%s", what, w, got)
		}
	}
}

// noSidewaysScroll fails the test if anything sticks out past a screen
// of the given width, except inside the regions that scroll on purpose
// (raw X12, wide tables).
func noSidewaysScroll(t *testing.T, ctx context.Context, page string, width int) {
	t.Helper()
	wide := eval[[]string](t, ctx, `[...document.querySelectorAll("body *")]
		.filter(e => !(e.parentElement && e.parentElement.closest("pre, .table-wrap")) &&
			e.getBoundingClientRect().right > `+strconv.Itoa(width+1)+`)
		.map(e => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + "." + e.className)`)
	if len(wide) > 0 {
		t.Errorf("%s: elements wider than a %dpx screen: %q", page, width, wide)
	}
	if w := eval[int](t, ctx, `document.documentElement.scrollWidth`); w > width {
		t.Errorf("%s: the page is %dpx wide on a %dpx screen", page, w, width)
	}
}

// settled waits until htmx has finished swapping: new content is wired
// (hx-post and friends) and focused only after its settle step.
var settled = poll(`!document.querySelector(".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added")`,
	chromedp.WithPollingTimeout(10*time.Second))

// runMock fills the form with a mock request through the picker, runs the
// check and waits for its result to be swapped in.
func runMock(t *testing.T, ctx context.Context, base, name, memberID string) string {
	t.Helper()
	// Wait for the fresh page (its placeholder) and for htmx, or a click
	// could still reach the previous page or submit without htmx.
	step(t, ctx, "open the new check page", chromedp.Navigate(base+"/checks/new"),
		chromedp.WaitVisible(chromedp.CSS("#result .placeholder")),
		poll(`window.htmx !== undefined && document.readyState === "complete"`))
	// Picking a mock fills the form at once (no button to press).
	step(t, ctx, "fill with mock "+name,
		chromedp.SetValue(chromedp.CSS("#mock"), name),
		chromedp.Evaluate[chromedp.Void](`document.querySelector("#mock").dispatchEvent(new Event("change", {bubbles: true}))`),
		poll(`document.querySelector("#f-sub_member_id").value === "`+memberID+`"`, chromedp.WithPollingTimeout(10*time.Second)),
		settled,
	)
	step(t, ctx, "run the check "+name,
		chromedp.Click(chromedp.CSS("#run-check")),
		chromedp.WaitVisible(chromedp.CSS("#result .result-head h2")),
		settled,
	)
	return text(t, ctx, "#result")
}

func TestBrowserConsole(t *testing.T) {
	ctx := newBrowser(t)
	console := watchConsole(t, ctx)
	srv := newTestServer(t)
	key, _ := srv.key(t, "Sunrise Family Dental", "test")
	shots := artifactsDir(t)

	// Sign in; the header shows the account and the test mode badge.
	step(t, ctx, "open the console", chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS("#key")))
	screenshot(t, ctx, shots, "signin.png")
	checkA11y(t, ctx, "sign-in page")
	step(t, ctx, "type the key", chromedp.SendKeys(chromedp.CSS("#key"), key))
	follow(t, ctx, "sign in", chromedp.Click(chromedp.CSS("form[action='/signin'] button[type=submit]")))
	wantContains(t, "header", text(t, ctx, ".site-header"), "Sunrise Family Dental", "TEST MODE")

	// Keyboard: the first Tab reaches the skip link, visibly focused.
	step(t, ctx, "tab", chromedp.KeyEvent("\t"))
	if got := eval[string](t, ctx, `document.activeElement.className + "|" + getComputedStyle(document.activeElement).outlineStyle`); got != "skip-link|solid" {
		t.Errorf("first Tab focuses %q, want the skip link with a solid outline", got)
	}

	// The payer picker narrows its list by name as one types.
	step(t, ctx, "search payers by name",
		chromedp.SendKeys(chromedp.CSS("#f-payer"), "aetna"),
		poll(`(() => {
			const o = [...document.querySelectorAll("#payer-options option")];
			return o.length > 0 && o.length < 5 && o[0].value === "Aetna (60054)";
		})()`, chromedp.WithPollingTimeout(5*time.Second)),
	)

	// 1. An active subscriber: coverage status, plan dates, a benefit amount.
	result := runMock(t, ctx, srv.URL, "uhc-subscriber", "UHC123456")
	wantContains(t, "active subscriber result", result,
		"Active Coverage", "NAVIGATE HMO", "Plan dates", "JANE M DOE",
		"Deductible", "In network", "Individual", "Family", "$1,000", "left",
		"Benefits by service", "SPECIALIST OFFICE VISIT, REFERRAL REQUIRED")
	if got := text(t, ctx, "#f-payer"); got != "" {
		t.Logf("payer box text %q", got)
	}
	if v := eval[string](t, ctx, `document.querySelector("#f-payer").value`); v != "UnitedHealthcare (87726)" {
		t.Errorf("the filled payer box shows %q, want the payer's name", v)
	}
	wantContains(t, "live region", text(t, ctx, "#result-status"), "Active Coverage for JANE M DOE")
	screenshot(t, ctx, shots, "check-active.png")
	noSidewaysScroll(t, ctx, "check-active.png", 1280)
	checkA11y(t, ctx, "active result")

	// 2. A dependent: the dependent's name and relationship.
	result = runMock(t, ctx, srv.URL, "uhc-dependent", "UHC202649")
	wantContains(t, "dependent result", result, "Active Coverage", "DEPENDENT", "JANE ALEX DOE", "Spouse", "JOHN A DOE", "CHOICE PLUS", "$4,000")
	people := eval[[]string](t, ctx, `[...document.querySelectorAll("#result .person")].map(p => p.querySelector("h4").textContent + ": " + p.querySelector(".name").textContent)`)
	if strings.Join(people, "; ") != "Subscriber: JOHN A DOE; Dependent: JANE ALEX DOE" {
		t.Errorf("people on the dependent result: %q", people)
	}
	dependentURL := eval[string](t, ctx, `document.querySelector("#result .result-meta a[href^='/checks/ec_']").href`)
	screenshot(t, ctx, shots, "check-dependent.png")
	noSidewaysScroll(t, ctx, "check-dependent.png", 1280)

	// 3. A payer rejection: the AAA code and the suggested fix.
	result = runMock(t, ctx, srv.URL, "uhc-aaa-75", "UHCAAA75")
	wantContains(t, "AAA result", result, "Rejected by the payer", "Member not found", "About the subscriber.", "What to do:")
	if strings.Contains(result, "Loop 2100C") || strings.Contains(result, "subscriber.memberId") {
		t.Errorf("the rejection speaks developer:\n%s", result)
	}
	fix := text(t, ctx, "#result .fix")
	if len(fix) < len("What to do: ")+20 {
		t.Errorf("the suggested fix is too short to help: %q", fix)
	}
	screenshot(t, ctx, shots, "check-aaa.png")
	noSidewaysScroll(t, ctx, "check-aaa.png", 1280)
	checkA11y(t, ctx, "AAA result")

	// 4. The server's rules, not only the browser's: a bad NPI check digit.
	step(t, ctx, "open the form again", chromedp.Click(chromedp.CSS("#show-form")), chromedp.WaitVisible(chromedp.CSS("#f-npi")))
	step(t, ctx, "break the NPI",
		chromedp.SetValue(chromedp.CSS("#f-npi"), "1234567890"),
		chromedp.Click(chromedp.CSS("#run-check")),
		chromedp.WaitVisible(chromedp.CSS("#error-summary")),
		settled,
	)
	wantContains(t, "NPI message", text(t, ctx, "#f-npi-error"), "This NPI is not valid")
	if got := eval[string](t, ctx, `document.activeElement.id`); got != "error-summary" {
		t.Errorf("focus after a refused check is on %q, want the error summary", got)
	}
	screenshot(t, ctx, shots, "check-validation.png")
	checkA11y(t, ctx, "refused form")

	// 5. History: newest first, filter by status, open a stored result.
	step(t, ctx, "open history", chromedp.Navigate(srv.URL+"/checks"), chromedp.WaitVisible(chromedp.CSS(".history-table")))
	rows := eval[[]string](t, ctx, `[...document.querySelectorAll(".history-table tbody tr")].map(r => r.innerText.replace(/\s+/g, " "))`)
	// The refused form was never sent: it is not a check.
	if len(rows) != 3 || !strings.Contains(rows[0], "Rejected by payer") ||
		!strings.Contains(rows[1], "Jane Doe") || !strings.Contains(rows[2], "Active coverage") {
		t.Errorf("history rows (newest first):\n%s", strings.Join(rows, "\n"))
	}
	screenshot(t, ctx, shots, "history.png")
	noSidewaysScroll(t, ctx, "history.png", 1280)
	checkA11y(t, ctx, "history")
	step(t, ctx, "pick a status", chromedp.SetValue(chromedp.CSS("#h-status"), "rejected"))
	follow(t, ctx, "filter rejected", chromedp.Click(chromedp.CSS(".filters button[type=submit]")))
	rows = eval[[]string](t, ctx, `[...document.querySelectorAll(".history-table tbody tr")].map(r => r.innerText)`)
	if len(rows) != 1 || !strings.Contains(rows[0], "Rejected by payer") {
		t.Errorf("filtered history: %q", rows)
	}
	// The whole row opens the check, not only its link.
	follow(t, ctx, "open the rejected check", chromedp.Click(chromedp.CSS(".history-table tbody td[data-label=Status]")))
	wantContains(t, "stored rejection", text(t, ctx, ".result"), "Member not found", "What to do:")
	step(t, ctx, "open the raw 271", chromedp.Click(chromedp.CSS(".result details:nth-of-type(2) summary")))
	wantContains(t, "raw 271", text(t, ctx, ".result details:nth-of-type(2) pre"), "ST*271*", "AAA*Y**75*C~")

	// 6. Phone width: no sideways scrolling, tables stack.
	step(t, ctx, "phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile))
	for _, page := range []struct{ url, file string }{
		{dependentURL, "phone-result.png"},
		{srv.URL + "/checks/new?mock=uhc-dependent", "phone-new-check.png"},
		{srv.URL + "/checks", "phone-history.png"},
	} {
		step(t, ctx, "open "+page.url, chromedp.Navigate(page.url), chromedp.WaitVisible(chromedp.CSS("main")))
		noSidewaysScroll(t, ctx, page.file, 390)
		viewportShot(t, ctx, shots, page.file)
		screenshot(t, ctx, shots, strings.TrimSuffix(page.file, ".png")+"-full.png")
	}
	label := eval[string](t, ctx, `getComputedStyle(document.querySelector(".history-table td"), "::before").content`)
	if !strings.Contains(label, "Patient") {
		t.Errorf("history cells are not labelled on a phone: %q", label)
	}

	console.none(t)

	// Sign out ends the session.
	follow(t, ctx, "sign out", chromedp.Click(chromedp.CSS(".signout button")))
	wantContains(t, "after sign out", text(t, ctx, "main"), "You have signed out.")
}
