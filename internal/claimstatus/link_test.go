package claimstatus

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// linkFixture is a store holding one submitted claim (PCN-1, in the 837
// set 0001 of group 41, which file999 accepts and ack277 accepts), a 999
// and a 277CA about it, and the Linker.
type linkFixture struct {
	st         store.Store
	l          *Linker
	account    string
	claim      store.DentalClaim
	t999, t277 store.Transaction
}

// parsedAt is when the fixture's transactions were parsed: long before any
// change is recorded, the 277CA a second before the 999.
var parsedAt = time.Date(2026, 11, 24, 0, 24, 0, 0, time.UTC)

func newLinkFixture(t *testing.T, st store.Store, c clock.Clock) linkFixture {
	t.Helper()
	ctx := context.Background()
	acct, _ := storetest.Seed(t, st, store.ModeTest)
	bs, err := blob.Open(ctx, "mem://", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bs.Close() })
	f := linkFixture{st: st, l: &Linker{Blob: bs, Events: events.New(events.Options{}), Clock: c}, account: acct.ID}

	out := store.Execution{ID: store.NewUUID(), AccountID: acct.ID, Mode: store.ModeTest, Direction: store.DirectionOutbound,
		Status: store.ExecutionDelivered, FileType: "x12", CreatedAt: parsedAt.Add(-time.Hour), UpdatedAt: parsedAt.Add(-time.Hour)}
	in := out
	in.ID, in.Direction, in.Status = store.NewUUID(), store.DirectionInbound, store.ExecutionProcessing
	tx := func(e store.Execution, id, set, control string, at time.Time) store.Transaction {
		return store.Transaction{ID: id, AccountID: acct.ID, Mode: store.ModeTest, ExecutionID: e.ID, Direction: e.Direction,
			Status: store.TransactionSucceeded, TransactionSetID: set, ControlNumber: control, PartnershipID: "ship",
			Input: store.Artifact{Key: "transactions/" + id + "/input", ContentType: "application/edi-x12"}, CreatedAt: at, ProcessedAt: at}
	}
	t837 := tx(out, store.NewUUID(), "837", "0001", out.CreatedAt)
	f.t999 = tx(in, store.NewUUID(), "999", "0001", parsedAt.Add(time.Second))
	f.t277 = tx(in, store.NewUUID(), "277", "0001", parsedAt)
	f.t277.Identifiers = []store.BusinessIdentifier{{Element: "TRN-02", Value: "PCN-1"}}
	f.claim = store.DentalClaim{ID: store.NewID(), AccountID: acct.ID, Mode: store.ModeTest, PatientControlNumber: "PCN-1",
		PayerID: "52133", ChargeCents: 24500, ControlNumber: "0001", GroupControlNumber: "41", ExecutionID: out.ID,
		TransactionID: t837.ID, Response: []byte(`{}`), CreatedAt: out.CreatedAt,
		Lifecycle: store.ClaimLifecycle{Type: "DENTAL", Status: store.ClaimStatusSubmitted, ReportedBy: store.ReportedByClearinghouse}}
	for _, err := range []error{st.InsertExecution(ctx, out), st.InsertExecution(ctx, in), st.InsertTransaction(ctx, t837),
		st.InsertDentalClaim(ctx, f.claim), bs.Put(ctx, f.t999.Input.Key, strings.NewReader(file999), "application/edi-x12"),
		bs.Put(ctx, f.t277.Input.Key, strings.NewReader(ack277), "application/edi-x12")} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// link links t in a transaction of its own.
func (f linkFixture) link(t *testing.T, tr store.Transaction) {
	t.Helper()
	if err := f.st.InTx(context.Background(), func(tx store.Queries) error { return f.l.Link(context.Background(), tx, tr) }); err != nil {
		t.Fatal(err)
	}
}

// changes are the claim's status events as the events list gives them,
// newest first, as "PREVIOUS>STATUS(source)", and their times.
func (f linkFixture) changes(t *testing.T) ([]string, []time.Time, []StatusChange) {
	t.Helper()
	list, _, err := f.st.ListEvents(context.Background(), f.account, store.EventFilter{DetailType: StatusChanged})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	var times []time.Time
	var details []StatusChange
	for _, e := range list {
		env, err := events.Decode(e)
		if err != nil {
			t.Fatal(err)
		}
		var d StatusChange
		if err := json.Unmarshal(env.Detail, &d); err != nil {
			t.Fatal(err)
		}
		got = append(got, d.PreviousStatus+">"+d.Status+"("+d.Source+")")
		times, details = append(times, e.Time), append(details, d)
	}
	return got, times, details
}

