package api_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/api"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
)

// TestMisspelledFieldsAreNamed: a field the request does not have is no
// longer silently ignored: a refused request lists it in fieldList with the
// likely intended name, an answered one carries a warning naming it.
func TestMisspelledFieldsAreNamed(t *testing.T) {
	t.Parallel()
	s := newEligibilityServer(t)
	var m map[string]any
	if err := json.Unmarshal(mockpayer.Requests()[0].RequestJSON(), &m); err != nil {
		t.Fatal(err)
	}

	refused := clone(m)
	refused["provdier"] = refused["provider"]
	delete(refused, "provider")
	status, _, out := s.call("POST", eligibilityPath, s.testKey, mustJSON(t, refused))
	var e api.Error
	json.Unmarshal(out, &e)
	if status != 400 || !hasField(e.FieldList, "/provdier", `did you mean "provider"?`) ||
		!strings.Contains(e.Message, "also has a field that is not a field of this request") {
		t.Errorf("provdier instead of provider: %d %s", status, out)
	}

	answered := clone(m)
	answered["subscriber"].(map[string]any)["middleNmae"] = "Q"
	status, _, out = s.call("POST", eligibilityPath, s.testKey, mustJSON(t, answered))
	var r struct {
		Warnings []struct{ Code, Description string }
	}
	json.Unmarshal(out, &r)
	if status != 200 || len(r.Warnings) != 1 || r.Warnings[0].Code != api.UnknownFieldCode ||
		!strings.Contains(r.Warnings[0].Description, `/subscriber/middleNmae`) || !strings.Contains(r.Warnings[0].Description, `"middleName"`) {
		t.Errorf("a misspelled optional field: %d warnings %+v", status, r.Warnings)
	}

	many := clone(m)
	for i := range 5000 {
		many["extra"+strconv.Itoa(i)] = i
	}
	status, _, out = s.call("POST", eligibilityPath, s.testKey, mustJSON(t, many))
	if status != 200 || len(out) > 64<<10 || !strings.Contains(string(out), "And 4980 more unknown fields were ignored.") {
		t.Errorf("5,000 unknown fields: %d, %d bytes", status, len(out))
	}

	status, _, out = s.call("POST", eligibilityPath, s.testKey, mockpayer.Requests()[0].RequestJSON())
	if status != 200 || strings.Contains(string(out), api.UnknownFieldCode) {
		t.Errorf("the published mock request: %d, unknown fields reported: %s", status, out)
	}
}

// TestMisspelledClaimField: the same for a dental claim.
func TestMisspelledClaimField(t *testing.T) {
	t.Parallel()
	f, _ := claimServer(t)
	resp, out := f.post("/2024-04-01/dental-claims/submission", f.key, exampleClaim(t, func(m map[string]any) {
		m["claimInformation"].(map[string]any)["claimFilingCod"] = "CI"
	}))
	var r struct {
		Warnings []struct{ Code, Description string }
	}
	json.Unmarshal(out, &r)
	if resp.StatusCode != 200 || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0].Description, "/claimInformation/claimFilingCod") {
		t.Errorf("claim with claimFilingCod: %d %s", resp.StatusCode, out)
	}
	resp, out = f.post("/2024-04-01/dental-claims/submission", f.key, exampleClaim(t, func(m map[string]any) {
		m["biling"] = m["billing"]
		delete(m, "billing")
	}))
	var e api.Error
	json.Unmarshal(out, &e)
	if resp.StatusCode != 400 || !hasField(e.FieldList, "/biling", `did you mean "billing"?`) {
		t.Errorf("claim with biling: %d %s", resp.StatusCode, out)
	}
	resp, out = f.post("/2024-04-01/dental-claims/submission", f.key, exampleClaim(t, nil))
	if resp.StatusCode != 200 || strings.Contains(string(out), api.UnknownFieldCode) {
		t.Errorf("the public example claim: %d, unknown fields reported: %s", resp.StatusCode, out)
	}
}

// TestJSONSyntaxErrorsSayWhere: a trailing comma is named as such, at its
// line and column, and only a body that really stops early says so.
func TestJSONSyntaxErrorsSayWhere(t *testing.T) {
	t.Parallel()
	s := newEligibilityServer(t)
	for body, want := range map[string]string{
		"{\"tradingPartnerServiceId\": \"87726\",\n \"provider\": {\"npi\": \"1999999984\",}\n}": "line 2, column 35: a trailing comma before '}'",
		"{\"encounter\": {\"serviceTypeCodes\": [\"30\",]}}":                                     "line 1, column 42: a trailing comma before ']'",
		"{\"tradingPartnerServiceId\": \"87726\",}":                                              "line 1, column 37: a trailing comma before '}'",
		"{\"tradingPartnerServiceId\": \"87726\"":                                                "ends in the middle of a JSON value",
		"{\"tradingPartnerServiceId\" \"87726\"}":                                                "line 1, column 28: invalid character",
	} {
		status, _, out := s.call("POST", eligibilityPath, s.testKey, []byte(body))
		if status != http.StatusBadRequest || !strings.Contains(string(out), want) {
			t.Errorf("%q: %d %s\nwant %q", body, status, out, want)
		}
	}
}

func clone(m map[string]any) map[string]any {
	b, _ := json.Marshal(m)
	var c map[string]any
	json.Unmarshal(b, &c)
	return c
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func hasField(list []api.FieldError, path, message string) bool {
	for _, f := range list {
		if f.Path == path && strings.Contains(f.Message, message) {
			return true
		}
	}
	return false
}
