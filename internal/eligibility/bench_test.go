package eligibility

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/testenv"
	"github.com/clearhouse/clearhouse/x12"
)

// The hot path of a check, without the network: build the 270, map the 271.

func BenchmarkBuild270(b *testing.B) {
	req := inquiries()["dependent"]
	p, _ := payers.Default().Lookup(req.TradingPartnerServiceID)
	opts := Build270Options{Numbers: &x12.SequentialControlNumbers{}, TraceID: "01J0TRACE", Now: buildTime}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Build270(req, p, opts); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidate(b *testing.B) {
	req := inquiries()["dependent"]
	p, _ := payers.Default().Lookup(req.TradingPartnerServiceID)
	b.ReportAllocs()
	for b.Loop() {
		if err := Validate(req, &p); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMap271(b *testing.B) {
	for _, name := range []string{"5010_lfh_subscriber-benefits.x12", "4010_oop_Example3_CMS_HETS.txt"} {
		data, err := os.ReadFile(filepath.Join(testenv.CorpusDir(b), "271", name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Map271(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// discardHistory records nothing, so BenchmarkCheck measures the check's own
// work: everything but the store.
type discardHistory struct{}

func (discardHistory) InsertEligibilityCheck(context.Context, store.EligibilityCheck) error {
	return nil
}

// BenchmarkCheck is one test-mode check through Service.Check without the
// network and the store: the history JSON, validation, routing, the 270, the
// in-process mock payer (270 read, 271 written), the 271 mapping and the
// answer's JSON, which is released as the API does once written.
func BenchmarkCheck(b *testing.B) {
	mock := mockpayer.New(mockpayer.WithClock(func() time.Time { return serviceTime }))
	router, err := payers.NewRouter(payers.Default(), mock, nil)
	if err != nil {
		b.Fatal(err)
	}
	svc, err := NewService(Config{Router: router, History: discardHistory{}, Clock: clock.NewFake(serviceTime),
		Numbers: &x12.SequentialControlNumbers{Interchange: 100, Group: 100}})
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"uhc-subscriber", "cigna-dental"} {
		var req Request
		for _, m := range mockpayer.Requests() {
			if m.Name == name {
				if err := json.Unmarshal(m.RequestJSON(), &req); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res, err := svc.Check(context.Background(), Caller{AccountID: "acct1", KeyID: "key1", Mode: payers.ModeTest}, &req)
				if err != nil || res.HTTPStatus != 200 || len(res.JSON) == 0 {
					b.Fatalf("status %d, error %v", res.HTTPStatus, err)
				}
				res.Release()
			}
		})
	}
}
