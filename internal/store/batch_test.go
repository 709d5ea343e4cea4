package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestCheckBatchWithADuplicate: when one check of a batch cannot be
// inserted, the others are still committed and only that one fails.
func TestCheckBatchWithADuplicate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTestSQLite(t)
	now := time.Now().UTC()
	if err := s.CreateAccount(ctx, Account{ID: "a", Name: "A", CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	check := func(id string) EligibilityCheck {
		return EligibilityCheck{ID: id, AccountID: "a", KeyID: "k", Mode: ModeTest, Status: "active", CreatedAt: now}
	}
	if err := s.InsertEligibilityCheck(ctx, check("dup")); err != nil {
		t.Fatal(err)
	}
	var batch []*pendingCheck
	for _, id := range []string{"one", "dup", "two"} {
		batch = append(batch, &pendingCheck{check: check(id), err: make(chan error, 1)})
	}
	s.checks.commit(batch)
	for _, p := range batch {
		err := <-p.err
		if p.check.ID == "dup" {
			if !errors.Is(err, ErrConflict) {
				t.Errorf("duplicate: %v, want ErrConflict", err)
			}
		} else if err != nil {
			t.Errorf("%s: %v", p.check.ID, err)
		} else if _, err := s.GetEligibilityCheck(ctx, "a", p.check.ID); err != nil {
			t.Errorf("%s not stored: %v", p.check.ID, err)
		}
	}
	s.Close()
	if err := s.InsertEligibilityCheck(ctx, check("late")); !errors.Is(err, errStoreClosed) {
		t.Errorf("insert after Close: %v", err)
	}
}
