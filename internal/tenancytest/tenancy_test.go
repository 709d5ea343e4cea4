package tenancytest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/core/coretest"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// probe is one request an intruder makes at the owner's resource: it must
// answer want (404 for a record, 400 for a reference to one), and a
// successful answer must not hold the record's id (lists leave it out).
type probe struct {
	method, path, body string
	want               int
	// headers are sent with the request (name, value, …).
	headers []string
	// otherMode, when not 0, is what the owner's other mode must answer
	// instead of want (a test payer has no production connection there).
	otherMode int
	// must is text a successful answer must hold (the intruder's own,
	// not the owner's, state of what it asked about).
	must string
}

// resource is one owned thing and every way an intruder could try to see,
// change or reach it; check says (as the owner, afterwards) that it is
// still there, unchanged.
type resource struct {
	name   string
	id     string
	probes []probe
	check  func(t *testing.T)
}

const eligibilityRequest = `{"tradingPartnerServiceId":"87726",
 "provider":{"organizationName":"Provider Name","npi":"1999999984"},
 "subscriber":{"memberId":"UHC123456","firstName":"Jane","lastName":"Doe","dateOfBirth":"19710101"},
 "encounter":{"serviceTypeCodes":["30"]}}`

func TestEveryResourceStaysWithItsAccountAndMode(t *testing.T) {
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		s := newServer(t, open)
		resources := s.createEverything()
		for _, intruder := range []struct{ name, key string }{{"other account", s.otherAccount}, {"other mode", s.otherMode}} {
			t.Run(intruder.name, func(t *testing.T) {
				for _, r := range resources {
					t.Run(r.name, func(t *testing.T) {
						for _, p := range r.probes {
							want := p.want
							if intruder.name == "other mode" && p.otherMode != 0 {
								want = p.otherMode
							}
							status, body := s.call(p.method, p.path, intruder.key, p.body, p.headers...)
							if status != want {
								t.Errorf("%s %s: %d, want %d: %.300s", p.method, p.path, status, want, body)
							}
							if status < 300 && p.must != "" && !strings.Contains(string(body), p.must) {
								t.Errorf("%s %s answered without %s: %.300s", p.method, p.path, p.must, body)
							}
							// A 404 may echo the id sent; an answer never holds it.
							if status < 300 && r.id != "" && strings.Contains(string(body), r.id) {
								t.Errorf("%s %s answered the owner's %s %s: %.300s", p.method, p.path, r.name, r.id, body)
							}
						}
					})
				}
			})
		}
		// Nothing an intruder sent changed the owner's records.
		for _, r := range resources {
			if r.check != nil {
				t.Run("owner still has "+r.name, r.check)
			}
		}
	})
}

