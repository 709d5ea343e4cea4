package delivery_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/claims"
	"github.com/clearhouse/clearhouse/internal/store"
)

// fragmentsOn enables fragments on the outbound 837 setting of payer 52133.
func (w *world) fragmentsOn(keyName string, batchSize int) {
	w.t.Helper()
	ctx := context.Background()
	s, err := w.st.GetTransactionSetting(ctx, w.account, store.ModeTest, "clearhouse_mock-52133-out-837")
	must(w.t, err)
	s.FragmentsEnabled, s.FragmentsKeyName, s.FragmentsBatchSize = true, keyName, batchSize
	must(w.t, w.st.UpdateTransactionSetting(ctx, s))
}

// An outbound 837 setting with fragments: the claim's transaction gets
// them, like an inbound one, and one fragment.processed.v2 each (spec §6),
// committed with the claim.
func TestOutboundClaimFragments(t *testing.T) {
	w := newWorld(t)
	w.fragmentsOn("service_line_number_LX_loop", 1)
	res := w.submit(func(r *claims.Request) { // two service lines
		line := r.ClaimInformation.ServiceLines[0]
		line.ProviderControlNumber = "line-2"
		r.ClaimInformation.ServiceLines = append(r.ClaimInformation.ServiceLines, line)
		r.ClaimInformation.ClaimChargeAmount = "1664.00"
	})
	claim := mustClaim(t, w, res)
	ctx := context.Background()
	tx, err := w.st.GetTransaction(ctx, w.account, claim.TransactionID)
	must(t, err)
	if tx.FragmentCount != 2 || len(tx.Fragments) != 2 || tx.FragmentBatchSize != 1 || tx.FragmentKeyName != "service_line_number_LX_loop" {
		t.Fatalf("transaction fragments: count %d, %d stored, batch %d, key %q", tx.FragmentCount, len(tx.Fragments), tx.FragmentBatchSize, tx.FragmentKeyName)
	}
	for i, f := range tx.Fragments {
		rc, err := w.blobs.Get(ctx, f.Output.Key)
		must(t, err)
		b, _ := io.ReadAll(rc)
		rc.Close()
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil || int64(len(b)) != f.Output.Size {
			t.Fatalf("fragment %d: %v, %d bytes of %d: %.300s", i, err, len(b), f.Output.Size, b)
		}
		// Each fragment holds its own service line (batch size 1) and the
		// claim around it.
		if strings.Count(string(b), `"service_line_number_LX_loop"`) != 1 || !strings.Contains(string(b), `"claim_information_CLM_loop"`) {
			t.Errorf("fragment %d: %.600s", i, b)
		}
	}
	evs, _, err := w.st.ListEvents(ctx, w.account, store.EventFilter{TransactionID: claim.TransactionID, DetailType: "fragment.processed.v2"})
	must(t, err)
	if len(evs) != 2 {
		t.Fatalf("%d fragment.processed.v2 events, want 2", len(evs))
	}
	seen := map[int]bool{}
	for _, e := range evs {
		var env struct {
			Detail struct {
				Direction     string `json:"direction"`
				TransactionID string `json:"transactionId"`
				FragmentIndex int    `json:"fragmentIndex"`
				Fragments     struct {
					BatchSize     int    `json:"batchSize"`
					FragmentCount int    `json:"fragmentCount"`
					KeyName       string `json:"keyName"`
				} `json:"fragments"`
				Artifacts []struct {
					URL   string `json:"url"`
					Model string `json:"model"`
				} `json:"artifacts"`
				X12 struct {
					Metadata struct {
						Transaction struct {
							TransactionSetIdentifier string `json:"transactionSetIdentifier"`
						} `json:"transaction"`
					} `json:"metadata"`
				} `json:"x12"`
			} `json:"detail"`
		}
		must(t, json.Unmarshal(e.Envelope, &env))
		d := env.Detail
		seen[d.FragmentIndex] = true
		if d.Direction != "OUTBOUND" || d.TransactionID != claim.TransactionID || d.Fragments.FragmentCount != 2 || d.Fragments.BatchSize != 1 ||
			d.Fragments.KeyName != "service_line_number_LX_loop" || len(d.Artifacts) != 1 || d.Artifacts[0].Model != "fragment" ||
			!strings.HasSuffix(d.Artifacts[0].URL, "/transactions/"+claim.TransactionID+"/fragments/"+strconv.Itoa(d.FragmentIndex)+"/output") ||
			d.X12.Metadata.Transaction.TransactionSetIdentifier != "837" {
			t.Errorf("fragment event: %s", e.Envelope)
		}
	}
	if !seen[0] || !seen[1] {
		t.Errorf("fragment indexes %v, want 0 and 1", seen)
	}
	var tpe []store.Event
	tpe, _, err = w.st.ListEvents(ctx, w.account, store.EventFilter{TransactionID: claim.TransactionID, DetailType: "transaction.processed.v2"})
	must(t, err)
	if len(tpe) != 1 || !strings.Contains(string(tpe[0].Envelope), `"fragments":{"batchSize":1,"fragmentCount":2,"keyName":"service_line_number_LX_loop"}`) {
		t.Errorf("transaction.processed.v2: %v", tpe)
	}
}

// A fragment key that is not a loop of the 837D guide is the account's
// configuration problem: a clear error, and nothing recorded or sent.
func TestOutboundFragmentsOfNoLoop(t *testing.T) {
	w := newWorld(t)
	w.fragmentsOn("no_such_loop", 0)
	b, err := os.ReadFile("../claims/testdata/example.json")
	must(t, err)
	var r claims.Request
	must(t, json.Unmarshal(b, &r))
	_, err = w.claims.Submit(context.Background(), claims.Submission{Caller: claims.Caller{AccountID: w.account, Mode: store.ModeTest},
		Request: &r, Body: b, Route: "dental-claims/submission"})
	var nc *claims.NotConfiguredError
	if !errors.As(err, &nc) || !strings.Contains(nc.Message, `"no_such_loop"`) || !strings.Contains(nc.Message, "fragments.keyName") {
		t.Fatalf("error %v, want a NotConfiguredError naming the key", err)
	}
	if evs, _, _ := w.st.ListEvents(context.Background(), w.account, store.EventFilter{}); len(evs) != 0 {
		t.Errorf("%d events recorded", len(evs))
	}
}
