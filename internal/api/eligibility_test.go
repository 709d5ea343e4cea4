package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/app/apptest"
	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
	"github.com/clearhouse/clearhouse/internal/testenv"
)

const eligibilityPath = "/2024-04-01/change/medicalnetwork/eligibility/v3"

// eligibilityServer is a real HTTP server on a fresh store, with a clock
// stopped at a fixed time so that answers are reproducible.
type eligibilityServer struct {
	t                          *testing.T
	url                        string
	testKey, prodKey, otherKey string
}

func newEligibilityServer(t *testing.T) *eligibilityServer {
	t.Helper()
	return newEligibilityServerOn(t, storetest.SQLite(t))
}

// newEligibilityServerOn is newEligibilityServer on the given store.
func newEligibilityServerOn(t *testing.T, st store.Store) *eligibilityServer {
	t.Helper()
	now := time.Date(2024, 8, 1, 9, 30, 0, 0, time.UTC)
	ctx := context.Background()
	s := &eligibilityServer{t: t}
	s.url = apptest.New(t, apptest.Options{Store: st, Clock: clock.NewFake(now)}).URL
	var err error
	if s.testKey, _, err = auth.CreateKey(ctx, st, "Acme", auth.ModeTest, "", now); err != nil {
		t.Fatal(err)
	}
	if s.prodKey, _, err = auth.CreateKey(ctx, st, "Acme", auth.ModeProduction, "", now); err != nil {
		t.Fatal(err)
	}
	if s.otherKey, _, err = auth.CreateKey(ctx, st, "Beta", auth.ModeTest, "", now); err != nil {
		t.Fatal(err)
	}
	return s
}

