package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestRawX12MemoryBounded posts a 10 MB raw-X12 body of tiny segments
// (ST*270 then X~ five million times, under the body limit) to a real server
// process: it must answer 400 naming the segment cap, and the process's peak
// RSS must stay under 100 MB. Before the cap every segment was cloned with
// its element index, about 1 GB per MB of body.
func TestRawX12MemoryBounded(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("needs /proc to read the server's RSS")
	}
	dir := t.TempDir()
	key := createTestKey(t, dir)
	addr, proc := serveProcess(t, "--data", dir)

	body := `{"x12":"ST*270*0001~` + strings.Repeat("X~", 5_000_000) + `"}`
	for range 2 { // twice: memory does not build up either
		req, _ := http.NewRequest("POST", "http://"+addr+"/2024-04-01/change/medicalnetwork/eligibility/v3/raw-x12", strings.NewReader(body))
		req.Header.Set("Authorization", key)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 400 || !strings.Contains(string(out), `"path":"/x12"`) || !strings.Contains(string(out), "more than 1000 segments") {
			t.Fatalf("%d bytes of tiny segments: %d %.300s", len(body), resp.StatusCode, out)
		}
	}
	peak := peakRSS(t, proc.Pid)
	t.Logf("body %d bytes; server peak RSS (VmHWM) %.1f MB", len(body), float64(peak)/(1<<20))
	if peak > 100<<20 {
		t.Errorf("server peak RSS %.1f MB, want < 100 MB", float64(peak)/(1<<20))
	}
}

// peakRSS reads a process's peak resident set size (VmHWM) in bytes.
func peakRSS(t *testing.T, pid int) int64 {
	t.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(status)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc/PID/status")
	return 0
}
