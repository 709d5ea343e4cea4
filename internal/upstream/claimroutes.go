package upstream

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"time"

	"github.com/clearhouse/clearhouse/internal/delivery"
	"github.com/clearhouse/clearhouse/internal/logsafe"
	"github.com/clearhouse/clearhouse/internal/store"
)

// Claims fail over between a payer's upstreams only while no upstream can
// have accepted the file. Before each request the route's row in
// upstream_submissions is written SENDING (committed, so a crash leaves
// it); the upstream's acceptance is written ACCEPTED before anything else
// is recorded. What happened next decides:
//
//   - accepted (2xx): done; a rerun of the job finds the ACCEPTED row and
//     sends nothing.
//   - certainly not accepted: the request never left in full (connection
//     refused, DNS, TLS, a time limit before it was written), or the
//     upstream answered 500, 502, 503, 429 or 408: the row is NOT_ACCEPTED
//     and the payer's next route takes the file.
//   - refused: any other 4xx (a refused key, a refused file): NOT_ACCEPTED,
//     and no other route is tried; the delivery job tries again later from
//     the first route, and after its last attempt the file FAILS.
//   - ambiguous: the request left and no answer says what became of it (a
//     time limit or a reset after it was written, 504 from a gateway, 409
//     while the upstream still works on the same key, an unreadable 2xx):
//     the row is UNKNOWN, and the file is pinned to that route. The job's
//     next attempts go there only, with the same Idempotency-Key (the
//     execution id), so the upstream answers the first submission again
//     instead of taking a second one; nothing goes to another route until
//     the file has FAILED for good and a person resends it.

// Outcomes of one route's attempt, as the route metrics name them.
const (
	OutcomeAnswered  = "answered"
	OutcomeFailover  = "failover"
	OutcomeRefused   = "refused"
	OutcomeAmbiguous = "ambiguous"
	OutcomeSkipped   = "skipped"
)

type claimOutcome int

const (
	claimNotAccepted claimOutcome = iota
	claimRefused
	claimAmbiguous
)

// classifyClaim sorts a failed submission (see above).
func classifyClaim(err error) claimOutcome {
	var ue *Error
	if !errors.As(err, &ue) {
		return claimAmbiguous
	}
	if errors.Is(err, ErrNotAClaim) {
		return claimRefused
	}
	switch s := ue.HTTPStatus; {
	case s == 0:
		if ue.sent {
			return claimAmbiguous
		}
		return claimNotAccepted
	case s >= 200 && s < 300, s == http.StatusGatewayTimeout, s == http.StatusConflict:
		return claimAmbiguous
	case s >= 500, s == http.StatusTooManyRequests, s == http.StatusRequestTimeout:
		return claimNotAccepted
	}
	return claimRefused
}

// ClaimRoutes returns the ordered claims routes (connection ids) a payer
// id names, nil when it names none.
type ClaimRoutes func(payerID string) []string

// routes lists the connections to try for f: the payer's claims routes
// (the partnership's own connection first when the list lacks it), or the
// partnership's connection alone.
func (d *Delivery) routes(f delivery.File) []string {
	var names []string
	if d.ClaimRoutes != nil {
		names = d.ClaimRoutes(PayerID(f.Body))
	}
	if len(names) == 0 {
		return []string{f.Connection.ID}
	}
	if !slices.Contains(names, f.Connection.ID) {
		names = append([]string{f.Connection.ID}, names...)
	}
	return names
}

