package store

import (
	"strings"
	"testing"
)

func TestNewIDSortsByCreation(t *testing.T) {
	prev := ""
	seen := map[string]bool{}
	for range 10000 {
		id := NewID()
		if len(id) != 26 || strings.Trim(id, crockford) != "" {
			t.Fatalf("id %q is not 26 Crockford digits", id)
		}
		if id <= prev {
			t.Fatalf("id %q does not sort after %q", id, prev)
		}
		if seen[id] {
			t.Fatalf("duplicate id %q", id)
		}
		seen[id] = true
		prev = id
	}
}

func TestRebind(t *testing.T) {
	q := "SELECT a FROM t WHERE x = $1 AND y = $12 LIMIT $2 " + skipLocked
	if got := (conn{sqlite: true}).rebind(q); got != "SELECT a FROM t WHERE x = ?1 AND y = ?12 LIMIT ?2 " {
		t.Errorf("sqlite: %q", got)
	}
	if got := (conn{}).rebind(q); got != "SELECT a FROM t WHERE x = $1 AND y = $12 LIMIT $2 FOR UPDATE SKIP LOCKED" {
		t.Errorf("postgres: %q", got)
	}
}
