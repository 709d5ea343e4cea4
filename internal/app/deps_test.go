package app_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/clearhouse/clearhouse/"

// forbidden are, per package, what it must never depend on (directly or
// not): the dependency rule of docs/architecture/overview.md. Domain
// packages never reach the mock payer (only the composition root and
// tests do), and eligibility stands apart from the EDI core's machinery.
var forbidden = map[string][]string{
	"internal/eligibility":         {"internal/mockpayer", "internal/claims", "internal/core", "internal/events", "internal/jobs", "internal/blob", "internal/api", "internal/web"},
	"internal/payers":              {"internal/mockpayer", "internal/api", "internal/web"},
	"internal/statusinquiry":       {"internal/mockpayer", "internal/api", "internal/web"},
	"internal/claims":              {"internal/mockpayer", "internal/api", "internal/web"},
	"internal/core":                {"internal/mockpayer", "internal/api", "internal/web", "internal/claims", "internal/delivery"},
	"internal/webhooks":            {"internal/mockpayer", "internal/api", "internal/web"},
	"internal/delivery":            {"internal/mockpayer", "internal/api", "internal/web"},
	"internal/partners":            {"internal/mockpayer", "internal/api", "internal/web"},
	"internal/web":                 {"internal/api", "internal/mockpayer", "internal/app", "internal/services"},
	"internal/api":                 {"internal/web", "internal/app", "internal/services", "internal/mockpayer"},
	"internal/httpkit":             {"internal/api", "internal/web"},
	"internal/eligibility/summary": {"internal/api", "internal/web", "internal/claims", "internal/core"},
	"internal/services":            {"internal/api", "internal/web", "internal/app"},
}

// TestDependencyRule runs go list -deps on each package and fails on a
// forbidden dependency.
func TestDependencyRule(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	for pkg, banned := range forbidden {
		out, err := exec.Command("go", "list", "-deps", module+pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		deps := strings.Fields(string(out))
		for _, b := range banned {
			if slices.Contains(deps, module+b) {
				t.Errorf("%s depends on %s; see docs/architecture/overview.md (the dependency rule)", pkg, b)
			}
		}
	}
}
