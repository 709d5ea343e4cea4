package chaos

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/core/coretest"
	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/testenv"
)

// settings of one run, from the environment (make chaos sets longer ones).
type settings struct {
	duration time.Duration // load and kills
	replicas int
	kill     time.Duration // mean time between kills
	workers  int           // concurrent clients
}

func loadSettings() settings {
	s := settings{duration: 20 * time.Second, replicas: 3, kill: 3 * time.Second, workers: 6}
	if d, err := time.ParseDuration(os.Getenv("CHAOS_DURATION")); err == nil && d > 0 {
		s.duration = d
	}
	if n, err := strconv.Atoi(os.Getenv("CHAOS_REPLICAS")); err == nil && n > 0 {
		s.replicas = n
	}
	if d, err := time.ParseDuration(os.Getenv("CHAOS_KILL_EVERY")); err == nil && d > 0 {
		s.kill = d
	}
	return s
}

// outcome is what the clients saw answered 2xx, to be found afterwards.
type outcome struct {
	mu       sync.Mutex
	checks   []string // eligibility check ids
	uploads  []string // inbound execution ids
	claims   []string // claim control numbers
	attempts atomic.Int64
	failures atomic.Int64 // requests that got no 2xx (a replica died mid-call, 503…)
}

func (o *outcome) add(list *[]string, id string) {
	o.mu.Lock()
	*list = append(*list, id)
	o.mu.Unlock()
}

