package events_test

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

var uuidRE = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestEmitStoresEnvelopeAndDispatchJob(t *testing.T) {
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		ctx := context.Background()
		s := open(t)
		acct := store.Account{ID: store.NewID(), Name: "a", CreatedAt: time.Now()}
		if err := s.CreateAccount(ctx, acct); err != nil {
			t.Fatal(err)
		}
		at := time.Date(2026, 5, 6, 19, 35, 8, 123456000, time.UTC)
		em := events.New(events.Options{Region: "eu-test-1", PublicURL: "https://clearhouse.example/"})
		var env events.Envelope
		err := s.InTx(ctx, func(tx store.Queries) error {
			var err error
			env, err = em.Emit(ctx, tx, events.Event{
				AccountID: acct.ID, Mode: store.ModeTest, DetailType: events.FileProcessed,
				ExecutionID: "ex-1", Resources: []string{em.ExecutionURL("ex-1")},
				Detail: map[string]any{"fileExecutionId": "ex-1"}, Time: at,
			})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if !uuidRE.MatchString(env.ID) || env.Version != "0" || env.Source != events.Source ||
			env.Time != "2026-05-06T19:35:08Z" || env.Region != "eu-test-1" || env.Account != acct.ID {
			t.Errorf("envelope %+v", env)
		}
		stored, err := s.GetEvent(ctx, acct.ID, env.ID)
		if err != nil {
			t.Fatal(err)
		}
		if stored.ExecutionID != "ex-1" || stored.Mode != store.ModeTest || !stored.Time.Equal(at) {
			t.Errorf("stored row %+v", stored)
		}
		var m map[string]any
		if err := json.Unmarshal(stored.Envelope, &m); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"version", "id", "detail-type", "source", "account", "time", "region", "resources", "detail"} {
			if _, ok := m[k]; !ok {
				t.Errorf("stored envelope lacks %q: %s", k, stored.Envelope)
			}
		}
		if m["resources"].([]any)[0] != "https://clearhouse.example/2023-08-01/executions/ex-1" {
			t.Errorf("resources = %v", m["resources"])
		}
		jobs, err := s.ClaimJobs(ctx, store.ClaimParams{Worker: "w", Kinds: []string{events.DispatchKind}, Now: at.Add(time.Second), Lease: time.Minute, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if len(jobs) != 1 || string(jobs[0].Payload) != `{"eventId":"`+env.ID+`","accountId":"`+acct.ID+`"}` {
			t.Fatalf("dispatch jobs %+v", jobs)
		}
	})
}

func TestEmitRollsBackWithItsTransaction(t *testing.T) {
	ctx := context.Background()
	s := storetest.SQLite(t)
	acct := store.Account{ID: store.NewID(), Name: "a", CreatedAt: time.Now()}
	if err := s.CreateAccount(ctx, acct); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("the change failed")
	err := s.InTx(ctx, func(tx store.Queries) error {
		if _, err := events.New(events.Options{}).Emit(ctx, tx, events.Event{AccountID: acct.ID, Mode: store.ModeTest, DetailType: events.FileFailed}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatal(err)
	}
	evs, _, err := s.ListEvents(ctx, acct.ID, store.EventFilter{})
	if err != nil || len(evs) != 0 {
		t.Fatalf("events after rollback: %d, %v", len(evs), err)
	}
	jobs, _ := s.ClaimJobs(ctx, store.ClaimParams{Worker: "w", Now: time.Now().Add(time.Hour), Lease: time.Minute, Limit: 10})
	if len(jobs) != 0 {
		t.Fatalf("%d jobs after rollback", len(jobs))
	}
}

func TestEmitRefusesIncompleteEvents(t *testing.T) {
	s := storetest.SQLite(t)
	for _, e := range []events.Event{
		{Mode: store.ModeTest, DetailType: events.FileFailed},
		{AccountID: "a", Mode: "staging", DetailType: events.FileFailed},
		{AccountID: "a", Mode: store.ModeTest},
	} {
		if _, err := events.New(events.Options{}).Emit(context.Background(), s, e); err == nil {
			t.Errorf("Emit(%+v) = nil error", e)
		}
	}
}

// TestEmittersAreIndependent: two emitters in one process keep their own
// region and base URL (nothing process-wide); zero options are defaulted.
func TestEmittersAreIndependent(t *testing.T) {
	a := events.New(events.Options{Region: "r-a", PublicURL: "https://a.example//"})
	b := events.New(events.Options{})
	if a.Region() != "r-a" || a.TransactionURL("t1", "fragments", "0", "output") != "https://a.example/2023-08-01/transactions/t1/fragments/0/output" {
		t.Errorf("a: %s %s", a.Region(), a.TransactionURL("t1", "fragments", "0", "output"))
	}
	if b.Region() != events.DefaultRegion || b.ExecutionURL("e1") != events.DefaultPublicURL+"/2023-08-01/executions/e1" {
		t.Errorf("b: %s %s", b.Region(), b.ExecutionURL("e1"))
	}
}
