// Package mockpayer is the test-mode payer: a real X12 trading partner that
// reads a 005010X279A1 270 with package x12, matches it against the
// published mock requests (fixtures/*.json), and answers a complete 271
// interchange (ISA15 = T) — benefits, dependents where the payer puts them,
// or a payer rejection (AAA) in the loop the scenario names.
//
// Anything else is refused with an error wrapping ErrNoMockMatch: test mode
// accepts only the published mock requests (Requests lists them).
package mockpayer

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/clearhouse/clearhouse/internal/payers"
)

// Payer is the mock payer connection. It is safe for concurrent use.
type Payer struct {
	dir     *payers.Directory
	now     func() time.Time
	control atomic.Int64 // last ISA13 handed out
	byPayer map[string][]*scenario
	ids     []string // mock payer ids, for error messages

	datedLines []string                    // fixture lines with date placeholders
	dates      atomic.Pointer[dateContext] // those lines expanded for the current day

	states ClaimStates // the claims a 276 may ask about (nil: none known)

	scenarios ScenarioSource // the caller's simulator scenarios (nil: none)
	logger    *slog.Logger   // records which scenario answered (nil: silent)
}

var _ payers.Connection = (*Payer)(nil)

// Option configures a Payer.
type Option func(*Payer)

// WithClock sets the clock for envelope dates and the plan-year dates of
// the fixtures (default time.Now).
func WithClock(now func() time.Time) Option { return func(p *Payer) { p.now = now } }

// WithDirectory resolves payer aliases with dir instead of the default
// directory (an operator's override file may add aliases).
func WithDirectory(dir *payers.Directory) Option { return func(p *Payer) { p.dir = dir } }

// WithControlNumberStart makes the next 271 use ISA13 = n+1. The default
// starts from the clock, so restarts rarely repeat a recent number.
func WithControlNumberStart(n int64) Option { return func(p *Payer) { p.control.Store(n) } }

// New returns the mock payer. It panics if the embedded fixtures are
// invalid, which the package tests rule out.
func New(opts ...Option) *Payer {
	scs, err := fixtures()
	if err != nil {
		panic(err)
	}
	p := &Payer{dir: payers.Default(), now: time.Now, byPayer: map[string][]*scenario{}}
	p.control.Store(-1)
	for _, o := range opts {
		o(p)
	}
	if p.control.Load() < 0 {
		p.control.Store(p.now().Unix() % 900000000)
	}
	for _, s := range scs {
		if len(p.byPayer[s.match.payerID]) == 0 {
			p.ids = append(p.ids, s.match.payerID)
		}
		p.byPayer[s.match.payerID] = append(p.byPayer[s.match.payerID], s)
		for _, t := range s.templates() {
			if t.dynamic && !slices.Contains(p.datedLines, t.line) {
				p.datedLines = append(p.datedLines, t.line)
			}
		}
	}
	return p
}

// TestOnly marks the mock as a test-mode connection (see payers.TestOnly):
// the router never sends production traffic to it.
func (p *Payer) TestOnly() bool { return true }

// Exchange answers one 270 interchange with a 271 interchange, and a 276
// claim status request with a 277 (see answerStatus). Errors:
// ErrInvalidInquiry for input that is not an answerable 270, an error
// matching ErrNoMockMatch (and ErrUnsupportedServiceType for service types
// other than 30/35) for a 270 outside the mock set, or ctx's error.
func (p *Payer) Exchange(ctx context.Context, request []byte) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	inq, err := readInquiry(request)
	if err != nil {
		// A 276 is no 270, so it is told apart only when the 270 reading
		// fails: a 270 is read once, not first searched for a 276.
		if is276(request) {
			return p.answerStatus(ctx, request)
		}
		return nil, err
	}
	// The caller's own scenarios come first; the published mocks answer
	// what they do not match.
	if sc, err := p.simulatedEligibility(ctx, inq); err != nil {
		return nil, err
	} else if sc != nil {
		return p.answerSimulated(ctx, inq, sc)
	}
	s, err := p.match(inq)
	if err != nil {
		return nil, err
	}
	return p.respond(inq, s)
}

// match finds the scenario for an inquiry, or explains why there is none.
func (p *Payer) match(inq *inquiry) (*scenario, error) {
	for _, st := range inq.serviceTypes {
		if st != "30" && st != "35" {
			return nil, &NoMatchError{PayerID: inq.payerID, ServiceType: st}
		}
	}
	candidates := p.byPayer[p.canonical(inq.payerID)]
	if len(candidates) == 0 {
		return nil, &NoMatchError{PayerID: inq.payerID, mockPayers: p.ids}
	}
	for _, s := range candidates {
		if s.match.compare(inq, nil) {
			return s, nil
		}
	}
	// No match: explain with the candidate that differs in fewest fields.
	var best []string
	for _, s := range candidates {
		var miss []string
		s.match.compare(inq, &miss)
		if best == nil || len(miss) < len(best) {
			best = miss
		}
	}
	return nil, &NoMatchError{PayerID: inq.payerID, Fields: best}
}

func (p *Payer) canonical(id string) string { return resolvePayerID(p.dir, id) }

// canonicalPayerID resolves a fixture's payer id with the default
// directory.
func canonicalPayerID(id string) string { return resolvePayerID(payers.Default(), id) }

func resolvePayerID(dir *payers.Directory, id string) string {
	if primary, ok := dir.Resolve(id); ok {
		return primary
	}
	return strings.ToUpper(strings.TrimSpace(id))
}
