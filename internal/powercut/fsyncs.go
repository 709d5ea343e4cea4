package powercut

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Counting a benchmark's fsyncs: the benchmark runs itself again in a
// child process (this test binary, only that benchmark) under strace, and
// the child marks the start and end of its measured loop with an fsync of
// a marker file (Mark). What lies between the last two marks is the
// measured work's: set-up (opening the database, migrations) and the
// testing package's first run of one op are left out.

// markEnv names the marker file in the child.
const markEnv = "CLEARHOUSE_FSYNC_MARK"

// Mark fsyncs the marker file when this process is the child that
// FsyncsPerOp traces; elsewhere it does nothing. Call it just before and
// just after the measured loop.
func Mark() {
	path := os.Getenv(markEnv)
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	_ = f.Sync()
	f.Close()
}

// Fsyncs is what FsyncsPerOp counted, per op: fsync and fdatasync calls in
// all, and of them those of SQLite's WAL and of its database file (the
// checkpoints').
type Fsyncs struct {
	All, WAL, Database float64
}

var (
	fsyncMu    sync.Mutex
	fsyncCache = map[string]Fsyncs{}
)

// FsyncsPerOp runs b's benchmark again under strace, ops times
// (CLEARHOUSE_BENCH_FSYNC_OPS overrides), and returns its fsyncs per op;
// false when this is the child, strace is missing, or
// CLEARHOUSE_BENCH_FSYNCS=off. The count is made once per benchmark and
// process (a -count run reuses it). The child's timings are strace's, not
// the service's: only its count is used.
func FsyncsPerOp(b *testing.B, ops int) (Fsyncs, bool) {
	if os.Getenv(markEnv) != "" || os.Getenv("CLEARHOUSE_BENCH_FSYNCS") == "off" {
		return Fsyncs{}, false
	}
	if _, err := exec.LookPath("strace"); err != nil {
		return Fsyncs{}, false
	}
	if n, err := strconv.Atoi(os.Getenv("CLEARHOUSE_BENCH_FSYNC_OPS")); err == nil && n > 0 {
		ops = n
	}
	fsyncMu.Lock()
	defer fsyncMu.Unlock()
	if f, ok := fsyncCache[b.Name()]; ok {
		return f, true
	}
	dir, err := os.MkdirTemp("", "fsyncs")
	if err != nil {
		b.Logf("fsync count: %v", err)
		return Fsyncs{}, false
	}
	defer os.RemoveAll(dir)
	marker, trace := filepath.Join(dir, "marker"), filepath.Join(dir, "strace.txt")
	var pattern []string
	for _, part := range strings.Split(b.Name(), "/") {
		pattern = append(pattern, "^"+regexp.QuoteMeta(part)+"$")
	}
	cmd := exec.Command("strace", "-f", "-qq", "-yy", "-e", "trace=fsync,fdatasync", "-o", trace,
		os.Args[0], "-test.run=^$", "-test.bench="+strings.Join(pattern, "/"), "-test.benchtime="+strconv.Itoa(ops)+"x")
	cmd.Env = append(os.Environ(), markEnv+"="+marker)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Logf("fsync count: %v\n%s", err, out)
		return Fsyncs{}, false
	}
	f, err := countFsyncs(trace, marker, ops)
	if err != nil {
		b.Logf("fsync count: %v", err)
		return Fsyncs{}, false
	}
	fsyncCache[b.Name()] = f
	return f, true
}

// fsyncLine is an fsync or fdatasync in strace -yy's output: the path of
// its descriptor.
var fsyncLine = regexp.MustCompile(`(?:fsync|fdatasync)\(\d+<([^>]*)>`)

// countFsyncs counts the fsyncs between the last two marks of trace.
func countFsyncs(trace, marker string, ops int) (Fsyncs, error) {
	file, err := os.Open(trace)
	if err != nil {
		return Fsyncs{}, err
	}
	defer file.Close()
	var marks []int
	var paths []string
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := fsyncLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		if m[1] == marker {
			marks = append(marks, len(paths))
			continue
		}
		paths = append(paths, m[1])
	}
	if err := sc.Err(); err != nil {
		return Fsyncs{}, err
	}
	if len(marks) < 2 {
		return Fsyncs{}, fmt.Errorf("%d marks in the trace, want 2 (does the benchmark call powercut.Mark?)", len(marks))
	}
	var f Fsyncs
	for _, p := range paths[marks[len(marks)-2]:marks[len(marks)-1]] {
		f.All++
		switch {
		case strings.HasSuffix(p, "-wal"):
			f.WAL++
		case strings.HasSuffix(p, ".db"):
			f.Database++
		}
	}
	n := float64(ops)
	return Fsyncs{All: f.All / n, WAL: f.WAL / n, Database: f.Database / n}, nil
}
