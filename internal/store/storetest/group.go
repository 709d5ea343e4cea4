package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/clearhouse/clearhouse/internal/store"
)

// GroupInTx: concurrent callers commit together, and one failing caller
// rolls back only its own writes.
func testGroupInTx(t *testing.T, s store.Store) {
	a := newAccount(t, s, "group")
	boom := errors.New("boom")
	var wg sync.WaitGroup
	errs := make([]error, 24)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.GroupInTx(ctx, func(tx store.Queries) error {
				c := store.DentalClaim{ID: fmt.Sprintf("group-%02d", i), AccountID: a.ID, Mode: store.ModeTest, PatientControlNumber: "P",
					PayerID: "52133", ControlNumber: "1", Response: []byte(`{}`), CreatedAt: t0}
				if err := tx.InsertDentalClaim(ctx, c); err != nil {
					return err
				}
				if i%5 == 0 {
					return boom // its claim must not be kept
				}
				return nil
			})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		_, getErr := s.GetDentalClaim(ctx, a.ID, fmt.Sprintf("group-%02d", i))
		switch {
		case i%5 == 0 && (!errors.Is(err, boom) || !errors.Is(getErr, store.ErrNotFound)):
			t.Errorf("caller %d: err %v, record %v; want boom and no record", i, err, getErr)
		case i%5 != 0 && (err != nil || getErr != nil):
			t.Errorf("caller %d: err %v, record %v; want committed", i, err, getErr)
		}
	}
}
