package store

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestNewIDSortsByCreation(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	q := "SELECT a FROM t WHERE x = $1 AND y = $12 LIMIT $2 " + skipLocked
	if got := (conn{sqlite: true}).rebind(q); got != "SELECT a FROM t WHERE x = ?1 AND y = ?12 LIMIT ?2 " {
		t.Errorf("sqlite: %q", got)
	}
	if got := (conn{}).rebind(q); got != "SELECT a FROM t WHERE x = $1 AND y = $12 LIMIT $2 FOR UPDATE SKIP LOCKED" {
		t.Errorf("postgres: %q", got)
	}
}

func TestNewUUID(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	a, b := NewUUID(), NewUUID()
	if !re.MatchString(a) || a == b {
		t.Errorf("NewUUID gave %q then %q", a, b)
	}
	v7 := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	c := NewTimeUUID()
	time.Sleep(2 * time.Millisecond)
	d := NewTimeUUID()
	if !v7.MatchString(c) || c[:13] >= d[:13] {
		t.Errorf("NewTimeUUID gave %q then, 2 ms later, %q: want version 7 with the time first", c, d)
	}
	if got := FormatUUID([16]byte{}, 5); got != "00000000-0000-5000-8000-000000000000" {
		t.Errorf("FormatUUID(zero, 5) = %q", got)
	}
}
