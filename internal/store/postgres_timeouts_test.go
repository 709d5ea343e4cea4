package store_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
	"github.com/clearhouse/clearhouse/internal/testenv"
)

// TestPostgresStalledServerFailsFast: a server that accepts TCP and never
// answers fails the open within the connect timeout, with a line that says
// so, instead of hanging.
func TestPostgresStalledServerFailsFast(t *testing.T) {
	u, err := url.Parse(testenv.PostgresURL(t))
	if err != nil {
		t.Fatal(err)
	}
	proxy := testenv.NewProxy(t, u.Host)
	proxy.Stall()
	u.Host = proxy.Addr()
	start := time.Now()
	_, err = store.OpenPostgresWith(context.Background(), u.String(), store.PostgresTimeouts{Connect: time.Second})
	took := time.Since(start)
	if err == nil || took > 4*time.Second {
		t.Fatalf("open of a stalled server: err %v after %s, want a failure within seconds", err, took)
	}
	if !strings.Contains(err.Error(), "timeout") || !store.IsUnavailable(err) {
		t.Errorf("the error does not say what happened: %v", err)
	}
	t.Logf("failed after %s: %v", took.Round(time.Millisecond), err)
}

// TestPostgresLockedTableTimesOut: with a table locked by someone else,
// writes and reads give up after the statement timeout with an error that
// IsUnavailable (so the API answers 503), instead of waiting on the lock.
func TestPostgresLockedTableTimesOut(t *testing.T) {
	testenv.PostgresURL(t)
	s := storetest.PostgresVia(t, "", "statement_timeout", "300")
	a, k := storetest.Seed(t, s, store.ModeTest)
	storetest.LockTable(t, s, "eligibility_checks")
	ctx := context.Background()
	start := time.Now()
	err := s.InsertEligibilityCheck(ctx, store.EligibilityCheck{ID: store.NewID(), AccountID: a.ID, KeyID: k.ID,
		Mode: store.ModeTest, Status: "active", HTTPStatus: 200, CreatedAt: time.Now()})
	if err == nil || !store.IsUnavailable(err) || time.Since(start) > 3*time.Second {
		t.Fatalf("insert into a locked table: %v after %s", err, time.Since(start))
	}
	_, _, err = s.ListEligibilityChecks(ctx, a.ID, store.EligibilityFilter{})
	if err == nil || !store.IsUnavailable(err) {
		t.Fatalf("list of a locked table: %v", err)
	}
}
