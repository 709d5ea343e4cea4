package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/pressly/goose/v3"
)

// goMigrations are the migrations whose SQL differs between the engines
// (numbered among the SQL files of migrations/, which have none of theirs).
func goMigrations(engine string) []*goose.Migration {
	return []*goose.Migration{
		stmtsMigration(301, leanMeteringUp(engine), leanMeteringDown(engine)),
		stmtsMigration(450, identifierSearchUp(engine), identifierSearchDown(engine)), // migrate_idsearch.go
		stmtsMigration(432, checkUsageKeptUp(engine), checkUsageKeptDown(engine)),     // migrate_checkusage.go
	}
}

// stmtsMigration is the migration that runs up's statements, and down's
// to undo them, each in one transaction.
func stmtsMigration(version int64, up, down []string) *goose.Migration {
	return goose.NewGoMigration(version, &goose.GoFunc{RunTx: func(ctx context.Context, tx *sql.Tx) error {
		return execAll(ctx, tx, up)
	}}, &goose.GoFunc{RunTx: func(ctx context.Context, tx *sql.Tx) error {
		return execAll(ctx, tx, down)
	}})
}

func execAll(ctx context.Context, tx *sql.Tx, stmts []string) error {
	for _, s := range stmts {
		if _, err := tx.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("%w: %s", err, s)
		}
	}
	return nil
}

// Migration 301: usage and audit_events without B-trees nothing reads.
//
// Nothing reads either table by id: usage is summed by account and time,
// the audit listed by account and time and walked by account and sequence
// number. Their "id TEXT PRIMARY KEY" still kept an index of its own, and
// on SQLite each row also went into the table's rowid B-tree before its
// real keys' indexes: an eligibility check (one usage row, one audit
// event) paid five B-tree inserts here, each a 4 KiB page in the WAL. On
// SQLite both tables become WITHOUT ROWID, stored in the order of the key
// they are read by — usage (account_id, created_at, id), the audit
// (account_id, seq), which was its UNIQUE constraint — so usage takes one
// B-tree and the audit two (with its time index): three inserts instead of
// six. PostgreSQL keeps its heap tables and only drops the id indexes. The
// ids stay, unique by construction (NewID); the audit's are in its hashes.
func leanMeteringUp(engine string) []string {
	if engine == EnginePostgres {
		return []string{
			`ALTER TABLE usage DROP CONSTRAINT usage_pkey`,
			`ALTER TABLE audit_events DROP CONSTRAINT audit_events_pkey`,
		}
	}
	return []string{
		`CREATE TABLE usage_new (` + usageColumnsSQL + `,
			PRIMARY KEY (account_id, created_at, id)
		) WITHOUT ROWID`,
		`INSERT INTO usage_new (` + usageColumns + `) SELECT ` + usageColumns + ` FROM usage`,
		`DROP TABLE usage`,
		`ALTER TABLE usage_new RENAME TO usage`,
		`CREATE TABLE audit_events_new (` + auditEventColumnsSQL + `,
			PRIMARY KEY (account_id, seq)
		) WITHOUT ROWID`,
		`INSERT INTO audit_events_new (` + auditColumns + `) SELECT ` + auditColumns + ` FROM audit_events`,
		`DROP TABLE audit_events`,
		`ALTER TABLE audit_events_new RENAME TO audit_events`,
		`CREATE INDEX audit_events_account_time ON audit_events (account_id, occurred_at, id)`,
	}
}

// leanMeteringDown gives both tables their id primary keys back (on
// SQLite a copy into tables as 00001 and 00100 made them).
func leanMeteringDown(engine string) []string {
	if engine == EnginePostgres {
		return []string{
			`ALTER TABLE usage ADD PRIMARY KEY (id)`,
			`ALTER TABLE audit_events ADD PRIMARY KEY (id)`,
		}
	}
	return []string{
		`CREATE TABLE usage_old (` + strings.Replace(usageColumnsSQL, "TEXT NOT NULL", "TEXT PRIMARY KEY", 1) + `)`,
		`INSERT INTO usage_old (` + usageColumns + `) SELECT ` + usageColumns + ` FROM usage`,
		`DROP TABLE usage`,
		`ALTER TABLE usage_old RENAME TO usage`,
		`CREATE INDEX usage_account_created ON usage (account_id, created_at)`,
		`CREATE TABLE audit_events_old (` + strings.Replace(auditEventColumnsSQL, "TEXT NOT NULL", "TEXT PRIMARY KEY", 1) + `,
		UNIQUE (account_id, seq)
	)`,
		`INSERT INTO audit_events_old (` + auditColumns + `) SELECT ` + auditColumns + ` FROM audit_events`,
		`DROP TABLE audit_events`,
		`ALTER TABLE audit_events_old RENAME TO audit_events`,
		`CREATE INDEX audit_events_account_time ON audit_events (account_id, occurred_at, id)`,
	}
}

// usageColumnsSQL are usage's columns as 00001 declared them (id then
// without its PRIMARY KEY); usageColumns (eligibility.go) names them.
const usageColumnsSQL = `
	id          TEXT NOT NULL,
	account_id  TEXT NOT NULL REFERENCES accounts (id),
	key_id      TEXT NOT NULL,
	mode        TEXT NOT NULL CHECK (mode IN ('test', 'production')),
	kind        TEXT NOT NULL,
	ref_id      TEXT NOT NULL DEFAULT '',
	cost_micros BIGINT NOT NULL DEFAULT 0 CHECK (mode = 'production' OR cost_micros = 0),
	created_at  BIGINT NOT NULL`

// auditEventColumnsSQL are audit_events' columns as 00100 declared them
// (id then without its PRIMARY KEY).
const auditEventColumnsSQL = `
	id            TEXT NOT NULL,
	account_id    TEXT NOT NULL,
	seq           BIGINT NOT NULL,
	mode          TEXT NOT NULL,
	actor_type    TEXT NOT NULL,
	actor_id      TEXT NOT NULL,
	remote_addr   TEXT NOT NULL DEFAULT '',
	action        TEXT NOT NULL,
	resource_type TEXT NOT NULL,
	resource_id   TEXT NOT NULL DEFAULT '',
	route         TEXT NOT NULL DEFAULT '',
	status        BIGINT NOT NULL DEFAULT 0,
	occurred_at   BIGINT NOT NULL,
	prev_hash     TEXT NOT NULL,
	hash          TEXT NOT NULL`
