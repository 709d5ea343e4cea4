package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Engine names.
const (
	EngineSQLite   = "sqlite"
	EnginePostgres = "postgres"
)

// execer is what *sql.DB and *sql.Tx have in common.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// conn runs the one set of queries, written with PostgreSQL's $N
// placeholders, on either engine: for SQLite it rewrites $N to ?N (same
// numbering) and drops the PostgreSQL-only row-locking clause. On SQLite it
// runs them as cached prepared statements (stmts; tx when in a transaction).
type conn struct {
	e      execer
	sqlite bool
	stmts  *stmtCache // nil: no caching
	tx     *sql.Tx    // set inside a transaction
	// txStmts are the transaction's handles of cached statements (SQLite
	// inside a transaction): Tx.StmtContext makes a new one on every call,
	// and a round of grouped checks runs the same few statements dozens of
	// times.
	txStmts map[*sql.Stmt]*sql.Stmt
	// limit bounds one statement outside a transaction, waiting for a pool
	// connection included (PostgreSQL; 0 for none). See PostgresTimeouts.
	limit time.Duration
	// own is set on SQLite's writer outside a transaction: each statement
	// runs in a transaction of its own (own.inTx), which returns once the
	// commit is durable (walSync).
	own *sqlStore
	// seen is set on SQLite's read pool: a read returns once every commit
	// it could have seen is durable (walSync).
	seen *walSync
	// watch interrupts the statements of a SQLite transaction when its
	// context ends (nil: the driver watches each statement).
	watch *txWatch
	// pend holds what a caller of a SQLite group round deferred; every
	// statement runs it first (checkrows.go).
	pend *pendingWrites
}

// direct is c without pend: for a read that cannot see what is deferred
// (the audit chain's head), which then need not be written before it.
func (c conn) direct() conn {
	c.pend = nil
	return c
}

// errWriterRows: on SQLite a query whose rows outlive the call cannot run
// on the writer outside a transaction (its commit would come after the
// wait for durability). Run it inside InTx.
var errWriterRows = errors.New("store: a query returning rows on the writer must run in a transaction")

// bounded gives ctx the statement's deadline, unless it has an earlier one.
func (c conn) bounded(ctx context.Context) (context.Context, context.CancelFunc) {
	if c.limit <= 0 {
		return ctx, func() {}
	}
	if d, ok := ctx.Deadline(); ok && time.Until(d) <= c.limit {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, c.limit)
}

// boundedRows is bounded for a query whose rows outlive the call: the
// deadline's own timer releases the context.
func (c conn) boundedRows(ctx context.Context) context.Context {
	if c.limit <= 0 {
		return ctx
	}
	ctx, cancel := c.bounded(ctx)
	context.AfterFunc(ctx, cancel)
	return ctx
}

// skipLocked marks where PostgreSQL needs FOR UPDATE SKIP LOCKED. SQLite has
// a single writer connection, so claims never race there.
const skipLocked = "/*skip-locked*/"

func (c conn) rebind(q string) string {
	if !c.sqlite {
		return strings.Replace(q, skipLocked, "FOR UPDATE SKIP LOCKED", 1)
	}
	return sqliteParams(strings.Replace(q, skipLocked, "", 1))
}

// sqliteParams rewrites q's $N placeholders for SQLite: to bare ? when
// they run $1, $2, … in order, each once (most of ours), and to ?N
// otherwise. A bare ? binds the same value as ?N there (the next number),
// but has no name: modernc's driver reads every parameter's name back
// when it binds (a Go string made from C memory, then parsed), 36 of them
// for a check's INSERT, and a bare ? has none to read.
func sqliteParams(q string) string {
	next := 1 // the number a placeholder in order would have
	for i := 0; i < len(q); i++ {
		if q[i] != '$' {
			continue
		}
		n, end := placeholderAt(q, i)
		if end == i+1 {
			continue // a $ without a number
		}
		if n != next {
			return strings.ReplaceAll(q, "$", "?")
		}
		next++
		i = end - 1
	}
	if next == 1 {
		return strings.ReplaceAll(q, "$", "?")
	}
	var b strings.Builder
	b.Grow(len(q))
	for i := 0; i < len(q); i++ {
		if q[i] != '$' {
			b.WriteByte(q[i])
			continue
		}
		b.WriteByte('?')
		_, end := placeholderAt(q, i)
		i = end - 1
	}
	return b.String()
}

