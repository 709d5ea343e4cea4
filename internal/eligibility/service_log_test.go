package eligibility

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
)

// TestServiceLogsNoPHI drives the paths that log (payer unreachable, an
// answer that is not a 271) with a request full of PHI and checks that the log
// lines name the check and payer but none of the patient's data.
func TestServiceLogsNoPHI(t *testing.T) {
	req := func() *Request {
		return &Request{TradingPartnerServiceID: "87726", Provider: &Provider{OrganizationName: "P", NPI: "1999999984"},
			Subscriber: &Subscriber{MemberID: "PHIMEMBER77",
				Patient: Patient{FirstName: "Phiona", LastName: "Secretson", DateOfBirth: "19710101", SSN: "123456789"}},
			Encounter: &Encounter{ServiceTypeCodes: []string{"30"}}}
	}
	answers := map[string]func(context.Context, []byte) ([]byte, error){
		"unreachable": func(context.Context, []byte) ([]byte, error) { return nil, errors.New("dial tcp: connection refused") },
		// The payer echoes the 270: not a 271, and full of the request's
		// data.
		"echoed 270": func(_ context.Context, sent []byte) ([]byte, error) { return sent, nil },
	}
	for name, answer := range answers {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, 0)
			var logs bytes.Buffer
			f.svc.cfg.Logger = slog.New(slog.NewJSONHandler(&logs, nil))
			f.prod.answer = answer
			if _, err := f.svc.Check(context.Background(), prodKey, req()); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(logs.String(), `"payer":"87726"`) {
				t.Fatalf("no log line for the failed exchange:\n%s", logs.String())
			}
			for _, phi := range []string{"PHIMEMBER77", "123456789", "PHIONA", "Phiona", "SECRETSON", "Secretson", "19710101"} {
				if strings.Contains(logs.String(), phi) {
					t.Errorf("log holds %q:\n%s", phi, logs.String())
				}
			}
		})
	}
}
