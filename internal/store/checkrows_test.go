package store

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

// TestRoundRecordsAChecksRowsInOneStatement: callers sharing a round each
// record a check and the audit event about it, as the API does. One that
// does nothing else writes its check, usage row and event with one INSERT
// and no SAVEPOINT; one that fails afterwards, reads its check back, or
// records a check whose id is taken keeps its own outcome: its rows all
// or none, its error its own, the other callers' rows and the audit chain
// whole.
func TestRoundRecordsAChecksRowsInOneStatement(t *testing.T) {
	t.Parallel()
	const (
		plain        = "plain"
		failsAfter   = "fails after"
		readsBack    = "reads back"
		readsAndFail = "reads back and fails"
		takenID      = "taken id"
	)
	callers := []string{plain, failsAfter, plain, readsBack, takenID, plain, readsAndFail, plain}
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
	savepoints, rows := s.rounds.savepoints.Load(), s.rounds.checkRows.Load()
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
		t.Errorf("%d usage rows, want %d (the taken check's and the %d kept)", len(usage), kept+1, kept)
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
	// chain's head row. Every caller's check went in with one INSERT into
	// check_rows.
	if got := s.rounds.savepoints.Load() - savepoints; got != 3 {
		t.Errorf("%d SAVEPOINTs, want 3 (the callers that read back, the one that made the chain's head)", got)
	}
	if got := s.rounds.checkRows.Load() - rows; got != int64(len(callers)-1) {
		t.Errorf("%d check_rows INSERTs, want %d (all but the one that failed with its check still deferred)", got, len(callers)-1)
	}
}

// TestCheckRowsOnANewWriterConnection: check_rows is a TEMP view of the
// writer's connection; a connection the pool opens later (after it
// dropped one, as it does after an interrupted statement) has it too.
func TestCheckRowsOnANewWriterConnection(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTestSQLite(t)
	if err := s.CreateAccount(ctx, Account{ID: "acct", Name: "acct", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	s.writer.SetMaxIdleConns(0) // closes the idle connection
	s.writer.SetMaxIdleConns(1)
	if n := s.writer.Stats().OpenConnections; n != 0 {
		t.Fatalf("%d writer connections open, want 0", n)
	}
	rows := s.rounds.checkRows.Load()
	c := EligibilityCheck{ID: "check", AccountID: "acct", KeyID: "k", Mode: ModeTest, CreatedAt: time.Now()}
	if err := s.GroupInTx(ctx, func(tx Queries) error { return tx.InsertEligibilityCheck(ctx, c) }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetEligibilityCheck(ctx, "acct", "check"); err != nil {
		t.Fatal(err)
	}
	if s.rounds.checkRows.Load() != rows+1 {
		t.Error("the check did not go through check_rows")
	}
}

// TestCheckRowsMissingOnTheConnection: a writer connection without
// check_rows (opened while another OpenSQLite of the same file was
// migrating it) makes it when a round first needs it, and the check is
// stored with its usage row and audit event.
func TestCheckRowsMissingOnTheConnection(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTestSQLite(t)
	if err := s.CreateAccount(ctx, Account{ID: "acct", Name: "acct", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	err := s.inTx(ctx, func(q *queries) error {
		_, err := q.w.exec(ctx, `DROP VIEW temp.check_rows`) // drops its trigger too
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 { // the first makes check_rows, the second finds it
		c := EligibilityCheck{ID: fmt.Sprint("check-", i), AccountID: "acct", KeyID: "k", Mode: ModeTest, CreatedAt: time.Now()}
		err := s.GroupInTx(ctx, func(tx Queries) error {
			if err := tx.InsertEligibilityCheck(ctx, c); err != nil {
				return err
			}
			seq, prev, err := tx.LockAuditChain(ctx, "acct")
			if err != nil {
				return err
			}
			return tx.AppendAuditEvent(ctx, AuditEvent{ID: NewID(), AccountID: "acct", Seq: seq + 1, Mode: ModeTest,
				ActorType: "api_key", ActorID: "k", Action: "create", ResourceType: "eligibility_check", ResourceID: c.ID,
				At: time.Now(), PrevHash: prev, Hash: fmt.Sprint(seq + 1)})
		})
		if err != nil {
			t.Fatalf("check %d: %v", i, err)
		}
		if _, err := s.GetEligibilityCheck(ctx, "acct", c.ID); err != nil {
			t.Fatalf("check %d: %v", i, err)
		}
	}
	usage, err := s.ListUsage(ctx, "acct")
	if err != nil || len(usage) != 2 {
		t.Errorf("usage rows %v (%v), want 2", usage, err)
	}
	heads, err := s.AuditChains(ctx)
	if err != nil || len(heads) != 1 || heads[0].Seq != 2 {
		t.Errorf("heads %+v (%v), want the chain at 2", heads, err)
	}
}
