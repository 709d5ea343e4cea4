package core_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/core/coretest"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// countingPartners counts the transaction settings asked for.
type countingPartners struct {
	store.Store
	settings atomic.Int32
}

func (c *countingPartners) FindTransactionSetting(ctx context.Context, accountID, mode, partnershipID, direction, id, guideID string) (store.TransactionSetting, error) {
	c.settings.Add(1)
	return c.Store.FindTransactionSetting(ctx, accountID, mode, partnershipID, direction, id, guideID)
}

// TestSettingAskedOncePerFile: the sets of a file that share a partnership,
// ST01 and guide find their inbound setting once (a file of sets of 1,000
// claims asked the database for each of its hundreds of sets, each read
// waiting for the WAL behind the identifiers' batches), and every set is
// still processed with it.
func TestSettingAskedOncePerFile(t *testing.T) {
	t.Parallel()
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		var partners *countingPartners
		e := newEnvWith(t, open, func(s blob.Store) blob.Store { return s }, func(o *core.Options) {
			partners = &countingPartners{Store: o.Store}
			o.Partners = partners
		})
		ex := e.receive("era-sets.x12", coretest.Gen835([]int{4, 3}, 2, 0))
		if ex.Status != store.ExecutionCompleted || ex.TransactionCount != 7 {
			t.Fatalf("execution %+v", ex)
		}
		if n := partners.settings.Load(); n != 1 {
			t.Errorf("the transaction setting was asked for %d times for one file of 7 sets, want once", n)
		}
		if got := len(e.events(ex.ID)); got < 7 {
			t.Errorf("%d events", got)
		}
	})
}
