package store_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// Open the embedded default (SQLite in a data directory), record checks and
// page through them newest first. The same calls work on PostgreSQL:
// store.Open(ctx, "", "postgres://…").
func Example() {
	ctx := context.Background()
	dataDir, _ := os.MkdirTemp("", "clearhouse-example")
	defer os.RemoveAll(dataDir)
	s, err := store.Open(ctx, dataDir, "")
	if err != nil {
		panic(err)
	}
	defer s.Close()

	now := time.Date(2026, 1, 2, 9, 0, 0, 0, time.UTC)
	acct := store.Account{ID: store.NewID(), Name: "Demo Clinic", CreatedAt: now}
	key := store.APIKey{ID: "k1", AccountID: acct.ID, Mode: store.ModeTest, Hash: "…", CreatedAt: now}
	err = s.InTx(ctx, func(tx store.Queries) error {
		if err := tx.CreateAccount(ctx, acct); err != nil {
			return err
		}
		return tx.CreateAPIKey(ctx, key)
	})
	if err != nil {
		panic(err)
	}
	for i, payer := range []string{"87726", "62308", "60054"} {
		err := s.InsertEligibilityCheck(ctx, store.EligibilityCheck{
			ID: store.NewID(), AccountID: acct.ID, KeyID: key.ID, Mode: key.Mode,
			TradingPartnerServiceID: payer, Status: "active", HTTPStatus: 200,
			CreatedAt: now.Add(time.Duration(i) * time.Minute),
		})
		if err != nil {
			panic(err)
		}
	}
	cursor := ""
	for page := 1; ; page++ {
		checks, next, err := s.ListEligibilityChecks(ctx, acct.ID, store.EligibilityFilter{Limit: 2, Cursor: cursor})
		if err != nil {
			panic(err)
		}
		for _, c := range checks {
			fmt.Println("page", page, c.TradingPartnerServiceID, c.CreatedAt.Format("15:04"))
		}
		if next == "" {
			break
		}
		cursor = next
	}
	// Output:
	// page 1 60054 09:02
	// page 1 62308 09:01
	// page 2 87726 09:00
}
