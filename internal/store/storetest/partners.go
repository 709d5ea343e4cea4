package storetest

import (
	"sync"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/google/go-cmp/cmp"
)

// partnerFixture is one account's test-mode setup: a local profile, a
// partner profile, a MOCK connection, a partnership and two settings.
type partnerFixture struct {
	local, partner store.Profile
	conn           store.Connection
	ship           store.Partnership
	in835, out837  store.TransactionSetting
}

func seedPartners(t *testing.T, s store.Queries, accountID, mode string) partnerFixture {
	t.Helper()
	f := partnerFixture{
		local: store.Profile{ID: "clinic", AccountID: accountID, Mode: mode, Type: store.ProfileLocal,
			ISAQualifier: "ZZ", ISAID: "CLINIC01", ApplicationCode: "CLINIC01", CreatedAt: t0, UpdatedAt: t0},
		partner: store.Profile{ID: "delta-dental", AccountID: accountID, Mode: mode, Type: store.ProfilePartner,
			ISAQualifier: "30", ISAID: "941234567", ApplicationCode: "DDCA", CreatedAt: t0, UpdatedAt: t0},
		conn: store.Connection{ID: "mock", AccountID: accountID, Mode: mode, Type: store.ConnectionMock,
			Name: "Mock payer", Settings: []byte(`{"payer":"delta"}`), SealedSecrets: "v1:c2VhbGVk",
			CreatedAt: t0, UpdatedAt: t0},
	}
	f.ship = store.Partnership{ID: "clinic_delta-dental", AccountID: accountID, Mode: mode, Type: store.PartnershipTypeX12,
		LocalProfileID: "clinic", PartnerProfileID: "delta-dental", ConnectionID: "mock", CreatedAt: t0, UpdatedAt: t0}
	f.in835 = store.TransactionSetting{ID: "ts-835-" + mode, AccountID: accountID, Mode: mode, PartnershipID: f.ship.ID,
		Direction: store.DirectionInbound, GuideID: "005010X221A1", TransactionSetIdentifier: "835",
		FragmentsEnabled: true, FragmentsBatchSize: 800, FragmentsKeyName: "claim_payment_information_CLP_loop",
		Ack999: true, CreatedAt: t0, UpdatedAt: t0}
	f.out837 = store.TransactionSetting{ID: "ts-837-" + mode, AccountID: accountID, Mode: mode, PartnershipID: f.ship.ID,
		Direction: store.DirectionOutbound, GuideID: "005010X224A2", TransactionSetIdentifier: "837",
		FragmentsBatchSize: 800, ConnectionID: "mock", CreatedAt: t0, UpdatedAt: t0}
	must(t, s.CreateProfile(ctx, f.local))
	must(t, s.CreateProfile(ctx, f.partner))
	must(t, s.CreateConnection(ctx, f.conn))
	must(t, s.CreatePartnership(ctx, f.ship))
	must(t, s.CreateTransactionSetting(ctx, f.in835))
	must(t, s.CreateTransactionSetting(ctx, f.out837))
	return f
}

