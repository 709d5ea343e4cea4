package delivery_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/claims"
	"github.com/clearhouse/clearhouse/internal/store"
)

// submitProfessional submits the contract's professional example to
// UnitedHealthcare's mock (87726) with the subscriber's member id set.
func (w *world) submitProfessional(memberID string) *claims.Result {
	w.t.Helper()
	b, err := os.ReadFile("../claims/testdata/professional/example.json")
	must(w.t, err)
	var r claims.ProfessionalRequest
	must(w.t, json.Unmarshal(b, &r))
	r.TradingPartnerServiceID, r.Subscriber.MemberID = "87726", memberID
	res, err := w.claims.SubmitProfessional(context.Background(), claims.Submission{Caller: claims.Caller{AccountID: w.account, Mode: store.ModeTest},
		Body: b, Route: claims.ProfessionalRoute}, &r)
	must(w.t, err)
	return res
}

// read returns a blob's content.
func (w *world) read(key string) string {
	w.t.Helper()
	rc, err := w.blobs.Get(context.Background(), key)
	must(w.t, err)
	defer rc.Close()
	var b strings.Builder
	buf := make([]byte, 1<<16)
	for {
		n, err := rc.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			return b.String()
		}
	}
}

// A test key's professional claim travels the whole road like a dental
// one: the outbound 837P and its transaction, file.delivered.v2, then the
// mock payer's 999 and 277CA as inbound files with their events; a member
// of a published rejection gets its STC.
func TestProfessionalClaimTravelsTheWholeRoad(t *testing.T) {
	for _, tc := range []struct{ member, stc string }{
		{"U7777788888", "STC*A2:20*"},
		{"REJECTNPI1", "STC*A7:562:85*"},
	} {
		t.Run(tc.member, func(t *testing.T) {
			w := newWorld(t)
			res := w.submitProfessional(tc.member)
			if res.Status != 200 || res.Response.Status != "SUCCESS" {
				t.Fatalf("submit: %d %s", res.Status, res.Body)
			}
			evs := w.waitEvents(6)
			got := map[string]int{}
			for _, e := range evs {
				got[e.DetailType]++
			}
			if len(evs) != 6 || got["transaction.processed.v2"] != 3 || got["file.delivered.v2"] != 1 || got["file.processed.v2"] != 2 {
				t.Fatalf("events: %s", types(evs))
			}
			claim := mustClaim(t, w, res)
			e, err := w.st.GetExecution(context.Background(), w.account, claim.ExecutionID)
			must(t, err)
			if e.Status != store.ExecutionDelivered || e.SourceDirname != "professional-claims" || !strings.HasPrefix(e.SourceName, "837P-") {
				t.Errorf("execution %s %s/%s", e.Status, e.SourceDirname, e.SourceName)
			}
			if x := w.read(e.Input.Key); !strings.Contains(x, "*005010X222A1~") || !strings.Contains(x, "~SV1*HC:90837:95*109.2*UN*1***1~") {
				t.Errorf("outbound file is not the 837P: %.300s", x)
			}
			tx, err := w.st.GetTransaction(context.Background(), w.account, claim.TransactionID)
			must(t, err)
			if tx.GuideID != claims.Version837P || !strings.Contains(w.read(tx.Output.Key), "SV1") {
				t.Errorf("transaction guide %s, Guide JSON %.200s", tx.GuideID, w.read(tx.Output.Key))
			}
			acks, _, err := w.st.ListTransactions(context.Background(), w.account, store.TransactionFilter{TransactionSetID: "277"})
			must(t, err)
			if len(acks) != 1 {
				t.Fatalf("%d inbound 277 transactions", len(acks))
			}
			if x := w.read(acks[0].Input.Key); !strings.Contains(x, tc.stc) {
				t.Errorf("277CA lacks %s: %s", tc.stc, x)
			}
		})
	}
}

