package storetest

import (
	"sync"
	"testing"

	"github.com/clearhouse/clearhouse/internal/store"
)

// testControlNumbersConcurrent: several processes' allocators (each with
// its own blocks) drawing at once from one sequence never hand out a number
// twice; an allocator made after a "restart" continues past every number
// handed out before; other sequences are independent.
func testControlNumbersConcurrent(t *testing.T, s store.Store) {
	const replicas, workers, perWorker = 3, 4, 60
	seen := map[int64]bool{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	var maxSeen int64
	for r := range replicas {
		// Blocks of 7 numbers so that refills race often.
		blocks := store.NewControlNumberBlocks(s, "isa13", 7+int64(r))
		for range workers {
			wg.Go(func() {
				for range perWorker {
					n, err := blocks.Next(ctx)
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					if seen[n] {
						t.Errorf("control number %d handed out twice", n)
					}
					seen[n] = true
					maxSeen = max(maxSeen, n)
					mu.Unlock()
				}
			})
		}
	}
	wg.Wait()
	if len(seen) != replicas*workers*perWorker {
		t.Fatalf("%d distinct numbers, want %d", len(seen), replicas*workers*perWorker)
	}
	if _, ok := seen[0]; ok {
		t.Error("control number 0 handed out; numbers start at 1")
	}

	restarted := store.NewControlNumberBlocks(s, "isa13", 0)
	n, err := restarted.Next(ctx)
	must(t, err)
	if n <= maxSeen {
		t.Errorf("after a restart the sequence gave %d, not past %d", n, maxSeen)
	}
	other := store.NewControlNumberBlocks(s, "gs06", 0)
	if n, err := other.Next(ctx); err != nil || n != 1 {
		t.Errorf("a new sequence starts at %d (%v), want 1", n, err)
	}
}

// testControlNumbersWrap: a block that would pass 999999999 starts at 1.
func testControlNumbersWrap(t *testing.T, s store.Store) {
	first, err := s.ReserveControlNumbers(ctx, "wrap", store.MaxControlNumber-50)
	must(t, err)
	if first != 1 {
		t.Fatalf("first block starts at %d, want 1", first)
	}
	first, err = s.ReserveControlNumbers(ctx, "wrap", 50)
	must(t, err)
	if first != store.MaxControlNumber-49 {
		t.Errorf("block up to the maximum starts at %d, want %d", first, store.MaxControlNumber-49)
	}
	first, err = s.ReserveControlNumbers(ctx, "wrap", 100)
	must(t, err)
	if first != 1 {
		t.Errorf("block past the maximum starts at %d, want 1", first)
	}
	for _, n := range []int64{0, -1, store.MaxControlNumber + 1} {
		if _, err := s.ReserveControlNumbers(ctx, "wrap", n); err == nil {
			t.Errorf("reserving %d numbers succeeded", n)
		}
	}
}
