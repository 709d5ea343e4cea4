package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The scenarios signal answers the version without a read only while no
// change has committed since the version this store last read; a change
// that rolled back leaves the committed version answered (by reading it)
// until a later change commits; the signal file is shared by every store
// on the database.
func TestScenariosSignal(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), SQLiteFile)
	open := func() *sqlStore { return openSignalStore(t, path) }
	server, other := open(), open()
	if server.scenarios == nil {
		t.Skip("no scenarios signal on this platform")
	}
	acct := Account{ID: NewID(), Name: "A", CreatedAt: time.Now()}
	if err := server.CreateAccount(ctx, acct); err != nil {
		t.Fatal(err)
	}
	put := func(s Queries, body string) error {
		return s.PutMockScenarios(ctx, MockScenarios{AccountID: acct.ID, Mode: ModeTest, Body: []byte(body), UpdatedAt: time.Now()})
	}
	// version reads the server's version; cached says whether it needed
	// no read.
	version := func(step string, want int64, cached bool) {
		t.Helper()
		_, hit := server.scenarios.current()
		v, err := server.MockScenariosVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if v != want || hit != cached {
			t.Errorf("%s: version %d (answered without a read: %v), want %d (%v)", step, v, hit, want, cached)
		}
	}
	v0, err := other.MockScenariosVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	version("first read", v0, false)
	version("unchanged", v0, true)
	if err := put(other, `{"a":1}`); err != nil {
		t.Fatal(err)
	}
	version("another store's change", v0+1, false)
	version("after it", v0+1, true)

	errUndo := errors.New("undo")
	if err := other.InTx(ctx, func(tx Queries) error {
		if err := put(tx, `{"a":2}`); err != nil {
			return err
		}
		// Inside the change's transaction the version is its own.
		if v, err := tx.MockScenariosVersion(ctx); err != nil || v != v0+2 {
			t.Errorf("inside the change: version %d, %v; want %d", v, err, v0+2)
		}
		version("while another store's change is not committed", v0+1, false)
		return errUndo
	}); !errors.Is(err, errUndo) {
		t.Fatal(err)
	}
	version("after a change rolled back", v0+1, false)
	version("still", v0+1, false)
	if err := put(other, `{"a":3}`); err != nil {
		t.Fatal(err)
	}
	version("the next change committed", v0+2, false)
	version("after it", v0+2, true)
	if err := put(server, `{"a":4}`); err != nil {
		t.Fatal(err)
	}
	version("this store's own change", v0+3, false)
	version("after it", v0+3, true)
}

// BenchmarkMockScenariosVersion is a test-mode check's scenarios-version
// lookup on SQLite with the signal (unchanged scenarios: no read) and
// without it (a read transaction on the pool, as before the signal).
func BenchmarkMockScenariosVersion(b *testing.B) {
	st, err := OpenSQLite(context.Background(), filepath.Join(b.TempDir(), SQLiteFile))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	s := st.(*sqlStore)
	sig := s.scenarios
	for _, c := range []struct {
		name string
		sig  *scenariosSignal
	}{{"read", nil}, {"signal", sig}} {
		b.Run(c.name, func(b *testing.B) {
			s.scenarios = c.sig
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.MockScenariosVersion(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	s.scenarios = sig
}

// A store that opens the database through a symbolic link raises the
// signal the others read (SQLite's -wal and -shm follow the link too).
func TestScenariosSignalThroughSymlink(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, SQLiteFile)
	st, err := OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	link := filepath.Join(dir, "link.db")
	if err := os.Symlink(path, link); err != nil {
		t.Skip(err)
	}
	other, err := OpenSQLite(ctx, link)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	acct := Account{ID: NewID(), Name: "A", CreatedAt: time.Now()}
	if err := st.CreateAccount(ctx, acct); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		before, err := st.MockScenariosVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := other.PutMockScenarios(ctx, MockScenarios{AccountID: acct.ID, Mode: ModeTest, Body: []byte(`{}`), UpdatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
		if after, err := st.MockScenariosVersion(ctx); err != nil || after != before+1 {
			t.Fatalf("change %d through the link: version %d, %v; want %d", i, after, err, before+1)
		}
	}
	if _, err := os.Stat(link + scenariosSignalSuffix); !os.IsNotExist(err) {
		t.Errorf("a signal file beside the link (%v): want only the database's", err)
	}
}

// TestScenariosSignalTakesTheDatabasesMode: a new signal file has the
// database's permissions whatever the umask, as SQLite's -wal and -shm
// files have (its robust_open sets them with fchmod). With the umask's
// mode instead (0644 from a 0666 database under umask 022), a process of
// another user that may write the database — and so opens -shm — could not
// map the signal, and its open failed.
func TestScenariosSignalTakesTheDatabasesMode(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), SQLiteFile)
	st, err := OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if st.(*sqlStore).scenarios == nil {
		st.Close()
		t.Skip("no scenarios signal on this platform")
	}
	st.Close()
	const mode = 0o666 // wider than any usual umask lets a new file be
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path + scenariosSignalSuffix); err != nil {
		t.Fatal(err)
	}
	st, err = OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, suffix := range []string{"-shm", scenariosSignalSuffix} {
		fi, err := os.Stat(path + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != mode {
			t.Errorf("%s has mode %#o, want the database's %#o", suffix, got, mode)
		}
	}
}

// A signal file deleted or replaced while a store has it mapped: the
// stores that open the database afterwards map another file. A change made
// through either must be seen by the other's next read of the version (on
// 7648390 the first store kept answering the version it had read).
func TestScenariosSignalFileReplaced(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), SQLiteFile)
	open := func() *sqlStore { return openSignalStore(t, path) }
	first := open()
	if first.scenarios == nil {
		t.Skip("no scenarios signal on this platform")
	}
	acct := Account{ID: NewID(), Name: "A", CreatedAt: time.Now()}
	if err := first.CreateAccount(ctx, acct); err != nil {
		t.Fatal(err)
	}
	put := func(s Queries, body string) {
		t.Helper()
		if err := s.PutMockScenarios(ctx, MockScenarios{AccountID: acct.ID, Mode: ModeTest, Body: []byte(body), UpdatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	version := func(s Queries) int64 {
		t.Helper()
		v, err := s.MockScenariosVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, how := range []string{"deleted", "replaced"} {
		version(first)
		version(first) // now answered from the signal
		sig := path + scenariosSignalSuffix
		if err := os.Remove(sig); err != nil {
			t.Fatal(err)
		}
		if how == "replaced" {
			if err := os.WriteFile(sig, make([]byte, 8), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		second := open()
		put(second, `{"by":"second, `+how+`"}`)
		if got, want := version(first), version(second); got != want {
			t.Errorf("%s: the first store reads version %d after the second's change, want %d", how, got, want)
		}
		version(second) // the second now answers from its own signal
		put(first, `{"by":"first, `+how+`"}`)
		if got, want := version(second), version(first); got != want {
			t.Errorf("%s: the second store reads version %d after the first's change, want %d", how, got, want)
		}
	}
}

// openSignalStore opens the SQLite database at path, closed with the test.
func openSignalStore(t *testing.T, path string) *sqlStore {
	t.Helper()
	st, err := OpenSQLite(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st.(*sqlStore)
}
