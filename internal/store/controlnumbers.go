package store

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// MaxControlNumber is the largest X12 interchange or group control number
// (ISA13 is nine digits).
const MaxControlNumber = 999_999_999

// ControlNumbers are the persistent sequences behind X12 control numbers.
// They are on Store, not on Queries: a reservation must commit on its own,
// never roll back with a caller's transaction after its numbers were used.
type ControlNumbers interface {
	// ReserveControlNumbers reserves n consecutive numbers (1 ≤ n ≤
	// MaxControlNumber) of the named sequence and returns the first. A
	// sequence runs from 1 to MaxControlNumber; a block that would pass the
	// maximum starts again at 1, so a block never wraps in the middle.
	// Concurrent callers, in any number of processes, get disjoint blocks.
	ReserveControlNumbers(ctx context.Context, name string, n int64) (first int64, err error)
}

func (s *sqlStore) ReserveControlNumbers(ctx context.Context, name string, n int64) (int64, error) {
	if n < 1 || n > MaxControlNumber {
		return 0, fmt.Errorf("store: reserve %d control numbers: want 1 to %d", n, MaxControlNumber)
	}
	// One statement, so the row lock (PostgreSQL) or the single writer
	// (SQLite) makes the read-modify-write atomic without a transaction.
	var last int64
	err := s.queries.w.queryRow(ctx, `INSERT INTO control_numbers (name, last_reserved) VALUES ($1, $2)
		ON CONFLICT (name) DO UPDATE SET last_reserved = CASE
			WHEN control_numbers.last_reserved + $2 > $3 THEN $2
			ELSE control_numbers.last_reserved + $2 END
		RETURNING last_reserved`, name, n, int64(MaxControlNumber)).Scan(&last)
	if err != nil {
		return 0, fmt.Errorf("store: reserve control numbers %q: %w", name, err)
	}
	return last - n + 1, nil
}

// ControlNumberBlocks hands out one sequence's numbers from blocks it
// reserves in the store, so only one call in Size reaches the database.
// Numbers are unique across processes and restarts; the unused rest of a
// process's last block is skipped (X12 allows gaps, not repeats). It is
// safe for concurrent use.
type ControlNumberBlocks struct {
	store ControlNumbers
	name  string
	size  int64

	mu        sync.Mutex
	next, end int64 // the next number to hand out; end is exclusive
}

// DefaultControlNumberBlock is how many numbers a process reserves at a time.
const DefaultControlNumberBlock = 100

// NewControlNumberBlocks returns the sequence name of s, reserved size
// numbers at a time (DefaultControlNumberBlock when size < 1).
func NewControlNumberBlocks(s ControlNumbers, name string, size int64) *ControlNumberBlocks {
	if size < 1 {
		size = DefaultControlNumberBlock
	}
	return &ControlNumberBlocks{store: s, name: name, size: size}
}

// refillTimeout bounds the store call that reserves a block.
const refillTimeout = 10 * time.Second

// Next returns the sequence's next number. Only a refill uses ctx (with
// at most refillTimeout), so the usual call costs a mutex.
func (b *ControlNumberBlocks) Next(ctx context.Context) (int64, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.next == b.end {
		ctx, cancel := context.WithTimeout(ctx, refillTimeout)
		defer cancel()
		first, err := b.store.ReserveControlNumbers(ctx, b.name, b.size)
		if err != nil {
			return 0, err
		}
		b.next, b.end = first, first+b.size
	}
	n := b.next
	b.next++
	return n, nil
}
