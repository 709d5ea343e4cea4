package storetest

import "github.com/clearhouse/clearhouse/internal/store"

// Database returns the driver ("sqlite" or "pgx") and data source name of
// a store opened by SQLite, Postgres or PostgresVia, so another process
// (a worker a test kills) can open the same database.
func Database(s store.Store) (driver, dsn string, ok bool) {
	v, ok := opened.Load(s)
	if !ok {
		return "", "", false
	}
	db := v.(database)
	return db.driver, db.dsn, true
}