// createEverything makes one of each resource type as the owner and lists
// the intruders' probes.
func (s *server) createEverything() []resource {
	t := s.t
	var out []resource
	add := func(r resource) { out = append(out, r) }
	get := func(path string) func(t *testing.T) {
		return func(t *testing.T) { s.owned("GET", path, "", nil, 200) }
	}

	// Eligibility check (and the usage it meters against the owner's key).
	status, body := s.call("POST", "/2024-04-01/change/medicalnetwork/eligibility/v3", s.owner.key, eligibilityRequest)
	var check struct{ ID string }
	if status != 200 || json.Unmarshal(body, &check) != nil || check.ID == "" {
		t.Fatalf("eligibility check: %d %s", status, body)
	}
	add(resource{name: "eligibility check", id: check.ID, check: get("/2024-04-01/eligibility-checks/" + check.ID), probes: []probe{
		{method: "GET", path: "/2024-04-01/eligibility-checks/" + check.ID, want: 404},
		{method: "GET", path: "/2024-04-01/eligibility-checks/" + check.ID + "/pdf", want: 404},
		{method: "GET", path: "/2024-04-01/eligibility-checks", want: 200},
		{method: "GET", path: "/2024-04-01/eligibility-checks?payerId=87726", want: 200},
	}})
	// The payer simulator's scenario file of the owner's test mode.
	const scenarios = `{"scenarios":[{"name":"tenancy-owner","match":{"memberId":"TENANCY01"},"eligibility":{"timeout":true}}]}`
	s.owned("PUT", "/2024-04-01/mock-payer/scenarios", scenarios, nil, 200)
	add(resource{name: "payer simulator scenarios", probes: []probe{
		{method: "GET", path: "/2024-04-01/mock-payer/scenarios", want: 404},
		{method: "DELETE", path: "/2024-04-01/mock-payer/scenarios", want: 404},
	}, check: func(t *testing.T) {
		if status, body := s.call("GET", "/2024-04-01/mock-payer/scenarios", s.owner.key, ""); status != 200 || string(body) != scenarios {
			t.Errorf("owner's scenarios: %d %s", status, body)
		}
	}})
	// The practice's saved providers, one of each kind.
	for _, kind := range []struct{ path, body string }{
		{"/2024-04-01/practice/billing-providers", `{"organizationName":"Tenancy Dental","npi":"1999999992","employerId":"123456789",
			"address":{"address1":"1 Main St","city":"Denver","state":"CO","postalCode":"802383000"},"contactInformation":{"name":"Office","phoneNumber":"3035550100"}}`},
		{"/2024-04-01/practice/rendering-providers", `{"firstName":"Jane","lastName":"Tenancy","npi":"1999999992"}`},
	} {
		var p struct{ ID string }
		s.owned("POST", kind.path, kind.body, &p, 201)
		add(resource{name: kind.path, id: p.ID, check: get(kind.path + "/" + p.ID), probes: []probe{
			{method: "GET", path: kind.path + "/" + p.ID, want: 404},
			{method: "PUT", path: kind.path + "/" + p.ID, body: kind.body, want: 404},
			{method: "DELETE", path: kind.path + "/" + p.ID, want: 404},
			{method: "GET", path: kind.path, want: 200},
		}})
	}
	add(resource{name: "API key", id: s.owner.keyID, probes: []probe{
		{method: "GET", path: "/2024-04-01/usage", want: 200},
		// The owner's audit events name its key as the actor; the
		// intruder's log holds its own (its probes name the owner's ids
		// it sent, so the key is what tells whose event it is).
		{method: "GET", path: "/2024-04-01/audit-events?resourceId=" + check.ID, want: 200},
		{method: "GET", path: "/2024-04-01/audit-events?format=jsonl", want: 200},
	}, check: func(t *testing.T) {
		var usage struct{ Items []struct{ KeyID string } }
		s.owned("GET", "/2024-04-01/usage", "", &usage, 200)
		if len(usage.Items) == 0 || usage.Items[0].KeyID != s.owner.keyID {
			t.Errorf("owner's usage: %+v", usage)
		}
	}})

	// Partners: a profile, a connection, a partnership with a setting.
	const x12 = "/2023-08-01/x12"
	profile := `{"profileId":"tenancy-partner","profileType":"partner","interchangeQualifier":"ZZ","interchangeId":"TENANCYP"}`
	s.owned("POST", x12+"/profiles", profile, nil, 201)
	add(resource{name: "partner profile", check: get(x12 + "/profiles/tenancy-partner"), probes: []probe{
		{method: "GET", path: x12 + "/profiles/tenancy-partner", want: 404},
		{method: "PUT", path: x12 + "/profiles/tenancy-partner", body: profile, want: 404},
		{method: "DELETE", path: x12 + "/profiles/tenancy-partner", want: 404},
		{method: "GET", path: x12 + "/profiles", want: 200},
	}})
	conn := `{"connectionId":"tenancy-conn","connectionType":"HTTP_UPLOAD","name":"owner's uploads"}`
	s.owned("POST", x12+"/connections", conn, nil, 201)
	add(resource{name: "connection", check: get(x12 + "/connections/tenancy-conn"), probes: []probe{
		{method: "GET", path: x12 + "/connections/tenancy-conn", want: 404},
		{method: "PUT", path: x12 + "/connections/tenancy-conn", body: conn, want: 404},
		{method: "DELETE", path: x12 + "/connections/tenancy-conn", want: 404},
		{method: "GET", path: x12 + "/connections", want: 200},
	}})
	ship := `{"partnershipId":"tenancy-ship","localProfileId":"clearhouse","partnerProfileId":"tenancy-partner","connectionId":"tenancy-conn",
	  "inboundTransactions":[{"transactionSettingId":"tenancy-in","transactionSetIdentifier":"835","guideId":"005010X221A1"}]}`
	s.owned("POST", x12+"/partnerships", ship, nil, 201)
	add(resource{name: "partnership", check: get(x12 + "/partnerships/tenancy-ship/inbound-transactions/tenancy-in"), probes: []probe{
		{method: "GET", path: x12 + "/partnerships/tenancy-ship", want: 404},
		{method: "PUT", path: x12 + "/partnerships/tenancy-ship", body: ship, want: 404},
		{method: "DELETE", path: x12 + "/partnerships/tenancy-ship", want: 404},
		{method: "GET", path: x12 + "/partnerships/tenancy-ship/inbound-transactions", want: 404},
		{method: "GET", path: x12 + "/partnerships/tenancy-ship/inbound-transactions/tenancy-in", want: 404},
		{method: "DELETE", path: x12 + "/partnerships/tenancy-ship/inbound-transactions/tenancy-in", want: 404},
		{method: "POST", path: x12 + "/partnerships/tenancy-ship/outbound-transactions", body: `{"transactionSetIdentifier":"837","guideId":"005010X224A2"}`, want: 404},
		{method: "GET", path: x12 + "/partnerships", want: 200},
		// Reaching the owner's records by naming them: a dangling reference.
		{method: "POST", path: x12 + "/partnerships", body: `{"partnershipId":"mine","localProfileId":"tenancy-partner","partnerProfileId":"tenancy-partner","connectionId":"tenancy-conn"}`, want: 400},
	}})

	// An SFTP user of the owner's account and mode (made by the operator):
	// no connection of another account or mode may name it.
	if err := s.store.CreateSFTPUser(context.Background(), store.SFTPUser{Username: "tenancy-owner", AccountID: s.owner.accountID,
		Mode: store.ModeTest, PublicKeys: "ssh-ed25519 AAAA", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	add(resource{name: "SFTP user", probes: []probe{
		{method: "POST", path: x12 + "/connections", body: `{"connectionType":"SFTP_SERVER","settings":{"username":"tenancy-owner"}}`, want: 400},
	}, check: func(t *testing.T) {
		s.owned("POST", x12+"/connections", `{"connectionType":"SFTP_SERVER","settings":{"username":"tenancy-owner"}}`, nil, 201)
	}})

	// A webhook (disabled: nothing leaves the building).
	var hook struct{ ID string }
	s.owned("POST", "/2023-08-01/webhooks", `{"url":"https://receiver.example/hooks","eventTypes":["file.processed.v2"],"status":"DISABLED"}`, &hook, 201)
	wh := "/2023-08-01/webhooks/" + hook.ID
	add(resource{name: "webhook", id: hook.ID, check: get(wh), probes: []probe{
		{method: "GET", path: wh, want: 404},
		{method: "PATCH", path: wh, body: `{"url":"https://intruder.example/hooks"}`, want: 404},
		{method: "DELETE", path: wh, want: 404},
		{method: "GET", path: wh + "/secret", want: 404},
		{method: "POST", path: wh + "/secret/rotate", want: 404},
		{method: "GET", path: wh + "/deliveries", want: 404},
		{method: "POST", path: wh + "/test", want: 404},
		{method: "GET", path: "/2023-08-01/webhooks", want: 200},
	}})

	// The owner's test mode at its limit of webhooks: the limit is the
	// owner's test mode's, not the account's nor the server's.
	var hooks struct{ Items []struct{ ID string } }
	s.owned("GET", "/2023-08-01/webhooks", "", &hooks, 200)
	for i := len(hooks.Items); i < webhooks.MaxWebhooks; i++ {
		s.owned("POST", "/2023-08-01/webhooks", fmt.Sprintf(`{"url":"https://receiver.example/%d","status":"DISABLED"}`, i), nil, 201)
	}
	s.owned("POST", "/2023-08-01/webhooks", `{"url":"https://receiver.example/full","status":"DISABLED"}`, nil, 400)
	add(resource{name: "webhook quota", probes: []probe{
		{method: "POST", path: "/2023-08-01/webhooks", body: `{"url":"https://receiver.example/mine","status":"DISABLED"}`, want: 201},
	}})

	// A file, its transactions and its events.
	var accepted struct{ ExecutionID string }
	s.owned("POST", "/2023-08-01/files/inbound?name=tenancy-era.x12", coretest.Gen835([]int{1}, 2, 0), &accepted, 202)
	ex := "/2023-08-01/executions/" + accepted.ExecutionID
	s.await(ex, func(b []byte) bool { return strings.Contains(string(b), `"COMPLETED"`) })
	add(resource{name: "file execution", id: accepted.ExecutionID, check: get(ex), probes: []probe{
		{method: "GET", path: ex, want: 404},
		{method: "GET", path: ex + "/input", want: 404},
		{method: "GET", path: ex + "/metadata", want: 404},
		{method: "GET", path: ex + "/transactions", want: 404},
		{method: "GET", path: "/2023-08-01/executions", want: 200},
	}})
	var txs struct {
		Items []struct{ TransactionID string }
	}
	s.owned("GET", ex+"/transactions", "", &txs, 200)
	if len(txs.Items) == 0 {
		t.Fatal("the owner's file has no transactions")
	}
	tx := "/2023-08-01/transactions/" + txs.Items[0].TransactionID
	report := "/2024-04-01/change/medicalnetwork/reports/v2/" + txs.Items[0].TransactionID + "/835"
	add(resource{name: "transaction", id: txs.Items[0].TransactionID, check: func(t *testing.T) {
		get(tx)(t)
		get(report)(t)
	}, probes: []probe{
		{method: "GET", path: tx, want: 404},
		{method: "GET", path: tx + "/input", want: 404},
		{method: "GET", path: tx + "/output", want: 404},
		{method: "GET", path: tx + "/fragments/0/output", want: 404},
		{method: "GET", path: "/2024-04-01/change/medicalnetwork/reports/v2/" + txs.Items[0].TransactionID + "/835", want: 404},
		{method: "GET", path: "/2024-04-01/electronic-remittance-advice/" + txs.Items[0].TransactionID + "/pdf", want: 404},
		{method: "GET", path: "/2023-08-01/transactions", want: 200},
		{method: "GET", path: "/2023-08-01/transactions?executionId=" + accepted.ExecutionID, want: 200},
		{method: "GET", path: "/2023-08-01/polling/transactions?startDateTime=2000-01-01T00:00:00Z", want: 200},
	}})
	var evs struct {
		Items []struct{ ID string }
	}
	s.owned("GET", "/2023-08-01/events?executionId="+accepted.ExecutionID, "", &evs, 200)
	if len(evs.Items) == 0 {
		t.Fatal("the owner's file has no events")
	}
	ev := "/2023-08-01/events/" + evs.Items[0].ID
	add(resource{name: "event", id: evs.Items[0].ID, check: get(ev), probes: []probe{
		{method: "GET", path: ev, want: 404},
		{method: "GET", path: ev + "/deliveries", want: 404},
		{method: "POST", path: ev + "/retry", want: 404},
		{method: "GET", path: "/2023-08-01/events", want: 200},
		{method: "GET", path: "/2023-08-01/events?executionId=" + accepted.ExecutionID, want: 200},
	}})

	// A dental claim: its 837D's execution and transaction, found by the
	// claim id the answer gave.
	claim, err := os.ReadFile("../claims/testdata/example.json")
	if err != nil {
		t.Fatal(err)
	}
	var submitted struct {
		ClaimReference struct{ CorrelationID string }
	}
	s.owned("POST", "/2024-04-01/dental-claims/submission", string(claim), &submitted, 200)
	claimID := submitted.ClaimReference.CorrelationID
	byClaim := "/2023-08-01/transactions?businessIdentifier=" + url.QueryEscape(claimID)
	var claimTxs struct {
		Items []struct{ TransactionID, FileExecutionID string }
	}
	json.Unmarshal(s.await(byClaim, func(b []byte) bool { return strings.Contains(string(b), "transactionId") }), &claimTxs)
	claimEx := "/2023-08-01/executions/" + claimTxs.Items[0].FileExecutionID
	add(resource{name: "claim", id: claimID, check: get(claimEx), probes: []probe{
		{method: "GET", path: byClaim, want: 200},
		{method: "GET", path: claimEx, want: 404},
		{method: "GET", path: claimEx + "/output", want: 404},
		{method: "GET", path: "/2023-08-01/transactions/" + claimTxs.Items[0].TransactionID, want: 404},
	}})
	// The same claim in the claims lifecycle API (its id as that API writes
	// it), and the owner's 835 whose claims name none of the owner's.
	lifecycleID := "clm_" + strings.ToUpper(claimID)
	record := "/2025-03-07/claims/" + lifecycleID
	add(resource{name: "claim record", id: lifecycleID, check: func(t *testing.T) {
		get(record)(t)
		get(record + "/timeline")(t)
	}, probes: []probe{
		{method: "GET", path: record, want: 404},
		{method: "GET", path: record + "/timeline", want: 404},
		{method: "GET", path: "/2025-03-07/claims/" + claimID, want: 404},
		{method: "GET", path: "/2025-03-07/claims", want: 200},
		{method: "GET", path: "/2025-03-07/claims?patientControlNumbers=12345&status=SUBMITTED,RECEIVED,ACCEPTED,PROCESSED", want: 200},
	}})
	// The dental claim's 277CA (its acknowledgment in the timeline) as a
	// claim report.
	var timeline struct {
		Items []struct {
			ClaimAcknowledgment *struct{ ID string }
		}
	}
	json.Unmarshal(s.await(record+"/timeline", func(b []byte) bool { return strings.Contains(string(b), "claimAcknowledgment") }), &timeline)
	var ackID string
	for _, it := range timeline.Items {
		if it.ClaimAcknowledgment != nil {
			ackID = it.ClaimAcknowledgment.ID
		}
	}
	report277 := "/2024-04-01/change/medicalnetwork/reports/v2/" + ackID + "/277"
	add(resource{name: "claim acknowledgment (277CA) report", id: ackID, check: get(report277), probes: []probe{
		{method: "GET", path: report277, want: 404},
		{method: "GET", path: "/2023-08-01/transactions/" + ackID, want: 404},
		{method: "GET", path: "/2023-08-01/transactions/" + ackID + "/input", want: 404},
		// A claim status request for the owner's claim (its payer, patient
		// control number and date): the other account's mock payer knows
		// no such claim (D0), the other mode has no such payer.
		{method: "POST", path: "/2024-04-01/change/medicalnetwork/claimstatus/v2", want: 200, otherMode: 400, must: `"statusCategoryCode":"D0"`, body: `{
		  "tradingPartnerServiceId":"52133","providers":[{"providerType":"BillingProvider","organizationName":"ABA Inc","npi":"1999999992"}],
		  "subscriber":{"memberId":"123412345","firstName":"John","lastName":"Doe"},
		  "encounter":{"patientAccountNumber":"12345","beginningDateOfService":"20230428"}}`},
	}})
	for _, r := range s.medicalClaims() {
		add(r)
	}

	unmatched := txs.Items[0].TransactionID
	add(resource{name: "unmatched claim report", id: unmatched, check: func(t *testing.T) {
		var list struct {
			Items []struct{ TransactionID string }
		}
		s.owned("GET", "/2025-03-07/unmatched-claim-reports", "", &list, 200)
		if len(list.Items) == 0 || list.Items[0].TransactionID != unmatched {
			t.Errorf("owner's unmatched reports: %+v", list)
		}
	}, probes: []probe{
		{method: "GET", path: "/2025-03-07/unmatched-claim-reports", want: 200},
	}})
	return out
}

// medicalClaims submits the owner's professional and institutional claims
// (one with an Idempotency-Key, one through a transaction setting of the
// owner's own) and lists what an intruder tries on each.
func (s *server) medicalClaims() []resource {
	t := s.t
	const x12 = "/2023-08-01/x12"
	// An outbound setting of the owner's, named by a header of the
	// submission: no other account or mode may name it.
	s.owned("POST", x12+"/partnerships/clearhouse_mock-87726/outbound-transactions",
		`{"transactionSettingId":"tenancy-out-837i","transactionSetIdentifier":"837","guideId":"005010X223A3"}`, nil, 201)
	var out []resource
	for _, kind := range []struct {
		name, path, file string
		headers          []string
		replay           int // what the other account's same request answers
	}{
		// Idempotency keys are the caller's own: the same key from another
		// account is a new claim.
		{"professional claim", "/2024-04-01/change/medicalnetwork/professionalclaims/v3/submission", "professional/example.json",
			[]string{"Idempotency-Key", "tenancy-idem-837p"}, 200},
		// The owner's setting is a dangling reference to anyone else.
		{"institutional claim", "/2024-04-01/change/medicalnetwork/institutionalclaims/v1/submission", "institutional/example.json",
			[]string{"Service-Transaction-Setting-Id", "tenancy-out-837i"}, 400},
	} {
		body, err := os.ReadFile("../claims/testdata/" + kind.file)
		if err != nil {
			t.Fatal(err)
		}
		var submitted struct {
			ClaimReference struct{ CorrelationID string }
		}
		s.ownedWith(kind.headers, "POST", kind.path, string(body), &submitted, 200)
		claimID := submitted.ClaimReference.CorrelationID
		byClaim := "/2023-08-01/transactions?businessIdentifier=" + url.QueryEscape(claimID)
		var txs struct {
			Items []struct{ TransactionID, FileExecutionID string }
		}
		json.Unmarshal(s.await(byClaim, func(b []byte) bool { return strings.Contains(string(b), "transactionId") }), &txs)
		ex := "/2023-08-01/executions/" + txs.Items[0].FileExecutionID
		record := "/2025-03-07/claims/clm_" + strings.ToUpper(claimID)
		out = append(out, resource{name: kind.name, id: claimID, check: func(t *testing.T) {
			s.owned("GET", record, "", nil, 200)
			s.owned("GET", record+"/timeline", "", nil, 200)
			s.owned("GET", ex, "", nil, 200)
		}, probes: []probe{
			{method: "GET", path: record, want: 404},
			{method: "GET", path: record + "/timeline", want: 404},
			{method: "GET", path: byClaim, want: 200},
			{method: "GET", path: ex, want: 404},
			{method: "GET", path: ex + "/output", want: 404},
			{method: "GET", path: "/2023-08-01/transactions/" + txs.Items[0].TransactionID, want: 404},
			{method: "GET", path: "/2025-03-07/claims?status=SUBMITTED,RECEIVED,ACCEPTED,PROCESSED", want: 200},
			// The same request with the same headers: what the other
			// account gets is its own (a replay of the owner's answer would
			// hold its id); the other mode has no such payer.
			{method: "POST", path: kind.path, body: string(body), headers: kind.headers, want: kind.replay, otherMode: 400},
		}})
	}
	return out
}
