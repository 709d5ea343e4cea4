package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// testAuditChains: appends from many goroutines line up one after another
// in each account's chain (LockAuditChain holds it until the commit), each
// naming the hash before it; lists filter, page and stay in their account.
func testAuditChains(t *testing.T, s store.Store) {
	ctx := context.Background()
	a, b := newAccount(t, s, "audit-a"), newAccount(t, s, "audit-b")
	base := time.Now().UTC().Truncate(time.Microsecond)
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			account := a.ID
			if i%4 == 0 {
				account = b.ID
			}
			errs <- s.GroupInTx(ctx, func(tx store.Queries) error {
				seq, prev, err := tx.LockAuditChain(ctx, account)
				if err != nil {
					return err
				}
				action := "read"
				if i%2 == 1 {
					action = "create"
				}
				return tx.AppendAuditEvent(ctx, store.AuditEvent{ID: store.NewID(), AccountID: account, Seq: seq + 1, Mode: store.ModeTest,
					ActorType: "api_key", ActorID: "k", Action: action, ResourceType: "claim", ResourceID: fmt.Sprint("r", i),
					At: base.Add(time.Duration(i) * time.Millisecond), PrevHash: prev, Hash: fmt.Sprintf("%s>%d", prev, seq+1)})
			})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	for account, want := range map[string]int64{a.ID: 30, b.ID: 10} {
		var n int64
		prev := ""
		err := s.ScanAuditChain(ctx, account, func(e store.AuditEvent) error {
			n++
			if e.Seq != n || e.PrevHash != prev || e.Hash != fmt.Sprintf("%s>%d", prev, n) || e.AccountID != account {
				return fmt.Errorf("event %d: %+v", n, e)
			}
			prev = e.Hash
			return nil
		})
		if err != nil || n != want {
			t.Fatalf("chain of %s: %d events, %v; want %d", account, n, err, want)
		}
	}
	heads, err := s.AuditChains(ctx)
	if err != nil || len(heads) < 2 {
		t.Fatalf("heads %v %v", heads, err)
	}
	// Filters and pages, newest first, within the account.
	var got []string
	cursor := ""
	for {
		list, next, err := s.ListAuditEvents(ctx, a.ID, store.AuditFilter{Action: "create", Limit: 7, Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range list {
			got = append(got, e.ResourceID)
		}
		if next == "" {
			break
		}
		cursor = next
	}
	if len(got) != 20 || got[0] != "r39" || got[19] != "r1" {
		t.Fatalf("creates of account a, newest first: %v", got)
	}
	list, _, err := s.ListAuditEvents(ctx, b.ID, store.AuditFilter{ResourceID: "r4", From: base, To: base.Add(time.Second)})
	if err != nil || len(list) != 1 || list[0].AccountID != b.ID {
		t.Fatalf("account b, r4: %+v %v", list, err)
	}
	if list, _, _ := s.ListAuditEvents(ctx, b.ID, store.AuditFilter{ResourceID: "r1"}); len(list) != 0 {
		t.Fatalf("account b sees account a's event: %+v", list)
	}
}
