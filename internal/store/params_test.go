package store

import (
	"context"
	"testing"
)

func TestSQLiteParams(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"SELECT 1", "SELECT 1"},
		{"SELECT $1", "SELECT ?"},
		{"INSERT INTO t (a, b, c) VALUES ($1, $2, $3)", "INSERT INTO t (a, b, c) VALUES (?, ?, ?)"},
		{"VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)", "VALUES (?,?,?,?,?,?,?,?,?,?,?)"},
		// Out of order, repeated or not starting at 1: the numbers stay.
		{"WHERE a = $2 AND b = $1", "WHERE a = ?2 AND b = ?1"},
		{"WHERE (at < $1 OR (at = $1 AND id < $2))", "WHERE (at < ?1 OR (at = ?1 AND id < ?2))"},
		{"WHERE a = $2", "WHERE a = ?2"},
		{"VALUES ($1, $3)", "VALUES (?1, ?3)"},
		{"VALUES ($1, $2, $2)", "VALUES (?1, ?2, ?2)"},
		{"VALUES ($1, $20)", "VALUES (?1, ?20)"},
		// A $ without a number is rewritten as before.
		{"SELECT '$', $1", "SELECT '?', ?"},
		{"SELECT $", "SELECT ?"},
		{"LIMIT $1" + skipLocked, "LIMIT ?"},
	} {
		if got := (conn{sqlite: true}).rebind(c.in); got != c.want {
			t.Errorf("rebind(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestBarePlaceholdersBindInOrder: a statement rewritten to bare ?
// placeholders binds each value where its $N stood, prepared or not, in
// and out of a transaction.
func TestBarePlaceholdersBindInOrder(t *testing.T) {
	ctx := context.Background()
	s := openTestSQLite(t)
	if _, err := s.writer.ExecContext(ctx, "CREATE TABLE p (a, b, c, d, e, f, g, h, i, j, k, l)"); err != nil {
		t.Fatal(err)
	}
	ins := "INSERT INTO p VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"
	args := []any{"a", int64(2), "c", []byte("d"), nil, "f", "g", "h", "i", "j", "k", int64(12)}
	for i := range 2 {
		if _, err := s.queries.w.exec(ctx, ins, args...); err != nil {
			t.Fatal(err)
		}
		if err := s.inTx(ctx, func(q *queries) error { _, err := q.w.exec(ctx, ins, args...); return err }); err != nil {
			t.Fatal(i, err)
		}
	}
	var n int
	err := s.reader.QueryRowContext(ctx, `SELECT COUNT(*) FROM p WHERE a = 'a' AND b = 2 AND c = 'c' AND d = x'64'
		AND e IS NULL AND f = 'f' AND g = 'g' AND h = 'h' AND i = 'i' AND j = 'j' AND k = 'k' AND l = 12`).Scan(&n)
	if err != nil || n != 4 {
		t.Fatalf("rows bound in order: %d, %v; want 4", n, err)
	}
}
