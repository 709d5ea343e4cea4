package webhooks_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// verifier checks a delivery's signature headers as a receiver would.
type verifier interface {
	Verify(payload []byte, h http.Header) error
	VerifyIgnoringTimestamp(payload []byte, h http.Header) error
}

// reference returns the verifier of the Standard Webhooks reference
// library for secret. (Interim: the package's own verifier, until the
// reference library is in go.mod.)
func reference(t testing.TB, secret string) verifier {
	t.Helper()
	return ownVerifier(secret)
}

type ownVerifier string

func (v ownVerifier) Verify(p []byte, h http.Header) error {
	return webhooks.Verify(string(v), h, p, time.Now())
}

func (v ownVerifier) VerifyIgnoringTimestamp(p []byte, h http.Header) error {
	return webhooks.Verify(string(v), h, p, unixOf(h.Get("webhook-timestamp")))
}

func unixOf(s string) time.Time {
	n, _ := strconv.ParseInt(s, 10, 64)
	return time.Unix(n, 0)
}
