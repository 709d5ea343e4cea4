package store

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestSQLiteFullDiskIsUnavailable fills the database to SQLite's page limit
// (what a full disk looks like to SQLite: SQLITE_FULL) and checks that the
// insert fails, leaves nothing behind, and is IsUnavailable.
func TestSQLiteFullDiskIsUnavailable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTestSQLite(t)
	if err := s.CreateAccount(ctx, Account{ID: "a", Name: "A", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	var pages int64
	if err := s.writer.QueryRowContext(ctx, "PRAGMA page_count").Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if _, err := s.writer.ExecContext(ctx, fmt.Sprintf("PRAGMA max_page_count = %d", pages)); err != nil {
		t.Fatal(err)
	}
	// Random text: the check's payload is compressed, and repeated text
	// would fit the pages that are left.
	noise := make([]byte, 32<<10)
	rand.Read(noise)
	c := EligibilityCheck{ID: NewID(), AccountID: "a", KeyID: "k", Mode: ModeTest, Status: "active",
		RequestJSON: []byte(base64.StdEncoding.EncodeToString(noise)), HTTPStatus: 200, CreatedAt: time.Now()}
	err := s.InsertEligibilityCheck(ctx, c)
	if err == nil || !IsUnavailable(err) {
		t.Fatalf("insert on a full database: err %v, want an IsUnavailable error", err)
	}
	if _, err := s.GetEligibilityCheck(ctx, "a", c.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("the failed check was stored: %v", err)
	}
}

func TestIsUnavailable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{ErrNotFound, false},
		{fmt.Errorf("%w: id", ErrConflict), false},
		{ErrBadCursor, false},
		{errors.New("sql: database is closed"), true},
		{fmt.Errorf("insert: %w", context.DeadlineExceeded), true},
		{&pgconn.PgError{Code: "53100"}, true}, // disk_full
		{&pgconn.PgError{Code: "57014"}, true}, // statement_timeout
		{&pgconn.PgError{Code: "57P01"}, true}, // admin_shutdown
		{&pgconn.PgError{Code: "08006"}, true}, // connection_failure
		{&pgconn.PgError{Code: "25006"}, true}, // read-only transaction
		{&pgconn.PgError{Code: "23505"}, false},
		{&pgconn.PgError{Code: "42P01"}, false}, // a bug: undefined table
	} {
		if got := IsUnavailable(tc.err); got != tc.want {
			t.Errorf("IsUnavailable(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
