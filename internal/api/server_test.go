package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/api"
	"github.com/clearhouse/clearhouse/internal/app"
	"github.com/clearhouse/clearhouse/internal/app/apptest"
	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/httpkit"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// fixture is a server on a fresh SQLite store with two accounts.
type fixture struct {
	t      *testing.T
	store  store.Store
	server *api.Server
	logs   *bytes.Buffer
	keyA   string // test key of account A
	keyB   string // production key of account B
	acctA  string
	acctB  string
}

func newFixture(t *testing.T, opts api.Options) *fixture {
	t.Helper()
	f := &fixture{t: t, store: storetest.SQLite(t), logs: &bytes.Buffer{}}
	ctx := context.Background()
	f.server = apptest.New(t, apptest.Options{Store: f.store, Logger: slog.New(slog.NewJSONHandler(f.logs, nil)), API: opts}).API
	var recA, recB store.APIKey
	var err error
	if f.keyA, recA, err = auth.CreateKey(ctx, f.store, "Acme", auth.ModeTest, "", time.Now()); err != nil {
		t.Fatal(err)
	}
	if f.keyB, recB, err = auth.CreateKey(ctx, f.store, "Beta", auth.ModeProduction, "", time.Now()); err != nil {
		t.Fatal(err)
	}
	f.acctA, f.acctB = recA.AccountID, recB.AccountID
	return f
}

func (f *fixture) do(method, path, key string, body io.Reader, header ...string) *httptest.ResponseRecorder {
	f.t.Helper()
	req := httptest.NewRequest(method, path, body)
	if key != "" {
		req.Header.Set("Authorization", key)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	f.server.ServeHTTP(rec, req)
	return rec
}

// wantError checks status and the contract's {"code","message"} body.
func wantError(t *testing.T, rec *httptest.ResponseRecorder, status int, code string) api.Error {
	t.Helper()
	if rec.Code != status {
		t.Fatalf("status %d, want %d; body %s", rec.Code, status, rec.Body)
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	var raw map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &raw); err != nil {
		t.Fatalf("error body is not JSON: %s", rec.Body)
	}
	var e api.Error
	json.Unmarshal(rec.Body.Bytes(), &e)
	if e.Code != code || e.Message == "" {
		t.Errorf("body %s, want code %q and a message", rec.Body, code)
	}
	for k := range raw {
		if k != "code" && k != "message" && k != "fieldList" {
			t.Errorf("unexpected error field %q in %s", k, rec.Body)
		}
	}
	return e
}

func TestAuthFailuresAre401(t *testing.T) {
	t.Parallel()
	f := newFixture(t, api.Options{})
	unknown, _ := auth.GenerateKey(auth.ModeTest)
	revoked, rec, err := auth.CreateKey(context.Background(), f.store, "Acme", auth.ModeTest, "old", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := f.store.RevokeAPIKey(context.Background(), rec.ID, time.Now()); err != nil {
		t.Fatal(err)
	}
	for name, header := range map[string]string{
		"missing":   "",
		"malformed": "Key not-a-key",
		"scheme":    "Bearer " + f.keyA,
		"unknown":   "Key " + unknown.Plaintext,
		"revoked":   "Key " + revoked,
	} {
		t.Run(name, func(t *testing.T) {
			r := f.do("GET", "/2024-04-01/usage", header, nil)
			wantError(t, r, http.StatusUnauthorized, api.CodeUnauthorized)
			if r.Header().Get("WWW-Authenticate") == "" {
				t.Error("401 without WWW-Authenticate")
			}
		})
	}
	for _, header := range []string{"Key " + f.keyA, f.keyA} {
		if r := f.do("GET", "/2024-04-01/usage", header, nil); r.Code != http.StatusOK {
			t.Errorf("valid key (%.8s…): status %d %s", header, r.Code, r.Body)
		}
	}
}

// TestAccountsAreIsolatedOverHTTP: a record created by account A is not
// visible to account B through the API, and each caller sees its own mode.
func TestAccountsAreIsolatedOverHTTP(t *testing.T) {
	t.Parallel()
	var f *fixture
	getCheck := api.Route{Pattern: "GET /test/checks/{id}", Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := httpkit.PrincipalFrom(r.Context())
		c, err := f.store.GetEligibilityCheck(r.Context(), p.AccountID, r.PathValue("id"))
		if err != nil {
			api.WriteError(w, r, err)
			return
		}
		api.WriteJSON(w, http.StatusOK, map[string]string{"id": c.ID, "mode": p.Mode})
	})}
	f = newFixture(t, api.Options{ExtraRoutes: []api.Route{getCheck}})
	keyA, _ := f.store.ListAPIKeys(context.Background(), f.acctA)
	check := store.EligibilityCheck{ID: store.NewID(), AccountID: f.acctA, KeyID: keyA[0].ID, Mode: store.ModeTest,
		Status: "active", HTTPStatus: 200, CreatedAt: time.Now()}
	if err := f.store.InsertEligibilityCheck(context.Background(), check); err != nil {
		t.Fatal(err)
	}
	r := f.do("GET", "/test/checks/"+check.ID, f.keyA, nil)
	if r.Code != http.StatusOK || !strings.Contains(r.Body.String(), `"mode":"test"`) {
		t.Fatalf("owner: %d %s", r.Code, r.Body)
	}
	wantError(t, f.do("GET", "/test/checks/"+check.ID, f.keyB, nil), http.StatusNotFound, api.CodeNotFound)

	// Usage too: A's check is in A's usage only.
	var usage struct{ Items []map[string]any }
	json.Unmarshal(f.do("GET", "/2024-04-01/usage", f.keyA, nil).Body.Bytes(), &usage)
	if len(usage.Items) != 1 || usage.Items[0]["count"] != 1.0 || usage.Items[0]["costMicros"] != 0.0 {
		t.Errorf("A's usage %+v", usage.Items)
	}
	usage.Items = nil
	json.Unmarshal(f.do("GET", "/2024-04-01/usage", f.keyB, nil).Body.Bytes(), &usage)
	if len(usage.Items) != 0 {
		t.Errorf("B sees usage %+v", usage.Items)
	}
	wantError(t, f.do("GET", "/2024-04-01/usage?from=yesterday", f.keyA, nil), http.StatusBadRequest, api.CodeValidation)
}

