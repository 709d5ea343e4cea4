package core_test

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/core/coretest"
	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// childEnv names the database and blob directory a worker process opens:
// "driver|dsn|blobdir".
const childEnv = "CLEARHOUSE_CORE_KILL_WORKER"

func TestMain(m *testing.M) {
	if spec := os.Getenv(childEnv); spec != "" {
		os.Exit(runWorker(spec))
	}
	if spec := os.Getenv(benchEnv); spec != "" {
		os.Exit(runBenchWorker(spec))
	}
	os.Exit(m.Run())
}

// runWorker is the process the kill test kills: a queue working process
// jobs on the shared database and blob directory until it is killed.
func runWorker(spec string) int {
	parts := strings.SplitN(spec, "|", 3)
	ctx := context.Background()
	var st store.Store
	var err error
	if parts[0] == "sqlite" {
		path := strings.TrimPrefix(strings.SplitN(parts[1], "?", 2)[0], "file:")
		st, err = store.OpenSQLite(ctx, path)
	} else {
		st, err = store.OpenPostgres(ctx, parts[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	blobs, err := blob.Open(ctx, "file://"+parts[2], "")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	quiet := slog.New(slog.DiscardHandler)
	if os.Getenv("CLEARHOUSE_CORE_KILL_LOG") != "" { // the workers' job log, to see why a file was left PROCESSING
		quiet = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	q := jobs.New(st, jobs.Options{PollInterval: 5 * time.Millisecond, Lease: time.Second, Logger: quiet})
	if _, err := core.New(core.Options{Store: st, Blob: blobs, Jobs: q, Logger: quiet}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	q.Run(ctx)
	return 0
}

// TestProcessKilledAnywhereIsExactlyOnce kills worker processes (SIGKILL)
// at random moments while they process files, then lets a last worker
// finish: every file ends processed once, with exactly its transactions
// and events, and between kills no file is ever half recorded.
func TestProcessKilledAnywhereIsExactlyOnce(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts and kills worker processes")
	}
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		e := newEnv(t, open)
		driver, dsn, ok := storetest.Database(e.store)
		if !ok {
			t.Fatal("unknown database")
		}
		blobDir := filepath.Join(t.TempDir(), "shared-blobs")
		blobs, err := blob.Open(ctx, "file://"+blobDir, "")
		must(t, err)
		defer blobs.Close()
		// Receive through a service on the shared blob directory (not run).
		recv, err := core.New(core.Options{Store: e.store, Blob: blobs, Jobs: jobs.New(e.store, jobs.Options{}),
			Logger: slog.New(slog.DiscardHandler)})
		must(t, err)
		type file struct {
			id          string
			sets, frags int
		}
		var files []file
		for i, shape := range []struct {
			groups []int
			claims int
		}{{[]int{1}, 50}, {[]int{2, 1}, 2500}} {
			ex, err := recv.Receive(ctx, core.ReceiveParams{AccountID: e.account, Mode: store.ModeTest,
				Name: fmt.Sprintf("era-%d.x12", i), Body: strings.NewReader(coretest.Gen835(shape.groups, shape.claims, 0))})
			must(t, err)
			n := 0
			for _, g := range shape.groups {
				n += g
			}
			files = append(files, file{ex.ID, n, n * ((shape.claims + 799) / 800)})
		}
		check := func(final bool) {
			t.Helper()
			for _, f := range files {
				ex, err := e.store.GetExecution(ctx, e.account, f.id)
				must(t, err)
				txs, _, err := e.store.ListTransactions(ctx, e.account, store.TransactionFilter{ExecutionID: f.id, Limit: 500})
				must(t, err)
				evs := countTypes(e.events(f.id))
				switch {
				case ex.Status == store.ExecutionCompleted:
					if len(txs) != f.sets || evs[events.TransactionProcessed] != f.sets || evs[events.FragmentProcessed] != f.frags ||
						evs[events.FileProcessed] != 1 || len(evs) != 3 {
						t.Fatalf("completed %s: %d transactions, events %v; want %d sets, %d fragments", f.id, len(txs), evs, f.sets, f.frags)
					}
				case final:
					t.Fatalf("execution %s ended %s (%s)", f.id, ex.Status, ex.FaultMessage)
				case len(txs) != 0 || len(evs) != 0:
					t.Fatalf("half-recorded %s (%s): %d transactions, events %v", f.id, ex.Status, len(txs), evs)
				}
			}
		}
		spec := strings.Join([]string{driver, dsn, blobDir}, "|")
		start := func() *exec.Cmd {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), childEnv+"="+spec)
			cmd.Stderr = os.Stderr
			must(t, cmd.Start())
			return cmd
		}
		kills := 0
		for range 3 {
			cmd := start()
			time.Sleep(time.Duration(1000+rand.IntN(1200)) * time.Millisecond) // the lease of the last killed worker is 1 s
			must(t, cmd.Process.Kill())
			cmd.Wait()
			kills++
			check(false)
			completed := 0
			for _, f := range files {
				if ex, _ := e.store.GetExecution(ctx, e.account, f.id); ex.Status == store.ExecutionCompleted {
					completed++
				}
			}
			t.Logf("kill %d: %d of %d files completed", kills, completed, len(files))
		}
		cmd := start()
		defer func() { cmd.Process.Kill(); cmd.Wait() }()
		deadline := time.Now().Add(90 * time.Second)
		for time.Now().Before(deadline) {
			done := 0
			for _, f := range files {
				ex, err := e.store.GetExecution(ctx, e.account, f.id)
				must(t, err)
				if ex.Status == store.ExecutionCompleted || ex.Status == store.ExecutionFailed {
					done++
				}
			}
			if done == len(files) {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		check(true)
		// Attempts that died left search rows; the one that finished
		// replaced them: one row per identifier, none twice.
		if n, want := searchRows(t, e.store), identifierCount(t, e.store, e.account); n != want {
			t.Errorf("%d identifier search rows for %d identifiers", n, want)
		}
		t.Logf("%d workers killed mid-run; every file recorded once", kills)
	})
}
