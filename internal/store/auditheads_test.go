package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"testing"
	"time"
)

// TestAuditHeadsFollowTheRoundsSavepoints: callers sharing one commit
// append to their accounts' chains; a caller that fails after appending
// is rolled back to its savepoint, and the next caller continues the
// chain from the event before it. The chains and their heads as stored
// (and as AuditChains reads them inside the transaction, before they are
// written) are whole. The callers arrive one by one while an fsync is held,
// so they share a round in this order.
func TestAuditHeadsFollowTheRoundsSavepoints(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		failing map[int]bool // callers that fail after appending
	}{
		{"none fails", nil},
		{"the first fails", map[int]bool{0: true}},
		{"two in the middle fail", map[int]bool{2: true, 3: true}},
		{"the last fails", map[int]bool{7: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			s := openTestSQLite(t)
			for _, id := range []string{"acct-a", "acct-b"} {
				if err := s.CreateAccount(ctx, Account{ID: id, Name: id, CreatedAt: time.Now()}); err != nil {
					t.Fatal(err)
				}
			}
			boom := errors.New("boom")
			const n = 8
			fns := make([]func(tx Queries) error, n)
			for i := range n {
				account := "acct-a"
				if i%3 == 2 {
					account = "acct-b"
				}
				fns[i] = func(tx Queries) error {
					seq, prev, err := tx.LockAuditChain(ctx, account)
					if err != nil {
						return err
					}
					e := AuditEvent{ID: NewID(), AccountID: account, Seq: seq + 1, Mode: ModeTest, ActorType: "api_key",
						ActorID: "k", Action: "read", ResourceType: "check", ResourceID: strconv.Itoa(i),
						At: time.Now().UTC().Truncate(time.Microsecond), PrevHash: prev, Hash: fmt.Sprintf("%s>%d", prev, seq+1)}
					if err := tx.AppendAuditEvent(ctx, e); err != nil {
						return err
					}
					heads, err := tx.AuditChains(ctx)
					if err != nil {
						return err
					}
					for _, h := range heads {
						if h.AccountID == account && (h.Seq != e.Seq || h.Hash != e.Hash) {
							return fmt.Errorf("inside the transaction the head is %+v, want %d %q", h, e.Seq, e.Hash)
						}
					}
					if tc.failing[i] {
						return boom
					}
					return nil
				}
			}
			want := map[string]int64{}
			for i, err := range inOneRound(t, s, fns) {
				switch {
				case tc.failing[i] && !errors.Is(err, boom):
					t.Errorf("caller %d: %v, want %v", i, err, boom)
				case !tc.failing[i] && err != nil:
					t.Errorf("caller %d: %v", i, err)
				case !tc.failing[i]:
					account := "acct-a"
					if i%3 == 2 {
						account = "acct-b"
					}
					want[account]++
				}
			}
			heads, err := s.AuditChains(ctx)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]AuditHead{}
			for _, h := range heads {
				got[h.AccountID] = h
			}
			for _, account := range []string{"acct-a", "acct-b"} {
				var seq int64
				prev := ""
				err := s.ScanAuditChain(ctx, account, func(e AuditEvent) error {
					seq++
					if e.Seq != seq || e.PrevHash != prev || e.Hash != fmt.Sprintf("%s>%d", prev, seq) {
						return fmt.Errorf("event %d: %+v", seq, e)
					}
					prev = e.Hash
					return nil
				})
				if err != nil {
					t.Fatalf("%s: %v", account, err)
				}
				if seq != want[account] {
					t.Errorf("%s: %d events, want %d", account, seq, want[account])
				}
				if h, ok := got[account]; want[account] > 0 && (!ok || h.Seq != seq || h.Hash != prev) {
					t.Errorf("%s: head %+v, want %d %q", account, h, seq, prev)
				}
			}
		})
	}
}
