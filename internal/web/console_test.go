package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

func TestSignInRefusesBadKeys(t *testing.T) {
	srv := newTestServer(t)
	revoked, rec := srv.key(t, "Acme Dental", "test")
	if err := srv.Store.RevokeAPIKey(context.Background(), rec.ID, time.Now()); err != nil {
		t.Fatal(err)
	}
	good, _ := srv.key(t, "Acme Dental", "test")
	unknown := good[:len(good)-4] + "aaaa" // well formed, wrong secret

	for _, tc := range []struct {
		name, key, want string
	}{
		{"empty", "", "Enter your API key."},
		{"malformed", "hunter2", "This is not an API key: a key starts with test_ or live_"},
		{"unknown", unknown, "This API key was not accepted"},
		{"revoked", revoked, "This API key has been revoked."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := srv.browser(t)
			page := b.get("/signin")
			resp := b.post("/signin", url.Values{"csrf": {b.csrf(page.Body)}, "key": {tc.key}})
			if resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("status %d, want 401", resp.StatusCode)
			}
			if !strings.Contains(resp.Body, tc.want) || !strings.Contains(resp.Body, `id="key-error"`) ||
				!strings.Contains(resp.Body, `aria-invalid="true"`) {
				t.Errorf("page lacks the message %q next to the key field:\n%s", tc.want, resp.Body)
			}
			if tc.key != "" && strings.Contains(resp.Body, tc.key) {
				t.Error("the page echoes the key")
			}
			if got := b.get("/checks/new"); got.StatusCode != http.StatusSeeOther || !strings.HasPrefix(got.Header.Get("Location"), "/signin") {
				t.Errorf("after a refused sign-in /checks/new answered %d %s", got.StatusCode, got.Header.Get("Location"))
			}
		})
	}
}

func TestSessionCookieFlags(t *testing.T) {
	srv := newTestServer(t)
	key, rec := srv.key(t, "Acme Dental", "test")
	for _, tc := range []struct {
		name       string
		header     []string
		wantSecure bool
	}{
		{"plain http", nil, false},
		{"behind a TLS proxy", []string{"X-Forwarded-Proto", "https"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := srv.browser(t)
			page := b.get("/signin")
			resp := b.post("/signin", url.Values{"csrf": {b.csrf(page.Body)}, "key": {key}}, tc.header...)
			if resp.StatusCode != http.StatusSeeOther {
				t.Fatalf("sign in: %d", resp.StatusCode)
			}
			cookies := resp.Cookies()
			if len(cookies) != 1 || cookies[0].Name != sessionCookie {
				t.Fatalf("cookies %v, want one %s", cookies, sessionCookie)
			}
			c := cookies[0]
			raw := resp.Header.Get("Set-Cookie")
			if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/" || c.Secure != tc.wantSecure {
				t.Errorf("cookie flags: %s", raw)
			}
			if c.MaxAge <= 0 || c.MaxAge > int(DefaultSessionTTL.Seconds()) {
				t.Errorf("Max-Age %d, want (0, %d]", c.MaxAge, int(DefaultSessionTTL.Seconds()))
			}
			secret := key[strings.LastIndexByte(key, '_')+1:]
			if strings.Contains(c.Value, secret) || strings.Contains(c.Value, key) {
				t.Errorf("the cookie carries the key: %s", c.Value)
			}
			if !strings.Contains(c.Value, "."+rec.ID+".") {
				t.Errorf("the cookie should name the key by its public id %s: %s", rec.ID, c.Value)
			}
		})
	}
}

func TestCSRFProtection(t *testing.T) {
	srv := newTestServer(t)
	key, _ := srv.key(t, "Acme Dental", "test")
	b := srv.browser(t)
	b.signIn(key)
	form := b.formFor("uhc-subscriber")
	token := form.Get("csrf")

	other := srv.browser(t)
	other.signIn(key)
	otherToken := other.formFor("uhc-subscriber").Get("csrf")

	with := func(tok string) url.Values {
		v := url.Values{}
		for k, vs := range form {
			v[k] = vs
		}
		v.Set("csrf", tok)
		return v
	}
	for _, tc := range []struct {
		name   string
		path   string
		form   url.Values
		header []string
		want   int
	}{
		{"no token", "/checks", with(""), nil, 403},
		{"forged token", "/checks", with(strings.Repeat("A", len(token))), nil, 403},
		{"another session's token", "/checks", with(otherToken), nil, 403},
		{"cross-site fetch metadata", "/checks", form, []string{"Sec-Fetch-Site", "cross-site"}, 403},
		{"foreign origin", "/checks", form, []string{"Sec-Fetch-Site", "", "Origin", "https://evil.example"}, 403},
		{"sign out without token", "/signout", url.Values{}, nil, 403},
		{"valid", "/checks", form, nil, 303},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := b.post(tc.path, tc.form, tc.header...)
			if resp.StatusCode != tc.want {
				t.Fatalf("status %d, want %d\n%.500s", resp.StatusCode, tc.want, resp.Body)
			}
		})
	}
	// The token in the header works too (htmx requests).
	resp := b.post("/checks", with(""), "X-CSRF-Token", token)
	if resp.StatusCode != 303 {
		t.Errorf("token in X-CSRF-Token: %d %s", resp.StatusCode, resp.Body)
	}
}

