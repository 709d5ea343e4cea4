package store

import (
	"context"
	"testing"
	"time"
)

// BenchmarkUsageByKey sums a month of one account's usage: 20,000 checks
// (of two keys, both modes) among another account's 20,000. The sums read
// the checks' mode/time index alone (usage.go), never their ~2.4 KB rows.
func BenchmarkUsageByKey(b *testing.B) {
	ctx := context.Background()
	s := openTestSQLite(b)
	from := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	var accounts [2]string
	for i := range accounts {
		accounts[i] = NewID()
		if err := s.CreateAccount(ctx, Account{ID: accounts[i], Name: accounts[i], CreatedAt: from}); err != nil {
			b.Fatal(err)
		}
	}
	const perAccount, perTx = 20000, 1000
	payload := make([]byte, 2000)
	for i := range payload {
		payload[i] = byte(i * 7919 >> 3) // S2 keeps it ~2 KB, as a real answer
	}
	for n := 0; n < perAccount; n += perTx {
		err := s.InTx(ctx, func(tx Queries) error {
			for i := n; i < n+perTx; i++ {
				for k, acct := range accounts {
					mode, key := ModeTest, "key_test"
					if i%4 == 0 {
						mode, key = ModeProduction, "key_live"
					}
					c := EligibilityCheck{ID: NewID(), AccountID: acct, KeyID: key, Mode: mode, Status: "active",
						ResponseJSON: payload, HTTPStatus: 200, CostMicros: 100000, MemberID: "M1",
						CreatedAt: from.Add(time.Duration(i*2+k) * 60 * time.Millisecond)}
					if err := tx.InsertEligibilityCheck(ctx, c); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for range b.N {
		totals, err := s.UsageByKey(ctx, accounts[0], from, from.AddDate(0, 1, 0))
		if err != nil {
			b.Fatal(err)
		}
		var n int64
		for _, t := range totals {
			n += t.Count
		}
		if n != perAccount {
			b.Fatalf("%d calls summed, want %d: %+v", n, perAccount, totals)
		}
	}
}