func TestNotFoundAndMethodNotAllowed(t *testing.T) {
	t.Parallel()
	f := newFixture(t, api.Options{})
	wantError(t, f.do("GET", "/nope", "", nil), http.StatusNotFound, api.CodeNotFound)
	r := f.do("POST", "/healthz", "", nil)
	wantError(t, r, http.StatusMethodNotAllowed, api.CodeMethodNotAllowed)
	if allow := r.Header().Get("Allow"); !strings.Contains(allow, "GET") {
		t.Errorf("Allow %q", allow)
	}
}

func TestHealthAndReady(t *testing.T) {
	t.Parallel()
	f := newFixture(t, api.Options{})
	if r := f.do("GET", "/healthz", "", nil); r.Code != 200 || !strings.Contains(r.Body.String(), `"ok"`) {
		t.Errorf("healthz %d %s", r.Code, r.Body)
	}
	if r := f.do("GET", "/readyz", "", nil); r.Code != 200 || !strings.Contains(r.Body.String(), `"sqlite"`) {
		t.Errorf("readyz %d %s", r.Code, r.Body)
	}
	f.store.Close()
	wantError(t, f.do("GET", "/readyz", "", nil), http.StatusServiceUnavailable, api.CodeServiceUnavailable)
}

func TestRequestIDAndAccessLog(t *testing.T) {
	t.Parallel()
	f := newFixture(t, api.Options{})
	r := f.do("GET", "/2024-04-01/usage?secret=zzqueryzz", f.keyA, nil)
	id := r.Header().Get("X-Request-Id")
	if len(id) != 26 {
		t.Fatalf("generated request id %q", id)
	}
	if r := f.do("GET", "/healthz", "", nil, "X-Request-Id", "abc-123"); r.Header().Get("X-Request-Id") != "abc-123" {
		t.Errorf("caller's request id not kept: %q", r.Header().Get("X-Request-Id"))
	}
	if r := f.do("GET", "/healthz", "", nil, "X-Request-Id", "bad id\n"); r.Header().Get("X-Request-Id") == "bad id\n" {
		t.Error("unsafe request id echoed")
	}
	var line map[string]any
	for _, l := range strings.Split(strings.TrimSpace(f.logs.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line is not JSON: %s", l)
		}
		if m["request_id"] == id {
			line = m
		}
	}
	if line == nil {
		t.Fatalf("no log line with request id %s in:\n%s", id, f.logs)
	}
	if line["route"] != "GET /2024-04-01/usage" || line["status"] != 200.0 || line["account_id"] != f.acctA {
		t.Errorf("access log line %v", line)
	}
	if strings.Contains(f.logs.String(), "zzqueryzz") || strings.Contains(f.logs.String(), f.keyA) {
		t.Error("log contains the query string or the API key")
	}
}

