package store

import (
	"context"
	"strconv"
	"strings"
	"testing"
)

// TestPingWhenTheFileCannotGrow: with the database file held at its size
// (max_page_count, as a full disk or quota does), rewriting the readiness
// row still succeeds, but no new row fits: Ping must say not ready.
func TestPingWhenTheFileCannotGrow(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTestSQLite(t)
	if err := s.Ping(ctx); err != nil {
		t.Fatalf("Ping of a fresh database: %v", err)
	}
	// No free pages left to reuse, and no growth allowed.
	if _, err := s.writer.ExecContext(ctx, "VACUUM"); err != nil {
		t.Fatal(err)
	}
	var pages int
	if err := s.writer.QueryRowContext(ctx, "PRAGMA page_count").Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if _, err := s.writer.ExecContext(ctx, "PRAGMA max_page_count = "+strconv.Itoa(pages)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.writer.ExecContext(ctx, "UPDATE readiness SET checked_at = 1 WHERE id = 1"); err != nil {
		t.Fatalf("the old probe's write fails too (the test does not reproduce the case): %v", err)
	}
	err := s.Ping(ctx)
	if err == nil || !strings.Contains(err.Error(), "no room for new rows") {
		t.Fatalf("Ping with a full database file = %v, want not ready (no room for new rows)", err)
	}
	if _, err := s.writer.ExecContext(ctx, "PRAGMA max_page_count = 1073741823"); err != nil {
		t.Fatal(err)
	}
	if err := s.Ping(ctx); err != nil {
		t.Errorf("Ping once the file may grow again: %v", err)
	}
	var rows int
	if err := s.reader.QueryRowContext(ctx, "SELECT count(*) FROM readiness_probes").Scan(&rows); err != nil || rows != 0 {
		t.Errorf("probe rows left behind: %d, %v", rows, err)
	}
}
