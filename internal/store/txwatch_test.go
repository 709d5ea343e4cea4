package store

import (
	"bytes"
	"context"
	"database/sql/driver"
	"errors"
	"runtime"
	"testing"
	"time"

	"modernc.org/sqlite"
)

// test_watchers() counts, while the statement calling it runs, the
// goroutines modernc's driver started to interrupt a statement
// (interruptOnDone).
func init() {
	sqlite.MustRegisterScalarFunction("test_watchers", 0, func(*sqlite.FunctionContext, []driver.Value) (driver.Value, error) {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		return int64(bytes.Count(buf, []byte("sqlite.interruptOnDone.func"))), nil
	})
}

// runaway never ends on its own: SQLite counts rows that never stop.
const runaway = `WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) FROM r`

func TestTxWatchFindsTheHandle(t *testing.T) {
	s := openTestSQLite(t)
	c, err := s.writer.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var h uintptr
	if err := c.Raw(func(dc any) error { h = sqliteHandle(dc); return nil }); err != nil {
		t.Fatal(err)
	}
	if h == 0 {
		t.Fatal("no sqlite3* handle found in modernc's connection: statements of transactions are watched one by one again (txWatch)")
	}
}

// TestTransactionStatementsStartNoWatcher: a statement of a SQLite
// transaction, run with the transaction's context (which can end), starts
// no goroutine of the driver's; one under another context that can end
// still does (the driver watches it).
func TestTransactionStatementsStartNoWatcher(t *testing.T) {
	s := openTestSQLite(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	other, cancelOther := context.WithTimeout(context.Background(), time.Minute)
	defer cancelOther()
	var own, others int64
	err := s.inTx(ctx, func(q *queries) error {
		if err := q.w.queryRow(ctx, `SELECT test_watchers()`).Scan(&own); err != nil {
			return err
		}
		return q.w.queryRow(other, `SELECT test_watchers()`).Scan(&others)
	})
	if err != nil {
		t.Fatal(err)
	}
	if own != 0 {
		t.Errorf("a statement under the transaction's context ran beside %d driver watchers, want 0", own)
	}
	if others < 1 {
		t.Errorf("a statement under another context ran beside %d driver watchers, want its own", others)
	}
}

// TestRunawayStatementIsInterrupted: a statement that would never end is
// interrupted when its context ends — the transaction's (InTx, a group
// round's) or the caller's own — the transaction is rolled back, and the
// writer serves the next transaction.
func TestRunawayStatementIsInterrupted(t *testing.T) {
	s := openTestSQLite(t)
	for _, tc := range []struct {
		name string
		run  func(ctx context.Context, fn func(q *queries) error) error
	}{
		{"InTx", func(ctx context.Context, fn func(q *queries) error) error { return s.inTx(ctx, fn) }},
		{"InTxOtherContext", func(ctx context.Context, fn func(q *queries) error) error {
			return s.inTx(context.Background(), fn)
		}},
		{"GroupInTx", func(ctx context.Context, fn func(q *queries) error) error {
			return s.GroupInTx(ctx, func(tx Queries) error { return fn(tx.(*queries)) })
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, stmt := range []string{"exec", "queryRow"} {
				ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
				start := time.Now()
				id := tc.name + stmt
				err := tc.run(ctx, func(q *queries) error {
					if _, err := q.w.exec(ctx, `INSERT INTO accounts (id, name, created_at) VALUES ($1, $1, 0)`, id); err != nil {
						return err
					}
					if stmt == "exec" {
						_, err := q.w.exec(ctx, `CREATE TEMP TABLE IF NOT EXISTS n AS `+runaway)
						return err
					}
					var n int64
					return q.w.queryRow(ctx, runaway).Scan(&n)
				})
				cancel()
				if !errors.Is(err, context.DeadlineExceeded) {
					t.Errorf("%s: err = %v, want the context's deadline", stmt, err)
				}
				if d := time.Since(start); d > 10*time.Second {
					t.Errorf("%s: interrupted after %v", stmt, d)
				}
				if _, err := s.GetAccount(context.Background(), id); !errors.Is(err, ErrNotFound) {
					t.Errorf("%s: the interrupted transaction's row: err = %v, want ErrNotFound", stmt, err)
				}
				after := Account{ID: id + "-after", Name: id + "-after", CreatedAt: time.Now()}
				if err := s.CreateAccount(context.Background(), after); err != nil {
					t.Fatalf("%s: the next transaction: %v", stmt, err)
				}
			}
		})
	}
}

// TestContextEndingBetweenStatements: a transaction whose context ends
// between two statements runs neither the next statement nor COMMIT.
func TestContextEndingBetweenStatements(t *testing.T) {
	s := openTestSQLite(t)
	for _, last := range []bool{false, true} {
		ctx, cancel := context.WithCancel(context.Background())
		err := s.inTx(ctx, func(q *queries) error {
			if _, err := q.w.exec(ctx, `INSERT INTO accounts (id, name, created_at) VALUES ('a', 'a', 0)`); err != nil {
				return err
			}
			cancel()
			if last {
				return nil // ended before COMMIT
			}
			_, err := q.w.exec(ctx, `INSERT INTO accounts (id, name, created_at) VALUES ('b', 'b', 0)`)
			return err
		})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("last=%v: err = %v, want context.Canceled", last, err)
		}
		if _, err := s.GetAccount(context.Background(), "a"); !errors.Is(err, ErrNotFound) {
			t.Errorf("last=%v: the first statement's row was kept (err = %v)", last, err)
		}
	}
}
