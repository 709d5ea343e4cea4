package api_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/app/apptest"
	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/partners"
	"github.com/clearhouse/clearhouse/internal/services"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// TestClientMistakesAreNotOutages: text a database cannot store (invalid
// UTF-8, NUL characters) or values out of range, in a path, a query, a
// header or a body, answer a 400 saying what is wrong on both engines,
// never a 503 "retry shortly" (a retry can never succeed) or a 500. Before,
// a non-UTF-8 upload name answered 202 on SQLite and 503 on PostgreSQL.
func TestClientMistakesAreNotOutages(t *testing.T) {
	t.Parallel()
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		ctx := context.Background()
		st := open(t)
		key, rec, err := auth.CreateKey(ctx, st, "Acme", auth.ModeTest, "", time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := partners.Seed(ctx, st, rec.AccountID, services.MockPayers(), time.Now()); err != nil {
			t.Fatal(err)
		}
		srv := apptest.New(t, apptest.Options{Store: st, Secrets: true}).API
		const nul = `\u0000`
		for _, tc := range []struct {
			name, method, target, body string
			header                     map[string]string
		}{
			{"upload name not UTF-8", "POST", "/2023-08-01/files/inbound?name=%FF%FE.x12", "ISA*00", nil},
			{"upload name with NUL", "POST", "/2023-08-01/files/inbound?name=a%00.x12", "ISA*00", nil},
			{"upload dirname not UTF-8", "POST", "/2023-08-01/files/inbound?name=a.x12&dirname=%C3%28", "ISA*00", nil},
			{"execution id not UTF-8", "GET", "/2023-08-01/executions/%FF", "", nil},
			{"execution id with NUL", "GET", "/2023-08-01/executions/a%00b", "", nil},
			{"transaction id not UTF-8", "GET", "/2023-08-01/transactions/%FF/output", "", nil},
			{"transaction filters not UTF-8", "GET", "/2023-08-01/transactions?sender=%FF&receiver=%FE&businessIdentifier=%FF&partnershipId=%FF&transactionSetId=%FF", "", nil},
			{"execution cursor not UTF-8", "GET", "/2023-08-01/executions?pageToken=%FF", "", nil},
			{"event filters not UTF-8", "GET", "/2023-08-01/events?executionId=%FF", "", nil},
			{"event id not UTF-8", "GET", "/2023-08-01/events/%FF/deliveries", "", nil},
			{"check filters not UTF-8", "GET", "/2024-04-01/eligibility-checks?payerId=%FF&cursor=%FF", "", nil},
			{"check id not UTF-8", "GET", "/2024-04-01/eligibility-checks/%FF", "", nil},
			{"check with NUL", "POST", eligibilityPath, `{"tradingPartnerServiceId":"MOCK` + nul + `","provider":{"organizationName":"A` + nul + `"}}`, nil},
			{"raw check with NUL", "POST", eligibilityPath + "/raw-x12", `{"x12":"ISA*` + nul + `"}`, nil},
			{"webhook id not UTF-8", "GET", "/2023-08-01/webhooks/%FF", "", nil},
			{"webhook description with NUL", "POST", "/2023-08-01/webhooks", `{"url":"https://example.com/h","description":"a` + nul + `b"}`, nil},
			{"webhook concurrency out of range", "POST", "/2023-08-01/webhooks", `{"url":"https://example.com/h","concurrency":1e30}`, nil},
			{"profile id not UTF-8", "GET", "/2023-08-01/x12/profiles/%FF", "", nil},
			{"connection name with NUL", "POST", "/2023-08-01/x12/connections", `{"connectionId":"c1","connectionType":"MOCK","name":"a` + nul + `"}`, nil},
			{"claim idempotency key not UTF-8", "POST", "/2024-04-01/dental-claims/submission", `{}`, map[string]string{"Idempotency-Key": "\xff\xfe"}},
			{"claim setting header not UTF-8", "POST", "/2024-04-01/dental-claims/submission", `{}`, map[string]string{"Service-Transaction-Setting-Id": "\xff"}},
			{"claim with NUL", "POST", "/2024-04-01/dental-claims/submission", `{"tradingPartnerServiceId":"A` + nul + `"}`, nil},
			{"fragment index out of range", "GET", "/2023-08-01/transactions/x/fragments/99999999999999999999/output", "", nil}, // 404: no transaction x
			{"page size out of range", "GET", "/2023-08-01/executions?pageSize=99999999999999999999", "", nil},
			{"upload name over-long", "POST", "/2023-08-01/files/inbound?name=" + strings.Repeat("n", 300) + ".x12", "ISA*00", nil},
			{"upload dirname over-long", "POST", "/2023-08-01/files/inbound?name=a.x12&dirname=" + strings.Repeat("d", 3000), "ISA*00", nil},
			{"claim idempotency key over-long", "POST", "/2024-04-01/dental-claims/submission", `{}`, map[string]string{"Idempotency-Key": strings.Repeat("k", 3000)}},
			{"webhook description over-long", "POST", "/2023-08-01/webhooks", `{"url":"https://example.com/h","description":"` + strings.Repeat("d", 5000) + `"}`, nil},
			{"webhook header name over-long", "POST", "/2023-08-01/webhooks", `{"url":"https://example.com/h","authentication":{"type":"API_KEY","headerName":"` + strings.Repeat("h", 5000) + `","value":"v"}}`, nil},
			{"connection name over-long", "POST", "/2023-08-01/x12/connections", `{"connectionId":"c2","connectionType":"MOCK","name":"` + strings.Repeat("n", 5000) + `"}`, nil},
			{"execution id over-long", "GET", "/2023-08-01/executions/" + strings.Repeat("e", 5000), "", nil}, // 404
		} {
			t.Run(tc.name, func(t *testing.T) {
				var body io.Reader
				if tc.body != "" {
					body = strings.NewReader(tc.body)
				}
				req := httptest.NewRequest(tc.method, tc.target, body)
				req.Header.Set("Authorization", key)
				if tc.body != "" && !strings.Contains(tc.target, "files/inbound") {
					req.Header.Set("Content-Type", "application/json")
				}
				for k, v := range tc.header {
					req.Header.Set(k, v)
				}
				w := httptest.NewRecorder()
				srv.ServeHTTP(w, req)
				want := http.StatusBadRequest
				if strings.Contains(tc.name, "fragment index") || tc.name == "execution id over-long" {
					want = http.StatusNotFound
				}
				if w.Code != want {
					t.Errorf("%s %s: %d %s", tc.method, tc.target, w.Code, w.Body)
				}
			})
		}
		// The net under validation: what the database refuses as data is
		// told apart from an outage.
		_, err = st.GetExecution(ctx, rec.AccountID, "\xff")
		if err != nil && !errors.Is(err, store.ErrNotFound) && !store.IsInvalidInput(err) {
			t.Errorf("GetExecution of a non-UTF-8 id: %v is not IsInvalidInput", err)
		}
		if err != nil && store.IsUnavailable(err) {
			t.Errorf("GetExecution of a non-UTF-8 id: %v is IsUnavailable", err)
		}
	})
}
