package upstream

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/netguard"
)

// TestSubmitClaim: each 837 goes to its claim type's raw-x12-submission
// path with the idempotency key; an upstream refusal names the connection.
func TestSubmitClaim(t *testing.T) {
	var gotPath, gotKey string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotPath, gotKey = r.URL.Path, r.Header.Get("Idempotency-Key")
		if r.Header.Get("Authorization") != "Key k" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Write([]byte(`{"status":"SUCCESS","claimReference":{"correlationId":"c-1"}}`))
	}))
	defer srv.Close()
	c := &Client{ID: "up", URL: srv.URL + "/2024-04-01", APIKey: "k", HTTP: netguard.New(netguard.Options{AllowPrivate: true}).Client(time.Second)}
	for _, tt := range []struct{ guide, path string }{
		{"005010X224A2", "/2024-04-01/dental-claims/raw-x12-submission"},
		{"005010X222A1", "/2024-04-01/change/medicalnetwork/professionalclaims/v3/raw-x12-submission"},
		{"005010X223A3", "/2024-04-01/change/medicalnetwork/institutionalclaims/v1/raw-x12-submission"},
	} {
		msg, err := c.SubmitClaim(context.Background(), []byte("ISA*…~GS*HC*A*B*20261126*0400*1*X*"+tt.guide+"~"), "ex-1")
		if err != nil || gotPath != tt.path || gotKey != "ex-1" || !strings.Contains(msg, `correlationId "c-1"`) {
			t.Errorf("%s: %q, %v; sent to %s with key %q", tt.guide, msg, err, gotPath, gotKey)
		}
	}
	if _, err := c.SubmitClaim(context.Background(), []byte("ISA*…~ST*835*"), "ex-2"); !errors.Is(err, ErrNotAClaim) {
		t.Errorf("an 835: %v, want ErrNotAClaim", err)
	}
	c.APIKey = "wrong"
	_, err := c.SubmitClaim(context.Background(), []byte("GS*HC*A*B*20261126*0400*1*X*005010X224A2~"), "ex-3")
	var ue *Error
	if !errors.As(err, &ue) || !ue.Auth() || !strings.Contains(err.Error(), "upstream connection up") {
		t.Errorf("wrong key: %v", err)
	}
}
