package store

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkRoundCost is the database's work for grouped checks without the
// scheduler: one goroutine runs rounds of callers checks (each the check
// and its audit event, as the API stores them), fsyncs each round and
// checkpoints every 200 checks itself. Its sub-benchmarks are round sizes:
// under hey's 16 connections rounds hold 8 callers or fewer, and most of a
// small round's cost is per round (BEGIN, COMMIT, a WAL frame for each
// B-tree it touches, the fsync), not per check. Run under callgrind (GOMAXPROCS=1 GOGC=off) at two -benchtime
// counts, the difference in instructions over the difference in checks is
// what a check costs the database, the same from run to run: the
// concurrent benchmark (BenchmarkGroupedCheck) forms its rounds and
// checkpoints by timing.
func BenchmarkRoundCost(b *testing.B) {
	for _, callers := range []int{8, 64, 512} {
		b.Run("callers="+strconv.Itoa(callers), func(b *testing.B) { benchmarkRoundCost(b, callers) })
	}
}

func benchmarkRoundCost(b *testing.B, roundCostCallers int) {
	roundCostCheckpoint := max(1, 200/roundCostCallers)
	ctx := context.Background()
	s := openTestSQLite(b)
	// Checkpoints run here, not on the background timer.
	s.ckpt.closing.Do(func() { close(s.ckpt.stop) })
	<-s.ckpt.finished
	acct := Account{ID: NewID(), Name: "Bench", CreatedAt: time.Now()}
	if err := s.CreateAccount(ctx, acct); err != nil {
		b.Fatal(err)
	}
	read := func(p string) []byte {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		return data
	}
	x12req := read("../eligibility/testdata/golden/270_subscriber.x12")
	answer := read("../eligibility/testdata/golden/5010_lfh_subscriber-benefits.x12.json")
	at := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	hash := strings.Repeat("0", 64)
	check := func(tx Queries) error {
		at = at.Add(time.Microsecond)
		c := EligibilityCheck{
			ID: NewID(), AccountID: acct.ID, KeyID: "key_bench", Mode: ModeTest,
			TradingPartnerServiceID: "62308", PayerName: "Cigna", ControlNumber: "000000001", Status: "active",
			RequestJSON: answer[:600], X12Request: x12req, X12Response: x12req, ResponseJSON: answer,
			HTTPStatus: 200, CreatedAt: at, DurationMicros: 321,
			PatientName: "DOE, JOHN", MemberID: "W123456789", PatientBirthDate: "19800102", ServiceDate: "20261126",
			Route: "/2024-04-01/eligibility",
		}
		if err := tx.InsertEligibilityCheck(ctx, c); err != nil {
			return err
		}
		seq, prev, err := tx.LockAuditChain(ctx, acct.ID)
		if err != nil {
			return err
		}
		return tx.AppendAuditEvent(ctx, AuditEvent{ID: NewID(), AccountID: acct.ID, Seq: seq + 1, Mode: ModeTest,
			ActorType: "api_key", ActorID: "key_bench", RemoteAddr: "127.0.0.1", Action: "create",
			ResourceType: "eligibility_check", ResourceID: c.ID, Route: "/2024-04-01/eligibility", Status: 200,
			At: at, PrevHash: prev, Hash: hash})
	}
	b.ReportAllocs()
	b.ResetTimer()
	for done, rounds := 0, 0; done < b.N; rounds++ {
		n := min(roundCostCallers, b.N-done)
		round := make([]*groupedTx, n)
		for i := range round {
			round[i] = &groupedTx{ctx: ctx, fn: check, done: make(chan struct{})}
		}
		seq, round, err := s.runGroup(ctx, round)
		if err == nil {
			err = s.wal.durable(ctx, seq)
		}
		if err != nil {
			b.Fatal(err)
		}
		for _, t := range round {
			if t.err != nil {
				b.Fatal(t.err)
			}
		}
		done += n
		if rounds%roundCostCheckpoint == roundCostCheckpoint-1 {
			if _, err := s.ckpt.db.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)"); err != nil {
				b.Fatal(err)
			}
		}
	}
}
