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
// while to drain, so it fails only when the backlog stops shrinking for
// stall (work is stuck, not slow) or has not drained within limit. It
// returns how long the drain took.
func quiesce(t testing.TB, db *sql.DB, stall, limit time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	lowest, lowestAt, logged := -1, start, start
	for {
		var pending int
		var detail string
		err := db.QueryRow(`SELECT count(*), COALESCE(MIN(kind || ':' || state), '')
			FROM jobs WHERE state IN ('available', 'running')`).Scan(&pending, &detail)
		if err != nil {
			t.Fatal(err)
		}
		if pending == 0 {
			return time.Since(start)
		}
		if lowest < 0 || pending < lowest {
			lowest, lowestAt = pending, time.Now()
		}
		if time.Since(logged) >= 15*time.Second {
			t.Logf("draining: %d jobs pending after %s", pending, time.Since(start).Round(time.Second))
			logged = time.Now()
		}
		switch {
		case time.Since(lowestAt) > stall:
			t.Fatalf("jobs stopped draining: %d pending, none finished in %s (e.g. %s)", pending, stall, detail)
		case time.Since(start) > limit:
			t.Fatalf("jobs still pending after %s: %d (e.g. %s)", limit, pending, detail)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func joinLines(xs []string) string { return strings.Join(xs, "\n") }
