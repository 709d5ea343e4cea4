package payers_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/clearhouse/clearhouse/internal/payers"
)

func ExampleDirectory_Lookup() {
	p, ok := payers.Default().Lookup("g84980")
	fmt.Println(ok, p.ID, p.Name, p.DependentPlacement, p.Supports(payers.Eligibility))
	// Output: true G84980 Blue Cross Blue Shield of Texas subscriber true
}

func ExampleRouter_Route() {
	// An operator's override file names the production connection of UHC.
	dir, _ := payers.Default().WithOverrides([]byte(`{"payers": [{"id": "87726", "connection": "uhc-core"}]}`))
	mock := payers.ConnectionFunc(func(ctx context.Context, x12 []byte) ([]byte, error) { return []byte("mock 271"), nil })
	core := payers.ConnectionFunc(func(ctx context.Context, x12 []byte) ([]byte, error) { return []byte("payer 271"), nil })
	r, _ := payers.NewRouter(dir, mock, map[string]payers.Connection{"uhc-core": core})

	for _, mode := range []payers.Mode{payers.ModeTest, payers.ModeProduction} {
		route, _ := r.Route(mode, "87726", payers.Eligibility)
		fmt.Println(mode, "→", route.ConnectionName)
	}
	_, err := r.Route(payers.ModeProduction, "60054", payers.Eligibility)
	fmt.Println(errors.Is(err, payers.ErrNotConfigured), err)
	// Output:
	// test → mock
	// production → uhc-core
	// true Payer 60054 is not configured: no production connection is configured for this payer
}
