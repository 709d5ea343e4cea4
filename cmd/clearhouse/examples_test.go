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
	data := t.TempDir()
	key := lastLine(runOK(t, "keys", "create", "--create", "--data", data, "--account", "Demo Clinic", "--mode", "test"))
	base, _ := startServe(t, data)
	out := receiveExample(t, base, key, "era-0001.x12")
	if n := strings.Count(out, `"transactionId"`); n != 3 {
		t.Errorf("%d transactions, want 3: %s", n, out)
	}
}

// TestExampleBillingCompany: examples/billing-co.json (partners apply) makes
// the partnership that receives examples/claims-0001.x12, the 837P of the
// SFTP guide.
func TestExampleBillingCompany(t *testing.T) {
	data := t.TempDir()
	key := lastLine(runOK(t, "keys", "create", "--create", "--data", data, "--account", "Demo Clinic", "--mode", "test"))
	runOK(t, "partners", "apply", "-f", "../../examples/billing-co.json", "--data", data, "--account", "Demo Clinic", "--mode", "test")
	base, _ := startServe(t, data)
	if out := receiveExample(t, base, key, "claims-0001.x12"); !strings.Contains(out, `"transactionId"`) {
		t.Errorf("no transaction: %s", out)
	}
}

// receiveExample uploads examples/name, waits for it to complete and
// returns its transactions.
func receiveExample(t *testing.T, base, key, name string) string {
	t.Helper()
	body, err := os.ReadFile("../../examples/" + name)
	if err != nil {
		t.Fatal(err)
	}
	code, out := call(t, "POST", base+"/2023-08-01/files/inbound?name="+name, key, string(body))
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
		t.Fatalf("the example %s did not complete: %s", name, out)
	}
	_, out = get(t, base+"/2023-08-01/executions/"+ex.ExecutionID+"/transactions", key)
	return out
}
