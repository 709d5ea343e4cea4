package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
)

// TestExampleERA: examples/era-0001.x12, the file of the README's quick
// start, is an 835 a fresh test account receives: it completes with its
// three transactions.
func TestExampleERA(t *testing.T) {
	body, err := os.ReadFile("../../examples/era-0001.x12")
	if err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()
	key := lastLine(runOK(t, "keys", "create", "--create", "--data", data, "--account", "Demo Clinic", "--mode", "test"))
	base, _ := startServe(t, data)
	code, out := call(t, "POST", base+"/2023-08-01/files/inbound?name=era-0001.x12", key, string(body))
	var ex struct{ ExecutionID string }
	if code != 202 || json.Unmarshal([]byte(out), &ex) != nil {
		t.Fatalf("upload: %d %s", code, out)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		_, out = get(t, base+"/2023-08-01/executions/"+ex.ExecutionID, key)
		if strings.Contains(out, `"COMPLETED"`) || strings.Contains(out, `"FAILED"`) || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !strings.Contains(out, `"COMPLETED"`) {
		t.Fatalf("the example 835 did not complete: %s", out)
	}
	_, out = get(t, base+"/2023-08-01/executions/"+ex.ExecutionID+"/transactions", key)
	if n := strings.Count(out, `"transactionId"`); n != 3 {
		t.Errorf("%d transactions, want 3: %s", n, out)
	}
}
