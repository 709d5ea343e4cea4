package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/store"
)

// TestPurge: checks, uploads (processed into transactions) and a claim
// made through the real server are aged 40 days; with a 30-day policy
// `purge --dry-run` names what would go and removes nothing, and `purge`
// removes the records and their documents from disk, keeping the audit.
func TestPurge(t *testing.T) {
	data := t.TempDir()
	key := lastLine(runOK(t, "keys", "create", "--create", "--data", data, "--account", "Acme", "--mode", "test"))
	base, stop := startServe(t, data)
	reqs := newTracedRequests(t, base, key)
	reqs.sendAll(t, []string{"check", "check", "upload", "claim"}, 1)
	// Wait until the upload is processed and the claim delivered, with the
	// mock payer's answers to it processed too: only finished files go.
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, body := get(t, base+"/2023-08-01/executions?pageSize=500", key)
		var page struct{ Items []struct{ Status string } }
		json.Unmarshal([]byte(body), &page)
		finished, delivered := 0, 0
		for _, e := range page.Items {
			switch e.Status {
			case "DELIVERED":
				delivered++
				finished++
			case "COMPLETED", "FAILED":
				finished++
			}
		}
		if delivered == 1 && finished == len(page.Items) && finished >= 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("files not finished in 30 s: %s", body)
		}
		time.Sleep(100 * time.Millisecond)
	}
	stop()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(data, store.SQLiteFile))
	if err != nil {
		t.Fatal(err)
	}
	aged := time.Now().Add(-40 * 24 * time.Hour).UnixMicro()
	for _, q := range []string{`UPDATE eligibility_checks SET created_at = $1`, `UPDATE executions SET created_at = $1`, `UPDATE events SET time = $1`} {
		if _, err := db.Exec(q, aged); err != nil {
			t.Fatal(err)
		}
	}
	var keys []string
	const finished = `status IN ('COMPLETED', 'FAILED', 'DELIVERED')` // files still in work are kept
	rows, err := db.Query(`SELECT input_key FROM executions WHERE ` + finished + ` UNION SELECT t.output_key FROM transactions t
		JOIN executions e ON e.id = t.execution_id WHERE e.` + finished)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var k string
		rows.Scan(&k)
		keys = append(keys, k)
	}
	rows.Close()
	var audited int
	db.QueryRow(`SELECT count(*) FROM audit_events`).Scan(&audited)
	db.Close()

	runOK(t, "retention", "set", "--data", data, "--account", "Acme", "--eligibility-days", "30", "--file-days", "30", "--event-days", "30")
	if out := runOK(t, "retention", "show", "--data", data); !strings.Contains(out, "eligibility checks 30 days, files 30 days, events 30 days, audit forever") {
		t.Errorf("show: %s", out)
	}
	dry := runOK(t, "purge", "--dry-run", "--data", data)
	if !strings.Contains(dry, "would remove 2 eligibility checks") || !strings.Contains(dry, "1 claims") {
		t.Errorf("dry run: %s", dry)
	}
	for _, k := range keys {
		if err := storedDocument(data, k); err != nil {
			t.Errorf("the dry run removed %s: %v", k, err)
		}
	}
	out := runOK(t, "purge", "--data", data)
	if !strings.Contains(out, "removed 2 eligibility checks") || strings.Replace(out, "removed", "would remove", 1) != dry {
		t.Errorf("purge: %s (dry run said %s)", out, dry)
	}
	for _, k := range keys {
		if err := storedDocument(data, k); err == nil {
			t.Errorf("%s is still stored", k)
		}
	}
	if again := runOK(t, "purge", "--dry-run", "--data", data); !strings.Contains(again, "would remove 0 eligibility checks, 0 files") {
		t.Errorf("after the purge: %s", again)
	}
	db, _ = sql.Open("sqlite", "file:"+filepath.Join(data, store.SQLiteFile))
	defer db.Close()
	var left, runs int
	db.QueryRow(`SELECT count(*) FROM audit_events`).Scan(&left)
	db.QueryRow(`SELECT count(*) FROM retention_runs`).Scan(&runs)
	if left != audited || audited == 0 || runs == 0 {
		t.Errorf("audit events %d → %d, retention runs %d", audited, left, runs)
	}
	t.Logf("%s", out)
}

// storedDocument reports whether the document a record names is still
// there: a file under blobs/, or for a "db/" key (a claim's 837 and Guide
// JSON, written in the claim's transaction) a row of inline_blobs.
func storedDocument(data, key string) error {
	if !strings.HasPrefix(key, blob.InlinePrefix) {
		_, err := os.Stat(filepath.Join(data, "blobs", key))
		return err
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(data, store.SQLiteFile))
	if err != nil {
		return err
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM inline_blobs WHERE key = $1`, key).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("no inline_blobs row")
	}
	return nil
}