// testPartnersRoundTrip: every record reads back as written; ids are
// unique per account and mode; updates and deletes of missing records are
// ErrNotFound.
func testPartnersRoundTrip(t *testing.T, s store.Store) {
	a, _ := Seed(t, s, store.ModeTest)
	f := seedPartners(t, s, a.ID, store.ModeTest)

	// An inbound pass-through setting (sets with no guide) keeps its flag.
	pass := store.TransactionSetting{ID: "ts-997-pass", AccountID: a.ID, Mode: store.ModeTest, PartnershipID: f.ship.ID,
		Direction: store.DirectionInbound, TransactionSetIdentifier: "997", FragmentsBatchSize: 800, PassThrough: true,
		CreatedAt: f.in835.CreatedAt, UpdatedAt: f.in835.UpdatedAt}
	must(t, s.CreateTransactionSetting(ctx, pass))
	gotPass, err := s.FindTransactionSetting(ctx, a.ID, store.ModeTest, f.ship.ID, store.DirectionInbound, "997", "")
	must(t, err)
	if diff := cmp.Diff(pass, gotPass); diff != "" {
		t.Errorf("pass-through setting (-want +got):\n%s", diff)
	}
	must(t, s.DeleteTransactionSetting(ctx, a.ID, store.ModeTest, pass.ID))

	gotProfile, err := s.GetProfile(ctx, a.ID, store.ModeTest, "clinic")
	must(t, err)
	if diff := cmp.Diff(f.local, gotProfile); diff != "" {
		t.Errorf("GetProfile (-want +got):\n%s", diff)
	}
	gotShip, err := s.GetPartnership(ctx, a.ID, store.ModeTest, f.ship.ID)
	must(t, err)
	if diff := cmp.Diff(f.ship, gotShip); diff != "" {
		t.Errorf("GetPartnership (-want +got):\n%s", diff)
	}
	gotSetting, err := s.GetTransactionSetting(ctx, a.ID, store.ModeTest, f.in835.ID)
	must(t, err)
	if diff := cmp.Diff(f.in835, gotSetting); diff != "" {
		t.Errorf("GetTransactionSetting (-want +got):\n%s", diff)
	}
	gotConn, err := s.GetConnection(ctx, a.ID, store.ModeTest, "mock")
	must(t, err)
	if diff := cmp.Diff(f.conn, gotConn); diff != "" {
		t.Errorf("GetConnection (-want +got):\n%s", diff)
	}

	profiles, err := s.ListProfiles(ctx, a.ID, store.ModeTest)
	must(t, err)
	if diff := cmp.Diff([]store.Profile{f.local, f.partner}, profiles); diff != "" {
		t.Errorf("ListProfiles (-want +got):\n%s", diff)
	}
	settings, err := s.ListTransactionSettings(ctx, a.ID, store.ModeTest, f.ship.ID)
	must(t, err)
	if diff := cmp.Diff([]store.TransactionSetting{f.in835, f.out837}, settings); diff != "" {
		t.Errorf("ListTransactionSettings (-want +got):\n%s", diff)
	}
	if all, err := s.ListTransactionSettings(ctx, a.ID, store.ModeTest, ""); err != nil || len(all) != 2 {
		t.Errorf("ListTransactionSettings of every partnership = %d, %v; want 2", len(all), err)
	}
	if none, err := s.ListTransactionSettings(ctx, a.ID, store.ModeTest, "nope"); err != nil || len(none) != 0 {
		t.Errorf("ListTransactionSettings of a missing partnership = %d, %v; want 0", len(none), err)
	}
	if ships, err := s.ListPartnerships(ctx, a.ID, store.ModeTest); err != nil || len(ships) != 1 {
		t.Errorf("ListPartnerships = %d, %v; want 1", len(ships), err)
	}
	if conns, err := s.ListConnections(ctx, a.ID, store.ModeTest); err != nil || len(conns) != 1 {
		t.Errorf("ListConnections = %d, %v; want 1", len(conns), err)
	}

	// Taken ids and a second profile with the same ISA identity conflict.
	wantErr(t, s.CreateProfile(ctx, f.local), store.ErrConflict)
	dup := f.partner
	dup.ID = "delta-again"
	wantErr(t, s.CreateProfile(ctx, dup), store.ErrConflict)
	wantErr(t, s.CreatePartnership(ctx, f.ship), store.ErrConflict)
	wantErr(t, s.CreateTransactionSetting(ctx, f.in835), store.ErrConflict)
	sameSet := f.in835
	sameSet.ID = "another-835"
	wantErr(t, s.CreateTransactionSetting(ctx, sameSet), store.ErrConflict)
	wantErr(t, s.CreateConnection(ctx, f.conn), store.ErrConflict)

	// Updates change what they say and keep CreatedAt.
	later := t0.Add(time.Hour)
	f.partner.ApplicationCode, f.partner.ISAID, f.partner.UpdatedAt = "DDCA2", "941234568", later
	must(t, s.UpdateProfile(ctx, f.partner))
	f.ship.ConnectionID, f.ship.UpdatedAt = "", later
	must(t, s.UpdatePartnership(ctx, f.ship))
	f.in835.FragmentsEnabled, f.in835.FragmentsBatchSize, f.in835.AckTA1, f.in835.UpdatedAt = false, 50, true, later
	must(t, s.UpdateTransactionSetting(ctx, f.in835))
	f.conn.Settings, f.conn.SealedSecrets, f.conn.UpdatedAt = []byte(`{}`), "", later
	must(t, s.UpdateConnection(ctx, f.conn))
	for name, c := range map[string]struct{ want, got func() (any, error) }{
		"profile": {func() (any, error) { return f.partner, nil }, func() (any, error) {
			return s.GetProfile(ctx, a.ID, store.ModeTest, f.partner.ID)
		}},
		"partnership": {func() (any, error) { return f.ship, nil }, func() (any, error) {
			return s.GetPartnership(ctx, a.ID, store.ModeTest, f.ship.ID)
		}},
		"setting": {func() (any, error) { return f.in835, nil }, func() (any, error) {
			return s.GetTransactionSetting(ctx, a.ID, store.ModeTest, f.in835.ID)
		}},
		"connection": {func() (any, error) { return f.conn, nil }, func() (any, error) {
			return s.GetConnection(ctx, a.ID, store.ModeTest, f.conn.ID)
		}},
	} {
		want, _ := c.want()
		got, err := c.got()
		must(t, err)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s after update (-want +got):\n%s", name, diff)
		}
	}

	missing := f.partner
	missing.ID = "missing"
	wantErr(t, s.UpdateProfile(ctx, missing), store.ErrNotFound)
	wantErr(t, s.UpdatePartnership(ctx, store.Partnership{AccountID: a.ID, Mode: store.ModeTest, ID: "missing",
		LocalProfileID: "clinic", PartnerProfileID: "delta-dental"}), store.ErrNotFound)
	wantErr(t, s.UpdateTransactionSetting(ctx, store.TransactionSetting{AccountID: a.ID, Mode: store.ModeTest, ID: "missing",
		PartnershipID: f.ship.ID, Direction: store.DirectionInbound, TransactionSetIdentifier: "999"}), store.ErrNotFound)
	wantErr(t, s.UpdateConnection(ctx, store.Connection{AccountID: a.ID, Mode: store.ModeTest, ID: "missing", Type: store.ConnectionMock}), store.ErrNotFound)
	_, err = s.GetProfile(ctx, a.ID, store.ModeTest, "missing")
	wantErr(t, err, store.ErrNotFound)
	wantErr(t, s.DeleteConnection(ctx, a.ID, store.ModeTest, "missing"), store.ErrNotFound)
}

