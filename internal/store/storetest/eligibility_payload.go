package storetest

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/google/go-cmp/cmp"
)

// testEligibilityPayload: a check's request JSON, 271 and answer JSON come
// back byte for byte whatever they hold (they are stored compressed in one
// payload), and a check stored before the payload column, with the three in
// their own TEXT columns, still reads the same through Get and List.
func testEligibilityPayload(t *testing.T, s store.Store) {
	a, k := Seed(t, s, store.ModeTest)
	// An answer the size of a real one (~15 KB), text that does not
	// compress, and parts left empty.
	var answer bytes.Buffer
	for i := range 300 {
		fmt.Fprintf(&answer, `{"code":"%d","name":"Active Coverage","serviceTypeCodes":["30","%02d"],"inPlanNetworkIndicator":"Y"},`, i%8, i%99)
	}
	noise := []byte(strings.Repeat("Zürich ✓ \x00\xff", 300))
	for _, tc := range []struct {
		name           string
		req, x271, ans []byte
	}{
		{"real size", []byte(`{"tradingPartnerServiceId":"60054","subscriber":{"memberId":"W1"}}`), []byte("ISA*00*~EB*1**30~IEA*1*1~"), answer.Bytes()},
		{"binary and unicode", noise, noise[7:], noise[:1]},
		{"no 271", []byte(`{}`), nil, []byte(`{"errors":[]}`)},
		{"only the answer", nil, nil, []byte(`{"status":"error"}`)},
		{"nothing", nil, nil, nil},
	} {
		c := newCheck(a, k, t0)
		c.CostMicros = 0
		c.RequestJSON, c.X12Response, c.ResponseJSON = tc.req, tc.x271, tc.ans
		must(t, s.InsertEligibilityCheck(ctx, c))
		got, err := s.GetEligibilityCheck(ctx, a.ID, c.ID)
		must(t, err)
		if diff := cmp.Diff(c, got); diff != "" {
			t.Errorf("%s: GetEligibilityCheck (-want +got):\n%s", tc.name, diff)
		}
	}

	// A row written before the payload column existed.
	old := newCheck(a, k, t0.Add(time.Hour))
	old.CostMicros = 0
	q := func(b []byte) string { return "'" + strings.ReplaceAll(string(b), "'", "''") + "'" }
	_, err := Raw(t, s).ExecContext(ctx, fmt.Sprintf(`INSERT INTO eligibility_checks (id, account_id, key_id, mode, trading_partner_service_id,
		payer_name, control_number, status, request_json, x12_request, x12_response, response_json, http_status,
		created_at, duration_us, cost_micros, submitter_control_number)
		VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %d, %d, %d, 0, %s)`,
		q([]byte(old.ID)), q([]byte(a.ID)), q([]byte(k.ID)), q([]byte(old.Mode)), q([]byte(old.TradingPartnerServiceID)),
		q([]byte(old.PayerName)), q([]byte(old.ControlNumber)), q([]byte(old.Status)), q(old.RequestJSON), q(old.X12Request),
		q(old.X12Response), q(old.ResponseJSON), old.HTTPStatus, old.CreatedAt.UnixMicro(), old.DurationMicros,
		q([]byte(old.SubmitterControlNumber))))
	must(t, err)
	got, err := s.GetEligibilityCheck(ctx, a.ID, old.ID)
	must(t, err)
	if diff := cmp.Diff(old, got); diff != "" {
		t.Errorf("check stored before the payload (-want +got):\n%s", diff)
	}
	list, _, err := s.ListEligibilityChecks(ctx, a.ID, store.EligibilityFilter{Mode: store.ModeTest, From: old.CreatedAt})
	must(t, err)
	if len(list) != 1 || !cmp.Equal(list[0], old) {
		t.Errorf("listed %d checks, want only the check stored before the payload", len(list))
	}
}
