// Package mockserver runs the mock payers as a separate process that
// speaks the real protocols (`clearhouse mockpayer serve`): CAQH CORE SOAP
// and MIME at /core, answering the published mock requests with the same
// fixtures as test mode. Production-mode Clearhouse can then be run end to
// end on one machine, its CAQH_CORE connection pointed at this process.
package mockserver

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/clearhouse/clearhouse/internal/caqh"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
)

// Config wires a Server.
type Config struct {
	// Credentials, when set, are required of every CORE request.
	Credentials *caqh.Credentials
	// Payer answers the 270s (default mockpayer.New()).
	Payer  *mockpayer.Payer
	Logger *slog.Logger
}

// Handler is the HTTP side: POST /core (both envelopes) and GET /healthz.
func Handler(cfg Config) http.Handler {
	p := cfg.Payer
	if p == nil {
		p = mockpayer.New()
	}
	mux := http.NewServeMux()
	mux.Handle("/core", &caqh.Handler{
		Backend: backend{p}, Credentials: cfg.Credentials, Logger: cfg.Logger,
		Timeout: 20 * time.Second,
	})
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok\n")) })
	return mux
}

// backend answers 270s with the mock payers. What the mock set cannot
// answer is refused the way a CORE endpoint refuses a payload it cannot
// process (PayloadIllegal), with the mock's explanation — which names the
// fields that differ, never their values.
type backend struct{ p *mockpayer.Payer }

func (b backend) Exchange(ctx context.Context, x12 []byte) ([]byte, error) {
	out, err := b.p.Exchange(ctx, x12)
	if errors.Is(err, mockpayer.ErrNoMockMatch) || errors.Is(err, mockpayer.ErrInvalidInquiry) {
		return nil, refusal{err}
	}
	return out, err
}

type refusal struct{ err error }

func (r refusal) Error() string     { return r.err.Error() }
func (r refusal) ErrorCode() string { return caqh.CodePayloadIllegal }
func (r refusal) Unwrap() error     { return r.err }
