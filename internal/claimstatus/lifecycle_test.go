package claimstatus

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

func TestState(t *testing.T) {
	payer := func(s string) store.ClaimState { return store.ClaimState{Status: s, ReportedBy: store.ReportedByPayer} }
	for _, c := range []struct {
		name, kind, outcome string
		d                   Detail
		want                store.ClaimState
	}{
		{"999 accepts the file", store.ClaimAnswer999, Acknowledged, Detail{AckStatus: "A"}, payer(store.ClaimStatusReceived)},
		{"999 rejects it", store.ClaimAnswer999, Rejected, Detail{AckStatus: "R"}, payer(store.ClaimStatusRejected)},
		{"277CA A2", store.ClaimAnswer277CA, Accepted, Detail{Statuses: []Status{{"A2", "20", ""}}, SourceEntity: "PR"}, payer(store.ClaimStatusAccepted)},
		{"277CA A1", store.ClaimAnswer277CA, Accepted, Detail{Statuses: []Status{{"A1", "19", "PR"}}}, payer(store.ClaimStatusReceived)},
		{"277CA A7", store.ClaimAnswer277CA, Rejected, Detail{Statuses: []Status{{"A2", "20", ""}, {"A7", "164", "IL"}}}, payer(store.ClaimStatusRejected)},
		{"277CA from a clearinghouse", store.ClaimAnswer277CA, Accepted, Detail{Statuses: []Status{{"A2", "20", ""}}, SourceEntity: "AY"},
			store.ClaimState{Status: store.ClaimStatusAccepted, ReportedBy: store.ReportedByClearinghouse}},
		{"277CA unknown category", store.ClaimAnswer277CA, Accepted, Detail{Statuses: []Status{{"Z9", "1", ""}}}, payer(store.ClaimStatusUnknown)},
		{"835 paid", store.ClaimAnswer835, Paid, Detail{}, payer(store.ClaimStatusProcessed)},
		{"835 denied", store.ClaimAnswer835, Denied, Detail{}, payer(store.ClaimStatusDenied)},
		{"835 reversal last", store.ClaimAnswer835, Reversed, Detail{}, payer(store.ClaimStatusUnknown)},
	} {
		if got := State(c.kind, c.outcome, c.d); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestParseID(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"clm_01M8B16XJNJZRFDHFK8M6CE2HQ", "01m8b16xjnjzrfdhfk8m6ce2hq", true},
		{"01m8b16xjnjzrfdhfk8m6ce2hq", "01m8b16xjnjzrfdhfk8m6ce2hq", true},
		{"clm_81M8B16XJNJZRFDHFK8M6CE2HQ", "", false}, // first digit above 7
		{"clm_01M8B16XJNJZRFDHFK8M6CE2HU", "", false}, // U is not Crockford
		{"clm_01M8B16X", "", false},
		{"../../etc", "", false},
	} {
		got, ok := ParseID(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("ParseID(%q) = %q %v", c.in, got, ok)
		}
	}
	if id := PublicID("01m8b16xjnjzrfdhfk8m6ce2hq"); id != "clm_01M8B16XJNJZRFDHFK8M6CE2HQ" {
		t.Errorf("PublicID = %s", id)
	}
}

// An 835 that pays, reverses and pays a claim again is one answer with
// three payments; the 277CA's source and the 835's trace are read.
func TestJudgeKeepsEveryPaymentAndTheSource(t *testing.T) {
	facts, err := read835(strings.NewReader("ISA*00*          *00*          *ZZ*52133          *ZZ*CLEARHOUSE     *261124*0024*^*00501*000000009*0*T*:~" +
		"GS*HP*52133*CLEARHOUSE*20261124*0024*9*X*005010X221A1~ST*835*0001~BPR*I*665.6*C*ACH~TRN*1*EFT123*1999999999~" +
		"CLP*PCN-1*1*832*832**12*P1~CLP*PCN-1*22*-832*-832**12*P1~CLP*PCN-1*1*832*665.6*83.2*12*P1R~SE*6*0001~GE*1*9~IEA*1*000000009~"))
	if err != nil || len(facts) != 3 {
		t.Fatalf("835: %+v %v", facts, err)
	}
	out, d := judge(store.ClaimAnswer835, facts)
	if out != Paid || len(d.Payments) != 3 || d.PaidCents() != 66560 || d.Payments[1].CheckOrEFT != "EFT123" || d.Paid != "665.6" {
		t.Errorf("judged %s %+v (paid %d)", out, d, d.PaidCents())
	}
	acks, err := read277(strings.NewReader(ack277))
	if err != nil || acks[0].SourceEntity != "PR" || acks[0].SourceName != "PAYER" {
		t.Errorf("277CA source: %+v %v", acks, err)
	}
}

