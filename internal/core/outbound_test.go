package core_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
	"github.com/clearhouse/clearhouse/x12"
)

// TestRecordOutbound: a file without a transaction (a 999) is an execution
// and a delivery; a file with one (a claim) adds the transaction, its
// transaction.processed.v2 (direction OUTBOUND, the written envelope's
// metadata) and one fragment.processed.v2 per fragment, all in the caller's
// transaction.
func TestRecordOutbound(t *testing.T) {
	t.Parallel()
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		e := newEnv(t, open)
		now := time.Now().UTC().Truncate(time.Millisecond)
		local := store.Profile{ID: "us", ISAQualifier: "ZZ", ISAID: "US", ApplicationCode: "USAPP"}
		partner := store.Profile{ID: "them", ISAQualifier: "ZZ", ISAID: "THEM", ApplicationCode: "THEMAPP"}
		var delivered []string
		deliver := func(_ context.Context, _ store.Queries, ex store.Execution) error {
			delivered = append(delivered, ex.ID)
			return nil
		}
		exec := func(id string) store.Execution {
			return store.Execution{ID: id, AccountID: e.account, Mode: store.ModeTest, Direction: store.DirectionOutbound,
				Status: store.ExecutionPendingDelivery, FileType: "x12", SourceName: id + ".x12",
				Output: store.Artifact{Key: "k/" + id, ContentType: "application/edi-x12", Size: 10}, CreatedAt: now, UpdatedAt: now}
		}
		ack := exec(store.NewTimeUUID())
		must(t, e.store.InTx(ctx, func(tx store.Queries) error {
			return core.RecordOutbound(ctx, tx, events.New(events.Options{}), core.OutboundFile{Execution: ack}, deliver)
		}))
		if got := e.events(ack.ID); len(got) != 0 {
			t.Errorf("a 999 emitted %d events, want none", len(got))
		}

		claim := exec(store.NewTimeUUID())
		txID := store.NewTimeUUID()
		set := core.WrittenSet{Controls: x12.Controls{Interchange: "000000042", Group: "42", Transaction: "0001"},
			FunctionalID: "HC", Release: "005010X222A1", SetID: "837", Written: now,
			Partnership: store.Partnership{ID: "us_them"}, Sender: local, Receiver: partner, TransactionSettingID: "out-837p"}
		t1 := store.Transaction{ID: txID, AccountID: e.account, Mode: store.ModeTest, ExecutionID: claim.ID,
			Direction: store.DirectionOutbound, Status: store.TransactionSucceeded, TransactionSetID: "837", ControlNumber: "0001",
			GuideID: "005010X222A1", Input: store.Artifact{Key: "in/" + txID, ContentType: "application/edi-x12", Size: 10},
			Output: store.Artifact{Key: "out/" + txID, ContentType: "application/json", Size: 20}, ProcessedAt: now, CreatedAt: now,
			FragmentCount: 2, FragmentBatchSize: 1, FragmentKeyName: "claim",
			Fragments: []store.Fragment{{Index: 0, Output: store.Artifact{Key: "f0", ContentType: "application/json", Size: 5}},
				{Index: 1, Output: store.Artifact{Key: "f1", ContentType: "application/json", Size: 6}}}}
		must(t, e.store.InTx(ctx, func(tx store.Queries) error {
			return core.RecordOutbound(ctx, tx, events.New(events.Options{}), core.OutboundFile{Execution: claim, Transaction: &core.OutboundTransaction{
				Record: t1, Partnership: set.OutboundPartnership(), X12: set.X12(),
				Fragments: &core.FragmentsInfo{BatchSize: 1, FragmentCount: 2, KeyName: "claim"}}}, deliver)
		}))
		if len(delivered) != 2 || delivered[0] != ack.ID || delivered[1] != claim.ID {
			t.Errorf("delivered %v, want the 999 then the claim", delivered)
		}
		got := e.events(claim.ID)
		types := []string{}
		for _, ev := range got {
			types = append(types, ev.DetailType)
		}
		want := []string{events.TransactionProcessed, events.FragmentProcessed, events.FragmentProcessed}
		if len(types) != len(want) || types[0] != want[0] || types[1] != want[1] {
			t.Fatalf("events %v, want %v", types, want)
		}
		var d struct {
			Direction string `json:"direction"`
			X12       struct {
				Metadata struct {
					FunctionalGroup struct {
						Release       string `json:"release"`
						ControlNumber int64  `json:"controlNumber"`
					} `json:"functionalGroup"`
					Sender struct {
						ISA struct {
							ID string `json:"id"`
						} `json:"isa"`
					} `json:"sender"`
				} `json:"metadata"`
			} `json:"x12"`
			Partnership struct {
				Sender struct {
					ProfileID string `json:"profileId"`
				} `json:"sender"`
			} `json:"partnership"`
		}
		must(t, json.Unmarshal(got[0].Detail, &d))
		if d.Direction != store.DirectionOutbound || d.X12.Metadata.FunctionalGroup.Release != "005010X222A1" ||
			d.X12.Metadata.FunctionalGroup.ControlNumber != 42 || d.X12.Metadata.Sender.ISA.ID != "US" || d.Partnership.Sender.ProfileID != "us" {
			t.Errorf("transaction.processed.v2 detail = %+v", d)
		}
		rec, err := e.store.GetTransaction(ctx, e.account, txID)
		must(t, err)
		if len(rec.Detail) == 0 {
			t.Error("the transaction's record detail is empty")
		}
	})
}
