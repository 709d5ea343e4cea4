package storetest

import (
	"testing"

	"github.com/clearhouse/clearhouse/internal/store"
)

// testWriteFailures: when the database refuses writes, a check is not
// stored (nor counted in usage: a check is its own usage row), the failure is returned,
// reads keep working, and Ping reports the store not ready.
func testWriteFailures(t *testing.T, s store.Store) {
	a, k := Seed(t, s, store.ModeProduction)
	must(t, s.Ping(ctx))
	kept := newCheck(a, k, t0)
	must(t, s.InsertEligibilityCheck(ctx, kept))

	FailWrites(t, s, "eligibility_checks", "readiness")
	lost := newCheck(a, k, t0)
	err := s.InsertEligibilityCheck(ctx, lost)
	if err == nil {
		t.Fatal("InsertEligibilityCheck succeeded although its row could not be written")
	}
	if s.Engine() == store.EnginePostgres && !store.IsUnavailable(err) {
		t.Errorf("disk_full is not IsUnavailable: %v", err)
	}
	if _, err := s.GetEligibilityCheck(ctx, a.ID, lost.ID); err != store.ErrNotFound {
		t.Errorf("the check whose write failed was stored (err %v); want ErrNotFound", err)
	}
	usage, err := s.ListUsage(ctx, a.ID)
	must(t, err)
	if len(usage) != 1 || usage[0].RefID != kept.ID {
		t.Errorf("usage rows %+v, want only the one of %s", usage, kept.ID)
	}
	if err := s.Ping(ctx); err == nil {
		t.Error("Ping succeeded although the database refuses writes")
	}
}