// The timeline is newest first, the life's order breaking ties, with one
// entry per CLP and the hosted names of payment statuses.
func TestTimeline(t *testing.T) {
	t0 := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	c := store.DentalClaim{ID: "01m8b16xjnjzrfdhfk8m6ce2hq", PatientControlNumber: "PCN-1", PayerID: "52133", ChargeCents: 83200,
		ExecutionID: "ex", TransactionID: "tx837", CreatedAt: t0,
		Lifecycle: store.ClaimLifecycle{Type: "PROFESSIONAL", Status: store.ClaimStatusProcessed, ReportedBy: store.ReportedByPayer}}
	attempts := []store.JobAttempt{
		{Attempt: 1, Outcome: store.AttemptFailed, Error: "connection refused", StartedAt: t0.Add(time.Second), FinishedAt: t0.Add(2 * time.Second)},
		{Attempt: 2, Outcome: store.AttemptSucceeded, StartedAt: t0.Add(time.Minute), FinishedAt: t0.Add(time.Minute)},
	}
	detail := func(d Detail) []byte { b, _ := json.Marshal(d); return b }
	answers := []store.ClaimAnswer{
		{Kind: store.ClaimAnswer999, Outcome: Acknowledged, TransactionID: "t999", Detail: detail(Detail{AckStatus: "A"}), CreatedAt: t0.Add(2 * time.Minute)},
		{Kind: store.ClaimAnswer277CA, Outcome: Accepted, TransactionID: "t277", CreatedAt: t0.Add(2 * time.Minute),
			Detail: detail(Detail{Statuses: []Status{{"A2", "20", ""}}, SourceEntity: "PR", SourceName: "PAYER"})},
		{Kind: store.ClaimAnswer835, Outcome: Paid, TransactionID: "t835", CreatedAt: t0.Add(time.Hour),
			Detail: detail(Detail{Payments: []Payment{{ClaimStatus: "1", Charge: "832", Paid: "832"}, {ClaimStatus: "22", Charge: "-832", Paid: "-832"}}})},
	}
	var kinds []string
	routes := []store.UpstreamSubmission{
		{ConnectionID: "up-b", State: store.UpstreamNotAccepted, Tries: 1, UpdatedAt: t0.Add(time.Minute)},
		{ConnectionID: "up-c", State: store.UpstreamAccepted, Tries: 1, UpdatedAt: t0.Add(time.Minute)},
	}
	if Route(routes) != "up-c" || Route(routes[:1]) != "" {
		t.Errorf("Route: %q, %q", Route(routes), Route(routes[:1]))
	}
	for _, e := range Timeline(c, attempts, answers, routes, nil) {
		b, _ := json.Marshal(e)
		var m map[string]map[string]any
		if err := json.Unmarshal(b, &m); err != nil || len(m) != 1 {
			t.Fatalf("entry %s", b)
		}
		for k, v := range m {
			kinds = append(kinds, k+":"+v["id"].(string)+":"+firstOf(v, "status", "statusCode"))
		}
	}
	want := "claimPaymentInformation:t835.2:REVERSAL_OF_PREVIOUS_PAYMENT claimPaymentInformation:t835.1:PROCESSED_AS_PRIMARY " +
		"claimAcknowledgment:t277:ACCEPTED fileAcknowledgment:t999:ACCEPTED upstreamSubmission:ex/up-c:ACCEPTED " +
		"upstreamSubmission:ex/up-b:NOT_ACCEPTED deliveryAttempt:ex/2:DELIVERED " +
		"deliveryAttempt:ex/1:FAILED professionalClaimSubmission:tx837:"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("timeline\n got %s\nwant %s", got, want)
	}
}

func firstOf(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := m[k].(string); ok {
			return s
		}
	}
	return ""
}
