package mockpayer

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/statusinquiry"
	"github.com/clearhouse/clearhouse/x12"
)

// TestExchangeReadsA270Once: Exchange reads the request as a 270 first and
// looks for a 276 only when that fails. Its answer — 271, 277 or error — is
// what looking for the 276 first gave, for 270s, 276s, interchanges whose
// sets mix the two, an ST01 of 276 on a 270's body, truncated and non-X12
// input.
func TestExchangeReadsA270Once(t *testing.T) {
	now := time.Date(2025, 11, 2, 9, 0, 0, 0, time.UTC)
	var req eligibility.Request
	for _, m := range Requests() {
		if m.Name == "uhc-subscriber" {
			if err := json.Unmarshal(m.RequestJSON(), &req); err != nil {
				t.Fatal(err)
			}
		}
	}
	payer, _ := payers.Default().Lookup(req.TradingPartnerServiceID)
	built, err := eligibility.Build270(&req, payer, eligibility.Build270Options{
		Numbers: &x12.SequentialControlNumbers{}, TraceID: "01JTESTTRACE0000000000000A", Now: now, Test: true})
	if err != nil {
		t.Fatal(err)
	}
	x270 := string(built.X12)
	x276b, err := statusinquiry.Build(&statusinquiry.Request{TradingPartnerServiceID: "87726",
		Providers:  []statusinquiry.Provider{{ProviderType: "BillingProvider", OrganizationName: "Provider Name", NPI: "1999999984"}},
		Subscriber: &statusinquiry.Subscriber{MemberID: "UHC123456", FirstName: "Jane", LastName: "Doe"},
		Encounter:  &statusinquiry.Encounter{PatientAccountNumber: "PCN1", BeginningDateOfService: "20250630"}},
		statusinquiry.Envelope{SenderID: "CLEARHOUSE", ReceiverID: "87726", Usage: "T"}, &x12.SequentialControlNumbers{}, now, "123")
	if err != nil {
		t.Fatal(err)
	}
	x276 := string(x276b)
	// set returns the interchange's ST…SE (its first set).
	set := func(x string) string {
		return x[strings.Index(x, "ST*"):strings.Index(x, "GE*")]
	}
	inputs := map[string]string{
		"270":                     x270,
		"276":                     x276,
		"270 then 276":            strings.Replace(x270, "GE*", set(x276)+"GE*", 1),
		"276 then 270":            strings.Replace(x276, "GE*", set(x270)+"GE*", 1),
		"270 body, ST01 276":      strings.Replace(x270, "ST*270*", "ST*276*", 1),
		"276 body, ST01 270":      strings.Replace(x276, "ST*276*", "ST*270*", 1),
		"ISA GS ST of a 276 only": x276[:strings.Index(x276, "BHT")],
		"ISA only":                x270[:strings.Index(x270, "GS*")],
		"not X12":                 `{"hello":"world"}`,
		"empty":                   "",
	}
	answer := func(b []byte, err error) string { return fmt.Sprintf("%s|%v", b, err) }
	for name, in := range inputs {
		ctx := context.Background()
		// The order before: a 276 looked for first, then the 270 read.
		want := func() string {
			p := New(WithClock(func() time.Time { return now }))
			if is276([]byte(in)) {
				return answer(p.answerStatus(ctx, []byte(in)))
			}
			inq, err := readInquiry([]byte(in))
			if err != nil {
				return answer(nil, err)
			}
			s, err := p.match(inq)
			if err != nil {
				return answer(nil, err)
			}
			return answer(p.respond(inq, s))
		}()
		got := answer(New(WithClock(func() time.Time { return now })).Exchange(ctx, []byte(in)))
		if got != want {
			t.Errorf("%s: answered\n%s\nwant\n%s", name, got, want)
		}
		if (name == "270" || name == "276") && !strings.HasPrefix(got, "ISA*") {
			t.Errorf("%s: no answer: %s", name, got)
		}
	}
}
