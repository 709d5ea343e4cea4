package jobs_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/store"
)

// A domain change and the job it needs commit together: if the
// transaction rolls back, no job exists.
func Example() {
	dir, _ := os.MkdirTemp("", "jobs-example")
	defer os.RemoveAll(dir)
	s, err := store.OpenSQLite(context.Background(), filepath.Join(dir, store.SQLiteFile))
	if err != nil {
		panic(err)
	}
	defer s.Close()
	q := jobs.New(s, jobs.Options{Logger: quiet, PollInterval: 10 * time.Millisecond})
	done := make(chan string)
	q.Register("deliver", jobs.Policy{MaxAttempts: 3, Backoff: jobs.Fixed(6 * time.Minute)},
		func(ctx context.Context, j store.Job) error {
			var p struct{ File string }
			if err := jobs.Decode(j, &p); err != nil {
				return jobs.Permanent(err)
			}
			done <- p.File
			return nil
		})
	err = s.InTx(context.Background(), func(tx store.Queries) error {
		// ... insert the outbound file record here, with tx ...
		_, err := q.Enqueue(context.Background(), tx, "deliver", map[string]string{"File": "claim-1.x12"})
		return err
	})
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go q.Run(ctx)
	fmt.Println("delivered", <-done)
	cancel()
	// Output: delivered claim-1.x12
}
