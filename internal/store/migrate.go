package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
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
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return err
	}
	dialect := goose.DialectSQLite3
	var opts []goose.ProviderOption
	if engine == EnginePostgres {
		dialect = goose.DialectPostgres
		locker, err := lock.NewPostgresSessionLocker()
		if err != nil {
			return err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	p, err := goose.NewProvider(dialect, db, fsys, opts...)
	if err != nil {
		return fmt.Errorf("store: migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("store: migrate %s: %w", engine, err)
	}
	return nil
}
