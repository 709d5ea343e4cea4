package store

import (
	"context"
	"testing"
	"time"
)

// TestCheckUsageMigration: on a database whose checks each have the usage
// row earlier builds wrote, migration 00430 leaves every call counted
// once — the kept checks by their own rows, a removed check and another
// kind by theirs — on both engines, and going down gives the kept checks
// their usage rows back (what an earlier build reads), and up again.
func TestCheckUsageMigration(t *testing.T) {
	t.Parallel()
	for _, engine := range []string{EngineSQLite, EnginePostgres} {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db, open, p := migrationDB(t, engine, 429)
			at := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC).UnixMicro()
			for _, q := range []string{
				`INSERT INTO accounts (id, name, created_at) VALUES ('a', 'A', 1), ('b', 'B', 1)`,
				`INSERT INTO eligibility_checks (id, account_id, key_id, mode, status, http_status, created_at, cost_micros)
					VALUES ('c1', 'a', 'kt', 'test', 'active', 200, ` + itoa(at) + `, 0),
					('c2', 'a', 'kp', 'production', 'active', 200, ` + itoa(at+1) + `, 100000),
					('c3', 'b', 'kb', 'test', 'active', 200, ` + itoa(at+2) + `, 0)`,
				`INSERT INTO usage (id, account_id, key_id, mode, kind, ref_id, cost_micros, created_at)
					VALUES ('u1', 'a', 'kt', 'test', 'eligibility_check', 'c1', 0, ` + itoa(at) + `),
					('u2', 'a', 'kp', 'production', 'eligibility_check', 'c2', 100000, ` + itoa(at+1) + `),
					('u3', 'b', 'kb', 'test', 'eligibility_check', 'c3', 0, ` + itoa(at+2) + `),
					('u0', 'a', 'kp', 'production', 'eligibility_check', 'c0', 100000, ` + itoa(at-1) + `),
					('u4', 'a', 'kp', 'production', 'claim', 'clm', 7000, ` + itoa(at+3) + `)`,
			} {
				execT(t, db, q)
			}
			want := map[string]UsageTotal{
				"kt eligibility_check": {KeyID: "kt", Kind: UsageEligibilityCheck, Mode: ModeTest, Count: 1},
				"kp eligibility_check": {KeyID: "kp", Kind: UsageEligibilityCheck, Mode: ModeProduction, Count: 2, CostMicros: 200000},
				"kp claim":             {KeyID: "kp", Kind: "claim", Mode: ModeProduction, Count: 1, CostMicros: 7000},
			}
			rows := func() (n int) {
				t.Helper()
				if err := db.QueryRowContext(ctx, `SELECT count(*) FROM usage WHERE kind = 'eligibility_check'`).Scan(&n); err != nil {
					t.Fatal(err)
				}
				return n
			}
			check := func(when string, wantRows int) {
				t.Helper()
				s := openT(t, open, when)
				defer s.Close()
				if n := rows(); n != wantRows {
					t.Errorf("%s: %d eligibility usage rows stored, want %d", when, n, wantRows)
				}
				totals, err := s.UsageByKey(ctx, "a", time.Time{}, time.Time{})
				if err != nil || len(totals) != len(want) {
					t.Fatalf("%s: usage %+v %v", when, totals, err)
				}
				for _, got := range totals {
					if got != want[got.KeyID+" "+got.Kind] {
						t.Errorf("%s: usage %+v, want %+v", when, got, want[got.KeyID+" "+got.Kind])
					}
				}
				if u, err := s.ListUsage(ctx, "a"); err != nil || len(u) != 4 {
					t.Errorf("%s: a's usage records %+v %v", when, u, err)
				}
				if u, err := s.ListUsage(ctx, "b"); err != nil || len(u) != 1 || u[0].RefID != "c3" {
					t.Errorf("%s: b's usage records %+v %v", when, u, err)
				}
			}
			check("after the migration", 1) // only c0's: its check is gone
			if _, err := p.DownTo(ctx, 429); err != nil {
				t.Fatalf("down: %v", err)
			}
			if n := rows(); n != 4 {
				t.Errorf("down: %d eligibility usage rows, want one per check (3) and c0's", n)
			}
			check("down and up again", 1)
		})
	}
}
