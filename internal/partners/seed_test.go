package partners_test

import (
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/partners"
	"github.com/clearhouse/clearhouse/internal/services"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// TestSeed: a fresh account gets a working test-mode setup — the mock
// payers' interchanges find their partnership and settings — seeding
// again creates nothing, the setup is what TestSetup says, and what the
// account changed stays changed.
func TestSeed(t *testing.T) {
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		st := open(t)
		a, _ := storetest.Seed(t, st, store.ModeTest)
		mocks := services.MockPayers()
		if len(mocks) < 10 {
			t.Fatalf("%d mock payers; the mock set has more", len(mocks))
		}
		n, err := partners.Seed(ctx, st, a.ID, services.MockPayers(), t0)
		if err != nil {
			t.Fatal(err)
		}
		// local profile + MOCK connection + per payer: profile, partnership, 4 settings
		if want := 2 + 6*len(mocks); n != want {
			t.Fatalf("seed created %d records, want %d", n, want)
		}
		if n, err := partners.Seed(ctx, st, a.ID, services.MockPayers(), t0); err != nil || n != 0 {
			t.Fatalf("second seed created %d (%v), want 0", n, err)
		}
		res, err := partners.Apply(ctx, st, partners.TestSetup(services.MockPayers()), partners.ApplyOptions{AccountID: a.ID, Mode: store.ModeTest, Now: t0})
		if err != nil || len(res.Changes) != 0 {
			t.Fatalf("applying TestSetup over the seed: %v, %v; want no change", res.Changes, err)
		}
		if ps, _ := st.ListProfiles(ctx, a.ID, store.ModeProduction); len(ps) != 0 {
			t.Errorf("seeding touched production: %d profiles", len(ps))
		}

		for _, m := range mocks {
			ship, err := st.FindPartnershipByInterchange(ctx, a.ID, store.ModeTest, "ZZ", m.ID, "ZZ", "CLEARHOUSE     ")
			if err != nil {
				t.Fatalf("mock payer %s (%s): %v", m.ID, m.Name, err)
			}
			if ship.ConnectionID != partners.TestConnectionID {
				t.Errorf("partnership %s delivers over %q", ship.ID, ship.ConnectionID)
			}
			for _, set := range []struct{ direction, id, guide string }{
				{store.DirectionInbound, "999", "005010X231A1"}, {store.DirectionInbound, "277", "005010X214"},
				{store.DirectionInbound, "835", "005010X221A1"}, {store.DirectionOutbound, "837", "005010X224A2"},
			} {
				s, err := st.FindTransactionSetting(ctx, a.ID, store.ModeTest, ship.ID, set.direction, set.id, set.guide)
				if err != nil {
					t.Fatalf("%s %s %s: %v", ship.ID, set.direction, set.id, err)
				}
				wantFragments := set.id == "835" || set.id == "837"
				if s.FragmentsEnabled != wantFragments || s.FragmentsBatchSize != 800 || (wantFragments && s.FragmentsKeyName == "") {
					t.Errorf("%s %s fragments = %v %d %q", ship.ID, set.id, s.FragmentsEnabled, s.FragmentsBatchSize, s.FragmentsKeyName)
				}
			}
		}

		// The account points its local profile elsewhere and drops one
		// mock partnership's 999 setting: a later seed keeps the first
		// change and puts the missing setting back.
		local, _ := st.GetProfile(ctx, a.ID, store.ModeTest, partners.TestLocalProfileID)
		local.ISAID = "MYCLINIC"
		if err := st.UpdateProfile(ctx, local); err != nil {
			t.Fatal(err)
		}
		dropped := partners.MockPartnershipID(mocks[0].ID) + "-in-999"
		if err := st.DeleteTransactionSetting(ctx, a.ID, store.ModeTest, dropped); err != nil {
			t.Fatal(err)
		}
		if n, err := partners.Seed(ctx, st, a.ID, services.MockPayers(), t0); err != nil || n != 1 {
			t.Fatalf("seed after changes created %d (%v), want 1", n, err)
		}
		if p, _ := st.GetProfile(ctx, a.ID, store.ModeTest, partners.TestLocalProfileID); p.ISAID != "MYCLINIC" {
			t.Errorf("seed overwrote the account's local profile: %q", p.ISAID)
		}
	})
}

