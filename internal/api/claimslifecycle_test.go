package api_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/app/apptest"
	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/partners"
	"github.com/clearhouse/clearhouse/internal/services"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// TestClaimLifecycleDoneWhen is issue 25's "done when" over real HTTP
// against the whole process (app.New, as serve builds it, with its
// workers): on a fresh install with a test key (created and seeded as
// `clearhouse keys create` does), a dental claim submitted through the API
// reaches PROCESSED with its payment with no manual step; its timeline
// holds the submission, the delivery, the 999, the 277CA and the 835, each
// answer's report is retrievable (835 report JSON, ERA PDF, 277 report), a
// claim status request answers with its state, and each status change was
// announced by exactly one claim.status.changed.v2 event.
func TestClaimLifecycleDoneWhen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := storetest.SQLite(t)
	hs := apptest.New(t, apptest.Options{Store: st, Workers: true, MockRemitDelay: 200 * time.Millisecond})
	key, rec, err := auth.CreateKey(ctx, st, "Sunrise Dental", auth.ModeTest, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := partners.Seed(ctx, st, rec.AccountID, services.MockPayers(), time.Now()); err != nil {
		t.Fatal(err)
	}
	c := &lifecycleClient{t: t, url: hs.URL, key: key}

	// 1. Submit.
	var submitted struct {
		Status         string `json:"status"`
		ClaimReference struct {
			CorrelationID string `json:"correlationId"`
		} `json:"claimReference"`
	}
	c.do("POST", claimPath, exampleClaim(t, nil), 200, &submitted)
	claimID := "clm_" + strings.ToUpper(submitted.ClaimReference.CorrelationID)

	// 2. It reaches PROCESSED by itself: delivery, 999, 277CA, then the
	// mock payer's 835.
	var claim struct {
		ID, PatientControlNumber, Status, StatusReportedBy, Type                string
		TotalClaimChargeAmount, TotalClaimPaidAmount, SubmittedAt, StediPayerID string
		PatientName                                                             struct{ FirstName, LastName string }
		DatesOfService                                                          struct{ Start, End string }
	}
	deadline := time.Now().Add(30 * time.Second)
	for claim.Status != "PROCESSED" && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		c.do("GET", "/2025-03-07/claims/"+claimID, "", 200, &claim)
	}
	if claim.Status != "PROCESSED" || claim.StatusReportedBy != "PAYER" || claim.ID != claimID || claim.Type != "DENTAL" ||
		claim.PatientControlNumber != "12345" || claim.TotalClaimChargeAmount != "832" || claim.TotalClaimPaidAmount == "" ||
		claim.TotalClaimPaidAmount == "0" || claim.StediPayerID != "52133" || claim.PatientName.LastName == "" ||
		claim.DatesOfService.Start == "" || claim.SubmittedAt == "" {
		t.Fatalf("claim: %+v", claim)
	}
	// The same claim without the prefix, and in the list filtered by status.
	c.do("GET", "/2025-03-07/claims/"+submitted.ClaimReference.CorrelationID, "", 200, nil)
	var list struct {
		Items []struct{ ID, Status string }
	}
	c.do("GET", "/2025-03-07/claims?status=PROCESSED&status=DENIED&patientControlNumbers=12345", "", 200, &list)
	if len(list.Items) != 1 || list.Items[0].ID != claimID {
		t.Errorf("list: %+v", list)
	}

	// 3. The timeline, newest first: the three answers, the delivery, the
	// submission. The claim may be PROCESSED before its 277CA is recorded
	// (below): wait for it.
	var timeline struct {
		Items []map[string]map[string]any
	}
	c.do("GET", "/2025-03-07/claims/"+claimID+"/timeline", "", 200, &timeline)
	for len(timeline.Items) < 5 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		c.do("GET", "/2025-03-07/claims/"+claimID+"/timeline", "", 200, &timeline)
	}
	var kinds []string
	ids := map[string]string{}
	for _, e := range timeline.Items {
		if len(e) != 1 {
			t.Fatalf("an entry with %d properties: %v", len(e), e)
		}
		for k, v := range e {
			kinds = append(kinds, k)
			ids[k], _ = v["id"].(string)
			if k == "claimPaymentInformation" && (v["statusCode"] != "PROCESSED_AS_PRIMARY" || v["claimPaymentAmount"] != claim.TotalClaimPaidAmount) {
				t.Errorf("payment entry: %v", v)
			}
			if k == "claimAcknowledgment" && (v["status"] != "ACCEPTED" || v["reportedBy"] != "PAYER" || v["sourceName"] == "") {
				t.Errorf("acknowledgment entry: %v", v)
			}
			if k == "deliveryAttempt" && v["status"] != "DELIVERED" {
				t.Errorf("delivery entry: %v", v)
			}
			if k == "fileAcknowledgment" && v["status"] != "ACCEPTED" {
				t.Errorf("999 entry: %v", v)
			}
		}
	}
	// The 999, the 277CA and the 835 arrive as three files processed side
	// by side (the mock payer sends the 835 200 ms after the 277CA's file,
	// processed or not): they may be recorded in any order, and the
	// timeline shows the order they were.
	if len(kinds) != 5 || answerKinds[kinds[0]].rank == 0 || answerKinds[kinds[1]].rank == 0 || answerKinds[kinds[2]].rank == 0 ||
		kinds[0] == kinds[1] || kinds[1] == kinds[2] || kinds[0] == kinds[2] ||
		kinds[3] != "deliveryAttempt" || kinds[4] != "dentalClaimSubmission" {
		t.Fatalf("timeline kinds %v", kinds)
	}
	for i := 1; i < len(timeline.Items); i++ {
		if processedAt(timeline.Items[i]) > processedAt(timeline.Items[i-1]) {
			t.Errorf("timeline not newest first at %d: %v", i, timeline.Items)
		}
	}
	// Paged, the same entries.
	var first, second struct {
		Items         []map[string]any
		NextPageToken string
	}
	c.do("GET", "/2025-03-07/claims/"+claimID+"/timeline?pageSize=3", "", 200, &first)
	c.do("GET", "/2025-03-07/claims/"+claimID+"/timeline?pageSize=3&pageToken="+first.NextPageToken, "", 200, &second)
	if len(first.Items) != 3 || first.NextPageToken == "" || len(second.Items) != 2 || second.NextPageToken != "" {
		t.Errorf("timeline pages: %d (%q) then %d (%q)", len(first.Items), first.NextPageToken, len(second.Items), second.NextPageToken)
	}

	// 4. The answers' reports: the 835 as report JSON and ERA PDF, the
	// 277CA as report JSON.
	era := ids["claimPaymentInformation"]
	body := c.do("GET", "/2024-04-01/change/medicalnetwork/reports/v2/"+era+"/835", "", 200, nil)
	if !strings.Contains(string(body), `"patientControlNumber":"12345"`) {
		t.Errorf("835 report: %.300s", body)
	}
	pdf := c.doAccept("GET", "/2024-04-01/electronic-remittance-advice/"+era+"/pdf", "application/pdf", 200)
	if !strings.HasPrefix(string(pdf), "%PDF-") {
		t.Errorf("ERA PDF starts %q", pdf[:min(len(pdf), 8)])
	}
	body = c.do("GET", "/2024-04-01/change/medicalnetwork/reports/v2/"+ids["claimAcknowledgment"]+"/277", "", 200, nil)
	if !strings.Contains(string(body), "12345") {
		t.Errorf("277 report: %.300s", body)
	}

	// 5. A claim status request answers with its state: paid (F1).
	var status struct {
		Claims []struct {
			ClaimStatus struct{ StatusCategoryCode, AmountPaid string } `json:"claimStatus"`
		} `json:"claims"`
	}
	c.do("POST", "/2024-04-01/change/medicalnetwork/claimstatus/v2", exampleClaimStatusRequest, 200, &status)
	if len(status.Claims) != 1 || status.Claims[0].ClaimStatus.StatusCategoryCode != "F1" ||
		status.Claims[0].ClaimStatus.AmountPaid != claim.TotalClaimPaidAmount {
		t.Errorf("claim status: %+v", status)
	}

	// 6. One event per change, in the timeline's order: SUBMITTED →
	// RECEIVED (999) → ACCEPTED (277CA) → PROCESSED (835) when they were
	// recorded in that order; an answer recorded after a later kind's (a
	// 999 after the 277CA, a 277CA after the 835) changes nothing.
	var want []string
	now, rank := "SUBMITTED", 0
	for i := 2; i >= 0; i-- {
		if a := answerKinds[kinds[i]]; a.rank > rank {
			want = append(want, now+">"+a.status+"("+a.source+")")
			now, rank = a.status, a.rank
		}
	}
	var evs struct {
		Items []struct {
			Detail struct{ ClaimID, Status, PreviousStatus, Source string } `json:"detail"`
		}
	}
	c.do("GET", "/2023-08-01/events?detailType=claim.status.changed.v2", "", 200, &evs)
	var changes []string
	for i := len(evs.Items) - 1; i >= 0; i-- {
		d := evs.Items[i].Detail
		if d.ClaimID != claimID {
			t.Errorf("event about %s", d.ClaimID)
		}
		changes = append(changes, d.PreviousStatus+">"+d.Status+"("+d.Source+")")
	}
	if got := strings.Join(changes, " "); got != strings.Join(want, " ") {
		t.Errorf("status events: %s, want %s (timeline %v)", got, strings.Join(want, " "), kinds)
	}
}

