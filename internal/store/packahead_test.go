package store_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
	"github.com/google/go-cmp/cmp"
)

// TestPackedAheadStoresTheSameRow: a check packed before its insert (Pack,
// as the eligibility service does before GroupInTx) is stored with the
// payload bytes the insert packs itself, through every way a check is
// inserted (alone: the batcher on SQLite; in InTx; in a group commit's
// round, deferred there), on both engines; and a check whose request, 271
// or answer was replaced after Pack is stored as it is at the insert, not
// as it was packed.
func TestPackedAheadStoresTheSameRow(t *testing.T) {
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		ctx := context.Background()
		s := open(t)
		a, k := storetest.Seed(t, s, store.ModeTest)
		raw := storetest.Raw(t, s)
		answer := []byte(strings.Repeat(`{"code":"1","name":"Active Coverage","serviceTypeCodes":["30"]},`, 200))
		at := time.Now().UTC().Truncate(time.Microsecond)
		newCheck := func() store.EligibilityCheck {
			return store.EligibilityCheck{
				ID: store.NewID(), AccountID: a.ID, KeyID: k.ID, Mode: k.Mode, TradingPartnerServiceID: "60054",
				PayerName: "Aetna", ControlNumber: "123456789", Status: "active",
				RequestJSON: []byte(`{"tradingPartnerServiceId":"60054"}`), X12Request: []byte("ISA*00*~"),
				X12Response: []byte("ISA*00*          *00*~EB*1**30~"), ResponseJSON: answer, HTTPStatus: 200,
				CreatedAt: at, DurationMicros: 321,
			}
		}
		inserts := []struct {
			name   string
			insert func(c store.EligibilityCheck) error
		}{
			{"alone", func(c store.EligibilityCheck) error { return s.InsertEligibilityCheck(ctx, c) }},
			{"InTx", func(c store.EligibilityCheck) error {
				return s.InTx(ctx, func(tx store.Queries) error { return tx.InsertEligibilityCheck(ctx, c) })
			}},
			{"GroupInTx", func(c store.EligibilityCheck) error {
				return s.GroupInTx(ctx, func(tx store.Queries) error { return tx.InsertEligibilityCheck(ctx, c) })
			}},
		}
		changes := []struct {
			name   string
			change func(c *store.EligibilityCheck) // after Pack
		}{
			{"packed", func(*store.EligibilityCheck) {}},
			{"answer replaced", func(c *store.EligibilityCheck) { c.ResponseJSON = []byte(`{"status":"error"}`) }},
			{"271 shortened", func(c *store.EligibilityCheck) { c.X12Response = c.X12Response[:4] }},
			{"request emptied", func(c *store.EligibilityCheck) { c.RequestJSON = nil }},
		}
		payload := func(id string) []byte {
			var p []byte
			if err := raw.QueryRowContext(ctx, `SELECT payload FROM eligibility_checks WHERE id = $1`, id).Scan(&p); err != nil {
				t.Fatal(err)
			}
			return p
		}
		for _, in := range inserts {
			for _, ch := range changes {
				ahead := newCheck()
				ahead.Pack()
				ch.change(&ahead)
				plain := newCheck()
				ch.change(&plain)
				if err := in.insert(ahead); err != nil {
					t.Fatalf("%s, %s: %v", in.name, ch.name, err)
				}
				if err := in.insert(plain); err != nil {
					t.Fatalf("%s, %s: %v", in.name, ch.name, err)
				}
				if a, p := payload(ahead.ID), payload(plain.ID); !bytes.Equal(a, p) {
					t.Errorf("%s, %s: payload packed ahead %x, packed by the insert %x", in.name, ch.name, a, p)
				}
				got, err := s.GetEligibilityCheck(ctx, a.ID, ahead.ID)
				if err != nil {
					t.Fatal(err)
				}
				want := ahead
				want.Packed = nil // not read back
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s, %s: GetEligibilityCheck (-want +got):\n%s", in.name, ch.name, diff)
				}
			}
		}
	})
}
