package webhooks_test

import (
	"net/http"
	"testing"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

// verifier checks a delivery's signature headers as a receiver would.
type verifier interface {
	Verify(payload []byte, h http.Header) error
	VerifyIgnoringTimestamp(payload []byte, h http.Header) error
}

// reference returns the verifier of the Standard Webhooks reference
// library (a test-only dependency) for secret: deliveries must pass the
// library receivers use, not only our own Verify.
func reference(t testing.TB, secret string) verifier {
	t.Helper()
	w, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	return w
}
