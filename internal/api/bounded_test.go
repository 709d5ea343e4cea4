package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/api"
	"github.com/clearhouse/clearhouse/internal/app/apptest"
	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// manyFields is a JSON object of n unknown fields, 12 bytes each: n =
// 600,000 is the 7 MB body of the report.
func manyFields(n int) string {
	var b strings.Builder
	b.Grow(n * 12)
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"f%07d":0`, i)
	}
	b.WriteByte('}')
	return b.String()
}

// repeated is "[item,item,...]" of n items.
func repeated(item string, n int) string {
	return "[" + strings.TrimSuffix(strings.Repeat(item+",", n), ",") + "]"
}

// peakHeap runs fn and returns how far the live heap rose above where it
// was before, sampled every half millisecond.
func peakHeap(fn func()) uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	runtime.GC()
	base := read()
	var peak atomic.Uint64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			if v := read(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-time.After(500 * time.Microsecond):
			}
		}
	}()
	fn()
	close(done)
	<-stopped
	if p := peak.Load(); p > base {
		return p - base
	}
	return 0
}

// TestErrorBodiesAreBounded: a body of hundreds of thousands of mistakes
// answers a 400 listing the first 100 and counting the rest, in a small
// body, without holding the mistakes in memory.
func TestErrorBodiesAreBounded(t *testing.T) {
	// Not parallel: it measures the heap.
	if testing.Short() {
		t.Skip("builds 7 MB bodies")
	}
	ctx := context.Background()
	st := storetest.SQLite(t)
	key, _, err := auth.CreateKey(ctx, st, "Acme", auth.ModeTest, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	srv := apptest.New(t, apptest.Options{Store: st, Secrets: true}).API
	fields := manyFields(600_000)
	for _, tc := range []struct {
		name, method, path, body string
		// tooMany: the body is refused for one array's length, in one entry.
		tooMany string
	}{
		{"profile", "POST", "/2023-08-01/x12/profiles", fields, ""},
		{"partnership", "PUT", "/2023-08-01/x12/partnerships/p1", fields, ""},
		{"setting", "POST", "/2023-08-01/x12/partnerships/p1/inbound-transactions", fields, ""},
		{"connection settings", "POST", "/2023-08-01/x12/connections",
			`{"connectionId":"c1","connectionType":"MOCK","settings":` + fields + `}`, ""},
		{"webhook event types", "POST", "/2023-08-01/webhooks",
			`{"url":"https://example.com/hook","eventTypes":` + repeated(`"x"`, 9_000) + `}`, ""},
		{"webhook 1,500,000 event types", "POST", "/2023-08-01/webhooks",
			`{"url":"https://example.com/hook","eventTypes":` + repeated(`"x"`, 1_500_000) + `}`, "/eventTypes"},
		{"eligibility dependents", "POST", "/2024-04-01/change/medicalnetwork/eligibility/v3",
			`{"tradingPartnerServiceId":"MOCK","dependents":` + repeated(`{"dateOfBirth":"x","gender":"Q"}`, 5_000) + `}`, ""},
		{"claim secondary ids", "POST", "/2024-04-01/dental-claims/submission",
			`{"tradingPartnerSecondaryIdentifiers":` + repeated(`{"qualifier":"??","identifier":""}`, 5_000) + `}`, ""},
		{"eligibility 200,000 dependents", "POST", "/2024-04-01/change/medicalnetwork/eligibility/v3",
			`{"tradingPartnerServiceId":"MOCK","dependents":` + repeated(`{"dateOfBirth":"x","gender":"Q"}`, 200_000) + `}`, "/dependents"},
		{"claim 200,000 secondary ids", "POST", "/2024-04-01/dental-claims/submission",
			`{"tradingPartnerSecondaryIdentifiers":` + repeated(`{"qualifier":"??","identifier":""}`, 200_000) + `}`, "/tradingPartnerSecondaryIdentifiers"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if len(tc.body) > api.DefaultMaxBodyBytes {
				t.Fatalf("body of %d bytes is over the limit", len(tc.body))
			}
			rec := httptest.NewRecorder()
			grew := peakHeap(func() {
				req := httptest.NewRequest(tc.method, tc.path, strings.NewReader(tc.body))
				req.Header.Set("Authorization", key)
				req.Header.Set("Content-Type", "application/json")
				srv.ServeHTTP(rec, req)
			})
			var out struct {
				Code, Message string
				FieldList     []struct{ Path, Message string }
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
				t.Fatalf("%d: %v: %.300s", rec.Code, err, rec.Body)
			}
			t.Logf("%d bytes sent: %d, %d bytes answered, %d entries, heap rose %.1f MB; %q",
				len(tc.body), rec.Code, rec.Body.Len(), len(out.FieldList), float64(grew)/(1<<20), out.Message)
			if rec.Code != http.StatusBadRequest {
				t.Errorf("status %d, want 400", rec.Code)
			}
			if rec.Body.Len() > 256<<10 {
				t.Errorf("answer of %d bytes; want at most 256 KiB", rec.Body.Len())
			}
			if tc.tooMany != "" {
				if len(out.FieldList) != 1 || out.FieldList[0].Path != tc.tooMany || !strings.Contains(out.FieldList[0].Message, "more than 10000 items") {
					t.Errorf("fieldList %+v; want one entry for %s", out.FieldList, tc.tooMany)
				}
			} else if n := len(out.FieldList); n != 101 || !strings.Contains(out.FieldList[n-1].Message, "more problems") {
				t.Errorf("%d entries; want 100 and one counting the rest", n)
			} else if last := out.FieldList[n-1].Message; !strings.HasPrefix(last, "and ") {
				t.Errorf("last entry %q", last)
			}
			// The body is held two or three times (read, as the record's
			// raw JSON, a connection's settings), and the sample counts
			// garbage not yet collected; before the bounds the rise was
			// 400 MB to 1.7 GB for these bodies.
			if limit := uint64(10*len(tc.body) + 16<<20); grew > limit {
				t.Errorf("heap rose %d MB for a %d MB body; want at most %d MB", grew>>20, len(tc.body)>>20, limit>>20)
			}
		})
	}
}
