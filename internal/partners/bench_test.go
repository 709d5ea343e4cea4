package partners_test

import (
	"testing"

	"github.com/clearhouse/clearhouse/internal/partners"
	"github.com/clearhouse/clearhouse/internal/services"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// The two lookups inbound processing makes: once per interchange and once
// per transaction set, on the embedded default with the seeded setup.
func BenchmarkInboundLookups(b *testing.B) {
	st := storetest.SQLite(b)
	a, _ := storetest.Seed(b, st, store.ModeTest)
	if _, err := partners.Seed(ctx, st, a.ID, services.MockPayers(), t0); err != nil {
		b.Fatal(err)
	}
	b.Run("FindPartnershipByInterchange", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := st.FindPartnershipByInterchange(ctx, a.ID, store.ModeTest, "ZZ", "87726          ", "ZZ", "CLEARHOUSE     "); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("FindTransactionSetting", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := st.FindTransactionSetting(ctx, a.ID, store.ModeTest, "clearhouse_mock-87726", store.DirectionInbound, "835", "005010X221A1"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkApplyUnchanged: applying the test setup (6 records a mock payer)
// that is already in place — what `partners apply` costs when nothing
// changed.
func BenchmarkApplyUnchanged(b *testing.B) {
	st := storetest.SQLite(b)
	a, _ := storetest.Seed(b, st, store.ModeTest)
	if _, err := partners.Seed(ctx, st, a.ID, services.MockPayers(), t0); err != nil {
		b.Fatal(err)
	}
	doc := partners.TestSetup(services.MockPayers())
	opts := partners.ApplyOptions{AccountID: a.ID, Mode: store.ModeTest, Now: t0}
	b.ReportAllocs()
	for b.Loop() {
		if res, err := partners.Apply(ctx, st, doc, opts); err != nil || len(res.Changes) != 0 {
			b.Fatal(res.Changes, err)
		}
	}
}