// testPartnersReferences: a partnership needs its profiles, a setting its
// partnership; a record still referred to cannot be deleted; deleting in
// order (settings, partnership, profiles, connection) works.
func testPartnersReferences(t *testing.T, s store.Store) {
	a, _ := Seed(t, s, store.ModeTest)
	f := seedPartners(t, s, a.ID, store.ModeTest)

	dangling := f.ship
	dangling.ID, dangling.PartnerProfileID = "clinic_nobody", "nobody"
	wantErr(t, s.CreatePartnership(ctx, dangling), store.ErrConflict)
	noConn := f.out837
	noConn.ID, noConn.GuideID, noConn.ConnectionID = "ts-x", "005010X222A1", "no-such-connection"
	wantErr(t, s.CreateTransactionSetting(ctx, noConn), store.ErrConflict)
	noShip := f.out837
	noShip.ID, noShip.PartnershipID = "ts-y", "nope"
	wantErr(t, s.CreateTransactionSetting(ctx, noShip), store.ErrConflict)

	wantErr(t, s.DeleteProfile(ctx, a.ID, store.ModeTest, "clinic"), store.ErrConflict)
	wantErr(t, s.DeleteConnection(ctx, a.ID, store.ModeTest, "mock"), store.ErrConflict)
	wantErr(t, s.DeletePartnership(ctx, a.ID, store.ModeTest, f.ship.ID), store.ErrConflict)

	must(t, s.DeleteTransactionSetting(ctx, a.ID, store.ModeTest, f.in835.ID))
	must(t, s.DeleteTransactionSetting(ctx, a.ID, store.ModeTest, f.out837.ID))
	must(t, s.DeletePartnership(ctx, a.ID, store.ModeTest, f.ship.ID))
	must(t, s.DeleteProfile(ctx, a.ID, store.ModeTest, "clinic"))
	must(t, s.DeleteProfile(ctx, a.ID, store.ModeTest, "delta-dental"))
	must(t, s.DeleteConnection(ctx, a.ID, store.ModeTest, "mock"))
	wantErr(t, s.DeleteProfile(ctx, a.ID, store.ModeTest, "clinic"), store.ErrNotFound)
	if ps, _ := s.ListProfiles(ctx, a.ID, store.ModeTest); len(ps) != 0 {
		t.Errorf("%d profiles left after deleting all", len(ps))
	}
}

