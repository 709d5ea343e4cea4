package chaos

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
	_ "modernc.org/sqlite"

	"github.com/clearhouse/clearhouse/internal/testenv"
)

// buildBinary builds cmd/clearhouse once per test run.
func buildBinary(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "clearhouse")
	args := []string{"build", "-o", bin}
	if os.Getenv("CHAOS_BREAK") != "" {
		// make chaos-broken: jobs acknowledged before their work commits.
		args = append(args, "-tags", "chaosbreak")
	}
	cmd := exec.Command("go", append(args, "./cmd/clearhouse")...)
	cmd.Dir = testenv.RepoRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// freshPostgres creates an empty database for the run and drops it after.
func freshPostgres(t testing.TB) string {
	t.Helper()
	base := testenv.PostgresURL(t)
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("chaos_%d_%d", os.Getpid(), rand.IntN(1e6))
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatalf("create database: %v", err)
	}
	t.Cleanup(func() {
		admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
		admin.Close()
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

func freePort(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// replica is one clearhouse serve process that the driver kills and
// starts again on the same address.
type replica struct {
	name string
	addr string
	args []string
	env  []string
	log  *os.File

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
}

func (r *replica) url() string { return "http://" + r.addr }

func (r *replica) start(t testing.TB, bin string) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	cmd := exec.Command(bin, append([]string{"serve", "--listen", r.addr, "--rate-limit", "0", "--payer-calls-per-key", "0"}, r.args...)...)
	cmd.Env = append(os.Environ(), r.env...)
	cmd.Stdout, cmd.Stderr = r.log, r.log
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", r.name, err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	r.cmd, r.done = cmd, done
}

// kill sends SIGKILL and waits for the process to be gone.
func (r *replica) kill() {
	r.mu.Lock()
	cmd, done := r.cmd, r.done
	r.mu.Unlock()
	if cmd == nil {
		return
	}
	cmd.Process.Signal(syscall.SIGKILL)
	<-done
}

// stop ends the process gracefully (SIGTERM), then kills it if it lingers.
func (r *replica) stop() {
	r.mu.Lock()
	cmd, done := r.cmd, r.done
	r.mu.Unlock()
	if cmd == nil {
		return
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		r.kill()
	}
}

// waitReady polls /readyz until the replica answers 200.
func (r *replica) waitReady(t testing.TB, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		resp, err := http.Get(r.url() + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		if time.Now().After(deadline) {
			out, _ := os.ReadFile(r.log.Name())
			t.Fatalf("%s not ready after %s: %v\n%s", r.name, within, err, tail(out, 4000))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}

// killer kills a random replica every interval (jittered ±50%) and starts
// it again, until ctx ends. It returns the number of kills.
func killer(ctx context.Context, t testing.TB, bin string, rs []*replica, interval time.Duration) int {
	kills := 0
	for {
		d := interval/2 + time.Duration(rand.Int64N(int64(interval)))
		select {
		case <-ctx.Done():
			return kills
		case <-time.After(d):
		}
		r := rs[rand.IntN(len(rs))]
		r.kill()
		kills++
		time.Sleep(time.Duration(rand.IntN(300)) * time.Millisecond)
		r.start(t, bin)
	}
}

// quiesce waits until no job is due or running (every retry has been
// made). A load that outran the workers leaves a backlog that takes a
// while to drain, and the drain's first minute can even grow it (the
// pipeline's tail: acknowledgments processed, each emitting events whose
// dispatch jobs join the queue), so it fails only when no job finishes for
// stall (work is stuck, not slow) or the backlog has not drained within
// limit. It returns how long the drain took.
func quiesce(t testing.TB, db *sql.DB, stall, limit time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	finished, finishedAt, logged := -1, start, start
	for {
		var pending, done int
		var detail string
		err := db.QueryRow(`SELECT count(*) FILTER (WHERE state IN ('available', 'running')),
				count(*) FILTER (WHERE state IN ('succeeded', 'failed')),
				COALESCE(MIN(kind || ':' || state) FILTER (WHERE state IN ('available', 'running')), '')
			FROM jobs`).Scan(&pending, &done, &detail)
		if err != nil {
			t.Fatal(err)
		}
		if pending == 0 {
			return time.Since(start)
		}
		// Progress is a job finishing, not the backlog shrinking: a
		// backlog fed faster than it drains (at load 45 the pending count
		// rose from 601 to 909 in the first minute) is slow, not stuck.
		if done > finished {
			finished, finishedAt = done, time.Now()
		}
		if time.Since(logged) >= 15*time.Second {
			t.Logf("draining: %d jobs pending, %d finished after %s", pending, done, time.Since(start).Round(time.Second))
			logged = time.Now()
		}
		switch {
		case time.Since(finishedAt) > stall:
			t.Fatalf("jobs stopped draining: %d pending, none finished in %s (e.g. %s)\n%s", pending, stall, detail, pendingJobs(db))
		case time.Since(start) > limit:
			t.Fatalf("jobs still pending after %s: %d (e.g. %s)\n%s", limit, pending, detail, pendingJobs(db))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func joinLines(xs []string) string { return strings.Join(xs, "\n") }

// pendingJobs describes the jobs a stalled drain left, grouped by kind,
// state and attempt: how many, when the earliest and latest are due and
// their leases end (relative to now: the replicas share this machine's
// clock), and the last error seen, so a stall says whether the jobs wait
// out a backoff, a dead worker's lease or nothing at all.
func pendingJobs(db *sql.DB) string {
	rows, err := db.Query(`SELECT kind, state, attempt, count(*),
			min(run_at), max(run_at), COALESCE(min(locked_until), 0), COALESCE(max(locked_until), 0),
			COALESCE(max(NULLIF(last_error, '')), '')
		FROM jobs WHERE state IN ('available', 'running')
		GROUP BY kind, state, attempt ORDER BY kind, state, attempt`)
	if err != nil {
		return "pending jobs unreadable: " + err.Error()
	}
	defer rows.Close()
	now := time.Now().UnixMicro()
	var b strings.Builder
	for rows.Next() {
		var kind, state, lastErr string
		var attempt, n int
		var runMin, runMax, lockMin, lockMax int64
		if err := rows.Scan(&kind, &state, &attempt, &n, &runMin, &runMax, &lockMin, &lockMax, &lastErr); err != nil {
			return b.String() + "pending jobs unreadable: " + err.Error()
		}
		rel := func(us int64) string { return (time.Duration(us-now) * time.Microsecond).Round(time.Second).String() }
		fmt.Fprintf(&b, "  %s %s attempt %d: %d due %s..%s", kind, state, attempt, n, rel(runMin), rel(runMax))
		if lockMax != 0 {
			fmt.Fprintf(&b, ", leases end %s..%s", rel(lockMin), rel(lockMax))
		}
		if lastErr != "" {
			fmt.Fprintf(&b, ", last error %q", lastErr)
		}
		b.WriteString("\n")
	}
	return b.String()
}