func TestBodyLimit(t *testing.T) {
	t.Parallel()
	var got []byte
	echo := api.Route{Pattern: "POST /test/echo", Public: true, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var v any
		if err := api.DecodeJSON(r, &v); err != nil {
			api.WriteError(w, r, err)
			return
		}
		got, _ = json.Marshal(v)
		api.WriteJSON(w, http.StatusOK, v)
	})}
	f := newFixture(t, api.Options{MaxBodyBytes: 100, ExtraRoutes: []api.Route{echo}})
	big := `{"a":"` + strings.Repeat("x", 200) + `"}`
	wantError(t, f.do("POST", "/test/echo", "", strings.NewReader(big)), http.StatusRequestEntityTooLarge, api.CodePayloadTooLarge)
	// Without a Content-Length the limit applies while reading.
	req := httptest.NewRequest("POST", "/test/echo", io.MultiReader(strings.NewReader(big)))
	req.ContentLength = -1
	rec := httptest.NewRecorder()
	f.server.ServeHTTP(rec, req)
	wantError(t, rec, http.StatusRequestEntityTooLarge, api.CodePayloadTooLarge)

	if r := f.do("POST", "/test/echo", "", strings.NewReader(`{"a":1}`)); r.Code != 200 || string(got) != `{"a":1}` {
		t.Errorf("small body: %d %s", r.Code, r.Body)
	}
	for body, code := range map[string]string{
		``:          api.CodeBadRequest,
		`{"a":`:     api.CodeBadRequest,
		`{"a":1} 2`: api.CodeBadRequest,
		`{a}`:       api.CodeBadRequest,
	} {
		wantError(t, f.do("POST", "/test/echo", "", strings.NewReader(body)), http.StatusBadRequest, code)
	}
	wantError(t, f.do("POST", "/test/echo", "", strings.NewReader(`{}`), "Content-Type", "text/plain"),
		http.StatusUnsupportedMediaType, api.CodeUnsupportedMedia)
}

func TestDecodeJSONTypeErrorNamesField(t *testing.T) {
	t.Parallel()
	req := httptest.NewRequest("POST", "/", strings.NewReader(`{"provider":{"npi":123}}`))
	var v struct {
		Provider struct {
			NPI string `json:"npi"`
		} `json:"provider"`
	}
	err := api.DecodeJSON(req, &v)
	e, ok := err.(*api.Error)
	if !ok || e.Code != api.CodeValidation || len(e.FieldList) != 1 || e.FieldList[0].Path != "/provider/npi" {
		t.Fatalf("DecodeJSON type error = %#v", err)
	}
}

func TestPanicIs500(t *testing.T) {
	t.Parallel()
	boom := api.Route{Pattern: "GET /test/boom", Public: true, Handler: http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		panic("boom")
	})}
	f := newFixture(t, api.Options{ExtraRoutes: []api.Route{boom}})
	wantError(t, f.do("GET", "/test/boom", "", nil), http.StatusInternalServerError, api.CodeInternal)
	if r := f.do("GET", "/healthz", "", nil); r.Code != 200 {
		t.Error("server broken after a panic")
	}
}

func TestValidationBody(t *testing.T) {
	t.Parallel()
	rec := httptest.NewRecorder()
	api.WriteError(rec, httptest.NewRequest("GET", "/", nil), api.Validation(
		api.FieldError{Path: "/provider/npi", Message: "must be 10 digits with a valid check digit"}))
	want := `{"code":"VALIDATION_ERROR","message":"The request is invalid: 1 problem; see fieldList.","fieldList":[{"path":"/provider/npi","message":"must be 10 digits with a valid check digit"}]}` + "\n"
	if rec.Code != 400 || rec.Body.String() != want {
		t.Errorf("got %d %s\nwant 400 %s", rec.Code, rec.Body, want)
	}
}

func TestMetrics(t *testing.T) {
	t.Parallel()
	f := newFixture(t, api.Options{Version: "v9.9.9"})
	f.do("GET", "/healthz", "", nil)
	f.do("GET", "/nope", "", nil)
	body := f.do("GET", "/metrics", "", nil).Body.String()
	for _, want := range []string{
		`clearhouse_http_requests_total{code="200",route="GET /healthz"} 1`,
		`clearhouse_http_requests_total{code="404",route="unmatched"} 1`,
		`clearhouse_http_request_duration_seconds_count{code="200",route="GET /healthz"} 1`,
		`clearhouse_build_info{version="v9.9.9"} 1`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

func TestRouteRegistrationErrors(t *testing.T) {
	t.Parallel()
	services := app.APIServices(apptest.New(t, apptest.Options{}).Services)
	h := http.NotFoundHandler()
	for _, routes := range [][]api.Route{
		{{Pattern: "/no-method", Handler: h}},
		{{Pattern: "GET /healthz", Handler: h}},
		{{Pattern: "GET /x/{a}", Handler: h}, {Pattern: "GET /x/{b}", Handler: h}},
	} {
		if _, err := api.New(services, api.Options{ExtraRoutes: routes}); err == nil {
			t.Errorf("routes %v accepted", routes)
		}
	}
}

func TestRealListener(t *testing.T) {
	t.Parallel()
	f := newFixture(t, api.Options{})
	srv := httptest.NewServer(f.server)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/2024-04-01/usage")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 401 || !strings.HasPrefix(string(body), `{"code":"UNAUTHORIZED","message":`) {
		t.Errorf("%d %s", resp.StatusCode, body)
	}
}
