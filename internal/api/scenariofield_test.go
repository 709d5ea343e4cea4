package api_test

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestScenarioUnknownFieldIsNamedWhereItIs: a scenario file's unknown
// field is refused with its JSON Pointer. Before, the path was the field's
// name alone ("/delay" for a field inside the first scenario's
// eligibility), which names no field of the file.
func TestScenarioUnknownFieldIsNamedWhereItIs(t *testing.T) {
	t.Parallel()
	srv, key := testKeyAPI(t)
	for _, tc := range []struct{ name, file, path string }{
		{"in eligibility", `{"scenarios":[{"name":"a","match":{"memberId":"A"},"eligibility":{"timeout":true,"delay":"1s"}}]}`,
			"/scenarios/0/eligibility/delay"},
		{"in the second scenario's match", `{"scenarios":[{"name":"a","match":{"memberId":"A"},"eligibility":{"timeout":true}},
			{"name":"b","match":{"member":"B"},"eligibility":{"timeout":true}}]}`, "/scenarios/1/match/member"},
		{"at the top", `{"scenarios":[],"version":2}`, "/version"},
	} {
		req := httptest.NewRequest("PUT", "/2024-04-01/mock-payer/scenarios", strings.NewReader(tc.file))
		req.Header.Set("Authorization", key)
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		var out struct {
			Code      string
			FieldList []struct{ Path, Message string }
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || rec.Code != 400 || len(out.FieldList) != 1 ||
			out.FieldList[0].Path != tc.path || !strings.Contains(out.FieldList[0].Message, "not a known field") {
			t.Errorf("%s: %d %s, want 400 at %s", tc.name, rec.Code, rec.Body, tc.path)
		}
	}
}