// placeholderAt reads the number after the $ at q[i]: its value and the
// index after its last digit (i+1 when there is none).
func placeholderAt(q string, i int) (n, end int) {
	end = i + 1
	for end < len(q) && q[end] >= '0' && q[end] <= '9' && n < 1<<20 {
		n = n*10 + int(q[end]-'0')
		end++
	}
	return n, end
}

// stmt returns the prepared statement for the query q (as written, with
// $N placeholders), or nil to run it unprepared.
func (c conn) stmt(ctx context.Context, q string) *sql.Stmt {
	switch {
	case c.stmts == nil:
		return nil
	case c.tx == nil:
		return c.stmts.prepare(ctx, q)
	}
	st := c.stmts.lookup(q)
	if st == nil {
		c.stmts.want(q)
		return nil
	}
	if ts := c.txStmts[st]; ts != nil {
		return ts
	}
	// Closed with the transaction; reuses the connection's statement.
	ts := c.tx.StmtContext(ctx, st)
	if c.txStmts != nil {
		c.txStmts[st] = ts
	}
	return ts
}

func (c conn) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	if c.own != nil {
		var res sql.Result
		err := c.own.inTx(ctx, func(tx *queries) (err error) {
			res, err = tx.w.exec(ctx, q, args...)
			return err
		})
		return res, err
	}
	if c.limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = c.bounded(ctx)
		defer cancel()
	}
	if err := c.pend.before(ctx); err != nil {
		return nil, err
	}
	ctx, watched, err := c.watch.statement(ctx)
	if err != nil {
		return nil, err
	}
	var res sql.Result
	if st := c.stmt(ctx, q); st != nil {
		res, err = st.ExecContext(ctx, args...)
	} else {
		res, err = c.e.ExecContext(ctx, c.rebind(q), args...)
	}
	if watched {
		err = c.watch.ran(err)
	}
	return res, err
}

func (c conn) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if c.own != nil {
		return nil, errWriterRows
	}
	if err := c.pend.before(ctx); err != nil {
		return nil, err
	}
	ctx = c.boundedRows(ctx)
	var rows *sql.Rows
	var err error
	if st := c.stmt(ctx, q); st != nil {
		rows, err = st.QueryContext(ctx, args...)
	} else {
		rows, err = c.e.QueryContext(ctx, c.rebind(q), args...)
	}
	// The driver has stepped to the first row: the read's snapshot is
	// taken, and whatever it can see must be durable before it is used.
	if err == nil && c.seen != nil {
		if err = c.seen.seen(ctx); err != nil {
			rows.Close()
			return nil, err
		}
	}
	return rows, err
}

func (c conn) queryRow(ctx context.Context, q string, args ...any) scanner {
	if c.own != nil {
		return ownRow(func(dest ...any) error {
			return c.own.inTx(ctx, func(tx *queries) error { return tx.w.queryRow(ctx, q, args...).Scan(dest...) })
		})
	}
	if err := c.pend.before(ctx); err != nil {
		return ownRow(func(...any) error { return err })
	}
	ctx = c.boundedRows(ctx)
	ctx, watched, err := c.watch.statement(ctx)
	if err != nil {
		return ownRow(func(...any) error { return err })
	}
	var row *sql.Row
	if st := c.stmt(ctx, q); st != nil {
		row = st.QueryRowContext(ctx, args...)
	} else {
		row = c.e.QueryRowContext(ctx, c.rebind(q), args...)
	}
	if watched {
		// The statement runs until Scan has read its row.
		return ownRow(func(dest ...any) error { return c.watch.ran(row.Scan(dest...)) })
	}
	if c.seen != nil {
		if err := c.seen.seen(ctx); err != nil {
			return ownRow(func(...any) error { return err })
		}
	}
	return row
}

// ownRow is a row read by its Scan.
type ownRow func(dest ...any) error

func (r ownRow) Scan(dest ...any) error { return r(dest...) }