// testPartnersIsolation: another account, or the other mode of the same
// account, neither sees the records nor is blocked by their ids.
func testPartnersIsolation(t *testing.T, s store.Store) {
	a, _ := Seed(t, s, store.ModeTest)
	b, _ := Seed(t, s, store.ModeTest)
	fa := seedPartners(t, s, a.ID, store.ModeTest)
	seedPartners(t, s, a.ID, store.ModeProduction) // same ids, other mode
	seedPartners(t, s, b.ID, store.ModeTest)       // same ids, other account

	if _, err := s.GetProfile(ctx, b.ID, store.ModeProduction, "clinic"); err != store.ErrNotFound {
		t.Errorf("account b production sees a profile: %v", err)
	}
	ships, err := s.ListPartnerships(ctx, a.ID, store.ModeTest)
	must(t, err)
	if len(ships) != 1 || ships[0].AccountID != a.ID || ships[0].Mode != store.ModeTest {
		t.Errorf("ListPartnerships(a, test) = %+v", ships)
	}
	// Changing a's test partner leaves production and b alone.
	fa.partner.ISAID, fa.partner.UpdatedAt = "CHANGED", t0.Add(time.Minute)
	must(t, s.UpdateProfile(ctx, fa.partner))
	for _, who := range []struct{ account, mode string }{{a.ID, store.ModeProduction}, {b.ID, store.ModeTest}} {
		p, err := s.GetProfile(ctx, who.account, who.mode, "delta-dental")
		must(t, err)
		if p.ISAID != "941234567" {
			t.Errorf("%s/%s partner ISA id = %q after another owner's update", who.account, who.mode, p.ISAID)
		}
		got, err := s.FindPartnershipByInterchange(ctx, who.account, who.mode, "30", "941234567", "ZZ", "CLINIC01")
		must(t, err)
		if got.AccountID != who.account || got.Mode != who.mode {
			t.Errorf("FindPartnershipByInterchange(%s, %s) found %s/%s", who.account, who.mode, got.AccountID, got.Mode)
		}
	}
	_, err = s.FindPartnershipByInterchange(ctx, a.ID, store.ModeTest, "30", "941234567", "ZZ", "CLINIC01")
	wantErr(t, err, store.ErrNotFound)
	_, err = s.GetTransactionSetting(ctx, b.ID, store.ModeTest, fa.in835.ID) // b's has the same id...
	must(t, err)
	_, err = s.GetTransactionSetting(ctx, b.ID, store.ModeProduction, fa.in835.ID) // ...b has no production
	wantErr(t, err, store.ErrNotFound)
}

