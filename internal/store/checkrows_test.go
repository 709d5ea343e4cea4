package store

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

// TestRoundRecordsAChecksRowsWithoutSavepoints: callers sharing a round
// each record a check and the audit event about it, as the API does. One
// that does nothing else writes its check and event without a SAVEPOINT;
// one that fails afterwards, reads its check back, records a check whose
// id is taken, or an audit event whose place in the chain is taken (after
// its check went in) keeps its own outcome:
// its rows all or none, its error its own, the other callers' rows and
// the audit chain whole.
func TestRoundRecordsAChecksRowsWithoutSavepoints(t *testing.T) {
	t.Parallel()
	const (
		plain        = "plain"
		failsAfter   = "fails after"
		readsBack    = "reads back"
		readsAndFail = "reads back and fails"
		takenID      = "taken id"
		takenSeq     = "taken seq"
	)
	callers := []string{plain, failsAfter, takenSeq, plain, readsBack, takenID, plain, readsAndFail, plain}
	ctx := context.Background()
	s := openTestSQLite(t)
	if err := s.CreateAccount(ctx, Account{ID: "acct", Name: "acct", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	check := func(id string) EligibilityCheck {
		return EligibilityCheck{ID: id, AccountID: "acct", KeyID: "k", Mode: ModeTest, Status: "active",
			RequestJSON: []byte(`{"a":1}`), ResponseJSON: []byte(`{"b":2}`), X12Request: []byte("ISA*~"), HTTPStatus: 200,
			CreatedAt: time.Now().UTC().Truncate(time.Microsecond), MemberID: "M1"}
	}
	taken := check("taken-check")
	if err := s.InsertEligibilityCheck(ctx, taken); err != nil {
		t.Fatal(err)
	}
	savepoints, rows := s.rounds.savepoints.Load(), s.rounds.deferred.Load()
	boom := errors.New("boom")
	fns := make([]func(tx Queries) error, len(callers))
	for i, kind := range callers {
		c := check(fmt.Sprintf("check-%d", i))
		if kind == takenID {
			c.ID = taken.ID
		}
		fns[i] = func(tx Queries) error {
			if err := tx.InsertEligibilityCheck(ctx, c); err != nil {
				return err
			}
			if kind == readsBack || kind == readsAndFail {
				if _, err := tx.GetEligibilityCheck(ctx, c.AccountID, c.ID); err != nil {
					return fmt.Errorf("its own check, read back in its transaction: %w", err)
				}
			}
			seq, prev, err := tx.LockAuditChain(ctx, "acct")
			if err != nil {
				return err
			}
			if kind == takenSeq {
				seq-- // the head's own number: its INSERT fails after the check's
			}
			if err := tx.AppendAuditEvent(ctx, AuditEvent{ID: NewID(), AccountID: "acct", Seq: seq + 1, Mode: ModeTest,
				ActorType: "api_key", ActorID: "k", Action: "create", ResourceType: "eligibility_check", ResourceID: c.ID,
				Status: 200, At: time.Now().UTC().Truncate(time.Microsecond), PrevHash: prev,
				Hash: fmt.Sprintf("%s>%d", prev, seq+1)}); err != nil {
				return err
			}
			if kind == failsAfter || kind == readsAndFail {
				return boom
			}
			return nil
		}
	}
	errs := inOneRound(t, s, fns)
	kept := 0
	for i, kind := range callers {
		err := errs[i]
		id := fmt.Sprintf("check-%d", i)
		_, getErr := s.GetEligibilityCheck(ctx, "acct", id)
		switch kind {
		case failsAfter, readsAndFail:
			if !errors.Is(err, boom) || !errors.Is(getErr, ErrNotFound) {
				t.Errorf("caller %d (%s): err %v, check %v; want boom and no check", i, kind, err, getErr)
			}
		case takenID:
			if !errors.Is(err, ErrConflict) {
				t.Errorf("caller %d (%s): err %v, want ErrConflict", i, kind, err)
			}
		case takenSeq:
			if !errors.Is(err, ErrConflict) || !errors.Is(getErr, ErrNotFound) {
				t.Errorf("caller %d (%s): err %v, check %v; want ErrConflict and no check", i, kind, err, getErr)
			}
		default:
			kept++
			if err != nil || getErr != nil {
				t.Errorf("caller %d (%s): err %v, check %v; want it committed", i, kind, err, getErr)
			}
		}
	}
	usage, err := s.ListUsage(ctx, "acct")
	if err != nil {
		t.Fatal(err)
	}
	if len(usage) != kept+1 {
		t.Errorf("%d usage records, want %d (the taken check's and the %d kept)", len(usage), kept+1, kept)
	}
	for _, u := range usage {
		if _, err := s.GetEligibilityCheck(ctx, "acct", u.RefID); err != nil || u.Kind != UsageEligibilityCheck {
			t.Errorf("usage row %+v: its check %v", u, err)
		}
	}
	var n int64
	prev := ""
	err = s.ScanAuditChain(ctx, "acct", func(e AuditEvent) error {
		n++
		if e.Seq != n || e.PrevHash != prev || e.Hash != fmt.Sprintf("%s>%d", prev, n) || e.Status != 200 {
			return fmt.Errorf("event %d: %+v", n, e)
		}
		if _, err := s.GetEligibilityCheck(ctx, "acct", e.ResourceID); err != nil {
			return fmt.Errorf("event %d is about check %s: %w", n, e.ResourceID, err)
		}
		prev = e.Hash
		return nil
	})
	if err != nil || n != int64(kept) {
		t.Errorf("audit chain: %d events, %v; want %d", n, err, kept)
	}
	heads, err := s.AuditChains(ctx)
	if err != nil || len(heads) != 1 || heads[0].Seq != n || heads[0].Hash != prev {
		t.Errorf("heads %+v (%v), want one at %d %q", heads, err, n, prev)
	}
	// Only the callers that ran another statement needed a SAVEPOINT: the
	// two that read their check back and the first, which made the new
	// chain's head row (the one whose audit event failed had none).
	if got := s.rounds.savepoints.Load() - savepoints; got != 3 {
		t.Errorf("%d SAVEPOINTs, want 3 (the callers that read back, the one that made the chain's head)", got)
	}
	if got := s.rounds.deferred.Load() - rows; got != int64(len(callers)-1) {
		t.Errorf("%d deferred checks written, want %d (all but the one that failed with its check still deferred)", got, len(callers)-1)
	}
}
