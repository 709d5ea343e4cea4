package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/testenv"
)

// TestMigrationsKeepRows: rows stored before migrations 300–302 (usage,
// the audit chain, a check in TEXT columns) read the same after them, on
// both engines, and 301 goes down and up again without losing them.
func TestMigrationsKeepRows(t *testing.T) {
	t.Parallel()
	for _, engine := range []string{EngineSQLite, EnginePostgres} {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db, open, p := migrationDB(t, engine, 299)
			at := time.Now().UTC().Truncate(time.Microsecond)
			for _, q := range []string{
				`INSERT INTO accounts (id, name, created_at) VALUES ('a', 'A', 1)`,
				`INSERT INTO usage (id, account_id, key_id, mode, kind, ref_id, cost_micros, created_at)
					VALUES ('u1', 'a', 'k', 'production', 'eligibility_check', 'c0', 5, 10),
					('u2', 'a', 'k', 'test', 'eligibility_check', 'c2', 0, 20)`,
				`INSERT INTO audit_events (id, account_id, seq, mode, actor_type, actor_id, action, resource_type, occurred_at, prev_hash, hash)
					VALUES ('e1', 'a', 1, 'test', 'key', 'k', 'read', 'check', 30, '', 'h1'),
					('e2', 'a', 2, 'test', 'key', 'k', 'read', 'check', 40, 'h1', 'h2')`,
				`INSERT INTO audit_heads (account_id, seq, hash) VALUES ('a', 2, 'h2')`,
				`INSERT INTO eligibility_checks (id, account_id, key_id, mode, status, request_json, x12_request, x12_response,
					response_json, http_status, created_at) VALUES ('c1', 'a', 'k', 'production', 'active', '{"a":1}', 'ISA*~',
					'ISA*271~', '{"b":2}', 200, ` + itoa(at.UnixMicro()) + `)`,
			} {
				execT(t, db, q)
			}
			check := func(when string) {
				t.Helper()
				s := openT(t, open, when)
				defer s.Close()
				u, err := s.ListUsage(ctx, "a")
				// u1 and u2 are of checks no longer kept, c1 is its own (00430).
				if err != nil || len(u) != 3 || u[0].ID != "u1" || u[1].CostMicros != 0 || u[0].CostMicros != 5 || u[2].RefID != "c1" {
					t.Errorf("%s: usage %+v %v", when, u, err)
				}
				var seqs []int64
				err = s.ScanAuditChain(ctx, "a", func(e AuditEvent) error { seqs = append(seqs, e.Seq); return nil })
				if err != nil || len(seqs) != 2 || seqs[0] != 1 || seqs[1] != 2 {
					t.Errorf("%s: audit chain %v %v", when, seqs, err)
				}
				c, err := s.GetEligibilityCheck(ctx, "a", "c1")
				if err != nil || string(c.RequestJSON) != `{"a":1}` || string(c.X12Response) != "ISA*271~" ||
					string(c.ResponseJSON) != `{"b":2}` || string(c.X12Request) != "ISA*~" || !c.CreatedAt.Equal(at) {
					t.Errorf("%s: check %+v %v", when, c, err)
				}
			}
			check("after the migrations") // OpenSQLite/OpenPostgres ran the rest
			if _, err := p.DownTo(ctx, 300); err != nil {
				t.Fatalf("down: %v", err)
			}
			if _, err := p.DownTo(ctx, 299); err != nil {
				t.Fatalf("down: %v", err)
			}
			check("down and up again")
		})
	}
}

func itoa(n int64) string { return fmt.Sprint(n) }

// migrationSchema is a new PostgreSQL schema of the test database, dropped
// when the test ends, as a URL whose connections use it.
func migrationSchema(t *testing.T) string {
	t.Helper()
	base := testenv.PostgresURL(t)
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	schema := "migrate_" + NewID()
	if _, err := admin.Exec(`CREATE SCHEMA ` + schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		admin.Exec(`DROP SCHEMA ` + schema + ` CASCADE`)
		admin.Close()
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
