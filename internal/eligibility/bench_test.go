package eligibility

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/clearhouse/clearhouse/internal/payers"
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