func TestSignInFormNeedsItsToken(t *testing.T) {
	srv := newTestServer(t)
	key, _ := srv.key(t, "Acme Dental", "test")
	b := srv.browser(t)
	if resp := b.post("/signin", url.Values{"key": {key}}); resp.StatusCode != 403 {
		t.Errorf("sign-in without the form's cookie: %d, want 403", resp.StatusCode)
	}
	page := b.get("/signin")
	if resp := b.post("/signin", url.Values{"key": {key}}); resp.StatusCode != 403 {
		t.Errorf("sign-in without the token: %d, want 403", resp.StatusCode)
	}
	if resp := b.post("/signin", url.Values{"key": {key}, "csrf": {b.csrf(page.Body)}}, "Sec-Fetch-Site", "cross-site"); resp.StatusCode != 403 {
		t.Errorf("cross-site sign-in: %d, want 403", resp.StatusCode)
	}
}

func TestSessionsEnd(t *testing.T) {
	srv := newTestServer(t)
	t.Run("revoking the key", func(t *testing.T) {
		key, rec := srv.key(t, "Acme Dental", "test")
		b := srv.browser(t)
		b.signIn(key)
		if resp := b.get("/checks"); resp.StatusCode != 200 {
			t.Fatalf("history: %d", resp.StatusCode)
		}
		if err := srv.Store.RevokeAPIKey(context.Background(), rec.ID, time.Now()); err != nil {
			t.Fatal(err)
		}
		resp := b.get("/checks")
		if resp.StatusCode != 303 || resp.Header.Get("Location") != "/signin?next=%2Fchecks&reason=revoked" {
			t.Errorf("after revocation: %d %s", resp.StatusCode, resp.Header.Get("Location"))
		}
	})
	t.Run("expiry", func(t *testing.T) {
		key, _ := srv.key(t, "Acme Dental", "test")
		b := srv.browser(t)
		b.signIn(key)
		srv.Clock.Advance(DefaultSessionTTL - time.Minute)
		if resp := b.get("/checks"); resp.StatusCode != 200 {
			t.Fatalf("before expiry: %d", resp.StatusCode)
		}
		srv.Clock.Advance(2 * time.Minute)
		resp := b.get("/checks")
		if resp.StatusCode != 303 || !strings.Contains(resp.Header.Get("Location"), "reason=expired") {
			t.Errorf("after expiry: %d %s", resp.StatusCode, resp.Header.Get("Location"))
		}
	})
	t.Run("signing out", func(t *testing.T) {
		key, _ := srv.key(t, "Acme Dental", "test")
		b := srv.browser(t)
		b.signIn(key)
		u, _ := url.Parse(srv.URL)
		stolen := b.c.Jar.Cookies(u)
		page := b.get("/checks")
		resp := b.post("/signout", url.Values{"csrf": {b.csrf(page.Body)}})
		if resp.StatusCode != 303 || resp.Header.Get("Location") != "/signin?reason=signedout" {
			t.Fatalf("sign out: %d %s", resp.StatusCode, resp.Header.Get("Location"))
		}
		if got := b.get("/checks"); got.StatusCode != 303 {
			t.Errorf("after sign out: %d", got.StatusCode)
		}
		replay := srv.browser(t)
		replay.c.Jar.SetCookies(u, stolen)
		if got := replay.get("/checks"); got.StatusCode != 303 {
			t.Errorf("a copy of the signed-out cookie still works: %d", got.StatusCode)
		}
	})
}

