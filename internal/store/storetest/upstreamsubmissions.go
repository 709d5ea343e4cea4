package storetest

import (
	"errors"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// An execution's upstream submissions: a try is counted on each move to
// SENDING, an ACCEPTED row never changes again (the claim is never sent
// twice), rows list oldest first, and another account or mode sees none.
func testUpstreamSubmissions(t *testing.T, s store.Store) {
	a, _ := Seed(t, s, store.ModeProduction)
	mark := func(conn, state, msg string, at time.Duration) error {
		return s.MarkUpstreamSubmission(ctx, store.UpstreamSubmission{AccountID: a.ID, Mode: store.ModeProduction,
			ExecutionID: "exec-1", ConnectionID: conn, State: state, Message: msg, UpdatedAt: t0.Add(at * time.Second)})
	}
	must(t, mark("up-b", store.UpstreamSending, "", 0))
	must(t, mark("up-b", store.UpstreamNotAccepted, "connection refused", 1))
	must(t, mark("up-c", store.UpstreamSending, "", 2))
	must(t, mark("up-c", store.UpstreamSending, "no answer within 5s", 3)) // the retry of an ambiguous outcome
	must(t, mark("up-c", store.UpstreamAccepted, "File was accepted by upstream connection up-c", 4))
	if err := mark("up-c", store.UpstreamSending, "", 5); !errors.Is(err, store.ErrConflict) {
		t.Errorf("an ACCEPTED row was moved back to SENDING: %v", err)
	}
	if err := mark("up-c", store.UpstreamNotAccepted, "", 5); !errors.Is(err, store.ErrConflict) {
		t.Errorf("an ACCEPTED row was moved to NOT_ACCEPTED: %v", err)
	}
	got, err := s.ListUpstreamSubmissions(ctx, a.ID, store.ModeProduction, "exec-1")
	must(t, err)
	if len(got) != 2 {
		t.Fatalf("rows: %+v", got)
	}
	b, c := got[0], got[1]
	if b.ConnectionID != "up-b" || b.State != store.UpstreamNotAccepted || b.Tries != 1 || b.Message != "connection refused" ||
		!b.CreatedAt.Equal(t0) || !b.UpdatedAt.Equal(t0.Add(1e9)) {
		t.Errorf("up-b: %+v", b)
	}
	if c.ConnectionID != "up-c" || c.State != store.UpstreamAccepted || c.Tries != 2 || !c.CreatedAt.Equal(t0.Add(2e9)) {
		t.Errorf("up-c: %+v", c)
	}
	for _, o := range []struct{ account, mode string }{{"other-account", store.ModeProduction}, {a.ID, store.ModeTest}} {
		if rows, err := s.ListUpstreamSubmissions(ctx, o.account, o.mode, "exec-1"); err != nil || len(rows) != 0 {
			t.Errorf("%s/%s lists the owner's submissions: %v %v", o.account, o.mode, rows, err)
		}
	}
	if rows, err := store.ForTenant(s, store.Scope{AccountID: a.ID, Mode: store.ModeTest}).UpstreamSubmissions(ctx, "exec-1"); err != nil || len(rows) != 0 {
		t.Errorf("the account's test mode reads its production submissions: %v %v", rows, err)
	}
}
