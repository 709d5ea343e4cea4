package delivery_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/claims"
	"github.com/clearhouse/clearhouse/internal/claims/claimstest"
	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/delivery"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/services"
	"github.com/clearhouse/clearhouse/internal/store"
)

// world is a whole test-mode system on SQLite and files: core, delivery
// with the MOCK connection, the claims service, a job queue on a fake
// clock.
type world struct {
	t        *testing.T
	st       store.Store
	blobs    blob.Store
	clock    *clock.Fake
	claims   *claims.Service
	account  string
	attempts chan error // one per delivery attempt through MOCK
}

// counting is the MOCK transport reporting each attempt.
type counting struct {
	mock  *delivery.Mock
	calls chan error
}

func (c *counting) Deliver(ctx context.Context, f delivery.File) (string, error) {
	msg, err := c.mock.Deliver(ctx, f)
	c.calls <- err
	return msg, err
}

func (c *counting) Delivered(ctx context.Context, tx store.Queries, f delivery.File) error {
	return c.mock.Delivered(ctx, tx, f)
}

func newWorld(t *testing.T) *world {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	st, err := store.OpenSQLite(ctx, filepath.Join(dir, store.SQLiteFile))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	blobs, err := blob.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	fake := clock.NewFake(time.Date(2026, 11, 23, 14, 0, 0, 0, time.UTC))
	quiet := slogDiscard()
	q := jobs.New(st, jobs.Options{Clock: fake, Logger: quiet, PollInterval: 5 * time.Millisecond, Concurrency: 2})
	c, err := core.New(core.Options{Store: st, Blob: blobs, Jobs: q, Clock: fake, Logger: quiet, Outbound: delivery.EnqueueOn(q)})
	if err != nil {
		t.Fatal(err)
	}
	mock, err := delivery.NewMock(delivery.MockOptions{Payer: services.MockClaimsPayer(mockpayer.New(mockpayer.WithClock(fake.Now))), Core: c, Store: st,
		Blob: blobs, Jobs: q, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	d, err := delivery.New(delivery.Options{Store: st, Blob: blobs, Jobs: q, Clock: fake, Logger: quiet,
		Transports: map[string]delivery.Transport{store.ConnectionMock: &counting{mock: mock, calls: make(chan error, 16)}}})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := claims.NewService(claims.Options{Store: st, Blob: blobs, Clock: fake, Logger: quiet, Outbound: d.Enqueue,
		TestOnlyPayers: []string{mockpayer.UnreachablePayerID}})
	if err != nil {
		t.Fatal(err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { q.Run(runCtx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	w := &world{t: t, st: st, blobs: blobs, clock: fake, claims: svc, account: store.NewID(), attempts: d.Transport(store.ConnectionMock).(*counting).calls}
	if err := st.CreateAccount(ctx, store.Account{ID: w.account, Name: "Demo Clinic", CreatedAt: fake.Now()}); err != nil {
		t.Fatal(err)
	}
	w.partners("52133", "MOCKDOWN", "87726", "62308") // 87726: UnitedHealthcare, for 837P and 837I; 62308: Cigna, the professional example's payer (6400)
	return w
}

func (w *world) partners(payerIDs ...string) {
	must(w.t, claimstest.SetupMockPartners(context.Background(), w.st, w.account, store.ModeTest, payerIDs...))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func (w *world) submit(edit func(r *claims.Request)) *claims.Result {
	w.t.Helper()
	b, err := os.ReadFile("../claims/testdata/example.json")
	must(w.t, err)
	var r claims.Request
	must(w.t, json.Unmarshal(b, &r))
	if edit != nil {
		edit(&r)
	}
	res, err := w.claims.Submit(context.Background(), claims.Submission{Caller: claims.Caller{AccountID: w.account, Mode: store.ModeTest},
		Request: &r, Body: b, Route: "dental-claims/submission"})
	must(w.t, err)
	return res
}

// waitEvents waits until the account has n events and returns their
// detail types, oldest first.
func (w *world) waitEvents(n int) []store.Event {
	w.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		evs, _, err := w.st.ListEvents(context.Background(), w.account, store.EventFilter{Limit: 500})
		must(w.t, err)
		if len(evs) >= n || time.Now().After(deadline) {
			for i, j := 0, len(evs)-1; i < j; i, j = i+1, j-1 {
				evs[i], evs[j] = evs[j], evs[i]
			}
			return evs
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func types(evs []store.Event) string {
	var out []string
	for _, e := range evs {
		out = append(out, e.DetailType)
	}
	return strings.Join(out, " ")
}

func TestAcceptedClaimTravelsTheWholeRoad(t *testing.T) {
	w := newWorld(t)
	res := w.submit(nil)
	if res.Status != 200 || res.Response.Status != "SUCCESS" {
		t.Fatalf("submit: %d %s", res.Status, res.Body)
	}
	evs := w.waitEvents(6)
	// Events of one clock reading list in id order; count them by type.
	got := map[string]int{}
	for _, e := range evs {
		got[e.DetailType]++
	}
	if len(evs) != 6 || got["transaction.processed.v2"] != 3 || got["file.delivered.v2"] != 1 || got["file.processed.v2"] != 2 {
		t.Fatalf("events: %s", types(evs))
	}
	for _, e := range evs {
		if e.DetailType == "transaction.processed.v2" && e.ExecutionID == mustClaim(t, w, res).ExecutionID {
			evs[0] = e
		}
	}
	var first struct {
		Detail struct {
			Direction string `json:"direction"`
			Mode      string `json:"mode"`
		} `json:"detail"`
	}
	must(t, json.Unmarshal(evs[0].Envelope, &first))
	if first.Detail.Direction != "OUTBOUND" || first.Detail.Mode != "test" {
		t.Errorf("first event: %s", evs[0].Envelope)
	}
	// The 277CA came back processed: its transaction carries the claim's status.
	txs, _, err := w.st.ListTransactions(context.Background(), w.account, store.TransactionFilter{TransactionSetID: "277"})
	must(t, err)
	if len(txs) != 1 {
		t.Fatalf("%d inbound 277 transactions", len(txs))
	}
	rc, err := w.blobs.Get(context.Background(), txs[0].Output.Key)
	must(t, err)
	defer rc.Close()
	var guideJSON strings.Builder
	buf := make([]byte, 1<<16)
	for {
		n, err := rc.Read(buf)
		guideJSON.Write(buf[:n])
		if err != nil {
			break
		}
	}
	if !strings.Contains(guideJSON.String(), `"A2"`) || !strings.Contains(guideJSON.String(), `"12345"`) {
		t.Errorf("277CA Guide JSON lacks the acceptance: %.600s", guideJSON.String())
	}
	e, err := w.st.GetExecution(context.Background(), w.account, mustClaim(t, w, res).ExecutionID)
	must(t, err)
	if e.Status != store.ExecutionDelivered {
		t.Errorf("execution status %s", e.Status)
	}
}

func mustClaim(t *testing.T, w *world, res *claims.Result) store.DentalClaim {
	c, err := w.st.GetDentalClaim(context.Background(), w.account, res.Response.ClaimReference.CorrelationID)
	must(t, err)
	return c
}

func TestRejectedClaim277CA(t *testing.T) {
	w := newWorld(t)
	w.submit(func(r *claims.Request) { r.Subscriber.MemberID = mockpayer.ClaimRejectMemberID })
	evs := w.waitEvents(6)
	if got := types(evs); !strings.Contains(got, "file.delivered.v2") || strings.Count(got, "transaction.processed.v2") != 3 {
		t.Fatalf("events: %s", got)
	}
	txs, _, err := w.st.ListTransactions(context.Background(), w.account, store.TransactionFilter{TransactionSetID: "277"})
	must(t, err)
	if len(txs) != 1 {
		t.Fatalf("%d 277s", len(txs))
	}
	rc, err := w.blobs.Get(context.Background(), txs[0].Input.Key)
	must(t, err)
	defer rc.Close()
	b := make([]byte, 1<<16)
	n, _ := rc.Read(b)
	if !strings.Contains(string(b[:n]), "STC*A7:164:IL") {
		t.Errorf("277CA is not a rejection: %s", b[:n])
	}
}

// The undeliverable payer: attempt 1 and 2 fail and are tried again 6
// minutes later; the third failure marks the file FAILED with
// file.failed.v2 DELIVERY_FAILURE.
func TestUndeliverableClaimFailsAfterThreeAttempts(t *testing.T) {
	w := newWorld(t)
	res := w.submit(func(r *claims.Request) {
		r.TradingPartnerServiceID = mockpayer.UnreachablePayerID
		r.TradingPartnerName = ""
	})
	claim := mustClaim(t, w, res)
	ctx := context.Background()
	attempt := func(n int) {
		t.Helper()
		select {
		case err := <-w.attempts:
			if err == nil {
				t.Fatalf("attempt %d delivered", n)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("attempt %d did not run", n)
		}
	}
	attempt(1)
	time.Sleep(30 * time.Millisecond)
	if e, _ := w.st.GetExecution(ctx, w.account, claim.ExecutionID); e.Status != store.ExecutionPendingDelivery {
		t.Fatalf("after attempt 1: %s", e.Status)
	}
	w.clock.Advance(5 * time.Minute) // the retry time was set from the clock before this
	select {
	case <-w.attempts:
		t.Fatal("attempt 2 ran before 6 minutes")
	case <-time.After(100 * time.Millisecond):
	}
	w.clock.Advance(time.Minute)
	attempt(2)
	time.Sleep(100 * time.Millisecond) // let the failed attempt record its retry time first
	w.clock.Advance(6 * time.Minute)
	attempt(3)
	evs := w.waitEvents(2)
	if got := types(evs); got != "transaction.processed.v2 file.failed.v2" {
		t.Fatalf("events: %s", got)
	}
	var failed struct {
		Detail delivery.FailedDetail `json:"detail"`
	}
	must(t, json.Unmarshal(evs[1].Envelope, &failed))
	if failed.Detail.Errors[0].FaultCode != "DELIVERY_FAILURE" || failed.Detail.Direction != "OUTBOUND" {
		t.Errorf("file.failed.v2: %s", evs[1].Envelope)
	}
	if e, _ := w.st.GetExecution(ctx, w.account, claim.ExecutionID); e.Status != store.ExecutionFailed || e.FaultCode != "DELIVERY_FAILURE" {
		t.Errorf("execution: %+v", e)
	}
}

func slogDiscard() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
