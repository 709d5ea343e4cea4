package store_test

import (
	"context"
	"os"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/audit"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// BenchmarkGroupedCheck is the database's share of a persisted eligibility
// check as the API stores it: the check and its audit entry
// in one GroupInTx call, answered once the commit is fsynced, from 1 and
// 16 concurrent callers. It reports the process's CPU per check
// (cpu-µs/op), which load on the machine moves far less than wall clock.
func BenchmarkGroupedCheck(b *testing.B) {
	ctx := context.Background()
	s := storetest.SQLite(b)
	acct := store.Account{ID: store.NewID(), Name: "Bench", CreatedAt: time.Now()}
	if err := s.CreateAccount(ctx, acct); err != nil {
		b.Fatal(err)
	}
	rec := audit.New(s, nil)
	x12req := mustRead(b, "../eligibility/testdata/golden/270_subscriber.x12")
	answer := mustRead(b, "../eligibility/testdata/golden/5010_lfh_subscriber-benefits.x12.json")
	for _, clients := range []int{1, 16} {
		b.Run("clients="+strconv.Itoa(clients), func(b *testing.B) {
			check := func() error {
				c := store.EligibilityCheck{
					ID: store.NewID(), AccountID: acct.ID, KeyID: "key_bench", Mode: store.ModeTest,
					TradingPartnerServiceID: "62308", PayerName: "Cigna", ControlNumber: "000000001", Status: "active",
					RequestJSON: answer[:600], X12Request: x12req, X12Response: x12req, ResponseJSON: answer,
					HTTPStatus: 200, CreatedAt: time.Now(), DurationMicros: 321,
					PatientName: "DOE, JOHN", MemberID: "W123456789", PatientBirthDate: "19800102", ServiceDate: "20261126",
					Route: "/2024-04-01/eligibility",
				}
				c.Pack() // in the caller, as the eligibility service does
				return s.GroupInTx(ctx, func(tx store.Queries) error {
					if err := tx.InsertEligibilityCheck(ctx, c); err != nil {
						return err
					}
					_, err := rec.RecordTx(ctx, tx, audit.Entry{AccountID: acct.ID, Mode: store.ModeTest, ActorType: audit.ActorAPIKey,
						ActorID: "key_bench", RemoteAddr: "127.0.0.1", Action: audit.ActionCreate,
						ResourceType: audit.ResourceEligibilityCheck, ResourceID: c.ID, Route: "/2024-04-01/eligibility", Status: 200})
					return err
				})
			}
			var wg sync.WaitGroup
			var next sync.Mutex
			n := 0
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := selfCPU(b)
			for range clients {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						next.Lock()
						i := n
						n++
						next.Unlock()
						if i >= b.N {
							return
						}
						if err := check(); err != nil {
							b.Error(err)
							return
						}
					}
				}()
			}
			wg.Wait()
			b.ReportMetric(float64((selfCPU(b)-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
		})
	}
}

func mustRead(b *testing.B, path string) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

func selfCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
