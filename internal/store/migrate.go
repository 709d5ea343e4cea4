package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"hash/fnv"
	"io/fs"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

// migrations holds one numbered SQL file per schema change, written in the
// subset of SQL both engines accept: TEXT ids, BIGINT unix-microsecond
// timestamps, TEXT JSON, CHECK constraints; no SERIAL, JSONB or enums.
//
//go:embed migrations/*.sql
var migrations embed.FS

// migrate applies pending migrations. On PostgreSQL a session advisory lock
// keeps replicas starting together from migrating at the same time.
func migrate(ctx context.Context, engine string, db *sql.DB) error {
	p, err := migrator(ctx, engine, db)
	if err != nil {
		return err
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("store: migrate %s: %w", engine, err)
	}
	return nil
}

// migrator is the goose provider of db's migrations: migrations/*.sql and
// the engine's goMigrations.
func migrator(ctx context.Context, engine string, db *sql.DB) (*goose.Provider, error) {
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return nil, err
	}
	dialect := goose.DialectSQLite3
	// Each engineer owns a range of migration numbers, so a database that
	// already ran a later number must still take an earlier one that lands
	// after it (every migration creates its own tables: order is free).
	opts := []goose.ProviderOption{goose.WithAllowOutofOrder(true)}
	if engine == EnginePostgres {
		dialect = goose.DialectPostgres
		// One lock per database and schema: replicas sharing a schema take
		// turns, while test runs in their own schemas never wait on each other.
		var where string
		if err := db.QueryRowContext(ctx, "SELECT current_database() || '.' || COALESCE(current_schema(), '')").Scan(&where); err != nil {
			return nil, fmt.Errorf("store: migrate: %w", err)
		}
		h := fnv.New64a()
		h.Write([]byte("clearhouse-migrate:" + where))
		locker, err := lock.NewPostgresSessionLocker(
			lock.WithLockID(int64(h.Sum64()>>1)),
			lock.WithLockTimeout(1, 600), // retry every second for 10 minutes
		)
		if err != nil {
			return nil, err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	// Each engineer has a range of numbers, so a database migrated by a
	// later build may lack a lower-numbered migration that landed after
	// it: apply such migrations instead of refusing to start (each one
	// depends only on the tables of lower numbers).
	opts = append(opts, goose.WithAllowOutofOrder(true), goose.WithGoMigrations(goMigrations(engine)...))
	p, err := goose.NewProvider(dialect, db, fsys, opts...)
	if err != nil {
		return nil, fmt.Errorf("store: migrations: %w", err)
	}
	return p, nil
}
