package services

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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

// scenariosHelperEnv makes the test binary, run by
// TestStoreScenariosSeeAnotherProcess, the other process: it opens the
// SQLite database at the path in the variable and uploads or removes an
// account's file there, as `clearhouse mockpayer apply` does, then exits.
const scenariosHelperEnv = "CLEARHOUSE_TEST_SCENARIOS_CHANGE"

func TestMain(m *testing.M) {
	if spec := os.Getenv(scenariosHelperEnv); spec != "" {
		if err := changeScenarios(spec); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// changeScenarios runs the change "path\taccount\tname" (upload a file
// whose scenario is name; "-" removes the file).
func changeScenarios(spec string) error {
	path, rest, _ := strings.Cut(spec, "\t")
	account, name, _ := strings.Cut(rest, "\t")
	st, err := store.OpenSQLite(context.Background(), path)
	if err != nil {
		return err
	}
	defer st.Close()
	t := store.ForTenant(st, store.Scope{AccountID: account, Mode: store.ModeTest})
	if name == "-" {
		return t.DeleteMockScenarios(context.Background())
	}
	return t.PutMockScenarios(context.Background(), scenarioFile(name), time.Now())
}

// A change made by another process (a second OS process here, not a second
// store in this one) is what the next check sees, although the checks
// before it were answered without reading the database (the scenarios
// signal is shared through a file, not through this process's memory).
func TestStoreScenariosSeeAnotherProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), store.SQLiteFile)
	server := openStore(t, func() (store.Store, error) { return store.OpenSQLite(context.Background(), path) })
	a, _ := storetest.Seed(t, server, store.ModeTest)
	source := storeScenarios(server)
	ctx := payers.WithCaller(context.Background(), payers.Caller{AccountID: a.ID, Mode: payers.ModeTest})
	want := func(step, name string) {
		t.Helper()
		for range 3 { // the read that fills the cache, then cached answers
			set, err := source(ctx)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if set != nil {
				got = set.Scenarios[0].Name
			}
			if got != name {
				t.Fatalf("%s: answered by scenario %q, want %q", step, got, name)
			}
		}
	}
	change := func(name string) {
		t.Helper()
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), scenariosHelperEnv+"="+path+"\t"+a.ID+"\t"+name)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("the other process: %v: %s", err, out)
		}
	}
	want("no file", "")
	change("first")
	want("uploaded by another process", "first")
	change("second")
	want("replaced by another process", "second")
	change("-")
	want("removed by another process", "")
	change("third")
	want("uploaded again", "third")
}