// DeliverRouted submits the file's 837 through the payer's claims routes
// (delivery.RoutedTransport), recording each route's part, and returns the
// connection that took it.
func (d *Delivery) DeliverRouted(ctx context.Context, f delivery.File) (string, store.Connection, error) {
	if d.Store == nil {
		msg, err := d.submit(ctx, f, f.Connection)
		return msg, f.Connection, err
	}
	e := f.Execution
	prior, err := d.Store.ListUpstreamSubmissions(ctx, e.AccountID, e.Mode, e.ID)
	if err != nil {
		return "", f.Connection, err
	}
	routes, pinned := d.routes(f), false
	for _, p := range prior {
		if p.State == store.UpstreamAccepted {
			// Accepted before a crash or a lost commit: nothing is sent again.
			return p.Message, d.connection(ctx, f, p.ConnectionID), nil
		}
	}
	for _, p := range prior {
		if p.State == store.UpstreamSending || p.State == store.UpstreamUnknown {
			routes, pinned = []string{p.ConnectionID}, true
			break
		}
	}
	var errs []error
	for _, id := range routes {
		conn := d.connection(ctx, f, id)
		if conn.Type != store.ConnectionClearinghouseAPI {
			errs = append(errs, noRouteError(id))
			d.observe(id, OutcomeSkipped)
			continue
		}
		if err := d.mark(ctx, e, id, store.UpstreamSending, ""); err != nil {
			return "", conn, err
		}
		msg, err := d.submit(ctx, f, conn)
		if err == nil {
			// The acceptance first: a rerun must find it whatever happens next.
			if err := d.mark(ctx, e, id, store.UpstreamAccepted, msg); err != nil {
				return "", conn, fmt.Errorf("record the upstream's acceptance: %w", err)
			}
			d.observe(id, OutcomeAnswered)
			return msg, conn, nil
		}
		outcome := classifyClaim(err)
		if pinned || outcome == claimAmbiguous {
			_ = d.mark(ctx, e, id, store.UpstreamUnknown, err.Error())
			d.observe(id, OutcomeAmbiguous)
			d.logger().Warn("upstream: claim outcome unknown; retrying only this route with the same Idempotency-Key",
				"execution", e.ID, "account", e.AccountID, "connection", id, logsafe.Error(err))
			return "", conn, fmt.Errorf("%w (the file stays with connection %s: it may have accepted it)", err, id)
		}
		if mErr := d.mark(ctx, e, id, store.UpstreamNotAccepted, err.Error()); mErr != nil {
			return "", conn, mErr
		}
		if outcome == claimRefused {
			d.observe(id, OutcomeRefused)
			return "", conn, err
		}
		d.observe(id, OutcomeFailover)
		d.logger().Warn("upstream: claim not accepted; trying the payer's next route",
			"execution", e.ID, "account", e.AccountID, "connection", id, logsafe.Error(err))
		errs = append(errs, err)
	}
	return "", f.Connection, errors.Join(errs...)
}

// noRouteError is a claims route the file's account and mode have no
// CLEARINGHOUSE_API connection for.
type noRouteError string

func (e noRouteError) Error() string {
	return fmt.Sprintf("claims route %s: no CLEARINGHOUSE_API connection of that id in this account and mode", string(e))
}

// LogSafe is the whole text: it holds only the route's id.
func (e noRouteError) LogSafe() string { return e.Error() }

// connection is the stored connection id of f's account and mode (never
// another's); its Type is "" when there is none.
func (d *Delivery) connection(ctx context.Context, f delivery.File, id string) store.Connection {
	if id == f.Connection.ID {
		return f.Connection
	}
	c, err := d.Store.GetConnection(ctx, f.Execution.AccountID, f.Execution.Mode, id)
	if err != nil || c.AccountID != f.Execution.AccountID || c.Mode != f.Execution.Mode {
		return store.Connection{ID: id}
	}
	return c
}

func (d *Delivery) submit(ctx context.Context, f delivery.File, conn store.Connection) (string, error) {
	f.Connection = conn
	c, err := d.Client(f)
	if err != nil {
		return "", &Error{Connection: conn.ID, Op: "claim", Message: err.Error(), Err: err}
	}
	return c.SubmitClaim(ctx, f.Body, f.Execution.ID)
}

func (d *Delivery) mark(ctx context.Context, e store.Execution, conn, state, msg string) error {
	if len(msg) > 500 {
		msg = msg[:500] + "…"
	}
	now := time.Now
	if d.Now != nil {
		now = d.Now
	}
	return d.Store.MarkUpstreamSubmission(ctx, store.UpstreamSubmission{AccountID: e.AccountID, Mode: e.Mode,
		ExecutionID: e.ID, ConnectionID: conn, State: state, Message: msg, UpdatedAt: now().UTC()})
}

func (d *Delivery) observe(conn, outcome string) {
	if d.Observe != nil {
		d.Observe(conn, outcome)
	}
}

func (d *Delivery) logger() *slog.Logger {
	if d.Logger != nil {
		return d.Logger
	}
	return slog.Default()
}

// PayerID is the payer an 837 names: NM109 of its first NM1*PR (loop
// 2010BB), else the interchange's receiver (ISA08).
func PayerID(x12 []byte) string {
	if len(x12) < 106 || !bytes.HasPrefix(x12, []byte("ISA")) {
		return ""
	}
	el, term := x12[3], x12[105]
	isa08 := ""
	for i, seg := range bytes.Split(x12, []byte{term}) {
		seg = bytes.TrimSpace(seg)
		f := bytes.Split(seg, []byte{el})
		if i == 0 && len(f) > 8 {
			isa08 = string(bytes.TrimSpace(f[8]))
		}
		if len(f) > 9 && string(f[0]) == "NM1" && string(f[1]) == "PR" {
			return string(bytes.TrimSpace(f[9]))
		}
	}
	return isa08
}