// An institutional claim travels the same road: the outbound 837I, its
// delivery, the mock's 999 and 277CA (REJECTDX01: A7:254).
func TestInstitutionalClaimTravelsTheWholeRoad(t *testing.T) {
	for _, tc := range []struct{ member, stc string }{
		{"98765", "STC*A2:20*"},
		{"REJECTDX01", "STC*A7:254*"},
	} {
		t.Run(tc.member, func(t *testing.T) {
			w := newWorld(t)
			b, err := os.ReadFile("../claims/testdata/institutional/example.json")
			must(t, err)
			var r claims.InstitutionalRequest
			must(t, json.Unmarshal(b, &r))
			r.Subscriber.MemberID = tc.member
			res, err := w.claims.SubmitInstitutional(context.Background(), claims.Submission{Caller: claims.Caller{AccountID: w.account, Mode: store.ModeTest},
				Body: b, Route: claims.InstitutionalRoute}, &r)
			must(t, err)
			evs := w.waitEvents(6)
			if got := types(evs); len(evs) != 6 || !strings.Contains(got, "file.delivered.v2") || strings.Count(got, "transaction.processed.v2") != 3 {
				t.Fatalf("events: %s", got)
			}
			claim := mustClaim(t, w, res)
			e, err := w.st.GetExecution(context.Background(), w.account, claim.ExecutionID)
			must(t, err)
			if x := w.read(e.Input.Key); e.Status != store.ExecutionDelivered || !strings.Contains(x, "*005010X223A3~") || !strings.Contains(x, "~SV2*0800*HC:H0001*500*UN*1~") {
				t.Errorf("execution %s, file %.300s", e.Status, x)
			}
			acks, _, err := w.st.ListTransactions(context.Background(), w.account, store.TransactionFilter{TransactionSetID: "277"})
			must(t, err)
			if len(acks) != 1 || !strings.Contains(w.read(acks[0].Input.Key), tc.stc) {
				t.Fatalf("277CA: %d transactions, want one with %s", len(acks), tc.stc)
			}
		})
	}
}

// An outbound setting for 005010X222A1 that enables fragments cuts a
// professional claim's Guide JSON like a dental one's: one
// fragment.processed.v2 per service line, committed with the claim; the
// claim names the setting it was written under.
func TestProfessionalClaimFragments(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	ship := "clearhouse_mock-87726"
	must(t, w.st.CreateTransactionSetting(ctx, store.TransactionSetting{ID: ship + "-out-837p", AccountID: w.account, Mode: store.ModeTest,
		PartnershipID: ship, Direction: store.DirectionOutbound, TransactionSetIdentifier: "837", GuideID: claims.Version837P,
		ConnectionID: "mock", FragmentsEnabled: true, FragmentsKeyName: "service_line_number_LX_loop", FragmentsBatchSize: 1,
		CreatedAt: w.clock.Now(), UpdatedAt: w.clock.Now()}))
	b, err := os.ReadFile("../claims/testdata/professional/full.json")
	must(t, err)
	var r claims.ProfessionalRequest
	must(t, json.Unmarshal(b, &r))
	res, err := w.claims.SubmitProfessional(ctx, claims.Submission{Caller: claims.Caller{AccountID: w.account, Mode: store.ModeTest},
		Body: b, Route: claims.ProfessionalRoute}, &r)
	must(t, err)
	claim := mustClaim(t, w, res)
	tx, err := w.st.GetTransaction(ctx, w.account, claim.TransactionID)
	must(t, err)
	if tx.TransactionSettingID != ship+"-out-837p" || tx.FragmentCount != 2 || len(tx.Fragments) != 2 {
		t.Fatalf("transaction: setting %q, %d fragments (%d stored)", tx.TransactionSettingID, tx.FragmentCount, len(tx.Fragments))
	}
	evs, _, err := w.st.ListEvents(ctx, w.account, store.EventFilter{TransactionID: claim.TransactionID, DetailType: "fragment.processed.v2"})
	must(t, err)
	if len(evs) != 2 {
		t.Fatalf("%d fragment.processed.v2 events, want 2", len(evs))
	}
}
