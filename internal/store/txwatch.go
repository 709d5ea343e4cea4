package store

import (
	"context"
	"database/sql"
	"reflect"
	"sync"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// txWatch interrupts the statements of one SQLite transaction when the
// transaction's context ends: one watcher for the whole transaction (a
// group commit's round runs dozens of statements) instead of the driver's
// one per statement.
//
// modernc's driver starts a goroutine (with a channel and a mutex) for
// every statement run with a context that can end, to call
// sqlite3_interrupt if it does: SELECT 1 took 1.7–2.6 µs with a context
// that cannot end and 6.3–6.9 µs with a deadline. The transaction's
// statements whose context is the transaction's (same Done channel: the
// round's SAVEPOINTs, the chain heads' UPDATE, an InTx caller's own
// statements) run instead with a context that cannot end (quiet), while
// one context.AfterFunc on the transaction's context interrupts whichever
// of them runs when it ends. A statement is interrupted only while it
// runs, as by the driver: an interrupt between statements would be kept by
// SQLite for the next one, which could be the ROLLBACK, and an interrupted
// ROLLBACK leaves the transaction open.
//
// The transaction itself is begun with a context that cannot end, so
// database/sql does not roll it back from another goroutine when the
// context ends (its ROLLBACK could race the interrupt); commitTx rolls it
// back instead, on the statement's error or on the context's at COMMIT.
type txWatch struct {
	ctx   context.Context // the transaction's
	quiet context.Context // ctx that cannot end, for the statements
	stop  func() bool

	mu      sync.Mutex
	db      uintptr // the connection's sqlite3*; 0 once the watch has ended
	running bool    // a statement of the transaction runs
}

// watchTx returns a watch of ctx for a transaction on c (SQLite), or nil
// when ctx cannot end or the connection's handle is not known (the driver
// then watches each statement, as before).
func watchTx(ctx context.Context, c *sql.Conn) *txWatch {
	if ctx.Done() == nil {
		return nil
	}
	var db uintptr
	if err := c.Raw(func(dc any) error { db = sqliteHandle(dc); return nil }); err != nil || db == 0 {
		return nil
	}
	w := &txWatch{ctx: ctx, quiet: context.WithoutCancel(ctx), db: db}
	w.stop = context.AfterFunc(ctx, w.interrupt)
	return w
}

// sqliteHandle returns the sqlite3* of one of modernc's connections (the
// unexported field db of *sqlite.conn), or 0 if it has no such field.
// TestTxWatchFindsTheHandle holds the driver to it.
func sqliteHandle(dc any) uintptr {
	v := reflect.ValueOf(dc)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return 0
	}
	f := v.Elem().FieldByName("db")
	if !f.IsValid() || f.Kind() != reflect.Uintptr {
		return 0
	}
	return uintptr(f.Uint())
}

func (w *txWatch) interrupt() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.db != 0 && w.running {
		// A TLS of its own, as the driver does: this runs beside the
		// statement's goroutine, which uses the connection's.
		tls := libc.NewTLS()
		sqlite3.Xsqlite3_interrupt(tls, w.db)
		tls.Close()
	}
}

// statement returns the context to run a statement of the transaction
// with, and whether the watch covers it (then call ran after it). A
// statement under another context that can end is left to the driver.
func (w *txWatch) statement(ctx context.Context) (context.Context, bool, error) {
	if w == nil || ctx.Done() != w.ctx.Done() {
		return ctx, false, nil
	}
	if err := w.ctx.Err(); err != nil {
		return ctx, false, err // ended before the statement: run nothing
	}
	w.setRunning(true)
	return w.quiet, true, nil
}

// ran ends a statement statement covered; err is its error, which
// becomes the context's if the context ended meanwhile (as the driver
// reports an interrupted statement).
func (w *txWatch) ran(err error) error {
	w.setRunning(false)
	if err != nil {
		if cerr := w.ctx.Err(); cerr != nil {
			return cerr
		}
	}
	return err
}

func (w *txWatch) setRunning(on bool) {
	w.mu.Lock()
	w.running = on
	w.mu.Unlock()
}

// end stops the watch: nothing is interrupted after it returns.
func (w *txWatch) end() {
	if w == nil {
		return
	}
	w.stop()
	w.mu.Lock()
	w.db, w.running = 0, false
	w.mu.Unlock()
}