// TestChaos is the scale-out proof of issue 16 on PostgreSQL + S3
// (versitygw): three replicas, one killed every few seconds.
func TestChaos(t *testing.T) {
	if testing.Short() {
		t.Skip("chaos run skipped in -short mode")
	}
	cfg := loadSettings()
	bin := buildBinary(t)
	dbURL := freshPostgres(t)
	s3 := testenv.VersityGW(t)
	blobURL := s3.BucketURL(t, "chaos")
	env := []string{"AWS_ACCESS_KEY_ID=" + s3.AccessKey, "AWS_SECRET_ACCESS_KEY=" + s3.SecretKey, "AWS_EC2_METADATA_DISABLED=true"}
	db, err := sql.Open("pgx", dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	run(t, cfg, bin, db, []string{"--database", dbURL, "--blob", blobURL}, []string{"--database", dbURL}, env,
		func(key string) string { return filepath.Join(s3.Root, "chaos", key) })
}

// TestChaosEmbedded is the same on the embedded default (SQLite and files
// in one data directory): one process, killed and started again.
func TestChaosEmbedded(t *testing.T) {
	if testing.Short() {
		t.Skip("chaos run skipped in -short mode")
	}
	cfg := loadSettings()
	cfg.replicas = 1
	cfg.workers = 4
	bin := buildBinary(t)
	data := t.TempDir()
	// keys create makes the database; the test reads it read-only.
	db := func() *sql.DB {
		if out, err := exec.Command(bin, "keys", "list", "--create", "--data", data).CombinedOutput(); err != nil {
			t.Fatalf("keys list: %v\n%s", err, out)
		}
		db, err := sql.Open("sqlite", "file:"+filepath.Join(data, "clearhouse.db")+"?mode=ro&_pragma=busy_timeout(10000)")
		if err != nil {
			t.Fatal(err)
		}
		return db
	}()
	defer db.Close()
	run(t, cfg, bin, db, []string{"--data", data}, []string{"--data", data}, nil,
		func(key string) string { return filepath.Join(data, "blobs", key) })
}

// run starts cfg.replicas replicas of bin serve with the store flags,
// loads and kills them, waits for the work to settle and checks db (which
// reads what the replicas wrote) and the webhook receiver. blobPath maps a
// stored document's key to its file on disk.
func run(t *testing.T, cfg settings, bin string, db *sql.DB, storeFlags, keyFlags, env []string, blobPath func(string) string) {
	dir := t.TempDir()
	// An account with a test key (keys create also gives it the test-mode
	// partnerships with the mock payers).
	out, err := exec.Command(bin, append([]string{"keys", "create", "--account", "Chaos Clinic", "--mode", "test"}, keyFlags...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("keys create: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	key := strings.TrimSpace(lines[len(lines)-1])

	secretsKey := secrets.NewKey()
	var rs []*replica
	for i := range cfg.replicas {
		logf, err := os.Create(filepath.Join(dir, fmt.Sprintf("replica%d.log", i)))
		if err != nil {
			t.Fatal(err)
		}
		args := append([]string{"--workers", "4", "--log-level", "warn", "--secrets-key", secretsKey,
			"--webhooks-allow-private", "--webhooks-retry-schedule", "0s,500ms,1s,2s,2s,2s"}, storeFlags...)
		if !slices.Contains(storeFlags, "--data") {
			args = append(args, "--data", filepath.Join(dir, fmt.Sprintf("data%d", i)))
		}
		rs = append(rs, &replica{name: fmt.Sprintf("replica%d", i), addr: freePort(t), log: logf, args: args, env: env})
	}
	for _, r := range rs {
		r.start(t, bin)
	}
	t.Cleanup(func() {
		for _, r := range rs {
			r.stop()
			r.log.Close()
			if t.Failed() {
				// The logs go with the temporary directory: a failed run
				// keeps their ends (warnings and errors only: --log-level warn).
				out, _ := os.ReadFile(r.log.Name())
				t.Logf("%s's log ends:\n%s", r.name, tail(out, 3000))
			}
		}
	})
	for _, r := range rs {
		r.waitReady(t, 60*time.Second)
	}
	recv := newReceiver(t)
	recv.secret = createWebhook(t, rs[0].url(), key, recv.url)

	var res outcome
	ctx, cancel := context.WithTimeout(context.Background(), cfg.duration)
	defer cancel()
	backlog := watchBacklog(ctx, db, maxBacklog)
	var wg sync.WaitGroup
	for w := range cfg.workers {
		wg.Go(func() { client(ctx, rs, key, w, &res, backlog) })
	}
	kills := killer(ctx, t, bin, rs, cfg.kill)
	wg.Wait()
	for _, r := range rs {
		r.waitReady(t, 60*time.Second)
	}
	// The clients send as fast as they are answered, so the work they
	// start (deliveries, 999s and 277CAs, inbound processing, webhooks)
	// may still be queued: every job must finish, however long the
	// backlog takes, and none may stall.
	drain := quiesce(t, db, time.Minute, 20*time.Minute)

	t.Logf("chaos: %d replicas, %s, %d kills; %d requests, %d answered 2xx (%d checks, %d uploads, %d claims), %d not; the work they started drained %s after the load",
		cfg.replicas, cfg.duration, kills, res.attempts.Load(),
		len(res.checks)+len(res.uploads)+len(res.claims), len(res.checks), len(res.uploads), len(res.claims), res.failures.Load(),
		drain.Round(time.Second))
	verify(t, db, &res, blobPath)
	verifyWebhooks(t, db, recv)
}

// client sends a mix of requests to random replicas until ctx ends.
func client(ctx context.Context, rs []*replica, key string, w int, res *outcome, backlog *atomic.Bool) {
	hc := &http.Client{Timeout: 30 * time.Second}
	eligibility := []byte(`{"tradingPartnerServiceId":"87726",
		"provider":{"organizationName":"Provider Name","npi":"1999999984"},
		"subscriber":{"memberId":"UHC123456","firstName":"Jane","lastName":"Doe","dateOfBirth":"19710101"},
		"encounter":{"serviceTypeCodes":["30"]}}`)
	claim, err := os.ReadFile("../claims/testdata/example.json")
	if err != nil {
		panic(err)
	}
	for n := 0; ctx.Err() == nil; n++ {
		for backlog.Load() && ctx.Err() == nil {
			time.Sleep(50 * time.Millisecond)
		}
		r := rs[rand.IntN(len(rs))]
		res.attempts.Add(1)
		var ok bool
		switch n % 3 {
		case 0:
			var id string
			id, ok = post(hc, r.url()+"/2024-04-01/change/medicalnetwork/eligibility/v3", key, "application/json", eligibility, func(h http.Header, body []byte) string {
				return h.Get("X-Eligibility-Check-Id")
			})
			if ok {
				res.add(&res.checks, id)
			}
		case 1:
			file := inbound835(w, n)
			var id string
			id, ok = post(hc, r.url()+fmt.Sprintf("/2023-08-01/files/inbound?name=chaos-%d-%d.835", w, n), key, "application/edi-x12", []byte(file), func(_ http.Header, body []byte) string {
				var v struct{ ExecutionID string }
				json.Unmarshal(body, &v)
				return v.ExecutionID
			})
			if ok {
				res.add(&res.uploads, id)
			}
		case 2:
			// A claim, resent with its Idempotency-Key to other replicas
			// until one answers 200: it must exist once, not per attempt.
			pcn := fmt.Sprintf("CH%d-%d", w, n)
			body := bytes.Replace(claim, []byte(`"patientControlNumber": "12345"`), []byte(`"patientControlNumber": "`+pcn+`"`), 1)
			for try := 0; try < 6 && !ok && ctx.Err() == nil; try++ {
				r := rs[rand.IntN(len(rs))]
				_, ok = post(hc, r.url()+"/2024-04-01/dental-claims/submission", key, "application/json", body, func(_ http.Header, body []byte) string {
					var v struct{ Status string }
					json.Unmarshal(body, &v)
					return v.Status
				}, "Idempotency-Key", "chaos-"+pcn)
				if !ok {
					time.Sleep(100 * time.Millisecond)
				}
			}
			if ok {
				res.add(&res.claims, pcn)
			}
		}
		if !ok {
			res.failures.Add(1)
			time.Sleep(20 * time.Millisecond) // a replica is down; try another
		}
	}
}

// maxBacklog is how many queued jobs make the clients wait. They send as
// fast as they are answered, which starts background work (deliveries,
// the mock payer's 999s and 277CAs, inbound processing, webhooks) faster
// than a 2-core machine finishes it; unchecked, a 2-minute run leaves tens
// of thousands of jobs. Holding the queue near this size keeps the replicas
// busy with every kind of work when the kills come, and the backlog small
// enough to drain.
const maxBacklog = 500

// watchBacklog reports, every half second until ctx ends, whether more
// than limit jobs are due or running.
func watchBacklog(ctx context.Context, db *sql.DB, limit int) *atomic.Bool {
	var full atomic.Bool
	go func() {
		for ctx.Err() == nil {
			var n int
			if err := db.QueryRowContext(ctx, `SELECT count(*) FROM jobs WHERE state IN ('available', 'running')`).Scan(&n); err == nil {
				full.Store(n > limit)
			}
			select {
			case <-ctx.Done():
			case <-time.After(500 * time.Millisecond):
			}
		}
		full.Store(false)
	}()
	return &full
}

// post sends body and, on a 2xx, returns what id extracts from the answer.
func post(hc *http.Client, url, key, contentType string, body []byte, id func(http.Header, []byte) string, headers ...string) (string, bool) {
	req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	req.Header.Set("Authorization", "Key "+key)
	req.Header.Set("Content-Type", contentType)
	resp, err := hc.Do(req)
	if err != nil {
		return "", false
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode/100 != 2 {
		return "", false
	}
	v := id(resp.Header, b)
	return v, v != ""
}

// inbound835 is an 835 from the UnitedHealthcare mock payer (87726) to the
// account's test identity, two sets of three claim payments, its trace
// numbers unique to the client and iteration.
func inbound835(w, n int) string {
	f := coretest.Gen835([]int{2}, 3, 0)
	f = strings.Replace(f, "ZZ*PAYERSENDER    *ZZ*CLINICRECV     ", "ZZ*87726          *ZZ*CLEARHOUSE     ", 1)
	return strings.ReplaceAll(f, "TRN*1*TRACE", fmt.Sprintf("TRN*1*C%d-%d-", w, n))
}

// verify checks the database against what clients were told.
// blobPath maps a document's key to its file on disk (the bucket's
// directory of versitygw's posix backend, or the data directory's blobs),
// where every stored document must be found whole.
func verify(t *testing.T, db *sql.DB, res *outcome, blobPath func(string) string) {
	t.Helper()
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	count := func(q string, args ...any) int {
		var n int
		if err := db.QueryRow(q, args...).Scan(&n); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return n
	}

	// Every eligibility check answered 200 is recorded, and counted in usage
	// once: by its own row (package store, usage.go), not a usage row.
	for _, id := range res.checks {
		if count(`SELECT count(*) FROM eligibility_checks WHERE id = $1`, id) != 1 {
			fail("eligibility check %s answered 200 but not recorded", id)
		}
		if count(`SELECT count(*) FROM usage WHERE ref_id = $1`, id) != 0 {
			fail("eligibility check %s has a usage row besides its own", id)
		}
	}
	// ISA13 of the 270s never repeats.
	if n := count(`SELECT count(*) FROM (SELECT control_number FROM eligibility_checks WHERE x12_request <> ''
		GROUP BY control_number HAVING count(*) > 1) d`); n > 0 {
		fail("%d eligibility control numbers used twice", n)
	}

	// Every accepted upload was processed exactly once: completed, two
	// transactions, one file.processed.v2, one transaction.processed.v2
	// per transaction.
	for _, id := range res.uploads {
		var status, inputKey string
		var txs int
		var size int64
		if err := db.QueryRow(`SELECT status, transaction_count, input_key, input_size FROM executions WHERE id = $1`, id).Scan(&status, &txs, &inputKey, &size); err != nil {
			fail("upload %s answered 202 but its execution is missing: %v", id, err)
			continue
		}
		if fi, err := os.Stat(blobPath(inputKey)); err != nil || fi.Size() != size {
			fail("upload %s: its input %q is not in the bucket whole (%v)", id, inputKey, err)
		}
		if n := count(`SELECT count(*) FROM transactions WHERE execution_id = $1`, id); n != 2 || txs != 2 {
			fail("upload %s: %d transaction rows (count column %d), want 2", id, n, txs)
		}
		if n := count(`SELECT count(*) FROM events WHERE execution_id = $1 AND detail_type = 'file.processed.v2'`, id); n != 1 {
			fail("upload %s (%s): %d file.processed.v2 events, want 1", id, status, n)
		}
		if n := count(`SELECT count(*) FROM events WHERE execution_id = $1 AND detail_type = 'transaction.processed.v2'`, id); n != 2 {
			fail("upload %s: %d transaction.processed.v2 events, want 2", id, n)
		}
	}

	// Every claim answered 200 exists once, was delivered once, and got
	// one 999 and one 277CA back from the mock payer, each processed once.
	for _, pcn := range res.claims {
		var execID, control string
		if n := count(`SELECT count(*) FROM dental_claims WHERE patient_control_number = $1`, pcn); n != 1 {
			fail("claim %s answered 200: %d claim records, want 1", pcn, n)
			continue
		}
		if err := db.QueryRow(`SELECT execution_id, control_number FROM dental_claims WHERE patient_control_number = $1`, pcn).Scan(&execID, &control); err != nil {
			t.Fatal(err)
		}
		var status string
		db.QueryRow(`SELECT status FROM executions WHERE id = $1`, execID).Scan(&status)
		if status != "DELIVERED" {
			fail("claim %s: its file is %q, want DELIVERED", pcn, status)
		}
		if n := count(`SELECT count(*) FROM events WHERE execution_id = $1 AND detail_type = 'file.delivered.v2'`, execID); n != 1 {
			fail("claim %s: %d file.delivered.v2 events, want 1", pcn, n)
		}
		for _, ack := range []string{"999", "277CA"} {
			name := ack + "-" + execID + ".x12"
			if n := count(`SELECT count(*) FROM executions WHERE source_name = $1`, name); n != 1 {
				fail("claim %s: %d inbound %s files, want 1", pcn, n, ack)
				continue
			}
			if n := count(`SELECT count(*) FROM transactions t JOIN executions e ON e.id = t.execution_id
				WHERE e.source_name = $1 AND e.status = 'COMPLETED'`, name); n != 1 {
				fail("claim %s: its %s file has %d processed transactions, want 1", pcn, ack, n)
			}
		}
	}
	if n := count(`SELECT count(*) FROM (SELECT control_number FROM dental_claims GROUP BY account_id, control_number HAVING count(*) > 1) d`); n > 0 {
		fail("%d claim interchange control numbers used twice", n)
	}

	// No job is stuck or was given up on.
	if n := count(`SELECT count(*) FROM jobs WHERE state = 'running'`); n > 0 {
		fail("%d jobs still running", n)
	}
	rows, err := db.Query(`SELECT kind, last_error FROM jobs WHERE state = 'failed'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var kind, why string
		rows.Scan(&kind, &why)
		fail("job %s failed for good: %s", kind, why)
	}
	rows.Close()

	if len(problems) > 0 {
		if len(problems) > 50 {
			problems = append(problems[:50], fmt.Sprintf("… and %d more", len(problems)-50))
		}
		t.Fatalf("chaos found %d problems:\n%s", len(problems), joinLines(problems))
	}
}
