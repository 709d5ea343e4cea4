package claims

import (
	"fmt"
	"strings"
)

// providerRole is one provider object of a medical claim and the JSON path
// its problems are reported under: the role's own field ("/billing") or its
// place in the deprecated providers[] list ("/providers/0").
type providerRole struct {
	p    *Provider
	path string
}

// providerRoles resolves the claim-level providers of a medical request:
// each role's own field wins; otherwise the first providers[] entry whose
// providerType names the role (BillingProvider, RenderingProvider…).
func providerRoles(list []Provider, fields map[string]*Provider) map[string]providerRole {
	roles := map[string]providerRole{}
	for role, p := range fields {
		if p != nil {
			roles[role] = providerRole{p: p, path: "/" + role}
		}
	}
	for i := range list {
		role := strings.TrimSuffix(strings.TrimSuffix(list[i].ProviderType, "Provider"), "Physician")
		if role == "" {
			continue
		}
		role = strings.ToLower(role[:1]) + role[1:]
		if _, ok := roles[role]; !ok {
			roles[role] = providerRole{p: &list[i], path: fmt.Sprintf("/providers/%d", i)}
		}
	}
	return roles
}

// checkProviderTypes refuses a providers[] entry whose role the claim type
// has no loop for.
func checkProviderTypes(c *checker, list []Provider, known []string) {
	for i, p := range list {
		if !in(known, p.ProviderType) {
			c.add(fmt.Sprintf("/providers/%d/providerType", i), "%q is not a provider role of the %s; use one of %s", p.ProviderType, c.form, strings.Join(known, ", "))
		}
	}
}
