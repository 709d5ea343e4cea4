package api_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
	"github.com/clearhouse/clearhouse/internal/testenv"
)

// TestCheckNotRecordedIs503: when the database refuses the check's row, the
// caller gets 503
// SERVICE_UNAVAILABLE saying nothing was stored, no check id, and /readyz
// turns 503 once the database refuses writes. Before, the answer was 200
// with an X-Eligibility-Check-Id that then answered 404.
func TestCheckNotRecordedIs503(t *testing.T) {
	t.Parallel()
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		st := open(t)
		s := newEligibilityServerOn(t, st)
		req := mockpayer.Requests()[0].RequestJSON()
		if status, h, body := s.call("POST", eligibilityPath, s.testKey, req); status != 200 || h.Get("X-Eligibility-Check-Id") == "" {
			t.Fatalf("healthy check: %d %s", status, body)
		}
		if status, _, body := s.call("GET", "/readyz", "", nil); status != 200 {
			t.Fatalf("healthy /readyz: %d %s", status, body)
		}

		storetest.FailWrites(t, st, "eligibility_checks", "readiness")
		for _, path := range []string{eligibilityPath, eligibilityPath + "/raw-x12"} {
			body := req
			if strings.HasSuffix(path, "raw-x12") {
				body = []byte(`{"x12":"ST*271*1~SE*1*1~"}`) // invalid: recorded as such, so it fails too
			}
			status, h, out := s.call("POST", path, s.testKey, body)
			if status != http.StatusServiceUnavailable {
				t.Fatalf("%s with a failing store: %d %s", path, status, out)
			}
			var e struct{ Code, Message string }
			if err := json.Unmarshal(out, &e); err != nil || e.Code != "SERVICE_UNAVAILABLE" ||
				!strings.Contains(e.Message, "nothing was stored") || !strings.Contains(e.Message, "retried") {
				t.Errorf("%s: body %s", path, out)
			}
			if id := h.Get("X-Eligibility-Check-Id"); id != "" {
				t.Errorf("%s: X-Eligibility-Check-Id %q for a check that was not stored", path, id)
			}
			if h.Get("Retry-After") == "" {
				t.Errorf("%s: no Retry-After", path)
			}
		}
		if status, _, body := s.call("GET", "/2024-04-01/eligibility-checks", s.testKey, nil); status != 200 || strings.Count(string(body), `"id"`) != 1 {
			t.Errorf("history after the failures: %d %s", status, body)
		}
		if status, _, body := s.call("GET", "/2024-04-01/usage", s.testKey, nil); status != 200 || !strings.Contains(string(body), `"count":1`) {
			t.Errorf("usage after the failures: %d %s", status, body)
		}
		status, _, body := s.call("GET", "/readyz", "", nil)
		if status != http.StatusServiceUnavailable || !strings.Contains(string(body), "SERVICE_UNAVAILABLE") {
			t.Errorf("/readyz with a database that refuses writes: %d %s", status, body)
		}
	})
}

// TestStoreOutageIs503: with the database gone (PostgreSQL cut off behind
// a proxy; SQLite closed), every store-backed endpoint answers 503 in the
// contract's shape, never 500.
func TestStoreOutageIs503(t *testing.T) {
	t.Parallel()
	for _, engine := range []string{store.EngineSQLite, store.EnginePostgres} {
		t.Run(engine, func(t *testing.T) {
			var st store.Store
			var takeAway func()
			if engine == store.EnginePostgres {
				u, err := url.Parse(testenv.PostgresURL(t))
				if err != nil {
					t.Fatal(err)
				}
				proxy := testenv.NewProxy(t, u.Host)
				st = storetest.PostgresVia(t, proxy.Addr())
				takeAway = proxy.Cut
			} else {
				st = storetest.SQLite(t)
				takeAway = func() { st.Close() }
			}
			s := newEligibilityServerOn(t, st)
			s.call("POST", eligibilityPath, s.testKey, mockpayer.Requests()[0].RequestJSON()) // the key is now cached
			takeAway()
			for _, c := range []struct{ method, path string }{
				{"GET", "/2024-04-01/eligibility-checks"},
				{"GET", "/2024-04-01/eligibility-checks/ec_missing"},
				{"GET", "/2024-04-01/usage"},
				{"POST", eligibilityPath},
				{"GET", "/readyz"},
			} {
				var body []byte
				if c.method == "POST" {
					body = mockpayer.Requests()[0].RequestJSON()
				}
				status, _, out := s.call(c.method, c.path, s.testKey, body)
				if status != http.StatusServiceUnavailable || !strings.Contains(string(out), `"code":"SERVICE_UNAVAILABLE"`) {
					t.Errorf("%s %s with the database gone: %d %s", c.method, c.path, status, out)
				}
			}
		})
	}
}

// TestHistoryShowsBothControlNumbers: the caller's controlNumber reaches the
// 270 as BHT03 and the history shows it beside our ISA13, each labelled.
func TestHistoryShowsBothControlNumbers(t *testing.T) {
	t.Parallel()
	s := newEligibilityServer(t)
	m := mockpayer.Requests()[0]
	var req map[string]any
	json.Unmarshal(m.RequestJSON(), &req)
	req["controlNumber"] = "000000042"
	body, _ := json.Marshal(req)
	status, h, out := s.call("POST", eligibilityPath, s.testKey, body)
	if status != 200 {
		t.Fatalf("%d %s", status, out)
	}
	_, _, out = s.call("GET", "/2024-04-01/eligibility-checks/"+h.Get("X-Eligibility-Check-Id"), s.testKey, nil)
	var got struct{ ControlNumber, InterchangeControlNumber, X12Request string }
	json.Unmarshal(out, &got)
	if got.ControlNumber != "000000042" || got.InterchangeControlNumber == "" || got.InterchangeControlNumber == got.ControlNumber ||
		!strings.Contains(got.X12Request, "~BHT*0022*13*000000042*") || !strings.Contains(got.X12Request, "*00501*"+got.InterchangeControlNumber+"*") {
		t.Errorf("controlNumber %q, interchangeControlNumber %q, 270 %.200s", got.ControlNumber, got.InterchangeControlNumber, got.X12Request)
	}
}
