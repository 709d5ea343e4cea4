package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/powercut"
	"github.com/clearhouse/clearhouse/internal/store"
)

// TestPowerCut cuts the power in simulation. The real server (SQLite and
// files, two workers) runs under strace while three clients send checks,
// claims and uploads at once and the workers deliver the claims to the mock
// payer, take its 999s and 277CAs back in and process the uploads. From the
// recording, the powercut model rebuilds the data directory as a power cut
// would leave it (only fsynced bytes and names) just after each answer was
// written and at random points, and reopens it: SQLite must find no damage,
// every request answered before the cut must be recorded, and no record may
// name a missing or short file. CLEARHOUSE_POWERCUT_SEED repeats a run's
// random points.
func TestPowerCut(t *testing.T) {
	data := t.TempDir()
	key := lastLine(runOK(t, "keys", "create", "--create", "--data", data, "--account", "Acme", "--mode", "test"))
	initial, err := powercut.Snapshot(data)
	if err != nil {
		t.Fatal(err)
	}
	srv := serveTraced(t, data, "--workers", "2")
	reqs := newTracedRequests(t, "http://"+srv.addr, key)
	var kinds []string
	for range 6 {
		kinds = append(kinds, "check", "claim", "upload", "check")
	}
	answers := reqs.sendAll(t, kinds, 3)
	time.Sleep(2 * time.Second) // background work goes on: cuts land in it too
	calls := srv.stop(t)
	exs := exchanges(t, calls, answers)

	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("CLEARHOUSE_POWERCUT_SEED"); s != "" {
		fmt.Sscan(s, &seed)
	}
	rng := rand.New(rand.NewPCG(seed, 0))
	first, last := exs[0].request, 0
	for _, c := range calls {
		last = max(last, c.Exit+1)
	}
	var cuts []int
	for _, ex := range exs {
		first = min(first, ex.request)
		cuts = append(cuts, ex.answer+1) // just after the answer's write began
	}
	for range 16 {
		cuts = append(cuts, first+rng.IntN(last-first+1))
	}
	cuts = append(cuts, last)
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	t.Logf("%d calls recorded; %d cuts between lines %d and %d (CLEARHOUSE_POWERCUT_SEED=%d)", len(calls), len(cuts), first, last, seed)

	model := powercut.NewModel(data, calls, initial)
	skipSHM := func(rel string) bool { return strings.HasSuffix(rel, "-shm") }
	for n, cut := range cuts {
		if err := model.Replay(cut); err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(t.TempDir(), fmt.Sprintf("cut-%d", n))
		if err := model.Materialize(dir, skipSHM); err != nil {
			t.Fatal(err)
		}
		var answered []answer
		for i, ex := range exs {
			if ex.answer < cut {
				answered = append(answered, answers[i])
			}
		}
		problems, files := checkAfterPowerCut(t, dir, answered)
		if n == len(cuts)-1 {
			t.Logf("at the last cut: %d answered requests recorded, %d files named by records, all whole", len(answered), files)
		}
		if len(problems) > 0 {
			t.Errorf("power cut at line %d (seed %d):\n  %s", cut+1, seed, strings.Join(problems, "\n  "))
		}
		os.RemoveAll(dir)
	}
}

// checkAfterPowerCut opens the data directory a power cut left and lists
// what is wrong: damage SQLite finds, answered requests without their
// record, records naming a missing or short file.
func checkAfterPowerCut(t *testing.T, dir string, answered []answer) (problems []string, files int) {
	t.Helper()
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(filepath.Join(dir, store.SQLiteFile))+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var integrity string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&integrity); err != nil || integrity != "ok" {
		return []string{fmt.Sprintf("SQLite integrity check: %q %v", integrity, err)}, 0
	}
	count := func(q string, args ...any) int {
		var n int
		if err := db.QueryRow(q, args...).Scan(&n); err != nil {
			fail("%s: %v", q, err)
		}
		return n
	}
	for _, a := range answered {
		var q string
		switch a.kind {
		case "check":
			q = `SELECT count(*) FROM eligibility_checks WHERE id = ?`
		case "claim":
			q = `SELECT count(*) FROM dental_claims c JOIN executions e ON e.id = c.execution_id WHERE c.id = ?`
		case "upload":
			q = `SELECT count(*) FROM executions WHERE id = ?`
		}
		if count(q, a.id) != 1 {
			fail("%s %s was answered %d but is not recorded", a.kind, a.id, a.status)
		}
	}
	// Every file a record names is there, whole.
	rows, err := db.Query(`
		SELECT 'execution ' || id, input_key, input_size FROM executions WHERE input_key <> ''
		UNION ALL SELECT 'execution ' || id, output_key, output_size FROM executions WHERE output_key <> ''
		UNION ALL SELECT 'execution ' || id, metadata_key, metadata_size FROM executions WHERE metadata_key <> ''
		UNION ALL SELECT 'transaction ' || id, input_key, input_size FROM transactions WHERE input_key <> ''
		UNION ALL SELECT 'transaction ' || id, output_key, output_size FROM transactions WHERE output_key <> ''
		UNION ALL SELECT 'fragment of ' || transaction_id, output_key, -1 FROM transaction_fragments`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var owner, key string
		var size int64
		if err := rows.Scan(&owner, &key, &size); err != nil {
			t.Fatal(err)
		}
		files++
		var got int64
		if strings.HasPrefix(key, store.InlineBlobPrefix) { // a row of the same commit (inline_blobs)
			if err := db.QueryRow(`SELECT length(CAST(content AS BLOB)) FROM inline_blobs WHERE key = ?`, key).Scan(&got); err != nil {
				fail("%s names %s, which is missing (%v)", owner, key, err)
				continue
			}
		} else if blob.IsCompressed(key) { // sizes are the document's, not the file's
			if got, err = documentLength(dir, key); err != nil {
				fail("%s names %s, which does not read whole: %v", owner, key, err)
				continue
			}
		} else {
			fi, err := os.Stat(filepath.Join(dir, blob.DefaultDir, filepath.FromSlash(key)))
			if err != nil {
				fail("%s names %s, which is missing", owner, key)
				continue
			}
			got = fi.Size()
		}
		switch {
		case size >= 0 && got != size:
			fail("%s names %s of %d bytes; the file has %d", owner, key, size, got)
		case size < 0 && got == 0:
			fail("%s names %s, which is empty", owner, key)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return problems, files
}

// documentLength reads a compressed blob of data directory dir whole and
// returns the length of the document it holds.
func documentLength(dir, key string) (int64, error) {
	blobs, err := blob.Open(context.Background(), "", dir)
	if err != nil {
		return 0, err
	}
	defer blobs.Close()
	r, err := blobs.Get(context.Background(), key)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	return io.Copy(io.Discard, r)
}
