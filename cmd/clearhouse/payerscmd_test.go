package main

import (
	"os"
	"strings"
	"testing"
)

// TestPayersPageIsCurrent: docs/payers.md is what 'clearhouse payers
// --markdown' prints, so the list the error messages point at exists and
// names every shipped payer.
func TestPayersPageIsCurrent(t *testing.T) {
	page, err := os.ReadFile("../../docs/payers.md")
	if err != nil {
		t.Fatal(err)
	}
	if got := runOK(t, "payers", "--markdown"); got != string(page) {
		t.Error("docs/payers.md is stale: run go run ./cmd/clearhouse payers --markdown > docs/payers.md")
	}
	if out := runOK(t, "payers"); !strings.Contains(out, "87726") || !strings.Contains(out, "UnitedHealthcare") {
		t.Errorf("clearhouse payers:\n%s", out)
	}
}