// sqlStore is the Store of both engines.
type sqlStore struct {
	queries
	engine string
	writer *sql.DB // SQLite: the single writer connection; PostgreSQL: the pool
	reader *sql.DB // SQLite: a read-only pool; PostgreSQL: the same pool
	// writerStmts is the SQLite writer's statement cache (nil on PostgreSQL).
	writerStmts *stmtCache
	// limit bounds waits for a PostgreSQL pool connection (0: none).
	limit time.Duration
	// checks group-commits eligibility checks on SQLite (nil on PostgreSQL,
	// whose many writers need no queue).
	checks *checkBatcher
	// group is SQLite's group commit of GroupInTx.
	group txGroup
	// rounds counts what the rounds' callers ran (checkrows.go).
	rounds roundStats
	// wal makes SQLite's commits durable (nil on PostgreSQL).
	wal *walSync
	// ckpt checkpoints SQLite's WAL beside the writer (nil on PostgreSQL).
	ckpt *checkpointer
	// jobHooks run after a commit that enqueued jobs (see OnJobsCommitted).
	jobHooks atomic.Pointer[[]func()]
	// scenarios spares SQLite's checks the scenarios version's read (nil:
	// read it; PostgreSQL, or no signal file).
	scenarios *scenariosSignal
}

// InsertEligibilityCheck goes through the group commit on SQLite. Inside a
// transaction (queries) it is a plain insert.
func (s *sqlStore) InsertEligibilityCheck(ctx context.Context, c EligibilityCheck) error {
	if s.checks == nil {
		return s.queries.InsertEligibilityCheck(ctx, c)
	}
	return s.checks.insert(ctx, c)
}

// queries implements Queries. Outside a transaction w and r are the writer
// and reader pools; inside one both are the transaction.
type queries struct {
	w, r  conn
	store *sqlStore
	inTx  bool
	// enqueued: this transaction enqueued a job (its hooks run on commit).
	enqueued bool
	// heads are the audit chain heads the transaction moved (SQLite
	// inside a transaction; nil otherwise).
	heads *auditHeads
}

// newSQLStore makes the store of either engine; wal is SQLite's (nil on
// PostgreSQL).
func newSQLStore(engine string, writer, reader *sql.DB, wal *walSync) *sqlStore {
	s := &sqlStore{engine: engine, writer: writer, reader: reader, wal: wal}
	w, r := conn{e: writer}, conn{e: reader}
	if engine == EngineSQLite {
		w.sqlite, r.sqlite = true, true
		w.stmts, w.own = newStmtCache(writer, w.rebind), s
		r.stmts, r.seen = newStmtCache(reader, r.rebind), wal
		s.writerStmts = w.stmts
		s.checks = newCheckBatcher(s)
	}
	s.queries = queries{w: w, r: r, store: s}
	return s
}

// inTxStatements only run inside transactions, where a statement cannot be
// prepared on the SQLite pool: they are prepared when the store opens. The
// families declare theirs beside their queries (recordStatements,
// webhookDeliveryStatements); this is where they are gathered.
func inTxStatements() []string {
	return slices.Concat([]string{insertEligibilitySQL, insertAuditEventSQL}, recordStatements, webhookDeliveryStatements)
}

// warm prepares the SQLite writer's transaction-only statements.
func (s *sqlStore) warm(ctx context.Context) error {
	if s.writerStmts == nil {
		return nil
	}
	if err := s.writerStmts.warm(ctx, inTxStatements()...); err != nil {
		return fmt.Errorf("store: prepare statements: %w", err)
	}
	return nil
}

func (s *sqlStore) Engine() string { return s.engine }

// Ping checks that the database answers reads, commits a write and has
// room for new rows: a database on a full disk or a read-only file system
// (or a PostgreSQL standby) still answers reads, yet every check would be
// lost. The committed write rewrites the single readiness row; on SQLite it
// waits its turn behind the writer's current transaction, which ctx bounds.
// That rewrite fits in pages the file already has, so it succeeds on a
// full database too; the room probe (probeRoom) is what finds that.
func (s *sqlStore) Ping(ctx context.Context) error {
	if err := s.reader.PingContext(ctx); err != nil {
		return err
	}
	err := s.inTx(ctx, func(q *queries) error {
		_, err := q.w.exec(ctx, `UPDATE readiness SET checked_at = $1 WHERE id = 1`, toUS(time.Now()))
		return err
	})
	if err != nil {
		return err
	}
	return s.probeRoom(ctx)
}