func TestAccountsCannotSeeEachOthersChecks(t *testing.T) {
	srv := newTestServer(t)
	keyA, _ := srv.key(t, "Acme Dental", "test")
	keyB, _ := srv.key(t, "Birch Clinic", "test")
	a := srv.browser(t)
	a.signIn(keyA)
	resp := a.post("/checks", a.formFor("uhc-subscriber"))
	if resp.StatusCode != 303 {
		t.Fatalf("check: %d", resp.StatusCode)
	}
	result := resp.Header.Get("Location")
	id := strings.TrimPrefix(result, "/checks/")
	if page := a.get(result); page.StatusCode != 200 || !strings.Contains(page.Body, "Active Coverage") {
		t.Fatalf("owner's result page: %d", page.StatusCode)
	}

	b := srv.browser(t)
	b.signIn(keyB)
	for _, path := range []string{result, "/checks/new?from=" + id} {
		page := b.get(path)
		if page.StatusCode != 404 || strings.Contains(page.Body, "UHC123456") {
			t.Errorf("other account GET %s: %d", path, page.StatusCode)
		}
	}
	if page := b.get("/checks"); strings.Contains(page.Body, id) {
		t.Error("the other account's history lists the check")
	}
	if page := a.get("/checks"); !strings.Contains(page.Body, id) {
		t.Error("the owner's history does not list the check")
	}

	// The same account's production key keeps a separate history, as the
	// API does: a test check is neither listed nor opened there.
	keyLive, _ := srv.key(t, "Acme Dental", "production")
	live := srv.browser(t)
	live.signIn(keyLive)
	if page := live.get(result); page.StatusCode != 404 {
		t.Errorf("production session GET %s: %d, want 404", result, page.StatusCode)
	}
	if page := live.get("/checks"); strings.Contains(page.Body, id) {
		t.Error("the production session's history lists a test check")
	}
}