// TestSeedSkipsClashes: a partner profile of the account's own that has a
// mock payer's ISA identity keeps it; that payer gets no second profile.
func TestSeedSkipsClashes(t *testing.T) {
	st := storetest.SQLite(t)
	a, _ := storetest.Seed(t, st, store.ModeTest)
	m := services.MockPayers()[0]
	mine := store.Profile{ID: "my-payer", AccountID: a.ID, Mode: store.ModeTest, Type: store.ProfilePartner,
		ISAQualifier: "ZZ", ISAID: m.ID, ApplicationCode: "MINE", CreatedAt: t0, UpdatedAt: t0}
	if err := st.CreateProfile(ctx, mine); err != nil {
		t.Fatal(err)
	}
	if _, err := partners.Seed(ctx, st, a.ID, services.MockPayers(), t0); err != nil {
		t.Fatal(err)
	}
	if _, err := st.GetProfile(ctx, a.ID, store.ModeTest, partners.MockProfileID(m.ID)); err != store.ErrNotFound {
		t.Errorf("seed made a second profile for ISA ZZ/%s: %v", m.ID, err)
	}
	if _, err := st.GetPartnership(ctx, a.ID, store.ModeTest, partners.MockPartnershipID(m.ID)); err != store.ErrNotFound {
		t.Errorf("seed made a partnership without its profile: %v", err)
	}
}

// TestStartup seeds every account and refuses to run when stored secrets
// cannot be opened.
func TestStartup(t *testing.T) {
	st := storetest.SQLite(t)
	a, _ := storetest.Seed(t, st, store.ModeProduction)
	b, _ := storetest.Seed(t, st, store.ModeTest)
	n, err := partners.Startup(ctx, st, nil, services.MockPayers(), t0)
	if err != nil || n != 2*(2+6*len(services.MockPayers())) {
		t.Fatalf("Startup seeded %d (%v)", n, err)
	}
	box := newBox(t)
	if _, err := partners.Apply(ctx, st, decode(t, productionDoc), partners.ApplyOptions{AccountID: a.ID, Mode: store.ModeProduction, Secrets: box, Now: t0}); err != nil {
		t.Fatal(err)
	}
	if _, err := partners.Startup(ctx, st, nil, services.MockPayers(), t0); err == nil || !strings.Contains(err.Error(), "--secrets-key") {
		t.Errorf("Startup without a key = %v, want a refusal naming --secrets-key", err)
	}
	if _, err := partners.Startup(ctx, st, newBox(t), services.MockPayers(), t0); err == nil || !strings.Contains(err.Error(), "does not open") {
		t.Errorf("Startup with another key = %v, want a refusal", err)
	}
	if n, err := partners.Startup(ctx, st, box, services.MockPayers(), t0); err != nil || n != 0 {
		t.Errorf("Startup with the key = %d, %v", n, err)
	}
	_ = b
}

// TestSeedConcurrently: replicas starting together seed the same account
// at once; every one succeeds and the setup exists once.
func TestSeedConcurrently(t *testing.T) {
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		st := open(t)
		a, _ := storetest.Seed(t, st, store.ModeTest)
		const replicas = 4
		errs := make(chan error, replicas)
		total := make(chan int, replicas)
		for range replicas {
			go func() {
				n, err := partners.Seed(ctx, st, a.ID, services.MockPayers(), t0)
				errs <- err
				total <- n
			}()
		}
		sum := 0
		for range replicas {
			if err := <-errs; err != nil {
				t.Error(err)
			}
			sum += <-total
		}
		if want := 2 + 6*len(services.MockPayers()); sum != want {
			t.Errorf("replicas created %d records in all, want %d", sum, want)
		}
	})
}