// probeSize is the probe row's payload: more than a page of either engine
// (SQLite 4 KiB, PostgreSQL 8 KiB), so the row needs new pages.
const probeSize = 12 << 10

// errProbed rolls the probe's transaction back.
var errProbed = errors.New("store: readiness probe done")

// probeRoom inserts a row that needs new pages and rolls it back. Rolling
// back matters: a probe row committed and deleted would leave free pages
// for the next probe to reuse, and a full database would look ready
// forever. SQLite refuses the insert when its file may not grow (its size
// limit, max_page_count); PostgreSQL when it cannot extend the table's
// file (disk full). The payload is random text, which PostgreSQL cannot
// compress to less than a page.
func (s *sqlStore) probeRoom(ctx context.Context) error {
	payload := make([]byte, probeSize*3/4)
	if _, err := rand.Read(payload); err != nil {
		return err
	}
	err := s.inTx(ctx, func(q *queries) error {
		if _, err := q.w.exec(ctx, `INSERT INTO readiness_probes (id, payload) VALUES (1, $1)`,
			base64.StdEncoding.EncodeToString(payload)); err != nil {
			return fmt.Errorf("store: no room for new rows: %w", err)
		}
		return errProbed
	})
	if errors.Is(err, errProbed) {
		return nil
	}
	return err
}

func (s *sqlStore) Close() error {
	if s.checks != nil {
		s.checks.close()
	}
	ckptErr := s.ckpt.close()
	for _, c := range []conn{s.queries.w, s.queries.r} {
		if c.stmts != nil {
			c.stmts.close()
		}
	}
	err := errors.Join(ckptErr, s.writer.Close(), s.scenarios.close())
	if s.reader != s.writer {
		err = errors.Join(err, s.reader.Close())
	}
	return err
}

func (s *sqlStore) InTx(ctx context.Context, fn func(tx Queries) error) error {
	return s.inTx(ctx, func(q *queries) error { return fn(q) })
}

// bound applies a PostgreSQL pool's limit (see PostgresTimeouts.Acquire).
func (s *sqlStore) bound(limit time.Duration) {
	s.limit = limit
	s.queries.w.limit, s.queries.r.limit = limit, limit
}

// inTx runs fn in a transaction and returns once its commit is durable.
func (s *sqlStore) inTx(ctx context.Context, fn func(q *queries) error) error {
	n, err := s.commitTx(ctx, fn)
	if derr := s.wal.durable(ctx, n); err == nil {
		err = derr
	}
	return err
}

// commitTx runs fn in a transaction and commits it (or rolls it back) but
// does not wait for the commit to be durable: on SQLite it returns the
// number to wait for with s.wal.durable, once the writer is free for the
// next transaction. A transaction that rolled back waits for the commits it
// could have read.
func (s *sqlStore) commitTx(ctx context.Context, fn func(q *queries) error) (n uint64, err error) {
	tx, watch, done, err := s.begin(ctx)
	if err != nil {
		return 0, fmt.Errorf("store: begin: %w", err)
	}
	c := conn{e: tx, sqlite: s.engine == EngineSQLite, stmts: s.writerStmts, tx: tx, watch: watch}
	if c.stmts != nil {
		c.txStmts = map[*sql.Stmt]*sql.Stmt{}
	}
	if c.sqlite {
		c.pend = &pendingWrites{w: c, stats: &s.rounds}
	}
	q := &queries{w: c, r: c, store: s, inTx: true}
	if c.sqlite {
		q.heads = newAuditHeads()
	}
	defer func() {
		done()
		if s.writerStmts != nil && s.writerStmts.pending() {
			s.writerStmts.prepareWanted(context.WithoutCancel(ctx))
		}
	}()
	defer func() {
		watch.end() // COMMIT and ROLLBACK are not interrupted
		if p := recover(); p != nil {
			_ = tx.Rollback()
			panic(p)
		}
		if err == nil && watch != nil {
			// database/sql's Commit would refuse to commit after ctx
			// ended; the transaction was begun without it (txWatch).
			if cerr := ctx.Err(); cerr != nil {
				err = fmt.Errorf("store: commit: %w", cerr)
			}
		}
		if err != nil {
			_ = tx.Rollback()
			if s.wal != nil {
				n = s.wal.begun.Load()
			}
			return
		}
		if s.wal != nil {
			n = s.wal.begin()
		}
		err = tx.Commit()
		if s.wal != nil {
			s.wal.end(n)
		}
		if err != nil {
			err = fmt.Errorf("store: commit: %w", err)
			return
		}
		s.ckpt.committed()
		if q.enqueued {
			s.jobsCommitted()
		}
	}()
	if err = fn(q); err != nil {
		return 0, err
	}
	return 0, q.writeHeads(ctx)
}