// A 999 recorded before a 277CA that was parsed a second earlier (CI saw
// it under load: the 277CA's file waited for the writer): the 277CA's
// change reads the 999's RECEIVED and lists after it, dated when it was
// recorded, not when its file was parsed.
func TestLinkListsChangesAsRecorded(t *testing.T) {
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		f := newLinkFixture(t, open(t), nil)
		before := time.Now().UTC().Truncate(time.Microsecond)
		f.link(t, f.t999)
		f.link(t, f.t277)
		got, times, details := f.changes(t)
		if want := []string{"RECEIVED>ACCEPTED(277CA)", "SUBMITTED>RECEIVED(999)"}; strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("changes, newest first: %v, want %v (times %v)", got, want, times)
		}
		if !times[0].After(times[1]) || times[1].Before(before) {
			t.Errorf("times %v: not the record order, or before the records (%v)", times, before)
		}
		for i, d := range details {
			if d.ChangedAt != times[i].Format(time.RFC3339) {
				t.Errorf("changedAt %s, event time %v", d.ChangedAt, times[i])
			}
		}
		// The answers (the claim's timeline) are dated as their changes.
		answers, err := f.st.ListClaimAnswers(context.Background(), f.account, f.claim.ID)
		if err != nil || len(answers) != 2 || answers[0].Kind != store.ClaimAnswer999 || !answers[0].CreatedAt.Equal(times[1]) ||
			!answers[1].CreatedAt.Equal(times[0]) {
			t.Errorf("answers: %+v %v", answers, err)
		}
		timeline := Timeline(f.claim, nil, answers, nil, nil)
		if len(timeline) != 3 || timeline[0].ClaimAcknowledgment == nil || timeline[1].FileAcknowledgment == nil {
			t.Errorf("timeline, newest first: %+v", timeline)
		}
	})
}

// The Linker reads its Clock (the core's): a fake time dates the changes,
// and a clock that does not move (or is behind another replica's) still
// dates a claim's second answer after its first.
func TestLinkDatesChangesByItsClock(t *testing.T) {
	for _, c := range []struct {
		advance time.Duration
		second  string // changedAt of the 277CA's change
	}{
		{time.Second, "2026-11-26T04:18:28Z"},
		{0, "2026-11-26T04:18:27Z"},
		{-time.Hour, "2026-11-26T04:18:27Z"},
	} {
		fake := clock.NewFake(time.Date(2026, 11, 26, 4, 18, 27, 0, time.UTC))
		first := fake.Now()
		f := newLinkFixture(t, storetest.SQLite(t), fake)
		f.link(t, f.t999)
		fake.Advance(c.advance)
		f.link(t, f.t277)
		got, times, details := f.changes(t)
		want := first.Add(max(c.advance, time.Microsecond))
		if len(times) != 2 || got[0] != "RECEIVED>ACCEPTED(277CA)" || !times[0].Equal(want) || !times[1].Equal(first) ||
			details[0].ChangedAt != c.second {
			t.Errorf("advanced %v: changes %v at %v, details %+v", c.advance, got, times, details)
		}
	}
}

// On PostgreSQL two answers' transactions run at once: the second waits
// for the first to end and reads what it recorded, so its change names the
// first's status, it and its answer are dated after the first's, and a
// 999 after a 277CA does not move the status back.
func TestLinkWaitsForTheClaim(t *testing.T) {
	for _, c := range []struct {
		first string
		want  []string // newest first
	}{
		{"999", []string{"RECEIVED>ACCEPTED(277CA)", "SUBMITTED>RECEIVED(999)"}},
		{"277", []string{"SUBMITTED>ACCEPTED(277CA)"}},
	} {
		t.Run("first "+c.first, func(t *testing.T) {
			st := storetest.Postgres(t)
			f := newLinkFixture(t, st, nil)
			first, second := f.t999, f.t277
			if c.first == "277" {
				first, second = second, first
			}
			ctx := context.Background()
			held, release := make(chan struct{}), make(chan struct{})
			var once sync.Once
			releaseFirst := func() { once.Do(func() { close(release) }) }
			t.Cleanup(releaseFirst) // a failed test ends the first transaction too
			firstDone, secondDone := make(chan error, 1), make(chan error, 1)
			go func() {
				firstDone <- st.InTx(ctx, func(tx store.Queries) error {
					if err := f.l.Link(ctx, tx, first); err != nil {
						return err
					}
					close(held)
					<-release
					return nil
				})
			}()
			select {
			case <-held:
			case err := <-firstDone:
				t.Fatalf("first: %v", err)
			}
			go func() {
				secondDone <- st.InTx(ctx, func(tx store.Queries) error { return f.l.Link(ctx, tx, second) })
			}()
			waitBlocked(t, st, secondDone)
			releaseFirst()
			if err := <-firstDone; err != nil {
				t.Fatalf("first: %v", err)
			}
			if err := <-secondDone; err != nil {
				t.Fatalf("second: %v", err)
			}
			got, times, _ := f.changes(t)
			if strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Errorf("changes, newest first: %v, want %v (times %v)", got, c.want, times)
			}
			claim, err := st.GetDentalClaim(ctx, f.account, f.claim.ID)
			if err != nil || claim.Lifecycle.Status != store.ClaimStatusAccepted {
				t.Errorf("claim status %q, want ACCEPTED (%v)", claim.Lifecycle.Status, err)
			}
			answers, err := st.ListClaimAnswers(ctx, f.account, f.claim.ID)
			if err != nil || len(answers) != 2 || answers[0].TransactionID != first.ID || !answers[1].CreatedAt.After(answers[0].CreatedAt) {
				t.Errorf("answers, oldest first: %+v %v", answers, err)
			}
		})
	}
}

// waitBlocked returns once a session of st's schema waits for another's
// lock on dental_claims (the second answer's transaction waits for the
// first's), or fails when it ended instead (done) or after a while.
func waitBlocked(t *testing.T, st store.Store, done chan error) {
	t.Helper()
	db := storetest.Raw(t, st)
	deadline := time.Now().Add(20 * time.Second)
	for {
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM pg_locks WHERE relation = 'dental_claims'::regclass
			AND cardinality(pg_blocking_pids(pid)) > 0`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
		select {
		case err := <-done:
			done <- err
			t.Fatalf("the second transaction did not wait for the first: it ended (%v)", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("the second transaction never waited for the first")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
