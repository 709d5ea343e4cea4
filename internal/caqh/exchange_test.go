package caqh

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/netguard"
	"github.com/clearhouse/clearhouse/internal/payers"
)

const answer271 = "ISA*00*          *00*          *ZZ*PAYER01        *ZZ*SUBMITTER01    *240501*1319*^*00501*000000001*0*P*:~GS*HB*PAYER01*SUBMITTER01*20240501*1319*1*X*005010X279A1~ST*271*0001*005010X279A1~SE*2*0001~GE*1*1~IEA*1*000000001~"

// echoBackend answers every 270 with answer271, after checking it got the
// payload the client sent.
type backendFunc func(ctx context.Context, req []byte) ([]byte, error)

func (f backendFunc) Exchange(ctx context.Context, req []byte) ([]byte, error) { return f(ctx, req) }

type codedErr struct{ code, msg string }

func (e codedErr) Error() string     { return e.msg }
func (e codedErr) ErrorCode() string { return e.code }

var _ payers.Connection = (*Client)(nil)
var _ payers.ExchangeError = (*Error)(nil)

func newPair(t *testing.T, backend Backend, kind Kind, cred Credentials) *Client {
	t.Helper()
	h := &Handler{Backend: backend, Credentials: &Credentials{Username: "clearhouse", Password: "pw"}, ReceiverID: "PAYER01", Timeout: time.Second}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &Client{URL: srv.URL + "/core", Kind: kind, Credentials: cred, SenderID: "SUBMITTER01", ReceiverID: "PAYER01",
		HTTP: netguard.New(netguard.Options{AllowPrivate: true}).Client(5 * time.Second), Timeout: 2 * time.Second}
}

func TestExchange(t *testing.T) {
	good := Credentials{Username: "clearhouse", Password: "pw"}
	ok := backendFunc(func(_ context.Context, req []byte) ([]byte, error) {
		if string(req) != sample270 {
			return nil, errors.New("payload changed in transit")
		}
		return []byte(answer271), nil
	})
	tests := []struct {
		name     string
		backend  Backend
		cred     Credentials
		timeout  time.Duration
		wantCode string
		wantHTTP int
	}{
		{name: "271", backend: ok, cred: good},
		{name: "wrong password", backend: ok, cred: Credentials{Username: "clearhouse", Password: "nope"}, wantCode: CodeUnAuthorized, wantHTTP: 401},
		{name: "payer refuses the payload", cred: good, wantCode: CodePayloadIllegal, wantHTTP: 200,
			backend: backendFunc(func(context.Context, []byte) ([]byte, error) {
				return nil, codedErr{CodePayloadIllegal, "no such member"}
			})},
		{name: "payer fails", cred: good, wantCode: CodeServerError, wantHTTP: 500,
			backend: backendFunc(func(context.Context, []byte) ([]byte, error) { return nil, errors.New("database down at 10.0.0.7") })},
		{name: "payer slower than the client waits", cred: good, timeout: 100 * time.Millisecond, wantCode: CodeTimeout,
			backend: backendFunc(func(ctx context.Context, _ []byte) ([]byte, error) {
				select {
				case <-ctx.Done():
				case <-time.After(500 * time.Millisecond):
				}
				return []byte(answer271), nil
			})},
	}
	for _, kind := range []Kind{SOAP, MIME} {
		for _, tt := range tests {
			t.Run(string(kind)+"/"+tt.name, func(t *testing.T) {
				c := newPair(t, tt.backend, kind, tt.cred)
				if tt.timeout > 0 {
					c.Timeout = tt.timeout
				}
				got, err := c.Exchange(context.Background(), []byte(sample270))
				if tt.wantCode == "" {
					if err != nil || string(got) != answer271 {
						t.Fatalf("%q, %v", got, err)
					}
					return
				}
				var ce *Error
				if !errors.As(err, &ce) || ce.Code != tt.wantCode || ce.HTTPStatus != tt.wantHTTP {
					t.Fatalf("error %#v, want code %s HTTP %d", err, tt.wantCode, tt.wantHTTP)
				}
				if strings.Contains(ce.Error(), "10.0.0.7") {
					t.Errorf("the payer's internal error leaked: %v", ce)
				}
				if tt.wantCode == CodeTimeout && !ce.Timeout() {
					t.Error("a timeout that does not say so")
				}
			})
		}
	}
}

func TestExchangeTransportFailures(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	down := "http://" + ln.Addr().String() + "/core"
	ln.Close()
	html := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(502)
		w.Write([]byte("<html>bad gateway</html>"))
	}))
	defer html.Close()
	notFound := httptest.NewServer(http.NotFoundHandler())
	defer notFound.Close()
	allow := netguard.New(netguard.Options{AllowPrivate: true}).Client(time.Second)
	tests := []struct {
		name, url string
		http      *http.Client
		wantCode  string
	}{
		{"server down", down, allow, CodeUnreachable},
		{"HTML error page", html.URL, allow, CodeHTTPStatus},
		{"wrong path", notFound.URL + "/nope", allow, CodeHTTPStatus},
		{"loopback refused by the SSRF guard", html.URL, nil, CodeNotPermitted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Client{URL: tt.url, HTTP: tt.http, Timeout: time.Second}
			_, err := c.Exchange(context.Background(), []byte(sample270))
			var ce *Error
			if !errors.As(err, &ce) || ce.Code != tt.wantCode {
				t.Fatalf("%v, want %s", err, tt.wantCode)
			}
		})
	}
}

func TestHandlerChecksTheEnvelope(t *testing.T) {
	h := &Handler{Backend: backendFunc(func(context.Context, []byte) ([]byte, error) { return []byte(answer271), nil })}
	tests := []struct {
		name     string
		edit     func(*Envelope)
		wantCode string
	}{
		{"missing PayloadID", func(e *Envelope) { e.PayloadID = "" }, "PayloadIDRequired"},
		{"PayloadID not a UUID", func(e *Envelope) { e.PayloadID = "12345" }, "PayloadIDIllegal"},
		{"old rule version", func(e *Envelope) { e.CORERuleVersion = "1.1.0" }, CodeVersionMismatch},
		{"batch", func(e *Envelope) { e.ProcessingMode = "Batch" }, CodeProcessingModeNotSupp},
		{"278 (not real-time eligibility or claim status)", func(e *Envelope) { e.PayloadType = "X12_278_Request_005010X217" }, CodePayloadTypeNotSupported},
		{"bad time", func(e *Envelope) { e.TimeStamp = "yesterday" }, "TimeStampIllegal"},
		{"no payload", func(e *Envelope) { e.Payload = nil }, "PayloadRequired"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := sampleRequest()
			tt.edit(env)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("POST", "/core", strings.NewReader(string(MarshalSOAPRequest(env, sampleCredentials)))))
			got, _, err := ParseSOAPResponse(rec.Body)
			if err != nil {
				t.Fatal(err)
			}
			if rec.Code != 400 || got.ErrorCode != tt.wantCode || got.PayloadType != PayloadTypeError {
				t.Errorf("HTTP %d, %s %s", rec.Code, got.PayloadType, got.ErrorCode)
			}
		})
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/core", strings.NewReader("<nope/>")))
	if rec.Code != 400 || !strings.Contains(rec.Body.String(), "VersionMismatch") {
		t.Errorf("not SOAP: %d %s", rec.Code, rec.Body)
	}
}
