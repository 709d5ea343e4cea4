package tenancytest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// unscoped are the store methods that take an account but not a mode:
// called from a handler, each needs its own mode check, and the next
// handler that forgets it shows one mode's records to the other. Tenant
// code reads through store.Tenant instead (Execution, Executions, …),
// which checks the mode in one place.
var unscoped = map[string]string{
	"GetExecution": "Execution", "ListExecutions": "Executions",
	"GetTransaction": "Transaction", "ListTransactions": "Transactions",
	"GetEvent": "Event", "ListEvents": "Events",
	"GetEligibilityCheck": "EligibilityCheck", "ListEligibilityChecks": "EligibilityChecks",
	"GetDentalClaim": "DentalClaim", "ListDentalClaims": "DentalClaims", "ListClaimAnswers": "ClaimAnswers",
	"GetWebhook": "Webhook", "LockWebhook": "WebhookForUpdate", "UsageByKey": "Usage",
}

// TestTenantCodeReadsThroughScope fails when the API's handlers or the
// console's pages call an unscoped store method: the tenancy rule stays
// in store.Tenant, so a new endpoint cannot reopen it.
func TestTenantCodeReadsThroughScope(t *testing.T) {
	var found []string
	for _, dir := range []string{"../api", "../web", "../webhooks"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") || (dir == "../webhooks" && !tenantFacing(path)) {
				continue
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if scoped, bad := unscoped[sel.Sel.Name]; bad {
					found = append(found, fset.Position(call.Pos()).String()+": "+sel.Sel.Name+
						" (use store.ForTenant(…)."+scoped+")")
				}
				return true
			})
		}
	}
	for _, f := range found {
		t.Error(f)
	}
	if len(found) == 0 && testing.Verbose() {
		t.Log("every tenant read goes through store.Tenant")
	}
}

// tenantFacing lists the files of package webhooks that serve a caller's
// request (the others are workers acting on their own job's records).
func tenantFacing(path string) bool {
	switch filepath.Base(path) {
	case "settings.go":
		return true
	}
	return false
}
