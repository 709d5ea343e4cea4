package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/netguard"
)

func TestExchange(t *testing.T) {
	tests := []struct {
		name         string
		status       int
		body         string
		delay        time.Duration
		want         string
		wantFailOver bool
		wantAuth     bool
		wantInError  string
	}{
		{name: "271 answer", status: 200, body: `{"x12": "ISA*271~"}`, want: "ISA*271~"},
		{name: "payer refusal is an answer", status: 400, body: `{"x12": "ISA*999~", "status": "ERROR"}`, want: "ISA*999~"},
		{name: "5xx fails over", status: 503, body: `{"message": "payer down"}`, wantFailOver: true, wantInError: "HTTP 503: payer down"},
		{name: "429 fails over", status: 429, body: `{}`, wantFailOver: true},
		{name: "wrong key", status: 401, body: `{"message": "Unauthorized"}`, wantAuth: true, wantInError: "upstream connection up-b: eligibility: HTTP 401: the upstream refused this connection's API key"},
		{name: "400 without x12", status: 400, body: `{"message": "x12 is required"}`, wantInError: "x12 is required"},
		{name: "200 without x12", status: 200, body: `{}`, wantInError: "carries no x12"},
		{name: "timeout fails over", status: 200, body: `{"x12": "late"}`, delay: 300 * time.Millisecond, wantFailOver: true, wantInError: "no answer within"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/2024-04-01"+EligibilityPath || r.Header.Get("Authorization") != "Key secret-b" {
					http.Error(w, "wrong path or key", http.StatusTeapot)
					return
				}
				var in struct{ X12 string }
				if json.NewDecoder(r.Body).Decode(&in) != nil || !strings.HasPrefix(in.X12, "ISA") {
					http.Error(w, "no x12", http.StatusTeapot)
					return
				}
				time.Sleep(tt.delay)
				w.WriteHeader(tt.status)
				w.Write([]byte(tt.body))
			}))
			defer srv.Close()
			guard := netguard.New(netguard.Options{AllowPrivate: true})
			c := &Client{ID: "up-b", URL: srv.URL + "/2024-04-01/", APIKey: "secret-b", HTTP: guard.Client(time.Second), Timeout: 100 * time.Millisecond}
			got, err := c.Exchange(context.Background(), []byte("ISA*270~"))
			if tt.want != "" {
				if err != nil || string(got) != tt.want {
					t.Fatalf("Exchange = %q, %v; want %q", got, err, tt.want)
				}
				return
			}
			var ue *Error
			if !errors.As(err, &ue) {
				t.Fatalf("err = %v, want *Error", err)
			}
			if ue.FailOver() != tt.wantFailOver || ue.Auth() != tt.wantAuth || !strings.Contains(err.Error(), tt.wantInError) {
				t.Errorf("err = %q (failOver %v, auth %v); want failOver %v, auth %v, containing %q",
					err, ue.FailOver(), ue.Auth(), tt.wantFailOver, tt.wantAuth, tt.wantInError)
			}
			if strings.Contains(err.Error(), "secret-b") {
				t.Error("the error shows the API key")
			}
		})
	}
}

func TestExchangeRefusesLoopbackWithoutPermission(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"x12":"x"}`)) }))
	defer srv.Close()
	c := &Client{ID: "up", URL: srv.URL, APIKey: "k", HTTP: netguard.New(netguard.Options{}).Client(time.Second)}
	_, err := c.Exchange(context.Background(), []byte("ISA*270~"))
	if !errors.Is(err, netguard.ErrBlocked) {
		t.Fatalf("err = %v, want the SSRF guard's refusal", err)
	}
}