// testFindPartnershipByInterchange: the ISA sender is the partner, the
// receiver the local profile; ISA padding does not matter; the reverse
// direction or an unknown id finds nothing.
func testFindPartnershipByInterchange(t *testing.T, s store.Store) {
	a, _ := Seed(t, s, store.ModeTest)
	f := seedPartners(t, s, a.ID, store.ModeTest)
	for _, tc := range []struct {
		name             string
		sq, sid, rq, rid string
		want             bool
	}{
		{"trimmed", "30", "941234567", "ZZ", "CLINIC01", true},
		{"ISA padding", "30", "941234567      ", "ZZ", "CLINIC01       ", true},
		{"reversed", "ZZ", "CLINIC01", "30", "941234567", false},
		{"other qualifier", "ZZ", "941234567", "ZZ", "CLINIC01", false},
		{"unknown sender", "30", "000000000", "ZZ", "CLINIC01", false},
		{"partner to partner", "30", "941234567", "30", "941234567", false},
	} {
		got, err := s.FindPartnershipByInterchange(ctx, a.ID, store.ModeTest, tc.sq, tc.sid, tc.rq, tc.rid)
		if !tc.want {
			if err != store.ErrNotFound {
				t.Errorf("%s: got %+v, %v; want ErrNotFound", tc.name, got, err)
			}
			continue
		}
		must(t, err)
		if diff := cmp.Diff(f.ship, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}

// testFindTransactionSetting: an exact guide wins over a guide-less
// setting; "" matches the set alone; direction and set must match.
func testFindTransactionSetting(t *testing.T, s store.Store) {
	a, _ := Seed(t, s, store.ModeTest)
	f := seedPartners(t, s, a.ID, store.ModeTest)
	any999 := store.TransactionSetting{ID: "ts-999", AccountID: a.ID, Mode: store.ModeTest, PartnershipID: f.ship.ID,
		Direction: store.DirectionInbound, TransactionSetIdentifier: "999", CreatedAt: t0, UpdatedAt: t0}
	must(t, s.CreateTransactionSetting(ctx, any999))
	any835 := f.in835
	any835.ID, any835.GuideID, any835.FragmentsEnabled = "ts-835-any", "", false
	must(t, s.CreateTransactionSetting(ctx, any835))

	for _, tc := range []struct {
		name, direction, set, guide, want string
	}{
		{"exact guide", store.DirectionInbound, "835", "005010X221A1", f.in835.ID},
		{"guide with padding", store.DirectionInbound, "835 ", " 005010X221A1", f.in835.ID},
		{"other guide falls back to the guide-less setting", store.DirectionInbound, "835", "004010X091A1", any835.ID},
		{"no guide prefers the guide-less setting", store.DirectionInbound, "835", "", any835.ID},
		{"guide-less only", store.DirectionInbound, "999", "005010X231A1", any999.ID},
		{"outbound by set alone", store.DirectionOutbound, "837", "", f.out837.ID},
		{"outbound other guide", store.DirectionOutbound, "837", "005010X222A1", ""},
		{"wrong direction", store.DirectionOutbound, "835", "", ""},
		{"unknown set", store.DirectionInbound, "277", "", ""},
	} {
		got, err := s.FindTransactionSetting(ctx, a.ID, store.ModeTest, f.ship.ID, tc.direction, tc.set, tc.guide)
		if tc.want == "" {
			if err != store.ErrNotFound {
				t.Errorf("%s: got %s, %v; want ErrNotFound", tc.name, got.ID, err)
			}
			continue
		}
		must(t, err)
		if got.ID != tc.want {
			t.Errorf("%s: got setting %s, want %s", tc.name, got.ID, tc.want)
		}
	}
	// With only guide-specific settings, "" still finds one.
	must(t, s.DeleteTransactionSetting(ctx, a.ID, store.ModeTest, any835.ID))
	got, err := s.FindTransactionSetting(ctx, a.ID, store.ModeTest, f.ship.ID, store.DirectionInbound, "835", "")
	must(t, err)
	if got.ID != f.in835.ID {
		t.Errorf("set alone: got %s, want %s", got.ID, f.in835.ID)
	}
	_, err = s.FindTransactionSetting(ctx, a.ID, store.ModeProduction, f.ship.ID, store.DirectionInbound, "835", "")
	wantErr(t, err, store.ErrNotFound)
}

// testPartnershipControlNumbers: two replicas drawing one partnership's
// ISA13 and GS06 never repeat a number; each partnership and each of its
// sequences counts on its own.
func testPartnershipControlNumbers(t *testing.T, s store.Store) {
	a, _ := Seed(t, s, store.ModeTest)
	f := seedPartners(t, s, a.ID, store.ModeTest)
	replicas := []*store.PartnershipControlNumbers{
		store.NewPartnershipControlNumbers(s, 5), store.NewPartnershipControlNumbers(s, 3)}
	var mu sync.Mutex
	isa, gs := map[int64]bool{}, map[int64]bool{}
	var wg sync.WaitGroup
	for _, r := range replicas {
		for range 3 {
			wg.Go(func() {
				for range 40 {
					i, err := r.NextInterchange(ctx, f.ship)
					if err != nil {
						t.Error(err)
						return
					}
					g, err := r.NextGroup(ctx, f.ship)
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					if isa[i] || gs[g] {
						t.Errorf("ISA13 %d or GS06 %d handed out twice", i, g)
					}
					isa[i], gs[g] = true, true
					mu.Unlock()
				}
			})
		}
	}
	wg.Wait()
	if len(isa) != 240 || len(gs) != 240 {
		t.Fatalf("%d ISA13 and %d GS06 numbers, want 240 each", len(isa), len(gs))
	}
	other := f.ship
	other.ID = "clinic_other"
	n, err := replicas[0].NextInterchange(ctx, other)
	must(t, err)
	if n != 1 {
		t.Errorf("another partnership's first ISA13 = %d, want 1", n)
	}
	prod := f.ship
	prod.Mode = store.ModeProduction
	if n, err := replicas[1].NextGroup(ctx, prod); err != nil || n != 1 {
		t.Errorf("the production partnership's first GS06 = %d, %v; want 1", n, err)
	}
}
