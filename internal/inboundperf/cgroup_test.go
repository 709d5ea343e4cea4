package inboundperf

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// memCgroup is a cgroup v1 memory group holding the server, so a run that
// held the set whole would be cut short instead of swapping or starving the
// machine. Where the hierarchy is missing or not writable (most
// containers) there is none, and GOMEMLIMIT is the only limit.
type memCgroup struct{ dir string }

const cgroupRoot = "/sys/fs/cgroup/memory"

func newMemCgroup(t testing.TB, pid int, limit int64) *memCgroup {
	if limit <= 0 {
		return nil
	}
	dir := filepath.Join(cgroupRoot, fmt.Sprintf("clearhouse-inboundperf-%d", pid))
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Logf("no memory cgroup (%v): GOMEMLIMIT alone limits the server", err)
		return nil
	}
	c := &memCgroup{dir: dir}
	for _, w := range [][2]string{{"memory.limit_in_bytes", strconv.FormatInt(limit, 10)}, {"cgroup.procs", strconv.Itoa(pid)}} {
		if err := os.WriteFile(filepath.Join(dir, w[0]), []byte(w[1]), 0o644); err != nil {
			t.Logf("no memory cgroup (%s: %v): GOMEMLIMIT alone limits the server", w[0], err)
			c.remove()
			return nil
		}
	}
	t.Logf("server in memory cgroup %s, limit %d MiB (page cache included)", dir, limit>>20)
	return c
}

// remove deletes the group once the server has left it (exited).
func (c *memCgroup) remove() {
	if c != nil {
		os.Remove(c.dir)
	}
}
