package eligibility

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

var serviceTime = time.Date(2024, 8, 1, 9, 30, 0, 0, time.UTC)

// memoryHistory keeps checks in memory.
type memoryHistory struct {
	mu     sync.Mutex
	checks []store.EligibilityCheck
}

func (h *memoryHistory) InsertEligibilityCheck(_ context.Context, c store.EligibilityCheck) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.checks = append(h.checks, c)
	return nil
}

func (h *memoryHistory) last(t *testing.T) store.EligibilityCheck {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.checks) == 0 {
		t.Fatal("no check recorded")
	}
	return h.checks[len(h.checks)-1]
}

// production is a fake production connection: it records the 270 and
// answers with answer(request).
type production struct {
	mu     sync.Mutex
	got    []byte
	answer func(ctx context.Context, request []byte) ([]byte, error)
}

func (p *production) Exchange(ctx context.Context, request []byte) ([]byte, error) {
	p.mu.Lock()
	p.got = bytes.Clone(request)
	p.mu.Unlock()
	return p.answer(ctx, request)
}

type fixture struct {
	svc     *Service
	history *memoryHistory
	prod    *production
}

// newFixture wires a Service to the real mock payer for test mode and to a
// fake "uhc" connection that reaches payer 87726 in production.
func newFixture(t *testing.T, timeout time.Duration) *fixture {
	t.Helper()
	dir, err := payers.Default().WithOverrides([]byte(`{"payers":[{"id":"87726","connection":"uhc"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	prod := &production{answer: func(context.Context, []byte) ([]byte, error) { return nil, errors.New("no answer configured") }}
	mock := mockpayer.New(mockpayer.WithClock(func() time.Time { return serviceTime }), mockpayer.WithDirectory(dir))
	router, err := payers.NewRouter(dir, mock, map[string]payers.Connection{"uhc": prod})
	if err != nil {
		t.Fatal(err)
	}
	h := &memoryHistory{}
	svc, err := NewService(Config{
		Router: router, History: h, Clock: clock.NewFake(serviceTime), Timeout: timeout,
		Numbers: &x12.SequentialControlNumbers{Interchange: 100, Group: 100},
	})
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{svc: svc, history: h, prod: prod}
}

var (
	testKey = Caller{AccountID: "acct1", KeyID: "key1", Mode: payers.ModeTest}
	prodKey = Caller{AccountID: "acct1", KeyID: "key2", Mode: payers.ModeProduction}
)

// mockRequests returns the published mock requests as eligibility requests.
func mockRequests(t *testing.T) []struct {
	mock mockpayer.MockRequest
	req  *Request
} {
	t.Helper()
	var out []struct {
		mock mockpayer.MockRequest
		req  *Request
	}
	for _, m := range mockpayer.Requests() {
		var req Request
		if err := json.Unmarshal(m.RequestJSON(), &req); err != nil {
			t.Fatal(err)
		}
		out = append(out, struct {
			mock mockpayer.MockRequest
			req  *Request
		}{m, &req})
	}
	if len(out) < 30 {
		t.Fatalf("only %d mock requests published", len(out))
	}
	return out
}

// TestCheckEveryMockRequest sends every published mock request with a test
// key through the whole pipeline: validation, routing, the 270, the real
// mock payer, the 271 mapping and history.
func TestCheckEveryMockRequest(t *testing.T) {
	f := newFixture(t, 0)
	for _, m := range mockRequests(t) {
		t.Run(m.mock.Name, func(t *testing.T) {
			res, err := f.svc.Check(context.Background(), testKey, m.req)
			if err != nil {
				t.Fatal(err)
			}
			if res.HTTPStatus != http.StatusOK || res.Response == nil {
				t.Fatalf("status %d body %+v", res.HTTPStatus, res.Body())
			}
			r := res.Response
			checkResponseInvariants(t, r)
			if r.Meta.ApplicationMode != "test" || !strings.Contains(r.X12, "*T*:~") {
				t.Errorf("test mode must show applicationMode test and ISA15 T: %+v", r.Meta)
			}
			if r.Meta.OutboundTraceID == "" || r.ID != res.ID || !strings.HasPrefix(r.ID, "ec_") {
				t.Errorf("ids: %+v id %s", r.Meta, r.ID)
			}
			if !bytes.Contains(res.X12Request, []byte("TRN*1*"+r.Meta.OutboundTraceID+"*")) {
				t.Error("the 270's trace must be meta.outboundTraceId")
			}
			isReject := strings.Contains(m.mock.Outcome, "AAA")
			switch {
			case isReject:
				if len(r.Errors) == 0 || res.Status != StatusRejected {
					t.Errorf("%s: want AAA errors, got %+v (status %s)", m.mock.Outcome, r.Errors, res.Status)
				}
			case strings.Contains(m.mock.Outcome, "inactive"):
				if res.Status != StatusInactive {
					t.Errorf("status %s, want inactive", res.Status)
				}
			default:
				if len(r.Errors) != 0 || len(r.BenefitsInformation) == 0 || res.Status != StatusActive {
					t.Errorf("%s: want benefits, got errors %+v, %d benefits, status %s", m.mock.Outcome, r.Errors, len(r.BenefitsInformation), res.Status)
				}
			}
			rec := f.history.last(t)
			if rec.ID != res.ID || rec.Mode != "test" || rec.HTTPStatus != 200 || rec.Status != res.Status ||
				rec.TradingPartnerServiceID == "" || len(rec.X12Request) == 0 || len(rec.X12Response) == 0 || len(rec.ResponseJSON) == 0 {
				t.Errorf("history record incomplete: %+v", rec)
			}
		})
	}
}

func TestCheckDependentPlacement(t *testing.T) {
	f := newFixture(t, 0)
	for _, m := range mockRequests(t) {
		if len(m.req.Dependents) == 0 {
			continue
		}
		res, err := f.svc.Check(context.Background(), testKey, m.req)
		if err != nil || res.Response == nil {
			t.Fatalf("%s: %v %+v", m.mock.Name, err, res)
		}
		r := res.Response
		dep := m.req.Dependents[0]
		placement := res.Payer.DependentPlacement
		switch placement {
		case payers.PlacementSubscriber:
			if len(r.Dependents) != 0 || !strings.EqualFold(r.Subscriber.FirstName, dep.FirstName) {
				t.Errorf("%s (%s): the dependent must come back in subscriber with no dependents: subscriber %+v dependents %+v",
					m.mock.Name, placement, r.Subscriber, r.Dependents)
			}
		default:
			if len(r.Dependents) != 1 || !strings.EqualFold(r.Dependents[0].FirstName, dep.FirstName) {
				t.Errorf("%s (%s): the dependent must come back in dependents: %+v", m.mock.Name, placement, r.Dependents)
			}
		}
	}
}

func TestCheckOutcomes(t *testing.T) {
	uhc := func() *Request {
		return &Request{TradingPartnerServiceID: "87726", Provider: &Provider{OrganizationName: "P", NPI: "1999999984"},
			Subscriber: &Subscriber{MemberID: "UHC123456", Patient: Patient{FirstName: "Jane", LastName: "Doe", DateOfBirth: "19710101"}},
			Encounter:  &Encounter{ServiceTypeCodes: []string{"30"}}}
	}
	answer271 := func(_ context.Context, req []byte) ([]byte, error) {
		return []byte("ISA*00*          *00*          *ZZ*87726          *ZZ*CLEARHOUSE     *240801*0930*^*00501*000000777*0*P*:~" +
			"GS*HB*87726*CLEARHOUSE*20240801*0930*1*X*005010X279A1~ST*271*0001*005010X279A1~BHT*0022*11*PAYERTRACE*20240801*0930~" +
			"HL*1**20*1~NM1*PR*2*UNITEDHEALTHCARE*****PI*87726~HL*2*1*21*1~NM1*1P*2*P*****XX*1999999984~" +
			"HL*3*2*22*0~NM1*IL*1*DOE*JANE****MI*UHC123456~EB*1**30*C1*CHOICE PLUS~SE*10*0001~GE*1*1~IEA*1*000000777~"), nil
	}
	tests := []struct {
		name       string
		caller     Caller
		req        func() *Request
		answer     func(ctx context.Context, req []byte) ([]byte, error)
		timeout    time.Duration
		wantStatus int
		wantCode   string // Problem code, or the AAA code of an eligibility-shaped body
		wantText   string
		wantHist   string
	}{
		{name: "invalid request", caller: testKey, req: func() *Request { r := uhc(); r.Provider.NPI = "1999999985"; return r },
			wantStatus: 400, wantCode: CodeValidation, wantText: "check digit", wantHist: StatusInvalid},
		{name: "unknown payer", caller: testKey, req: func() *Request { r := uhc(); r.TradingPartnerServiceID = "FOO"; return r },
			wantStatus: 400, wantCode: "79", wantText: "Payer FOO is not configured", wantHist: StatusError},
		{name: "payer without a production connection", caller: prodKey, req: func() *Request { r := uhc(); r.TradingPartnerServiceID = "60054"; return r },
			wantStatus: 400, wantCode: "79", wantText: "no production connection", wantHist: StatusError},
		{name: "test key with data outside the mock set", caller: testKey, req: func() *Request { r := uhc(); r.Subscriber.MemberID = "REALMEMBER1"; return r },
			wantStatus: 403, wantCode: CodeForbidden, wantText: "test mode accepts only the published mock requests", wantHist: StatusError},
		{name: "test key with a service type other than 30 or 35", caller: testKey, req: func() *Request { r := uhc(); r.Encounter.ServiceTypeCodes = []string{"47"}; return r },
			wantStatus: 403, wantCode: CodeForbidden, wantText: "30 (health benefit plan coverage) and 35", wantHist: StatusError},
		{name: "production benefits", caller: prodKey, req: uhc, answer: answer271, wantStatus: 200, wantHist: StatusActive},
		{name: "payer timeout", caller: prodKey, req: uhc, timeout: 20 * time.Millisecond,
			answer:     func(ctx context.Context, _ []byte) ([]byte, error) { <-ctx.Done(); return nil, ctx.Err() },
			wantStatus: 504, wantCode: CodePayerTimeout, wantText: "did not answer", wantHist: StatusError},
		{name: "payer unreachable", caller: prodKey, req: uhc,
			answer:     func(context.Context, []byte) ([]byte, error) { return nil, errors.New("dial tcp: connection refused") },
			wantStatus: 503, wantCode: CodePayerUnavail, wantText: "could not be reached", wantHist: StatusError},
		{name: "CORE endpoint refuses our credentials", caller: prodKey, req: uhc,
			answer:     func(context.Context, []byte) ([]byte, error) { return nil, coreError{code: "UnAuthorized"} },
			wantStatus: 503, wantCode: "42", wantText: "CORE error UnAuthorized", wantHist: StatusError},
		{name: "CORE endpoint refuses the 270's data", caller: prodKey, req: uhc,
			answer:     func(context.Context, []byte) ([]byte, error) { return nil, coreError{code: "PayloadIllegal"} },
			wantStatus: 400, wantCode: CodeBadRequest, wantText: "refused the 270 built from this request as invalid (CORE error PayloadIllegal)", wantHist: StatusError},
		{name: "CORE endpoint times out", caller: prodKey, req: uhc,
			answer:     func(context.Context, []byte) ([]byte, error) { return nil, coreError{code: "Timeout", timeout: true} },
			wantStatus: 504, wantCode: "42", wantText: "Unable to Respond at Current Time", wantHist: StatusError},
		{name: "payer answers nonsense", caller: prodKey, req: uhc,
			answer:     func(context.Context, []byte) ([]byte, error) { return []byte("<html>gateway error</html>"), nil },
			wantStatus: 502, wantCode: CodeBadPayerAnswer, wantText: "not a 271", wantHist: StatusError},
		{name: "payer rejects the 270 with a 999", caller: prodKey, req: uhc,
			answer: func(context.Context, []byte) ([]byte, error) {
				return []byte("ST*999*0001*005010X231A1~AK1*HS*1*005010X279A1~IK5*R*5~AK9*R*1*1*0~SE*5*0001~"), nil
			},
			wantStatus: 400, wantHist: StatusError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, tt.timeout)
			if tt.answer != nil {
				f.prod.answer = tt.answer
			}
			res, err := f.svc.Check(context.Background(), tt.caller, tt.req())
			if err != nil {
				t.Fatal(err)
			}
			body, _ := json.Marshal(res.Body())
			if res.HTTPStatus != tt.wantStatus {
				t.Fatalf("status %d, want %d: %s", res.HTTPStatus, tt.wantStatus, body)
			}
			switch {
			case res.Problem != nil:
				if res.Problem.Code != tt.wantCode {
					t.Errorf("code %s, want %s", res.Problem.Code, tt.wantCode)
				}
			case tt.wantCode != "":
				if len(res.Response.Errors) == 0 || res.Response.Errors[0].Code != tt.wantCode || res.Response.Status != "ERROR" {
					t.Errorf("want an eligibility-shaped body with AAA %s and status ERROR: %s", tt.wantCode, body)
				}
			}
			if !strings.Contains(string(body), tt.wantText) {
				t.Errorf("body lacks %q: %s", tt.wantText, body)
			}
			rec := f.history.last(t)
			if rec.Status != tt.wantHist || rec.HTTPStatus != tt.wantStatus || !bytes.Equal(rec.ResponseJSON, body) {
				t.Errorf("history: status %s (want %s), http %d, body %s", rec.Status, tt.wantHist, rec.HTTPStatus, rec.ResponseJSON)
			}
		})
	}
}

func TestCheckProductionEnvelope(t *testing.T) {
	f := newFixture(t, 0)
	f.prod.answer = func(context.Context, []byte) ([]byte, error) {
		return []byte("ST*271*1*005010X279A1~BHT*0022*11*X*20240801*0930~HL*1**20*1~NM1*PR*2*UHC*****PI*87726~" +
			"HL*2*1*21*1~NM1*1P*2*P~HL*3*2*22*0~NM1*IL*1*DOE~EB*6**30~SE*9*1~"), nil
	}
	req := &Request{TradingPartnerServiceID: "87726", ControlNumber: "123456789", Provider: &Provider{OrganizationName: "P", NPI: "1999999984"},
		Subscriber: &Subscriber{MemberID: "M123"}}
	res, err := f.svc.Check(context.Background(), prodKey, req)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(f.prod.got, []byte("*P*:~")) || bytes.Contains(f.prod.got, []byte("*00501*123456789*")) {
		t.Errorf("production 270 must be ISA15 P with our own control number: %s", f.prod.got)
	}
	// The caller's controlNumber travels as the submitter's transaction
	// identifier (BHT03), and history keeps both numbers.
	if !bytes.Contains(f.prod.got, []byte("~BHT*0022*13*123456789*")) {
		t.Errorf("the request's controlNumber is not BHT03: %s", f.prod.got)
	}
	if res.SubmitterControlNumber != "123456789" || res.ControlNumber == "" || res.ControlNumber == "123456789" {
		t.Errorf("numbers: submitter %q, interchange %q", res.SubmitterControlNumber, res.ControlNumber)
	}
	if res.Response.Meta.ApplicationMode != "production" || res.Status != StatusInactive {
		t.Errorf("meta %+v status %s", res.Response.Meta, res.Status)
	}
	if rec := f.history.last(t); rec.ControlNumber != "000000101" || rec.PayerName != "UnitedHealthcare" {
		t.Errorf("history: control %s payer %s", rec.ControlNumber, rec.PayerName)
	}
}

func TestCheckRawX12(t *testing.T) {
	f := newFixture(t, 0)
	// A published mock request, built as a 270 by the caller with other
	// delimiters and their own envelope.
	var mock *Request
	for _, m := range mockRequests(t) {
		if m.mock.Name == "uhc-dependent" {
			mock = m.req
		}
	}
	if mock == nil {
		t.Fatal("mock uhc-dependent not published")
	}
	p, _ := payers.Default().Lookup("87726")
	built, err := Build270(mock, p, Build270Options{Numbers: &x12.SequentialControlNumbers{Interchange: 5}, TraceID: "CALLERTRACE", Now: serviceTime, Test: true})
	if err != nil {
		t.Fatal(err)
	}
	theirs := strings.NewReplacer("*", "|", "~", "\n", "^", "`", ":", ">").Replace(string(built.X12))
	theirs = strings.Replace(theirs, "|`|", "|^|", 1) // keep ISA11 a valid repetition separator: "`"
	theirs = strings.Replace(theirs, "|^|00501", "|`|00501", 1)

	res, err := f.svc.CheckRawX12(context.Background(), testKey, &RawRequest{X12: RawX12(theirs)})
	if err != nil {
		t.Fatal(err)
	}
	if res.HTTPStatus != 200 || res.Response == nil || len(res.Response.Dependents) != 1 {
		t.Fatalf("raw mock check: %d %+v", res.HTTPStatus, res.Body())
	}
	if !strings.HasPrefix(string(res.X12Request), "ISA*00*") || !bytes.Contains(res.X12Request, []byte("BHT*0022*13*CALLERTRACE*")) {
		t.Errorf("the caller's 270 must go out in our envelope with its own BHT: %s", res.X12Request)
	}
	rep, _ := guide.Validate(bytes.NewReader(res.X12Request), guide.Options{})
	for _, finding := range rep.All() {
		t.Errorf("re-enveloped 270: %s", finding)
	}

	bad := []struct{ name, x12, want string }{
		{"empty", "", "is required"},
		{"not X12", "hello", "could not be read as X12"},
		{"a 271", "ST*271*1*005010X279A1~SE*2*1~", "holds a 271"},
		{"two 270s", "ST*270*1*005010X279A1~BHT*0022*13*1*20240101*1200~SE*3*1~ST*270*2*005010X279A1~SE*2*2~", "holds 2 transaction sets"},
		{"no payer", "ST*270*1*005010X279A1~BHT*0022*13*1*20240101*1200~HL*1**20*1~SE*4*1~", "names no payer"},
	}
	for _, tt := range bad {
		res, err := f.svc.CheckRawX12(context.Background(), testKey, &RawRequest{X12: RawX12(tt.x12)})
		if err != nil {
			t.Fatal(err)
		}
		if res.HTTPStatus != 400 || res.Problem == nil || len(res.Problem.FieldList) != 1 ||
			res.Problem.FieldList[0].Path != "/x12" || !strings.Contains(res.Problem.FieldList[0].Message, tt.want) {
			t.Errorf("%s: %d %+v", tt.name, res.HTTPStatus, res.Problem)
		}
	}
}

// coreError is what a CAQH CORE connection returns (payers.ExchangeError).
type coreError struct {
	code    string
	timeout bool
}

func (e coreError) Error() string     { return "CORE error " + e.code }
func (e coreError) ErrorCode() string { return e.code }
func (e coreError) Timeout() bool     { return e.timeout }
