package services

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/mockpayer/scenario"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// scenarioFile is a valid simulator file whose one scenario is named name.
func scenarioFile(name string) []byte {
	return []byte(`{"scenarios":[{"name":"` + name + `","match":{"memberId":"A1"},"eligibility":{"benefits":{"planName":"P1"}}}]}`)
}

// The mock payer's scenarios come from a cache keyed by the scenarios
// version; a file uploaded, replaced or removed by another process on the
// same database (another store, as `clearhouse mockpayer apply` opens) is
// what the very next check sees, and another account's file or mode never
// is.
func TestStoreScenariosSeeOtherProcesses(t *testing.T) {
	engines := []struct {
		name string
		open func(t *testing.T) (server, other store.Store)
	}{
		{store.EngineSQLite, func(t *testing.T) (store.Store, store.Store) {
			path := filepath.Join(t.TempDir(), store.SQLiteFile)
			return openStore(t, func() (store.Store, error) { return store.OpenSQLite(context.Background(), path) }),
				openStore(t, func() (store.Store, error) { return store.OpenSQLite(context.Background(), path) })
		}},
		{store.EnginePostgres, func(t *testing.T) (store.Store, store.Store) {
			url := storetest.PostgresSchemaURL(t)
			return openStore(t, func() (store.Store, error) { return store.OpenPostgres(context.Background(), url) }),
				openStore(t, func() (store.Store, error) { return store.OpenPostgres(context.Background(), url) })
		}},
	}
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			server, other := e.open(t)
			a, _ := storetest.Seed(t, server, store.ModeTest)
			b, _ := storetest.Seed(t, server, store.ModeTest)
			source := storeScenarios(server)
			check := func(account string, mode payers.Mode) *scenario.Set {
				t.Helper()
				ctx := payers.WithCaller(context.Background(), payers.Caller{AccountID: account, Mode: mode})
				set, err := source(ctx)
				if err != nil {
					t.Fatal(err)
				}
				return set
			}
			want := func(step, account string, mode payers.Mode, name string) {
				t.Helper()
				for range 2 { // the read that fills the cache, then the cached answer
					set := check(account, mode)
					got := ""
					if set != nil {
						got = set.Scenarios[0].Name
					}
					if got != name {
						t.Fatalf("%s: account %s in %s mode is answered by scenario %q, want %q", step, account[:6], mode, got, name)
					}
				}
			}
			put := func(account string, body []byte) {
				t.Helper()
				if err := store.ForTenant(other, store.Scope{AccountID: account, Mode: store.ModeTest}).PutMockScenarios(context.Background(), body, time.Now()); err != nil {
					t.Fatal(err)
				}
			}
			want("no file", a.ID, payers.ModeTest, "")
			put(a.ID, scenarioFile("first"))
			want("uploaded elsewhere", a.ID, payers.ModeTest, "first")
			want("another account", b.ID, payers.ModeTest, "")
			want("production", a.ID, payers.ModeProduction, "")
			put(a.ID, scenarioFile("second"))
			want("replaced elsewhere", a.ID, payers.ModeTest, "second")
			put(b.ID, scenarioFile("b-file"))
			want("another account's upload", a.ID, payers.ModeTest, "second")
			want("the other account", b.ID, payers.ModeTest, "b-file")
			if err := store.ForTenant(other, store.Scope{AccountID: a.ID, Mode: store.ModeTest}).DeleteMockScenarios(context.Background()); err != nil {
				t.Fatal(err)
			}
			want("removed elsewhere", a.ID, payers.ModeTest, "")
			want("the other account after a's removal", b.ID, payers.ModeTest, "b-file")
		})
	}
}

func openStore(t *testing.T, open func() (store.Store, error)) store.Store {
	t.Helper()
	s, err := open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
