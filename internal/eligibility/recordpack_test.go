package eligibility

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// packSpy is the store as the service's History, noting whether the
// checks it is given were packed before.
type packSpy struct {
	store.Store
	packed []bool
}

func (s *packSpy) InsertEligibilityCheck(ctx context.Context, c store.EligibilityCheck) error {
	s.packed = append(s.packed, c.Packed != nil)
	return s.Store.InsertEligibilityCheck(ctx, c)
}

// TestRecordPacksBeforeTheStore: a check recorded in the store (a History
// that groups its writes) reaches it packed, so the store's one writer
// does not pack it under SQLite's write lock, and reads back as answered;
// a History that is not the store is given the check as before (no
// payload it would have to ignore).
func TestRecordPacksBeforeTheStore(t *testing.T) {
	st := storetest.SQLite(t)
	a, k := storetest.Seed(t, st, store.ModeTest)
	dir := payers.Default()
	router, err := payers.NewRouter(dir, mockpayer.New(mockpayer.WithDirectory(dir)), nil)
	if err != nil {
		t.Fatal(err)
	}
	spy := &packSpy{Store: st}
	mem := &memoryHistory{}
	caller := Caller{AccountID: a.ID, KeyID: k.ID, Mode: payers.ModeTest}
	for _, h := range []History{spy, mem} {
		svc, err := NewService(Config{Router: router, History: h})
		if err != nil {
			t.Fatal(err)
		}
		var r Request
		if err := json.Unmarshal(mockpayer.Requests()[0].RequestJSON(), &r); err != nil {
			t.Fatal(err)
		}
		res, err := svc.Check(context.Background(), caller, &r)
		if err != nil || res.HTTPStatus != 200 {
			t.Fatalf("check: %v %d %+v", err, res.HTTPStatus, res.Problem)
		}
		if h == mem {
			if mem.last(t).Packed != nil {
				t.Error("a History that is not the store was given a packed check")
			}
			continue
		}
		if len(spy.packed) != 1 || !spy.packed[0] {
			t.Fatalf("packed before the store: %v, want [true]", spy.packed)
		}
		got, err := st.GetEligibilityCheck(context.Background(), a.ID, res.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.ResponseJSON, bytes.TrimSuffix(res.JSON, []byte("\n"))) || !bytes.Equal(got.X12Response, res.X12Answer) ||
			!bytes.Equal(got.RequestJSON, mustJSON(t, &r)) {
			t.Errorf("stored check differs from the answer: %q / %q", got.ResponseJSON, res.JSON)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
