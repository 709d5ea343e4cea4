package store

import (
	"context"
	"database/sql"
	"sync"
	"time"
)

// checkpointer copies SQLite's WAL into the database file on a connection
// of its own, beside the writer.
//
// A checkpoint (copy the WAL's pages into the database file, fsync the WAL
// and the file) used to run inside the COMMIT of whichever transaction took
// the WAL past wal_autocheckpoint pages: every ~8th claim, and it held the
// writer meanwhile. Measured over 2,000 claims from two callers: a COMMIT
// took 0.17 ms at the median but 1.5 ms on average, 3.8 ms at p90 and
// 20 ms at p99 — the writer's time went mostly to checkpoints. Here a
// PASSIVE checkpoint runs after commits, at most every checkpointPause, on
// the other connection: it never blocks the writer (nor the writer it).
//
// The WAL starts over (its space reused) only when a transaction begins
// after a checkpoint has copied all of it; under constant writes a
// checkpoint of its own connection never quite catches up, so the writer
// keeps a wal_autocheckpoint (walCheckpointPages): past it, the writer's
// COMMIT copies what the checkpointer has not yet (a few commits' pages)
// and the log starts over. That costs the writer far less, far less often.
type checkpointer struct {
	db       *sql.DB
	kick     chan struct{}
	stop     chan struct{}
	finished chan struct{}
	closing  sync.Once
}

// checkpointPause spaces background checkpoints: each one pays two fsyncs
// (the WAL's and the database file's) and copies each page the commits
// since the last one changed, once however often they changed it, so
// spacing them copies the hot pages (index leaves, the chain heads) fewer
// times. 16 eligibility clients: 20 ms gave 4.4 database page writes and
// 0.12 checkpoint fsyncs a check, 100 ms 2.9 and 0.05. The log starts over
// only after a checkpoint, so the pause must leave the WAL well short of
// the writer's walCheckpointPages (whose checkpoint runs inside a COMMIT):
// at 3,000 checks/s and ~6 frames a check, 50 ms is ~900 frames.
const checkpointPause = 50 * time.Millisecond

func newCheckpointer(db *sql.DB) *checkpointer {
	c := &checkpointer{db: db, kick: make(chan struct{}, 1), stop: make(chan struct{}), finished: make(chan struct{})}
	go c.run()
	return c
}

// committed asks for a checkpoint after a commit (without waiting).
func (c *checkpointer) committed() {
	if c == nil {
		return
	}
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

func (c *checkpointer) run() {
	defer close(c.finished)
	for {
		select {
		case <-c.stop:
			return
		case <-c.kick:
		}
		// An error (SQLITE_BUSY while the writer's own checkpoint runs)
		// leaves the work to the next round or to the writer.
		_, _ = c.db.ExecContext(context.Background(), "PRAGMA wal_checkpoint(PASSIVE)")
		select {
		case <-c.stop:
			return
		case <-time.After(checkpointPause):
		}
	}
}

func (c *checkpointer) close() error {
	if c == nil {
		return nil
	}
	c.closing.Do(func() { close(c.stop) })
	<-c.finished
	return c.db.Close()
}