// call sends one request and returns status, headers and body.
func (s *eligibilityServer) call(method, path, key string, body []byte) (int, http.Header, []byte) {
	s.t.Helper()
	req, err := http.NewRequest(method, s.url+path, bytes.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", key)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		s.t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, out
}

// normalize replaces the per-check random ids (check id, outbound trace,
// which the 271 echoes) with placeholders and indents the body.
func normalize(t *testing.T, body []byte) []byte {
	t.Helper()
	var r struct {
		ID   string `json:"id"`
		Meta struct {
			OutboundTraceID string `json:"outboundTraceId"`
		} `json:"meta"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatalf("body is not JSON: %s", body)
	}
	s := string(body)
	if r.ID != "" {
		s = strings.ReplaceAll(s, r.ID, "ec_CHECKID")
	}
	if r.Meta.OutboundTraceID != "" {
		s = strings.ReplaceAll(s, r.Meta.OutboundTraceID, "OUTBOUNDTRACE")
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, []byte(s), "", "  "); err != nil {
		t.Fatal(err)
	}
	buf.WriteByte('\n')
	return buf.Bytes()
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	testenv.Golden(t, filepath.Join("testdata", "eligibility", name), got)
}

// TestEligibilityMockScenariosOverHTTP posts every published mock request
// with a test key and pins each complete answer.
func TestEligibilityMockScenariosOverHTTP(t *testing.T) {
	t.Parallel()
	for _, m := range mockpayer.Requests() {
		t.Run(m.Name, func(t *testing.T) {
			// A server per scenario: the control numbers in the answer then
			// do not depend on which scenarios ran before.
			s := newEligibilityServer(t)
			status, header, body := s.call("POST", eligibilityPath, s.testKey, m.RequestJSON())
			if status != http.StatusOK {
				t.Fatalf("status %d: %s", status, body)
			}
			if header.Get("Content-Type") != "application/json" || !strings.HasPrefix(header.Get("X-Eligibility-Check-Id"), "ec_") {
				t.Errorf("headers %v", header)
			}
			var r struct {
				Meta   struct{ ApplicationMode string }
				Errors []json.RawMessage `json:"errors"`
				X12    string
			}
			json.Unmarshal(body, &r)
			if r.Meta.ApplicationMode != "test" || r.Errors == nil || !strings.HasPrefix(r.X12, "ISA*") {
				t.Errorf("mode %q, errors %v, x12 %.20q", r.Meta.ApplicationMode, r.Errors, r.X12)
			}
			golden(t, m.Name+".json", normalize(t, body))
		})
	}
}

func TestEligibilityErrorsOverHTTP(t *testing.T) {
	t.Parallel()
	s := newEligibilityServer(t)
	valid := `{"tradingPartnerServiceId":"87726","provider":{"organizationName":"P","npi":"1999999984"},` +
		`"subscriber":{"memberId":"UHC123456","firstName":"Jane","lastName":"Doe","dateOfBirth":"19710101"},"encounter":{"serviceTypeCodes":["30"]}}`
	tests := []struct {
		name, key, body string
		status          int
		want            []string // substrings of the body
	}{
		{"no key", "", valid, 401, []string{`"code":"UNAUTHORIZED"`}},
		{"not JSON", s.testKey, `{"provider":`, 400, []string{`"code":"BAD_REQUEST"`}},
		{"wrong JSON type", s.testKey, `{"provider":{"npi":1999999984}}`, 400, []string{`"path":"/provider/npi"`}},
		{"invalid request", s.testKey, strings.Replace(valid, "1999999984", "1999999985", 1), 400,
			[]string{`"code":"VALIDATION_ERROR"`, `"path":"/provider/npi"`, "check digit"}},
		{"unknown payer", s.testKey, strings.Replace(valid, "87726", "FOO", 1), 400,
			[]string{`"tradingPartnerServiceId":"FOO"`, `"code":"79"`, `"status":"ERROR"`, "Payer FOO is not configured"}},
		{"production key without payer connections", s.prodKey, valid, 400, []string{`"code":"79"`, "no production connection"}},
		{"test key with data outside the mock set", s.testKey, strings.Replace(valid, "UHC123456", "NOTAMOCK1", 1), 403,
			[]string{`"code":"FORBIDDEN"`, "test mode accepts only the published mock requests", "member id"}},
		{"test key with another service type", s.testKey, strings.Replace(valid, `["30"]`, `["47"]`, 1), 403,
			[]string{`"code":"FORBIDDEN"`, "supports 30"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, _, body := s.call("POST", eligibilityPath, tt.key, []byte(tt.body))
			if status != tt.status {
				t.Fatalf("status %d, want %d: %s", status, tt.status, body)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(body), w) {
					t.Errorf("body lacks %s: %s", w, body)
				}
			}
		})
	}
}

func TestEligibilityRawX12OverHTTP(t *testing.T) {
	t.Parallel()
	s := newEligibilityServer(t)
	// The published UHC subscriber mock as a caller-built 270.
	x := "ISA*00*          *00*          *ZZ*CALLER         *ZZ*87726          *240801*0930*^*00501*000000001*0*T*:~" +
		"GS*HS*CALLER*87726*20240801*0930*1*X*005010X279A1~ST*270*0001*005010X279A1~BHT*0022*13*CALLERREF*20240801*0930~" +
		"HL*1**20*1~NM1*PR*2*UNITEDHEALTHCARE*****PI*87726~HL*2*1*21*1~NM1*1P*2*PROVIDER NAME*****XX*1999999984~" +
		"HL*3*2*22*0~TRN*1*CALLERTRACE*9CALLER000~NM1*IL*1*Doe*Jane****MI*UHC123456~DMG*D8*19710101~EQ*30~" +
		"SE*13*0001~GE*1*1~IEA*1*000000001~"
	body, _ := json.Marshal(map[string]string{"x12": x})
	status, _, out := s.call("POST", eligibilityPath+"/raw-x12", s.testKey, body)
	if status != 200 || !strings.Contains(string(out), `"benefitsInformation"`) || !strings.Contains(string(out), `"x12":"ISA*`) {
		t.Fatalf("status %d: %s", status, out)
	}
	golden(t, "raw-x12-uhc-subscriber.json", normalize(t, out))

	status, _, out = s.call("POST", eligibilityPath+"/raw-x12", s.testKey, []byte(`{"x12":"ST*271*1~SE*1*1~"}`))
	if status != 400 || !strings.Contains(string(out), `"path":"/x12"`) {
		t.Errorf("a 271 sent to raw-x12: %d %s", status, out)
	}
}

func TestEligibilityHistoryOverHTTP(t *testing.T) {
	t.Parallel()
	s := newEligibilityServer(t)
	reqs := mockpayer.Requests()
	var ids []string
	for _, m := range reqs[:3] {
		_, h, _ := s.call("POST", eligibilityPath, s.testKey, m.RequestJSON())
		ids = append(ids, h.Get("X-Eligibility-Check-Id"))
	}
	_, h, _ := s.call("POST", eligibilityPath, s.testKey, []byte(`{"tradingPartnerServiceId":"87726"}`)) // invalid
	invalidID := h.Get("X-Eligibility-Check-Id")
	// A production check in between (not configured, recorded all the same):
	// pages of the test key's list still hold only, and fully, test checks.
	_, h, _ = s.call("POST", eligibilityPath, s.prodKey, reqs[0].RequestJSON())
	prodID := h.Get("X-Eligibility-Check-Id")
	s.call("POST", eligibilityPath, s.testKey, reqs[3].RequestJSON())

	type page struct {
		Items []struct {
			ID, Mode, Status, TradingPartnerServiceID string
			HTTPStatus                                int
		}
		NextCursor string
	}
	list := func(key, query string) (int, page) {
		status, _, body := s.call("GET", "/2024-04-01/eligibility-checks"+query, key, nil)
		var p page
		json.Unmarshal(body, &p)
		return status, p
	}

	status, all := list(s.testKey, "")
	if status != 200 || len(all.Items) != 5 {
		t.Fatalf("list: %d %+v", status, all)
	}
	for _, it := range all.Items {
		if it.Mode != "test" || it.ID == "" || it.Status == "" {
			t.Errorf("item %+v", it)
		}
	}
	if _, p := list(s.testKey, "?status=invalid"); len(p.Items) != 1 || p.Items[0].ID != invalidID || p.Items[0].HTTPStatus != 400 {
		t.Errorf("status filter: %+v", p)
	}
	if _, p := list(s.testKey, "?payerId="+reqs[0].TradingPartnerServiceID); len(p.Items) == 0 {
		t.Errorf("payer filter found nothing: %+v", p)
	}
	_, first := list(s.testKey, "?limit=2")
	_, second := list(s.testKey, "?limit=2&cursor="+first.NextCursor)
	if len(first.Items) != 2 || first.NextCursor == "" || len(second.Items) != 2 || second.Items[0].ID == first.Items[0].ID {
		t.Errorf("paging: %+v then %+v", first, second)
	}
	if _, p := list(s.otherKey, ""); len(p.Items) != 0 {
		t.Errorf("another account sees %d checks", len(p.Items))
	}
	if _, p := list(s.prodKey, ""); len(p.Items) != 1 || p.Items[0].ID != prodID || p.Items[0].Mode != "production" {
		t.Errorf("a production key lists %+v, want only its own check", p.Items)
	}
	if _, p := list(s.testKey, "?limit=3"); len(p.Items) != 3 || p.NextCursor == "" {
		t.Errorf("a page of 3 across a production check: %+v", p)
	}
	if status, _ := list(s.testKey, "?limit=0&from=yesterday"); status != 400 {
		t.Errorf("bad query: %d", status)
	}

	status, _, body := s.call("GET", "/2024-04-01/eligibility-checks/"+ids[0], s.testKey, nil)
	var detail struct {
		ID          string
		Request     map[string]any
		Response    map[string]any
		X12Request  string
		X12Response string
	}
	json.Unmarshal(body, &detail)
	if status != 200 || detail.ID != ids[0] || detail.Request["tradingPartnerServiceId"] == nil ||
		detail.Response["benefitsInformation"] == nil || !strings.Contains(detail.X12Request, "ST*270*") ||
		!strings.Contains(detail.X12Response, "ST*271*") {
		t.Errorf("detail: %d %s", status, body)
	}
	for _, key := range []string{s.otherKey, s.prodKey} {
		if status, _, _ := s.call("GET", "/2024-04-01/eligibility-checks/"+ids[0], key, nil); status != 404 {
			t.Errorf("another account or mode reads the check: %d", status)
		}
	}
}
