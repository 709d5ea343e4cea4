package store

import (
	"context"
	"database/sql"
	"sync"
)

// stmtCache keeps SQLite's prepared statements per pool. The driver
// prepares every statement anew, and parsing an INSERT costs SQLite more
// than running it; on the check path (key lookup, history insert) that was
// a third of the CPU. PostgreSQL needs none: pgx caches statements per
// connection itself.
//
// Outside a transaction a miss prepares on the pool. Inside one it cannot
// (on SQLite the transaction holds the only writer connection, so preparing
// on the pool would wait for it forever): a miss runs unprepared and is
// remembered (want), and the store prepares the remembered statements once
// the transaction has given the connection back (prepareWanted). The job
// queue's and webhook delivery's statements only ever run in transactions;
// parsing them on every run was 15 % of a webhook delivery's CPU.
type stmtCache struct {
	db *sql.DB
	// rebind turns a query as written ($N placeholders) into the engine's.
	rebind func(string) string
	mu     sync.RWMutex
	// stmts are keyed by the query as written, so a hit costs a map
	// lookup, not a rewrite of the query's text.
	stmts map[string]*sql.Stmt
	// wanted are statements that missed inside a transaction, to prepare
	// after it.
	wanted map[string]struct{}
}

// maxCachedStmts bounds the cache: list queries vary with their filters.
const maxCachedStmts = 128

func newStmtCache(db *sql.DB, rebind func(string) string) *stmtCache {
	return &stmtCache{db: db, rebind: rebind, stmts: map[string]*sql.Stmt{}}
}

// lookup returns the cached statement for q, or nil.
func (c *stmtCache) lookup(q string) *sql.Stmt {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.stmts[q]
}

// prepare returns q prepared on the pool, or nil when the cache is full or
// the statement does not prepare (the caller then runs it unprepared and
// gets the error there).
func (c *stmtCache) prepare(ctx context.Context, q string) *sql.Stmt {
	if st := c.lookup(q); st != nil {
		return st
	}
	c.mu.RLock()
	full := len(c.stmts) >= maxCachedStmts
	c.mu.RUnlock()
	if full {
		return nil
	}
	st, err := c.db.PrepareContext(ctx, c.rebind(q))
	if err != nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if prev := c.stmts[q]; prev != nil {
		st.Close()
		return prev
	}
	c.stmts[q] = st
	return st
}

// want remembers q, which missed inside a transaction, for prepareWanted.
func (c *stmtCache) want(q string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.stmts)+len(c.wanted) >= maxCachedStmts {
		return
	}
	if c.wanted == nil {
		c.wanted = map[string]struct{}{}
	}
	c.wanted[q] = struct{}{}
}

// prepareWanted prepares the statements want remembered. Call it only
// when no transaction of this goroutine holds the pool's connection.
func (c *stmtCache) prepareWanted(ctx context.Context) {
	c.mu.Lock()
	wanted := c.wanted
	c.wanted = nil
	c.mu.Unlock()
	for q := range wanted {
		c.prepare(ctx, q)
	}
}

// pending reports whether want remembered statements not prepared yet.
func (c *stmtCache) pending() bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.wanted) > 0
}

// warm prepares queries ahead of their first use.
func (c *stmtCache) warm(ctx context.Context, queries ...string) error {
	for _, q := range queries {
		st, err := c.db.PrepareContext(ctx, c.rebind(q))
		if err != nil {
			return err
		}
		c.mu.Lock()
		c.stmts[q] = st
		c.mu.Unlock()
	}
	return nil
}

func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for q, st := range c.stmts {
		st.Close()
		delete(c.stmts, q)
	}
}
