package partners

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/store"
)

// The test-mode setup every account gets.
const (
	// TestLocalProfileID is the account's own identity in test mode; its
	// ISA id is the one eligibility checks send (eligibility.DefaultSenderID).
	TestLocalProfileID = "clearhouse"
	TestLocalISAID     = "CLEARHOUSE"
	// TestConnectionID is the MOCK connection of every test partnership.
	TestConnectionID = "mock"
)

// MockPayer is one mock payer as a trading partner: its ISA identity is
// ZZ / its payer id, the envelope the mock answers with. The composition
// root lists them (internal/mockpayer's payers); partners never imports
// the mock.
type MockPayer struct{ ID, Name string }

// MockPayers lists the given payers by payer id, once each, under their
// directory id and name when the directory knows them.
func MockPayers(given []MockPayer) []MockPayer {
	seen := map[string]bool{}
	var out []MockPayer
	for _, p := range given {
		if d, ok := payers.Default().Lookup(p.ID); ok {
			p = MockPayer{ID: d.ID, Name: d.Name}
		}
		if !seen[p.ID] {
			seen[p.ID] = true
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// MockProfileID and MockPartnershipID name a mock payer's records.
func MockProfileID(payerID string) string { return "mock-" + strings.ToLower(payerID) }

// MockPartnershipID is the test partnership with a mock payer.
func MockPartnershipID(payerID string) string {
	return TestLocalProfileID + "_" + MockProfileID(payerID)
}

// TestSetup is the test-mode Document of a fresh account: a local profile,
// the MOCK connection, and a partnership with each mock payer that takes
// in 999, 277CA and 835 (835 in fragments of 800 claim payments) and
// sends 837D claims (in fragments of 800 claims) to the mock.
func TestSetup(mocks []MockPayer) Document {
	doc := Document{
		Profiles: []Profile{{ProfileID: TestLocalProfileID, ProfileType: store.ProfileLocal,
			InterchangeQualifier: "ZZ", InterchangeID: TestLocalISAID, ApplicationID: TestLocalISAID}},
		Connections: []Connection{{ConnectionID: TestConnectionID, ConnectionType: store.ConnectionMock,
			Name: "Mock payers (test mode)"}},
	}
	for _, p := range MockPayers(mocks) {
		ship := MockPartnershipID(p.ID)
		doc.Profiles = append(doc.Profiles, Profile{ProfileID: MockProfileID(p.ID), ProfileType: store.ProfilePartner,
			InterchangeQualifier: "ZZ", InterchangeID: p.ID, ApplicationID: applicationID(p.ID)})
		doc.Partnerships = append(doc.Partnerships, Partnership{PartnershipID: ship, PartnershipType: store.PartnershipTypeX12,
			LocalProfileID: TestLocalProfileID, PartnerProfileID: MockProfileID(p.ID), ConnectionID: TestConnectionID,
			InboundTransactions: []TransactionSetting{
				{TransactionSettingID: ship + "-in-999", TransactionSetIdentifier: "999", GuideID: "005010X231A1"},
				{TransactionSettingID: ship + "-in-277", TransactionSetIdentifier: "277", GuideID: "005010X214"},
				{TransactionSettingID: ship + "-in-835", TransactionSetIdentifier: "835", GuideID: "005010X221A1",
					Fragments: &Fragments{Enabled: true, BatchSize: store.DefaultFragmentsBatchSize, KeyName: DefaultFragmentKey("835")}},
			},
			OutboundTransactions: []TransactionSetting{
				{TransactionSettingID: ship + "-out-837", TransactionSetIdentifier: "837", GuideID: "005010X224A2",
					Fragments:    &Fragments{Enabled: true, BatchSize: store.DefaultFragmentsBatchSize, KeyName: DefaultFragmentKey("837")},
					ConnectionID: TestConnectionID},
			},
		})
	}
	return doc
}

// applicationID is GS02/03 for a payer id (at least 2 characters).
func applicationID(id string) string {
	if len(id) < 2 {
		return id + " "
	}
	return id
}

// Seed gives the account the test-mode setup (TestSetup), creating only
// what is missing: records the account changed are left as they are, and
// a record that would clash with one of the account's own (an ISA
// identity already taken) is skipped with what depends on it. Safe to
// run at every start. It returns how many records it created.
func Seed(ctx context.Context, st store.Store, accountID string, mocks []MockPayer, now time.Time) (int, error) {
	// Replicas starting together seed the same accounts: the one that
	// loses a race gets a conflict, and its next try finds the records.
	for attempt := 1; ; attempt++ {
		n, err := seedOnce(ctx, st, accountID, mocks, now)
		if !errors.Is(err, store.ErrConflict) || attempt == 3 {
			return n, err
		}
	}
}

func seedOnce(ctx context.Context, st store.Store, accountID string, mocks []MockPayer, now time.Time) (int, error) {
	now = now.UTC().Truncate(time.Microsecond)
	created := 0
	err := st.InTx(ctx, func(tx store.Queries) error {
		created = 0
		w, err := loadWorld(ctx, tx, accountID, store.ModeTest)
		if err != nil {
			return err
		}
		doc := TestSetup(mocks)
		var ignored problems
		isaTaken := map[string]bool{}
		for _, p := range w.profiles {
			isaTaken[p.ISAQualifier+"/"+p.ISAID] = true
		}
		for _, p := range doc.Profiles {
			if _, ok := w.profiles[p.ProfileID]; ok {
				continue
			}
			rec := w.checkProfile(p, "", &ignored)
			if isaTaken[rec.ISAQualifier+"/"+rec.ISAID] {
				continue
			}
			rec.CreatedAt, rec.UpdatedAt = now, now
			if err := tx.CreateProfile(ctx, rec); err != nil {
				return fmt.Errorf("partners: seed profile %s: %w", rec.ID, err)
			}
			w.profiles[rec.ID], isaTaken[rec.ISAQualifier+"/"+rec.ISAID] = rec, true
			created++
		}
		for _, c := range doc.Connections {
			if _, ok := w.connections[c.ConnectionID]; ok {
				continue
			}
			rec := w.checkConnection(nil, nil, c, store.Connection{}, "", &ignored)
			rec.CreatedAt, rec.UpdatedAt = now, now
			if err := tx.CreateConnection(ctx, rec); err != nil {
				return fmt.Errorf("partners: seed connection %s: %w", rec.ID, err)
			}
			w.connections[rec.ID] = rec
			created++
		}
		pairs := map[string]bool{}
		for _, p := range w.partnerships {
			pairs[p.LocalProfileID+"\x00"+p.PartnerProfileID] = true
		}
		for _, p := range doc.Partnerships {
			rec := w.checkPartnership(p, "", &ignored)
			local, okL := w.profiles[rec.LocalProfileID]
			partner, okP := w.profiles[rec.PartnerProfileID]
			if _, exists := w.partnerships[rec.ID]; !exists {
				if !okL || !okP || local.Type != store.ProfileLocal || partner.Type != store.ProfilePartner ||
					pairs[rec.LocalProfileID+"\x00"+rec.PartnerProfileID] {
					continue
				}
				if _, ok := w.connections[rec.ConnectionID]; !ok {
					rec.ConnectionID = ""
				}
				rec.CreatedAt, rec.UpdatedAt = now, now
				if err := tx.CreatePartnership(ctx, rec); err != nil {
					return fmt.Errorf("partners: seed partnership %s: %w", rec.ID, err)
				}
				w.partnerships[rec.ID], pairs[rec.LocalProfileID+"\x00"+rec.PartnerProfileID] = rec, true
				created++
			}
			for _, l := range []struct {
				direction string
				settings  []TransactionSetting
			}{{store.DirectionInbound, p.InboundTransactions}, {store.DirectionOutbound, p.OutboundTransactions}} {
				for _, s := range l.settings {
					srec := w.checkSetting(s, rec.ID, l.direction, "", &ignored)
					if _, ok := w.settings[srec.ID]; ok {
						continue
					}
					if _, ok := w.settingByKey(rec.ID, l.direction, srec.TransactionSetIdentifier, srec.GuideID); ok {
						continue
					}
					if _, ok := w.connections[srec.ConnectionID]; !ok {
						srec.ConnectionID = ""
					}
					srec.CreatedAt, srec.UpdatedAt = now, now
					if err := tx.CreateTransactionSetting(ctx, srec); err != nil {
						return fmt.Errorf("partners: seed transaction setting %s: %w", srec.ID, err)
					}
					w.settings[srec.ID] = srec
					created++
				}
			}
		}
		return nil
	})
	return created, err
}

// Startup runs at every start of serve: it seeds every account's
// test-mode setup, and refuses to go on when connections hold secrets the
// process cannot open (no --secrets-key, or another key than sealed them).
func Startup(ctx context.Context, st store.Store, box *secrets.Box, mocks []MockPayer, now time.Time) (seeded int, err error) {
	accounts, err := st.ListAccounts(ctx)
	if err != nil {
		return 0, err
	}
	for _, a := range accounts {
		n, err := Seed(ctx, st, a.ID, mocks, now)
		if err != nil {
			return seeded, err
		}
		seeded += n
		for _, mode := range []string{store.ModeTest, store.ModeProduction} {
			conns, err := st.ListConnections(ctx, a.ID, mode)
			if err != nil {
				return seeded, err
			}
			for _, c := range conns {
				if c.SealedSecrets == "" {
					continue
				}
				if !box.Configured() {
					return seeded, fmt.Errorf("connection %q (account %q, %s mode) holds encrypted secrets: start with --secrets-key or CLEARHOUSE_SECRETS_KEY set to the key that sealed them", c.ID, a.Name, mode)
				}
				if _, err := OpenSecrets(box, c); err != nil {
					return seeded, fmt.Errorf("the secrets key (id %s) does not open the secrets of connection %q (account %q, %s mode): is it the key that sealed them?", box.KeyID(), c.ID, a.Name, mode)
				}
			}
		}
	}
	return seeded, nil
}
