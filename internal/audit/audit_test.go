package audit_test

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/audit"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// TestVerifyFindsTampering: a chain verifies until an event is changed,
// removed from the middle or the end, or the chain is reordered; Verify
// names the first event that no longer fits.
func TestVerifyFindsTampering(t *testing.T) {
	tamper := []struct {
		name    string
		sql     string
		seq     int64
		because string
	}{
		{"changed", `UPDATE audit_events SET resource_id = 'someone-else' WHERE seq = 3`, 3, "content does not match"},
		{"removed", `DELETE FROM audit_events WHERE seq = 2`, 2, "removed or reordered"},
		{"truncated", `DELETE FROM audit_events WHERE seq = 5`, 5, "removed at the end"},
		{"rehashed without its successor", `UPDATE audit_events SET action = 'list', hash = 'x' WHERE seq = 4`, 4, "content does not match"},
	}
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		for _, tt := range tamper {
			t.Run(tt.name, func(t *testing.T) {
				ctx := context.Background()
				st := open(t)
				acct, _ := storetest.Seed(t, st, store.ModeTest)
				rec := audit.New(st, nil)
				for _, id := range []string{"c1", "c2", "c3", "c4", "c5"} {
					if _, err := rec.Record(ctx, audit.Entry{AccountID: acct.ID, Mode: store.ModeTest, ActorType: audit.ActorAPIKey,
						ActorID: "key", Action: audit.ActionRead, ResourceType: audit.ResourceClaim, ResourceID: id, Status: 200}); err != nil {
						t.Fatal(err)
					}
				}
				if n, err := audit.Verify(ctx, st, acct.ID); err != nil || n != 5 {
					t.Fatalf("untouched chain: %d, %v", n, err)
				}
				driver, dsn, _ := storetest.Database(st)
				db, err := sql.Open(driver, dsn)
				if err != nil {
					t.Fatal(err)
				}
				defer db.Close()
				if _, err := db.Exec(tt.sql); err != nil {
					t.Fatal(err)
				}
				_, err = audit.Verify(ctx, st, acct.ID)
				var broken *audit.BrokenChain
				if !errors.As(err, &broken) || broken.Seq != tt.seq || !strings.Contains(err.Error(), tt.because) {
					t.Errorf("after the change: %v; want broken at %d (%s)", err, tt.seq, tt.because)
				}
			})
		}
	})
}

// TestCanonicalFormIsStable pins the hashed form: changing it would break
// every stored chain.
func TestCanonicalFormIsStable(t *testing.T) {
	e := store.AuditEvent{ID: "01", AccountID: "a", Seq: 1, Mode: "test", ActorType: "api_key", ActorID: "k", RemoteAddr: "127.0.0.1:1",
		Action: "read", ResourceType: "claim", ResourceID: "c", Route: "GET /x/{id}", Status: 200}
	want := `["01","a",1,"test","api_key","k","127.0.0.1:1","read","claim","c","GET /x/{id}",200,-62135596800000000]`
	if got := string(audit.Canonical(e)); got != want {
		t.Errorf("canonical %s, want %s", got, want)
	}
	if h := audit.Hash("", e); len(h) != 64 || h == audit.Hash("x", e) {
		t.Errorf("hash %q", h)
	}
}
