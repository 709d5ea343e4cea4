package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestUnknownInputIsRefused: a misspelt field of a webhook's settings, or a
// list filter with a value that matches nothing, is a 400 naming it, not
// silently ignored (before, "evenTypes" subscribed the webhook to every
// event, and status=actve answered an empty list).
func TestUnknownInputIsRefused(t *testing.T) {
	t.Parallel()
	f := newWebhooksServer(t)
	var hook struct{ ID string }
	f.json("POST", "/2023-08-01/webhooks", `{"url":"https://example.com/ok","eventTypes":["file.failed.v2"]}`, 201, &hook)
	for _, tc := range []struct {
		method, path, body, wantPath, wantText string
	}{
		{"POST", "/2023-08-01/webhooks", `{"url":"https://example.com/h","evenTypes":["file.failed.v2"]}`,
			"/evenTypes", `unknown field "evenTypes"; the fields here are url, description, eventTypes`},
		{"POST", "/2023-08-01/webhooks", `{"url":"https://example.com/h","filters":{"direction":"INBOUND","partnerId":"x"}}`,
			"/filters/partnerId", `unknown field "partnerId"`},
		{"PATCH", "/2023-08-01/webhooks/" + hook.ID, `{"authentication":{"type":"BASIC","user":"a"}}`,
			"/authentication/user", `unknown field "user"`},
		{"PATCH", "/2023-08-01/webhooks/" + hook.ID, `{"eventtypes":[]}`, "/eventtypes", `unknown field "eventtypes"`},
		{"GET", "/2024-04-01/eligibility-checks?status=actve", "", "/query/status", `got "actve"`},
		{"GET", "/2023-08-01/transactions?transactionSetId=83", "", "/query/transactionSetId", `got "83"`},
		{"GET", "/2023-08-01/executions?status=DONE", "", "/query/status", `got "DONE"`},
		{"GET", "/2023-08-01/events?detailType=file.done", "", "/query/detailType", `got "file.done"`},
		{"GET", "/2023-08-01/webhooks/" + hook.ID + "/deliveries?status=ok", "", "/query/status", `"ok"`},
	} {
		resp, body := f.call(tc.method, tc.path, f.key, tc.body, false)
		var e struct {
			FieldList []struct{ Path, Message string }
		}
		json.Unmarshal(body, &e)
		if resp.StatusCode != http.StatusBadRequest || len(e.FieldList) == 0 || e.FieldList[0].Path != tc.wantPath ||
			!strings.Contains(e.FieldList[0].Message, tc.wantText) {
			t.Errorf("%s %s %s: %d %s", tc.method, tc.path, tc.body, resp.StatusCode, body)
		}
	}
	// Nothing was created or changed by the refused bodies.
	var list struct {
		Items []struct {
			EventTypes []string
		}
	}
	f.json("GET", "/2023-08-01/webhooks", "", 200, &list)
	if len(list.Items) != 1 || len(list.Items[0].EventTypes) != 1 {
		t.Errorf("webhooks after the refusals: %+v", list.Items)
	}
	f.json("GET", "/2024-04-01/eligibility-checks?status=active", "", 200, nil)
}
