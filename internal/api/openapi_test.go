package api_test

import (
	"encoding/json"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/api"
)

type openAPIOperation struct {
	OperationID string                     `json:"operationId"`
	Summary     string                     `json:"summary"`
	Security    *[]map[string][]string     `json:"security"`
	Responses   map[string]json.RawMessage `json:"responses"`
}

var httpMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// TestOpenAPIMatchesRoutes: every registered route is documented in
// openapi.json and every documented operation is a registered route, with
// the right security (public routes say "security": []).
func TestOpenAPIMatchesRoutes(t *testing.T) {
	t.Parallel()
	f := newFixture(t, api.Options{})
	served := f.do("GET", "/openapi.json", "", nil)
	onDisk, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	if served.Code != 200 || served.Body.String() != string(onDisk) {
		t.Fatalf("/openapi.json does not serve internal/api/openapi.json (status %d)", served.Code)
	}
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(onDisk, &doc); err != nil {
		t.Fatalf("internal/api/openapi.json is not valid JSON: %v", err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Errorf(`openapi = %q, want "3.1.0"`, doc.OpenAPI)
	}

	documented := map[string]openAPIOperation{}
	opIDs := map[string]string{}
	for path, item := range doc.Paths {
		for method, raw := range item {
			if !slices.Contains(httpMethods, method) {
				continue // parameters, summary, ...
			}
			var op openAPIOperation
			if err := json.Unmarshal(raw, &op); err != nil {
				t.Errorf("openapi.json %s %s: %v", method, path, err)
				continue
			}
			key := strings.ToUpper(method) + " " + path
			documented[key] = op
			if op.OperationID == "" || op.Summary == "" || len(op.Responses) == 0 {
				t.Errorf("openapi.json paths[%q][%q] needs operationId, summary and responses", path, method)
			}
			if prev, dup := opIDs[op.OperationID]; dup && op.OperationID != "" {
				t.Errorf("operationId %q used by %s and %s", op.OperationID, prev, key)
			}
			opIDs[op.OperationID] = key
		}
	}

	registered := map[string]bool{}
	for _, rt := range f.server.Routes() {
		registered[rt.Pattern] = true
		method, path, _ := strings.Cut(rt.Pattern, " ")
		op, ok := documented[rt.Pattern]
		if !ok {
			t.Errorf("route %q is registered but not in internal/api/openapi.json: add\n"+
				"  \"paths\": {%q: {%q: {\"operationId\": \"…\", \"summary\": \"…\", %s\"responses\": {…}}}}",
				rt.Pattern, path, strings.ToLower(method), securityHint(rt.Public))
			continue
		}
		public := op.Security != nil && len(*op.Security) == 0
		if public != rt.Public {
			t.Errorf("openapi.json %s: route Public=%v but the operation %s", rt.Pattern, rt.Public,
				map[bool]string{true: `says "security": [] (no key); remove that line`, false: `needs "security": [] (it needs no key)`}[public])
		}
	}
	var stale []string
	for key := range documented {
		if !registered[key] {
			stale = append(stale, key)
		}
	}
	sort.Strings(stale)
	for _, key := range stale {
		method, path, _ := strings.Cut(key, " ")
		t.Errorf("internal/api/openapi.json documents %s but no such route is registered: add it to "+
			"Server.routes (internal/api/routes.go) or delete paths[%q][%q]", key, path, strings.ToLower(method))
	}
}

func securityHint(public bool) string {
	if public {
		return `"security": [], `
	}
	return ""
}
