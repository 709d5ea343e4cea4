package webhooks_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/netguard"
	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// env is a webhooks service on a fresh store, its queue running.
type env struct {
	st     store.Store
	svc    *webhooks.Service
	queue  *jobs.Queue
	caller webhooks.Caller
	clock  clock.Clock
	box    *secrets.Box
	guard  *netguard.Guard
	events *events.Emitter
}

type envOptions struct {
	open        storetest.Opener
	clock       clock.Clock
	schedule    []time.Duration
	workers     int
	lanes       map[string]jobs.Lane
	noRun       bool
	disableAfer time.Duration
	// guardPrivate keeps the SSRF guard's refusal of private addresses
	// (tests otherwise lift it to reach their local receivers).
	guardPrivate bool
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func newEnv(t testing.TB, o envOptions) *env {
	t.Helper()
	if o.open == nil {
		o.open = storetest.SQLite
	}
	if o.clock == nil {
		o.clock = clock.System{}
	}
	if o.schedule == nil {
		o.schedule = []time.Duration{0, 20 * time.Millisecond, 20 * time.Millisecond}
	}
	st := o.open(t)
	key, _ := secrets.ParseKey(secrets.NewKey())
	box, _ := secrets.New(key)
	q := jobs.New(st, jobs.Options{Clock: o.clock, Logger: quiet, PollInterval: 20 * time.Millisecond, Concurrency: max(o.workers, 4),
		Lanes: o.lanes})
	e := &env{st: st, queue: q, box: box, clock: o.clock, guard: netguard.New(netguard.Options{AllowPrivate: !o.guardPrivate}),
		events: events.New(events.Options{Region: "test-region"})}
	svc, err := webhooks.New(webhooks.Config{
		Store: st, Queue: q, Events: webhooks.StoreEvents(st), Emitter: e.events, Secrets: box, Guard: e.guard,
		Clock: o.clock, Logger: quiet, Schedule: o.schedule, Jitter: -1, DisableAfter: o.disableAfer,
	})
	if err != nil {
		t.Fatal(err)
	}
	e.svc = svc
	acct, _ := storetest.Seed(t, st, store.ModeTest)
	e.caller = webhooks.Caller{AccountID: acct.ID, Mode: store.ModeTest}
	if !o.noRun {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { q.Run(ctx); close(done) }()
		t.Cleanup(func() { cancel(); <-done })
	}
	return e
}

// create adds a webhook to url and returns it with its secret.
func (e *env) create(t testing.TB, url string, in webhooks.Input) (store.Webhook, string) {
	t.Helper()
	in.URL = &url
	w, secret, err := e.svc.Create(context.Background(), e.caller, in)
	if err != nil {
		t.Fatal(err)
	}
	return w, secret
}

func (e *env) emit(t testing.TB, detailType string, detail any) webhooks.Event {
	t.Helper()
	var env events.Envelope
	err := e.st.InTx(context.Background(), func(tx store.Queries) error {
		var err error
		env, err = e.events.Emit(context.Background(), tx, events.Event{AccountID: e.caller.AccountID, Mode: e.caller.Mode,
			DetailType: detailType, Detail: detail, Time: e.clock.Now()})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	ev, err := webhooks.StoreEvents(e.st)(context.Background(), e.caller.AccountID, env.ID)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// received is one request a receiver got.
type received struct {
	header http.Header
	body   []byte
	at     time.Time
}

// receiver is a local webhook endpoint answering with status(n) to its
// n-th call (1-based).
type receiver struct {
	*httptest.Server
	mu    sync.Mutex
	calls []received
	got   chan received
}

func newReceiver(t testing.TB, status func(n int) int) *receiver {
	r := &receiver{got: make(chan received, 100000)}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		rec := received{header: req.Header.Clone(), body: body, at: time.Now()}
		r.mu.Lock()
		r.calls = append(r.calls, rec)
		n := len(r.calls)
		r.mu.Unlock()
		code := status(n)
		w.WriteHeader(code)
		if code >= 300 {
			io.WriteString(w, "receiver says no")
		}
		r.got <- rec
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.calls)
}

// next waits for the receiver's next request.
func (r *receiver) next(t testing.TB) received {
	t.Helper()
	select {
	case rec := <-r.got:
		return rec
	case <-time.After(30 * time.Second):
		t.Fatal("the receiver got nothing within 30 s")
		return received{}
	}
}

func always(code int) func(int) int { return func(int) int { return code } }

// waitFor polls cond until it holds or 30 s pass (the race detector on a
// loaded machine is slow).
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after 30 s waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func ptr[T any](v T) *T { return &v }
