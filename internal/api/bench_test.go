package api_test

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/app/apptest"
	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// benchMocks are the requests the benchmarks cycle through: subscriber,
// dependent, dental and AAA checks (the mix of bench/load.sh).
var benchMocks = []string{"uhc-subscriber", "aetna-dependent", "cigna-dental", "uhc-aaa-72",
	"cigna-dependent", "metlife-dental", "uhc-aaa-42", "cigna-subscriber-jones"}

// BenchmarkEligibilityCheckOverHTTP is one full mock check per op: HTTP over
// loopback, key lookup, validation, 270, mock payer, 271 mapping, history
// insert in SQLite, JSON answer. Compare runs with benchstat:
//
//	go test ./internal/api -run '^$' -bench EligibilityCheck -count 6 | tee new.txt
func BenchmarkEligibilityCheckOverHTTP(b *testing.B) {
	st := storetest.SQLite(b)
	key, _, err := auth.CreateKey(context.Background(), st, "Bench", auth.ModeTest, "", time.Now())
	if err != nil {
		b.Fatal(err)
	}
	hs := apptest.New(b, apptest.Options{Store: st})
	var bodies [][]byte
	for _, m := range mockpayer.Requests() {
		for _, name := range benchMocks {
			if m.Name == name {
				bodies = append(bodies, m.RequestJSON())
			}
		}
	}
	if len(bodies) != len(benchMocks) {
		b.Fatalf("found %d of the %d benchmark mock requests", len(bodies), len(benchMocks))
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	url := hs.URL + eligibilityPath
	var next atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if !roundTrip(b, client, jsonRequest(url, key, bodies[next.Add(1)%int64(len(bodies))])) {
				return
			}
		}
	})
}
