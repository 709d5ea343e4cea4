package main

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestBackupUnderLoad takes a backup while three clients send checks,
// claims and uploads and the workers process them, restores it into a new
// data directory, and finds there every request answered before the
// backup began, SQLite undamaged, and every file a record names whole.
// A backup with one changed byte is refused by restore, which names the
// file.
func TestBackupUnderLoad(t *testing.T) {
	data := t.TempDir()
	key := lastLine(runOK(t, "keys", "create", "--create", "--data", data, "--account", "Acme", "--mode", "test"))
	base, _ := startServe(t, data)
	reqs := newTracedRequests(t, base, key)
	type done struct {
		a  answer
		at time.Time
	}
	var mu sync.Mutex
	var answered []done
	stop := make(chan struct{})
	var wg sync.WaitGroup
	kinds := []string{"check", "claim", "upload"}
	for w := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				a, err := reqs.send(kinds[(w+n)%3], w*100000+n)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				answered = append(answered, done{a, time.Now()})
				mu.Unlock()
			}
		}()
	}
	// Wait for answers, not for a fixed time: on a loaded machine 1.5 s
	// held only 3 of them.
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		mu.Lock()
		n := len(answered)
		mu.Unlock()
		if n >= 12 || time.Now().After(deadline) {
			break
		}
	}
	backupDir := filepath.Join(t.TempDir(), "backup")
	began := time.Now()
	out := runOK(t, "backup", "--data", data, "--to", backupDir)
	time.Sleep(500 * time.Millisecond)
	close(stop)
	wg.Wait()
	var before []answer
	for _, d := range answered {
		if d.at.Before(began) {
			before = append(before, d.a)
		}
	}
	if len(before) < 6 {
		t.Fatalf("only %d requests answered before the backup", len(before))
	}
	restored := filepath.Join(t.TempDir(), "restored")
	runOK(t, "restore", "--from", backupDir, "--data", restored)
	problems, files := checkAfterPowerCut(t, restored, before)
	if len(problems) > 0 {
		t.Errorf("the restored backup:\n  %s", strings.Join(problems, "\n  "))
	}
	t.Logf("%s%d of %d answered requests came before the backup; all restored, with the %d files records name", out, len(before), len(answered), files)

	// One changed byte in a blob: restore refuses, naming it.
	var victim string
	filepath.WalkDir(filepath.Join(backupDir, "blobs"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && victim == "" {
			victim = path
		}
		return nil
	})
	b, err := os.ReadFile(victim)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 1
	os.WriteFile(victim, b, 0o600)
	code, _, stderr := runCmd("restore", "--from", backupDir, "--data", filepath.Join(t.TempDir(), "again"))
	rel, _ := filepath.Rel(backupDir, victim)
	if code != 1 || !strings.Contains(stderr, filepath.ToSlash(rel)) || !strings.Contains(stderr, "SHA-256") {
		t.Errorf("restore of a changed backup: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := runCmd("restore", "--from", backupDir, "--data", restored); code == 0 || !strings.Contains(stderr, "does not match") && !strings.Contains(stderr, "already holds") {
		t.Errorf("restore over a data directory: exit %d %s", code, stderr)
	}
}
