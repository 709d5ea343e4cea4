package webhooks_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// BenchmarkDeliveryThroughput: b.N events committed in batches of 50 while
// 16 workers fan them out and deliver them to a local receiver; reports
// deliveries/s from the first commit to the last DELIVERED (dispatch,
// slot, POST, attempt log: all durable), and the process's CPU time per
// delivery (cpu-µs/delivery: queue, store client, HTTP client and the
// in-process receiver; PostgreSQL's own server CPU is not in it), the
// figure that does not move with the machine's load.
func BenchmarkDeliveryThroughput(b *testing.B) {
	for _, eng := range storetest.Engines() {
		b.Run(eng.Name, func(b *testing.B) {
			e := newEnv(b, envOptions{open: eng.Open, noRun: true, workers: 16})
			var calls atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(204)
				calls.Add(1)
			}))
			defer srv.Close()
			w, _ := e.create(b, srv.URL, webhooks.Input{Concurrency: ptr(32)})
			ctx := context.Background()
			runCtx, cancel := context.WithCancel(ctx)
			done := make(chan struct{})
			go func() { e.queue.Run(runCtx); close(done) }()
			defer func() { cancel(); <-done }()
			b.ResetTimer()
			start, cpu0 := time.Now(), cpuTime()
			// Events arrive as files are processed: batches of 50 per
			// transaction, as fast as the store takes them.
			const batch = 50
			emitted := make(chan error, 1)
			go func() {
				for i := 0; i < b.N; i += batch {
					err := e.st.InTx(ctx, func(tx store.Queries) error {
						for j := i; j < min(i+batch, b.N); j++ {
							if _, err := e.events.Emit(ctx, tx, events.Event{AccountID: e.caller.AccountID, Mode: e.caller.Mode,
								DetailType: "transaction.processed.v2", Detail: transactionDetail}); err != nil {
								return err
							}
						}
						return nil
					})
					if err != nil {
						emitted <- err
						return
					}
				}
				emitted <- nil
			}()
			if err := <-emitted; err != nil {
				b.Fatal(err)
			}
			deadline := time.Now().Add(5 * time.Minute)
			for {
				// The receiver's count first (cheap), then the durable record.
				if calls.Load() >= int64(b.N) && countDelivered(b, e, w) == b.N {
					break
				}
				if time.Now().After(deadline) {
					b.Fatalf("not all %d delivered in 5 minutes", b.N)
				}
				time.Sleep(20 * time.Millisecond)
			}
			b.StopTimer()
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "deliveries/s")
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/delivery")
		})
	}
}

// cpuTime is the CPU time this process has used (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func countDelivered(tb testing.TB, e *env, w store.Webhook) int {
	n, cursor := 0, ""
	for {
		list, next, err := e.st.ListWebhookDeliveries(context.Background(), e.caller.AccountID, store.WebhookDeliveryFilter{WebhookID: w.ID, Status: store.DeliveryDelivered, Limit: 500, Cursor: cursor})
		if err != nil {
			tb.Fatal(err)
		}
		n += len(list)
		if cursor = next; cursor == "" {
			return n
		}
	}
}

// BenchmarkCommitToFirstAttempt: on an idle server, the time from an
// event's commit (events.Emit's transaction) to the receiver getting its
// first attempt; reports the median and p99 of b.N events sent one at a
// time.
func BenchmarkCommitToFirstAttempt(b *testing.B) {
	for _, eng := range storetest.Engines() {
		b.Run(eng.Name, func(b *testing.B) {
			e := newEnv(b, envOptions{open: eng.Open})
			got := make(chan time.Time, 1)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(204)
				got <- time.Now()
			}))
			defer srv.Close()
			e.create(b, srv.URL, webhooks.Input{})
			ctx := context.Background()
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for range b.N {
				err := e.st.InTx(ctx, func(tx store.Queries) error {
					_, err := e.events.Emit(ctx, tx, events.Event{AccountID: e.caller.AccountID, Mode: e.caller.Mode,
						DetailType: "file.processed.v2", Detail: map[string]any{}})
					return err
				})
				committed := time.Now()
				if err != nil {
					b.Fatal(err)
				}
				select {
				case at := <-got:
					lat = append(lat, at.Sub(committed))
				case <-time.After(10 * time.Second):
					b.Fatal("no delivery within 10 s")
				}
				time.Sleep(5 * time.Millisecond) // idle between events
			}
			b.StopTimer()
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[min(len(lat)-1, len(lat)*99/100)].Microseconds())/1000, "p99-ms")
		})
	}
}
