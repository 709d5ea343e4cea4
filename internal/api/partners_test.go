package api_test

import (
	"context"
	"encoding/json"
	"io"
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

// TestPartnersAPI walks the /2023-08-01/x12 resources: the seeded test
// setup, a production setup built record by record, the errors, and that
// a key sees only its own account's records of its own mode.
func TestPartnersAPI(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := storetest.SQLite(t)
	srv := apptest.New(t, apptest.Options{Store: st, Secrets: true}).API
	testKey, testRec, err := auth.CreateKey(ctx, st, "Acme", auth.ModeTest, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	prodKey, _, err := auth.CreateKey(ctx, st, "Acme", auth.ModeProduction, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	otherKey, _, err := auth.CreateKey(ctx, st, "Beta", auth.ModeProduction, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := partners.Seed(ctx, st, testRec.AccountID, services.MockPayers(), time.Now()); err != nil {
		t.Fatal(err)
	}
	call := func(method, path, key, body string, wantStatus int) map[string]any {
		t.Helper()
		var r io.Reader
		if body != "" {
			r = strings.NewReader(body)
		}
		req := httptest.NewRequest(method, "/2023-08-01/x12"+path, r)
		req.Header.Set("Authorization", key)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code != wantStatus {
			t.Fatalf("%s %s: status %d, want %d\n%s", method, path, rec.Code, wantStatus, rec.Body)
		}
		if strings.Contains(rec.Body.String(), "hunter2") || strings.Contains(rec.Body.String(), "v1:") {
			t.Fatalf("%s %s answered a secret: %s", method, path, rec.Body)
		}
		out := map[string]any{}
		if rec.Body.Len() > 0 {
			if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
				t.Fatalf("%s %s: %v", method, path, err)
			}
		}
		return out
	}
	fieldErr := func(body map[string]any, path, contains string) {
		t.Helper()
		for _, f := range body["fieldList"].([]any) {
			fe := f.(map[string]any)
			if fe["path"] == path && strings.Contains(fe["message"].(string), contains) {
				return
			}
		}
		t.Errorf("no field error at %s containing %q in %v", path, contains, body)
	}

	// The seeded test setup.
	list := call("GET", "/partnerships", testKey, "", 200)["items"].([]any)
	if len(list) != len(services.MockPayers()) {
		t.Fatalf("%d test partnerships, want one per mock payer (%d)", len(list), len(services.MockPayers()))
	}
	uhc := call("GET", "/partnerships/clearhouse_mock-87726", testKey, "", 200)
	if len(uhc["inboundTransactions"].([]any)) != 3 || len(uhc["outboundTransactions"].([]any)) != 1 {
		t.Errorf("UHC mock partnership: %v", uhc)
	}
	call("GET", "/partnerships/clearhouse_mock-87726", prodKey, "", 404)
	if n := len(call("GET", "/partnerships", prodKey, "", 200)["items"].([]any)); n != 0 {
		t.Errorf("production sees %d partnerships", n)
	}
	fieldErr(call("POST", "/connections", testKey, `{"connectionType":"SFTP","settings":{"host":"h","username":"u"},"secrets":{"password":"hunter2"}}`, 400),
		"/connectionType", "test mode never reaches a payer")

	// A production setup, record by record.
	call("POST", "/profiles", prodKey, `{"profileId":"acme","profileType":"local","interchangeQualifier":"ZZ","interchangeId":"ACME"}`, 201)
	p := call("POST", "/profiles", prodKey, `{"profileId":"uhc","profileType":"partner","interchangeQualifier":"zz","interchangeId":"87726"}`, 201)
	if p["interchangeQualifier"] != "ZZ" || p["applicationId"] != "87726" || p["createdAt"] == nil {
		t.Errorf("created profile: %v", p)
	}
	call("POST", "/profiles", prodKey, `{"profileId":"uhc","profileType":"partner","interchangeQualifier":"ZZ","interchangeId":"87727"}`, 409)
	fieldErr(call("POST", "/profiles", prodKey, `{"profileId":"x","profileType":"partner","interchangeQualifier":"ZZ","interchangeId":"X","isaId":"X"}`, 400),
		"/isaId", `unknown field "isaId"`)
	fieldErr(call("PUT", "/profiles/uhc", prodKey, `{"profileId":"other","profileType":"partner","interchangeQualifier":"ZZ","interchangeId":"87726"}`, 400),
		"/profileId", "ids do not change")
	c := call("POST", "/connections", prodKey, `{"connectionId":"uhc-sftp","connectionType":"SFTP","settings":{"host":"sftp.example.com","username":"acme","hostKey":"SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8"},"secrets":{"password":"hunter2"}}`, 201)
	if s, ok := c["secrets"].(map[string]any); !ok || len(s) != 1 || s["password"] != nil {
		t.Errorf("connection secrets answered as %v, want {\"password\": null}", c["secrets"])
	}
	call("PUT", "/connections/uhc-sftp", prodKey, `{"connectionType":"SFTP","name":"UHC","settings":{"host":"sftp.example.com","username":"acme","hostKey":"SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8"},"secrets":{"password":null}}`, 200)
	call("POST", "/partnerships", prodKey, `{"partnershipId":"acme_uhc","localProfileId":"acme","partnerProfileId":"uhc","connectionId":"uhc-sftp"}`, 201)
	fieldErr(call("POST", "/partnerships", prodKey, `{"partnershipId":"acme_x","localProfileId":"acme","partnerProfileId":"nobody"}`, 400),
		"/partnerProfileId", `partnerProfileId "nobody" names no profile`)
	s := call("POST", "/partnerships/acme_uhc/inbound-transactions", prodKey, `{"transactionSetIdentifier":"835","guideId":"005010X221A1"}`, 201)
	id := s["transactionSettingId"].(string)
	if s["direction"] != "INBOUND" || s["partnershipId"] != "acme_uhc" || id == "" {
		t.Errorf("created setting: %v", s)
	}
	fieldErr(call("POST", "/partnerships/acme_uhc/inbound-transactions", prodKey, `{"transactionSetIdentifier":"835","guideId":"005010X221A1"}`, 400),
		"", "transaction setting \""+id+"\" already covers inbound 835")
	fieldErr(call("PUT", "/partnerships/acme_uhc/inbound-transactions/"+id, prodKey, `{"transactionSetIdentifier":"835","guideId":"005010X221A1","fragments":{"enabled":true}}`, 400),
		"/fragments/keyName", "keyName is empty")
	s = call("PUT", "/partnerships/acme_uhc/inbound-transactions/"+id, prodKey,
		`{"transactionSetIdentifier":"835","guideId":"005010X221A1","fragments":{"enabled":true,"keyName":"claim_payment_information_CLP_loop"},"acknowledgments":{"generate999":true,"generateTA1":false}}`, 200)
	if f := s["fragments"].(map[string]any); f["enabled"] != true || f["batchSize"] != 800.0 {
		t.Errorf("updated setting fragments: %v", f)
	}
	call("GET", "/partnerships/acme_uhc/outbound-transactions/"+id, prodKey, "", 404) // wrong direction
	fieldErr(call("POST", "/partnerships/acme_uhc/outbound-transactions", prodKey, `{"transactionSetIdentifier":"837","guideId":"005010X224A2","connectionId":"nope"}`, 400),
		"/connectionId", `connectionId "nope" names no connection`)
	call("POST", "/partnerships/acme_uhc/outbound-transactions", prodKey, `{"transactionSettingId":"uhc-837d","transactionSetIdentifier":"837","guideId":"005010X224A2","connectionId":"uhc-sftp"}`, 201)

	// The inbound lookup sees what the API made.
	ship, err := st.FindPartnershipByInterchange(ctx, testRec.AccountID, store.ModeProduction, "ZZ", "87726", "ZZ", "ACME")
	if err != nil || ship.ID != "acme_uhc" {
		t.Fatalf("FindPartnershipByInterchange = %v, %v", ship.ID, err)
	}

	// Another account sees none of it.
	call("GET", "/profiles/uhc", otherKey, "", 404)
	call("DELETE", "/partnerships/acme_uhc", otherKey, "", 404)

	// Deleting what is in use is refused; a partnership takes its settings along.
	call("DELETE", "/profiles/uhc", prodKey, "", 409)
	call("DELETE", "/connections/uhc-sftp", prodKey, "", 409)
	call("DELETE", "/partnerships/acme_uhc/inbound-transactions/"+id, prodKey, "", 204)
	call("GET", "/partnerships/acme_uhc/inbound-transactions/"+id, prodKey, "", 404)
	call("DELETE", "/partnerships/acme_uhc", prodKey, "", 204)
	call("DELETE", "/profiles/uhc", prodKey, "", 204)
	call("DELETE", "/connections/uhc-sftp", prodKey, "", 204)
	if n := len(call("GET", "/profiles", prodKey, "", 200)["items"].([]any)); n != 1 {
		t.Errorf("%d production profiles left, want 1", n)
	}
}
