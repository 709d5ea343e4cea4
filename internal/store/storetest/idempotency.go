package storetest

import (
	"sync"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

func idemRecord(accountID, key, hash, owner string, now time.Time) store.IdempotencyRecord {
	return store.IdempotencyRecord{AccountID: accountID, Key: key, RequestHash: hash, Owner: owner,
		LeaseUntil: now.Add(time.Minute), CreatedAt: now, ExpiresAt: now.Add(store.IdempotencyWindow)}
}

func testIdempotencyLifecycle(t *testing.T, s store.Store) {
	a := newAccount(t, s, "idem")
	other := newAccount(t, s, "other")
	_, started, err := s.StartIdempotentRequest(ctx, idemRecord(a.ID, "k1", "h1", "o1", t0))
	must(t, err)
	if !started {
		t.Fatal("first start did not start")
	}
	// Another account's key of the same name is its own.
	_, started, err = s.StartIdempotentRequest(ctx, idemRecord(other.ID, "k1", "h1", "o9", t0))
	must(t, err)
	if !started {
		t.Error("another account's key collided")
	}
	// In flight: a second request sees the record, not a start.
	got, started, err := s.StartIdempotentRequest(ctx, idemRecord(a.ID, "k1", "h1", "o2", t0.Add(time.Second)))
	must(t, err)
	if started || got.State != store.IdempotencyInFlight || got.Owner != "o1" {
		t.Errorf("second start: started=%v record=%+v", started, got)
	}
	// Only the owner completes.
	wantErr(t, s.CompleteIdempotentRequest(ctx, a.ID, "k1", "o2", 200, []byte(`{}`)), store.ErrConflict)
	must(t, s.InTx(ctx, func(tx store.Queries) error {
		return tx.CompleteIdempotentRequest(ctx, a.ID, "k1", "o1", 200, []byte(`{"status":"SUCCESS"}`))
	}))
	got, started, err = s.StartIdempotentRequest(ctx, idemRecord(a.ID, "k1", "h1", "o3", t0.Add(time.Hour)))
	must(t, err)
	if started || got.State != store.IdempotencyCompleted || got.ResponseStatus != 200 || string(got.ResponseBody) != `{"status":"SUCCESS"}` || got.RequestHash != "h1" {
		t.Errorf("after completion: started=%v record=%+v", started, got)
	}
	// After 24 hours the key starts afresh.
	_, started, err = s.StartIdempotentRequest(ctx, idemRecord(a.ID, "k1", "h2", "o4", t0.Add(store.IdempotencyWindow)))
	must(t, err)
	if !started {
		t.Error("an expired key did not start afresh")
	}
	// A stale in-flight lease is taken over; the old owner can no longer complete.
	_, started, err = s.StartIdempotentRequest(ctx, idemRecord(a.ID, "k1", "h2", "o5", t0.Add(store.IdempotencyWindow+2*time.Minute)))
	must(t, err)
	if !started {
		t.Error("a stale in-flight key was not taken over")
	}
	wantErr(t, s.CompleteIdempotentRequest(ctx, a.ID, "k1", "o4", 200, nil), store.ErrConflict)
	// Release forgets the key; a rollback of the completing transaction keeps it in flight.
	rolled := s.InTx(ctx, func(tx store.Queries) error {
		must(t, tx.CompleteIdempotentRequest(ctx, a.ID, "k1", "o5", 200, []byte(`{}`)))
		return store.ErrConflict
	})
	wantErr(t, rolled, store.ErrConflict)
	must(t, s.ReleaseIdempotentRequest(ctx, a.ID, "k1", "o5"))
	_, started, err = s.StartIdempotentRequest(ctx, idemRecord(a.ID, "k1", "h3", "o6", t0.Add(store.IdempotencyWindow+3*time.Minute)))
	must(t, err)
	if !started {
		t.Error("a released key did not start afresh")
	}
}

// Of many replicas starting the same key at once, exactly one starts.
func testIdempotencyConcurrentStart(t *testing.T, s store.Store) {
	a := newAccount(t, s, "idem-race")
	var wg sync.WaitGroup
	var mu sync.Mutex
	starts := 0
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, started, err := s.StartIdempotentRequest(ctx, idemRecord(a.ID, "race", "h", string(rune('a'+i)), t0))
			if err != nil {
				t.Error(err)
				return
			}
			if started {
				mu.Lock()
				starts++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if starts != 1 {
		t.Errorf("%d requests started the key, want 1", starts)
	}
}

func testDentalClaims(t *testing.T, s store.Store) {
	a := newAccount(t, s, "claims")
	other := newAccount(t, s, "other")
	c := store.DentalClaim{ID: "01KHCCA4V6K00NFPX588G859SJ", AccountID: a.ID, Mode: store.ModeTest, PatientControlNumber: "12345",
		PayerID: "52133", ChargeCents: 83200, ControlNumber: "42", ExecutionID: "ex1", TransactionID: "tx1",
		Response: []byte(`{"status":"SUCCESS"}`), CreatedAt: t0}
	must(t, s.InsertDentalClaim(ctx, c))
	wantErr(t, s.InsertDentalClaim(ctx, c), store.ErrConflict)
	got, err := s.GetDentalClaim(ctx, a.ID, c.ID)
	must(t, err)
	if got.PayerID != "52133" || got.ChargeCents != 83200 || string(got.Response) != `{"status":"SUCCESS"}` || !got.CreatedAt.Equal(t0) {
		t.Errorf("GetDentalClaim = %+v", got)
	}
	_, err = s.GetDentalClaim(ctx, other.ID, c.ID)
	wantErr(t, err, store.ErrNotFound)
}