// begin starts a transaction on the writer. With a limit (PostgreSQL) the
// wait for a pool connection is bounded by it; the transaction itself runs
// under ctx, its statements bounded by the server's statement_timeout.
// On SQLite the transaction's statements run under one txWatch of ctx
// (nil if ctx cannot end). done returns the connection once the
// transaction has ended.
func (s *sqlStore) begin(ctx context.Context) (*sql.Tx, *txWatch, func(), error) {
	if s.engine == EngineSQLite && ctx.Done() != nil {
		return s.beginWatched(ctx)
	}
	if s.limit <= 0 {
		tx, err := s.writer.BeginTx(ctx, nil)
		return tx, nil, func() {}, err
	}
	actx, cancel := context.WithTimeout(ctx, s.limit)
	c, err := s.writer.Conn(actx)
	cancel()
	if err != nil {
		return nil, nil, nil, err
	}
	tx, err := c.BeginTx(ctx, nil)
	if err != nil {
		c.Close()
		return nil, nil, nil, err
	}
	return tx, nil, func() { c.Close() }, nil
}

// beginWatched begins a SQLite transaction whose statements one txWatch
// of ctx interrupts, BEGIN's wait for the write lock included.
func (s *sqlStore) beginWatched(ctx context.Context) (*sql.Tx, *txWatch, func(), error) {
	c, err := s.writer.Conn(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	watch := watchTx(ctx, c)
	bctx, watched, err := watch.statement(ctx)
	if err == nil {
		var tx *sql.Tx
		tx, err = c.BeginTx(bctx, nil)
		if watched {
			err = watch.ran(err)
		}
		if err == nil {
			return tx, watch, func() { c.Close() }, nil
		}
	}
	watch.end()
	c.Close()
	return nil, nil, nil, err
}

// OnJobsCommitted registers fn to run (quickly, without blocking) after
// every commit that enqueued a job, whoever enqueued it: the queue of this
// process uses it to wake its workers once the job is visible, instead of
// finding it at its next poll.
func (s *sqlStore) OnJobsCommitted(fn func()) {
	for {
		old := s.jobHooks.Load()
		var hooks []func()
		if old != nil {
			hooks = append(hooks, *old...)
		}
		hooks = append(hooks, fn)
		if s.jobHooks.CompareAndSwap(old, &hooks) {
			return
		}
	}
}

func (s *sqlStore) jobsCommitted() {
	if hooks := s.jobHooks.Load(); hooks != nil {
		for _, fn := range *hooks {
			fn()
		}
	}
}

// atomic runs fn in the current transaction, or in a new one.
func (q *queries) atomic(ctx context.Context, fn func(q *queries) error) error {
	if q.inTx {
		return fn(q)
	}
	return q.store.inTx(ctx, fn)
}

// mapErr turns engine errors into the package's errors.
func mapErr(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && (pe.Code == "23505" || pe.Code == "23503") { // unique, foreign key
		return fmt.Errorf("%w: %s", ErrConflict, pe.Detail)
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY, sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
			return fmt.Errorf("%w: %s", ErrConflict, se.Error())
		}
	}
	return err
}

// Timestamps are stored as unix microseconds (BIGINT), UTC.
func toUS(t time.Time) int64 { return t.UnixMicro() }

func fromUS(us int64) time.Time { return time.UnixMicro(us).UTC() }

// nullUS maps the zero time to NULL.
func nullUS(t time.Time) sql.NullInt64 {
	if t.IsZero() {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: t.UnixMicro(), Valid: true}
}

func fromNullUS(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return fromUS(n.Int64)
}

// placeholders returns "$first, $first+1, ..." for n values.
func placeholders(first, n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('$')
		b.WriteString(strconv.Itoa(first + i))
	}
	return b.String()
}