// answerKinds are the timeline's answer entries: the rank of their kind
// (a later kind's answer replaces an earlier one's), the status they
// report and the source their event names.
var answerKinds = map[string]struct {
	rank           int
	status, source string
}{
	"fileAcknowledgment":      {1, "RECEIVED", "999"},
	"claimAcknowledgment":     {2, "ACCEPTED", "277CA"},
	"claimPaymentInformation": {3, "PROCESSED", "835"},
}

// processedAt is a timeline entry's time.
func processedAt(e map[string]map[string]any) string {
	for _, v := range e {
		at, _ := v["processedAt"].(string)
		return at
	}
	return ""
}

// lifecycleClient calls the API with one key.
type lifecycleClient struct {
	t        *testing.T
	url, key string
}

// do sends a request and checks its status; into, when set, receives the
// JSON body.
func (c *lifecycleClient) do(method, path, body string, status int, into any) []byte {
	c.t.Helper()
	req, err := http.NewRequest(method, c.url+path, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Authorization", c.key)
	req.Header.Set("Content-Type", "application/json")
	return c.send(req, status, into)
}

func (c *lifecycleClient) doAccept(method, path, accept string, status int) []byte {
	c.t.Helper()
	req, err := http.NewRequest(method, c.url+path, nil)
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Authorization", c.key)
	req.Header.Set("Accept", accept)
	return c.send(req, status, nil)
}

func (c *lifecycleClient) send(req *http.Request, status int, into any) []byte {
	c.t.Helper()
	resp, err := (&http.Client{Timeout: 20 * time.Second}).Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != status {
		c.t.Fatalf("%s %s: %d %s", req.Method, req.URL.Path, resp.StatusCode, b)
	}
	if into != nil {
		if err := json.Unmarshal(b, into); err != nil {
			c.t.Fatalf("%s %s: %v in %.300s", req.Method, req.URL.Path, err, b)
		}
	}
	return b
}
