package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/clearhouse/clearhouse/internal/store"
)

func newAccount(t *testing.T, s store.Store, name string) store.Account {
	t.Helper()
	a := store.Account{ID: store.NewID(), Name: name, CreatedAt: t0}
	must(t, s.CreateAccount(ctx, a))
	return a
}

func testEventsRoundTrip(t *testing.T, s store.Store) {
	a := newAccount(t, s, "events")
	other := newAccount(t, s, "other")
	e := store.Event{ID: "0b7c0f4e-8d3f-4a53-9f39-1c6f2b1d8e01", AccountID: a.ID, Mode: store.ModeTest,
		DetailType: "transaction.processed.v2", ExecutionID: "ex1", TransactionID: "tx1", Time: t0,
		Envelope: []byte(`{"version":"0","detail":{"a":1}}`)}
	must(t, s.InsertEvent(ctx, e))
	wantErr(t, s.InsertEvent(ctx, e), store.ErrConflict)
	got, err := s.GetEvent(ctx, a.ID, e.ID)
	must(t, err)
	if diff := cmp.Diff(e, got); diff != "" {
		t.Errorf("GetEvent (-want +got):\n%s", diff)
	}
	_, err = s.GetEvent(ctx, other.ID, e.ID)
	wantErr(t, err, store.ErrNotFound)
	list, next, err := s.ListEvents(ctx, other.ID, store.EventFilter{})
	must(t, err)
	if len(list) != 0 || next != "" {
		t.Errorf("another account lists %d events", len(list))
	}
}

func testEventsListFiltersAndPages(t *testing.T, s store.Store) {
	a := newAccount(t, s, "events")
	var want []string // newest first
	for i := range 7 {
		e := store.Event{ID: fmt.Sprintf("ev-%02d", i), AccountID: a.ID, Mode: store.ModeTest,
			DetailType: "transaction.processed.v2", ExecutionID: "ex1", TransactionID: fmt.Sprintf("tx%d", i%2),
			Time: t0.Add(time.Duration(i/2) * time.Second), Envelope: []byte(`{}`)}
		if i == 6 {
			e.DetailType, e.TransactionID, e.Mode = "file.processed.v2", "", store.ModeProduction
		}
		must(t, s.InsertEvent(ctx, e))
		want = append([]string{e.ID}, want...)
	}
	ids := func(f store.EventFilter) ([]string, string) {
		t.Helper()
		evs, next, err := s.ListEvents(ctx, a.ID, f)
		must(t, err)
		var out []string
		for _, e := range evs {
			out = append(out, e.ID)
		}
		return out, next
	}
	// Pages of 3 walk every event once, newest first (several share a time).
	var all []string
	cursor := ""
	for range 5 {
		page, next := ids(store.EventFilter{Limit: 3, Cursor: cursor})
		all = append(all, page...)
		if cursor = next; cursor == "" {
			break
		}
	}
	if diff := cmp.Diff(want, all); diff != "" {
		t.Errorf("paged list (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		name string
		f    store.EventFilter
		want []string
	}{
		{"detailType", store.EventFilter{DetailType: "file.processed.v2"}, []string{"ev-06"}},
		{"mode", store.EventFilter{Mode: store.ModeTest, TransactionID: "tx1"}, []string{"ev-05", "ev-03", "ev-01"}},
		{"execution", store.EventFilter{ExecutionID: "nope"}, nil},
		{"from-to", store.EventFilter{From: t0.Add(time.Second), To: t0.Add(2 * time.Second)}, []string{"ev-03", "ev-02"}},
	} {
		if got, _ := ids(tc.f); !cmp.Equal(tc.want, got) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	_, _, err := s.ListEvents(ctx, a.ID, store.EventFilter{Cursor: "garbage!"})
	wantErr(t, err, store.ErrBadCursor)
}

// testEventsInTx: an event written in a transaction that rolls back is gone.
func testEventsInTx(t *testing.T, s store.Store) {
	a := newAccount(t, s, "events")
	err := s.InTx(ctx, func(tx store.Queries) error {
		must(t, tx.InsertEvent(ctx, store.Event{ID: "ev-rolled-back", AccountID: a.ID, Mode: store.ModeTest,
			DetailType: "file.processed.v2", Time: t0, Envelope: []byte(`{}`)}))
		return fmt.Errorf("abandon")
	})
	if err == nil {
		t.Fatal("InTx returned nil")
	}
	_, err = s.GetEvent(ctx, a.ID, "ev-rolled-back")
	wantErr(t, err, store.ErrNotFound)
}