func TestServerValidationShownNextToFields(t *testing.T) {
	srv := newTestServer(t)
	key, rec := srv.key(t, "Acme Dental", "test")
	b := srv.browser(t)
	b.signIn(key)
	form := b.formFor("uhc-subscriber")
	form.Set("npi", "1234567890") // ten digits, wrong check digit: only the server knows
	form.Set("sub_member_id", "")
	form.Set("sub_last", "")
	form.Set("sub_dob", "")
	resp := b.post("/checks", form)
	if resp.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("status %d, want 422", resp.StatusCode)
	}
	for _, want := range []string{
		`id="f-npi-error"`, `This NPI is not valid: check it for a typo.`, `aria-describedby="f-npi-hint f-npi-error"`,
		`id="f-subscriber-error"`, `Enter the member ID, the date of birth or the last name.`,
		`<a href="#f-npi">NPI:`, `value="1234567890"`,
	} {
		if !strings.Contains(resp.Body, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	// A form with problems is never sent, so it is not in the history.
	if list, _, err := srv.Store.ListEligibilityChecks(context.Background(), rec.AccountID, store.EligibilityFilter{}); err != nil || len(list) != 0 {
		t.Errorf("the refused form was recorded: %d checks, %v", len(list), err)
	}
	// htmx gets only the form, retargeted onto itself.
	form.Set("npi", "1234567890")
	hx := b.post("/checks", form, "HX-Request", "true")
	if hx.Header.Get("HX-Retarget") != "#check-form" || strings.Contains(hx.Body, "<html") || !strings.Contains(hx.Body, `id="f-npi-error"`) {
		t.Errorf("htmx validation answer: %d %v\n%.300s", hx.StatusCode, hx.Header, hx.Body)
	}
}

func TestHTMXResultFragment(t *testing.T) {
	srv := newTestServer(t)
	key, _ := srv.key(t, "Acme Dental", "test")
	b := srv.browser(t)
	b.signIn(key)
	resp := b.post("/checks", b.formFor("uhc-aaa-75"), "HX-Request", "true")
	if resp.StatusCode != 200 || strings.Contains(resp.Body, "<html") {
		t.Fatalf("htmx check: %d\n%.300s", resp.StatusCode, resp.Body)
	}
	for _, want := range []string{`hx-swap-oob="innerHTML"`, "Rejected by the payer: Member not found.", "What to do:", "X12 271 from the payer"} {
		if !strings.Contains(resp.Body, want) {
			t.Errorf("fragment lacks %q", want)
		}
	}
}

func TestPagesNeedASession(t *testing.T) {
	srv := newTestServer(t)
	b := srv.browser(t)
	for _, path := range []string{"/checks/new", "/checks", "/checks/ec_x", "/payers/search?q=aetna"} {
		resp := b.get(path)
		if resp.StatusCode != 303 || !strings.HasPrefix(resp.Header.Get("Location"), "/signin") {
			t.Errorf("GET %s signed out: %d %s", path, resp.StatusCode, resp.Header.Get("Location"))
		}
	}
	req, _ := http.NewRequest("GET", srv.URL+"/checks", nil)
	req.Header.Set("HX-Request", "true")
	if resp := b.do(req); resp.StatusCode != 401 || !strings.HasPrefix(resp.Header.Get("HX-Redirect"), "/signin") {
		t.Errorf("htmx signed out: %d %v", resp.StatusCode, resp.Header)
	}
	if resp := b.get("/signin?next=//evil.example/"); !strings.Contains(resp.Body, `name="next" value="/checks/new"`) {
		t.Error("sign-in keeps an off-site next")
	}
}

func TestPayerSearch(t *testing.T) {
	srv := newTestServer(t)
	key, _ := srv.key(t, "Acme Dental", "test")
	b := srv.browser(t)
	b.signIn(key)
	for _, tc := range []struct{ q, want, notWant string }{
		{"united", `<option value="UnitedHealthcare (87726)">`, `60054`},
		{"87726", `<option value="UnitedHealthcare (87726)">`, `60054`},
		{"aetna", `<option value="Aetna (60054)">`, `87726`},
	} {
		resp := b.get("/payers/search?payer=" + url.QueryEscape(tc.q))
		if resp.StatusCode != 200 || !strings.Contains(resp.Body, tc.want) || strings.Contains(resp.Body, tc.notWant) {
			t.Errorf("search %q: %d\n%s", tc.q, resp.StatusCode, resp.Body)
		}
	}
}

func TestHistoryFilters(t *testing.T) {
	srv := newTestServer(t)
	key, _ := srv.key(t, "Acme Dental", "test")
	b := srv.browser(t)
	b.signIn(key)
	ids := map[string]string{}
	for _, name := range []string{"uhc-subscriber", "aetna-subscriber", "uhc-aaa-75"} {
		resp := b.post("/checks", b.formFor(name))
		ids[name] = strings.TrimPrefix(resp.Header.Get("Location"), "/checks/")
	}
	// Through the API: a request with a mistake (invalid, never sent) and
	// one to a payer with no connection (error, never sent).
	for name, body := range map[string]string{
		"api-invalid": `{"tradingPartnerServiceId":"87726","provider":{"organizationName":"Acme","npi":"1999999984"},"subscriber":{"firstName":"Jane"}}`,
		"api-error":   `{"tradingPartnerServiceId":"99999","provider":{"organizationName":"Acme","npi":"1999999984"},"subscriber":{"memberId":"X1","firstName":"Jane","lastName":"Doe","dateOfBirth":"19710101"}}`,
	} {
		req, _ := http.NewRequest("POST", srv.URL+"/2024-04-01/change/medicalnetwork/eligibility/v3", strings.NewReader(body))
		req.Header.Set("Authorization", key)
		req.Header.Set("Content-Type", "application/json")
		resp := b.do(req)
		if resp.StatusCode < 400 {
			t.Fatalf("%s: %d %s", name, resp.StatusCode, resp.Body)
		}
	}
	listReq, _ := http.NewRequest("GET", srv.URL+"/2024-04-01/eligibility-checks?pageSize=10", nil)
	listReq.Header.Set("Authorization", key)
	var list struct {
		Items []struct{ ID, Status string }
	}
	if err := json.Unmarshal([]byte(b.do(listReq).Body), &list); err != nil {
		t.Fatal(err)
	}
	for _, c := range list.Items {
		if c.Status == "invalid" || c.Status == "error" {
			ids["api-"+c.Status] = c.ID
		}
	}
	if ids["api-invalid"] == "" || ids["api-error"] == "" {
		t.Fatalf("the API's history lacks the invalid or the error check: %v", ids)
	}
	today := time.Now().UTC().Format("2006-01-02")
	tomorrow := time.Now().UTC().AddDate(0, 0, 1).Format("2006-01-02")
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"", []string{"uhc-aaa-75", "aetna-subscriber", "uhc-subscriber"}},
		{"payer=87726", []string{"uhc-aaa-75", "uhc-subscriber"}},
		{"payer=unitedhealthcare", []string{"uhc-aaa-75", "uhc-subscriber"}}, // names as well as ids
		{"payer=" + url.QueryEscape("UnitedHealthcare (87726)"), []string{"uhc-aaa-75", "uhc-subscriber"}},
		{"payer=united", []string{"uhc-aaa-75", "uhc-subscriber"}}, // every United payer
		{"patient=jane+doe", []string{"uhc-aaa-75", "aetna-subscriber", "uhc-subscriber"}},
		{"patient=nobody", nil},
		{"member=uhc123456", []string{"uhc-subscriber"}},
		{"dob=1971-01-01", []string{"uhc-subscriber"}},
		{"dob=2004-04-04&payer=aetna", []string{"aetna-subscriber"}},
		{"dos=" + today + "&member=UHCAAA75", []string{"uhc-aaa-75"}},
		{"dos=" + tomorrow, nil},
		{"status=rejected", []string{"uhc-aaa-75"}},
		// Requests that never reached a payer are listed only when asked for.
		{"status=invalid", []string{"api-invalid"}},
		{"status=error", []string{"api-error"}},
		{"payer=60054&status=active", []string{"aetna-subscriber"}},
		{"from=" + today + "&to=" + today, []string{"uhc-aaa-75", "aetna-subscriber", "uhc-subscriber"}},
		{"from=" + tomorrow, nil},
	} {
		page := b.get("/checks?" + tc.query)
		if page.StatusCode != 200 {
			t.Fatalf("%s: %d", tc.query, page.StatusCode)
		}
		last := -1
		for _, name := range tc.want {
			i := strings.Index(page.Body, ids[name])
			if i < 0 || i < last {
				t.Errorf("%q: %s missing or out of order (newest first)", tc.query, name)
			}
			last = i
		}
		for name, id := range ids {
			if !contains(tc.want, name) && strings.Contains(page.Body, id) {
				t.Errorf("%q lists %s", tc.query, name)
			}
		}
	}
	for _, name := range []string{"api-invalid", "api-error"} {
		if page := b.get("/checks/" + ids[name]); page.StatusCode != 200 {
			t.Errorf("opening the %s check from the history: %d", name, page.StatusCode)
		}
	}
	if page := b.get("/checks?from=yesterday"); page.StatusCode != 400 || !strings.Contains(page.Body, "Enter a date such as") {
		t.Errorf("bad date: %d", page.StatusCode)
	}
	if page := b.get("/checks?payer=Acme+Nowhere"); page.StatusCode != 400 || !strings.Contains(page.Body, "No payer in the list matches") {
		t.Errorf("unknown payer filter: %d", page.StatusCode)
	}
	// Days are the viewer's: in Kiritimati (UTC+14) today's checks ran on
	// tomorrow's date, or today's when UTC is already there.
	kiritimati, _ := time.LoadLocation("Pacific/Kiritimati")
	local := time.Now().In(kiritimati).Format("2006-01-02")
	if page := b.get("/checks?tz=Pacific/Kiritimati&from=" + local + "&to=" + local); !strings.Contains(page.Body, ids["uhc-subscriber"]) {
		t.Errorf("a day in the viewer's zone (%s) misses today's checks", local)
	}
	if local != today {
		if page := b.get("/checks?tz=Pacific/Kiritimati&from=" + today + "&to=" + today); strings.Contains(page.Body, ids["uhc-subscriber"]) {
			t.Errorf("the UTC day %s is used instead of the viewer's", today)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestProductionKeyHasNoMockPicker(t *testing.T) {
	srv := newTestServer(t)
	key, _ := srv.key(t, "Acme Dental", "production")
	b := srv.browser(t)
	b.signIn(key)
	page := b.get("/checks/new?mock=uhc-subscriber")
	if page.StatusCode != 200 {
		t.Fatalf("new check: %d", page.StatusCode)
	}
	if strings.Contains(page.Body, "Fill with a mock request") || strings.Contains(page.Body, "UHC123456") ||
		strings.Contains(page.Body, "Test mode") || !strings.Contains(page.Body, `id="mode-badge">Production<`) {
		t.Error("a production session sees test-mode parts")
	}
}

// TestSignInNextIsASamePath: the page to return to after sign-in is kept
// only as a clean path of this site, on the sign-in page (GET) and in the
// redirect after sign-in (POST); every known open-redirect trick falls back
// to a new check.
func TestSignInNextIsASamePath(t *testing.T) {
	srv := newTestServer(t)
	key, _ := srv.key(t, "Acme Dental", "test")
	bypasses := []string{
		"/\t/evil.example", "/%09/evil.example", "/%0a/evil.example", "/%0d%0a/evil.example", "/%00/evil.example",
		"//evil.example", "///evil.example", "////evil.example/", "/\\evil.example", "/\\/evil.example", "\\\\evil.example",
		"\\/evil.example", "/%5Cevil.example", "/%5C/evil.example", "/%2F/evil.example", "/%2f%2fevil.example",
		"/%252F%252Fevil.example", "/%25252F%25252Fevil.example", "%2F%2Fevil.example", "%2f/evil.example",
		"https://evil.example", "http:evil.example", "http:/evil.example", "HTTPS://evil.example/checks",
		"javascript:alert(1)", "JaVaScRiPt:alert(1)", "data:text/html,x", "evil.example", "checks/new",
		" /checks", "/ /evil.example", "/\u3000/evil.example", "/\u200b/evil.example", "/\u2028/evil.example",
		"/.//evil.example", "/checks//evil.example", "//evil.example@clearhouse.local/", "/%", "/%zz",
		"/signin", "/signin?next=/checks", "",
	}
	for _, next := range bypasses {
		if got := safeNext(next); got != "/checks/new" {
			t.Errorf("safeNext(%q) = %q, want /checks/new", next, got)
		}
	}
	for _, keep := range []string{"/checks", "/checks/ec_01abc", "/checks?payer=Blue%20Cross&status=active", "/checks/new?mock=uhc-dependent"} {
		if got := safeNext(keep); got != keep {
			t.Errorf("safeNext(%q) = %q, want it kept", keep, got)
		}
	}
	// Over HTTP, both ways in.
	for _, next := range []string{"/%09/evil.example", "//evil.example", "/\\evil.example", "https://evil.example", "/%2F/evil.example"} {
		b := srv.browser(t)
		page := b.get("/signin?next=" + url.QueryEscape(next))
		if !strings.Contains(page.Body, `name="next" value="/checks/new"`) {
			t.Errorf("GET /signin?next=%q: the form does not carry /checks/new", next)
		}
		resp := b.post("/signin", url.Values{"csrf": {b.csrf(page.Body)}, "key": {key}, "next": {next}})
		if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != "/checks/new" {
			t.Errorf("POST /signin next=%q: %d Location %q, want /checks/new", next, resp.StatusCode, loc)
		}
	}
	// A raw tab in the query string, as the attacker's link sends it.
	b := srv.browser(t)
	if page := b.get("/signin?next=/%09/evil.example"); !strings.Contains(page.Body, `name="next" value="/checks/new"`) {
		t.Error("GET /signin?next=/%09/evil.example keeps the destination")
	}
	b = srv.browser(t)
	page := b.get("/signin?next=" + url.QueryEscape("/checks?status=active"))
	resp := b.post("/signin", url.Values{"csrf": {b.csrf(page.Body)}, "key": {key}, "next": {"/checks?status=active"}})
	if loc := resp.Header.Get("Location"); loc != "/checks?status=active" {
		t.Errorf("a clean destination is lost: Location %q", loc)
	}
}

// TestSignInGuessesAreLimited: the sign-in form is no faster way to guess
// keys than the API: after a burst of keys that were not accepted from one
// address, even the right key waits (429 with Retry-After).
func TestSignInGuessesAreLimited(t *testing.T) {
	srv := newTestServer(t)
	good, _ := srv.key(t, "Acme Dental", "test")
	wrong := good[:len(good)-4] + "aaaa"
	b := srv.browser(t)
	page := b.get("/signin")
	statuses := map[int]int{}
	for range 40 {
		statuses[b.post("/signin", url.Values{"csrf": {b.csrf(page.Body)}, "key": {wrong}}).StatusCode]++
	}
	// A burst of 30, refilled at 2 a second while the test runs.
	if n := statuses[http.StatusUnauthorized]; n < 30 || n > 34 || statuses[http.StatusTooManyRequests] < 6 {
		t.Fatalf("40 wrong keys: %v; want about 30 refused, then the rest told to wait", statuses)
	}
	resp := b.post("/signin", url.Values{"csrf": {b.csrf(page.Body)}, "key": {good}})
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" || !strings.Contains(resp.Body, "Wait") {
		t.Errorf("the right key from the same address: %d %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
}
