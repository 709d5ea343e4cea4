package store_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// BenchmarkIdentifierSearchRows stores the search rows of an inbound 835's
// claim numbers the way the pass's value sink does: batches of 10,000 (one
// database transaction each), each transaction's identifiers in one call,
// into a fresh SQLite database. CLEARHOUSE_IDSEARCH_ROWS sets the rows per
// op (321,512 by default, the 60 MB 835 of make bench-inbound), _SET the
// claims per transaction (0: one set), _ORDER "random" (claim numbers as a
// payer's, in no order) or "sequence" (x12gen's C1, C2, …), _BATCH the
// rows a database transaction (10,000, as the sink's). It reports
// ns/row, cpu-ns/row (the process's user and system time, the store's
// checkpoints included) and the database and WAL bytes per row. For instructions a row:
//
//	go test -c -o /tmp/store.test ./internal/store
//	valgrind --tool=callgrind --toggle-collect='*insertSearchRows*' /tmp/store.test \
//	  -test.run '^$' -test.bench IdentifierSearchRows -test.benchtime 1x
//
// and divide the total by the rows.
func BenchmarkIdentifierSearchRows(b *testing.B) {
	rows := envInt("CLEARHOUSE_IDSEARCH_ROWS", 321512)
	perSet := envInt("CLEARHOUSE_IDSEARCH_SET", 0)
	values := make([]string, rows)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range values {
		if os.Getenv("CLEARHOUSE_IDSEARCH_ORDER") == "sequence" {
			values[i] = "C" + strconv.Itoa(i+1)
		} else {
			values[i] = fmt.Sprintf("%010d", r.Int64N(1e10))
		}
	}
	ctx := context.Background()
	var dbBytes int64
	var cpu time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		dir := b.TempDir()
		st, err := store.OpenSQLite(ctx, filepath.Join(dir, store.SQLiteFile))
		if err != nil {
			b.Fatal(err)
		}
		cpu0 := processCPU()
		b.StartTimer()
		if err := insertSearchRows(ctx, st, values, perSet); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		dbBytes += fileSize(filepath.Join(dir, store.SQLiteFile)) + fileSize(filepath.Join(dir, store.SQLiteFile+"-wal"))
		st.Close() // its last checkpoint is the rows' too
		cpu += processCPU() - cpu0
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows), "ns/row")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*rows), "cpu-ns/row")
	b.ReportMetric(float64(dbBytes)/float64(b.N*rows), "db-bytes/row")
}

// insertSearchRows is what the value sink does with values: a batch a
// database transaction, perSet (0: all) a transaction id.
func insertSearchRows(ctx context.Context, st store.Store, values []string, perSet int) error {
	batch := envInt("CLEARHOUSE_IDSEARCH_BATCH", 32768)
	set := func(i int) string {
		if perSet == 0 {
			return txIDOf(0)
		}
		return txIDOf(i / perSet)
	}
	var groups []searchGroup
	for start := 0; start < len(values); start += batch {
		end := min(start+batch, len(values))
		groups = groups[:0]
		for i := start; i < end; {
			g := searchGroup{txID: set(i), start: i}
			for i < end && set(i) == g.txID {
				i++
			}
			g.values = values[g.start:i]
			groups = append(groups, g)
		}
		if err := st.InTx(ctx, func(tx store.Queries) error { return insertGroups(ctx, tx, groups) }); err != nil {
			return err
		}
	}
	return nil
}

// searchGroup is a transaction's claim numbers in a batch.
type searchGroup struct {
	txID   string
	start  int
	values []string
}

// insertGroups is the store's call for one batch (the one place that
// differs between builds when the benchmark runs against an older one).
func insertGroups(ctx context.Context, tx store.Queries, groups []searchGroup) error {
	var ivs []store.IdentifierValues
	for _, g := range groups {
		ivs = append(ivs, store.IdentifierValues{TransactionID: g.txID, Element: "CLP-01", ElementID: "1028", Values: g.values})
	}
	return tx.InsertIdentifierValues(ctx, ivs)
}

func txIDOf(i int) string { return fmt.Sprintf("00000000-0000-5000-8000-%012d", i) }

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return n
	}
	return def
}

// processCPU is the process's user and system CPU time so far (the
// store's checkpoints run on goroutines of their own).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}
