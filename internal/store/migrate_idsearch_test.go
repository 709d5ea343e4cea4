package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pressly/goose/v3"
)

// migrationDB opens a new database of engine migrated up to version: db,
// a store on it (migrated to the latest) and db's migrations.
func migrationDB(t *testing.T, engine string, version int64) (*sql.DB, func() (Store, error), *goose.Provider) {
	t.Helper()
	ctx := context.Background()
	var db *sql.DB
	var open func() (Store, error)
	var err error
	if engine == EngineSQLite {
		path := filepath.Join(t.TempDir(), SQLiteFile)
		db, err = sql.Open("sqlite", "file:"+filepath.ToSlash(path))
		open = func() (Store, error) { return OpenSQLite(ctx, path) }
	} else {
		dsn := migrationSchema(t)
		db, err = sql.Open("pgx", dsn)
		open = func() (Store, error) { return OpenPostgres(ctx, dsn) }
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	p, err := migrator(ctx, engine, db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, version); err != nil {
		t.Fatal(err)
	}
	return db, open, p
}

// execT runs q on db.
func execT(t *testing.T, db *sql.DB, q string) {
	t.Helper()
	if _, err := db.ExecContext(context.Background(), q); err != nil {
		t.Fatalf("%v: %s", err, q)
	}
}

// openT opens the store (which migrates the rest) for the checks made when.
func openT(t *testing.T, open func() (Store, error), when string) Store {
	t.Helper()
	s, err := open()
	if err != nil {
		t.Fatalf("%s: %v", when, err)
	}
	return s
}

// TestIdentifierSearchMigrationKeepsRows: the search rows stored in
// identifier_values before migration 450 (a value stored twice for one
// transaction among them) are found the same after it, account by account
// and element by element, on both engines; 450 goes down and up again
// without losing them.
func TestIdentifierSearchMigrationKeepsRows(t *testing.T) {
	t.Parallel()
	for _, engine := range []string{EngineSQLite, EnginePostgres} {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db, open, p := migrationDB(t, engine, 449)
			for _, q := range []string{
				`INSERT INTO accounts (id, name, created_at) VALUES ('a', 'A', 1), ('b', 'B', 1)`,
				`INSERT INTO executions (id, account_id, mode, direction, status, created_at, updated_at)
					VALUES ('ea', 'a', 'test', 'INBOUND', 'COMPLETED', 1, 1), ('eb', 'b', 'test', 'INBOUND', 'COMPLETED', 1, 1)`,
				`INSERT INTO transactions (id, account_id, mode, execution_id, set_index, direction, status, processed_at, created_at)
					VALUES ('ta', 'a', 'test', 'ea', 0, 'INBOUND', 'succeeded', 5, 5),
					('tb', 'b', 'test', 'eb', 0, 'INBOUND', 'succeeded', 5, 5)`,
				`INSERT INTO identifier_values (value, transaction_id, element, element_id) VALUES
					('PCN1', 'ta', 'CLP-01', '1028'), ('PCN1', 'ta', 'CLP-01', '1028'), ('PCN2', 'ta', 'CLP-01', '1028'),
					('TRN9', 'ta', 'TRN-02', '127'), ('PCN1', 'tb', 'CLP-01', '1028')`,
			} {
				execT(t, db, q)
			}
			check := func(when string) {
				t.Helper()
				s := openT(t, open, when)
				defer s.Close()
				for _, tc := range []struct {
					account, value, element string
					want                    []string
				}{
					{"a", "PCN1", "", []string{"ta"}},
					{"a", "PCN2", "CLP-01", []string{"ta"}},
					{"a", "PCN1", "1028", []string{"ta"}},
					{"a", "PCN1", "TRN-02", nil},
					{"a", "TRN9", "127", []string{"ta"}},
					{"a", "PCN3", "", nil},
					{"b", "PCN1", "", []string{"tb"}},
					{"b", "PCN2", "", nil},
				} {
					list, _, err := s.ListTransactions(ctx, tc.account, TransactionFilter{BusinessIdentifier: tc.value, ElementID: tc.element})
					var got []string
					for _, tr := range list {
						got = append(got, tr.ID)
					}
					if err != nil || !slices.Equal(got, tc.want) {
						t.Errorf("%s: account %s, %s %s: %v %v, want %v", when, tc.account, tc.value, tc.element, got, err, tc.want)
					}
				}
			}
			check("after the migration") // OpenSQLite/OpenPostgres ran the rest
			if _, err := p.DownTo(ctx, 449); err != nil {
				t.Fatalf("down: %v", err)
			}
			var n int
			if err := db.QueryRowContext(ctx, `SELECT count(*) FROM identifier_values`).Scan(&n); err != nil || n != 4 {
				t.Fatalf("identifier_values after 450 went down: %d rows (%v), want 4 (one of each)", n, err)
			}
			check("down and up again")
		})
	}
}
