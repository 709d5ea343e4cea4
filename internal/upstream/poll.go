package upstream

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/delivery"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/logsafe"
	"github.com/clearhouse/clearhouse/internal/store"
)

// Answers come back from a CLEARINGHOUSE_API connection by polling: one
// job per stored connection (PollKind) asks the upstream's Polling API
// (coreUrl + /polling/transactions) for what it processed after the
// connection's cursor, oldest first, fetches the input X12 of each inbound
// 999, 277 and 835 (coreUrl + /transactions/{id}/input) and hands it to
// our inbound path (core.Service.Receive) for the connection's account and
// mode, so claim matching, events and reports work as for any file. Our
// own 837, which the upstream lists as its inbound file too, is skipped
// by its set.
//
// Nothing is taken twice: the execution id of an answer is derived from
// the account, mode, connection and upstream transaction id, and Receive
// with a known execution id returns the first execution. The cursor moves
// after the receive commits; a crash in between re-reads the answer and
// finds it received.

// PollKind is the job kind of a connection's poll.
const PollKind = "upstream.poll"

// DefaultPollInterval is how often a connection is polled unless the
// server says otherwise (serve --upstream-poll-interval).
const DefaultPollInterval = time.Minute

// maxPagesPerPoll bounds one poll; the rest waits for the next one.
const maxPagesPerPoll = 20

// answerSets are the transaction sets that come back as answers.
var answerSets = map[string]bool{"999": true, "277": true, "835": true}

// Poller collects the answers of every stored CLEARINGHOUSE_API
// connection.
type Poller struct {
	Store    store.Store
	Jobs     *jobs.Queue
	Receive  func(context.Context, core.ReceiveParams) (store.Execution, error)
	Delivery *Delivery // builds each connection's client (key, guard, timeout)
	Interval time.Duration
	Logger   *slog.Logger
	Now      func() time.Time
}

type pollPayload struct {
	AccountID    string `json:"accountId"`
	Mode         string `json:"mode"`
	ConnectionID string `json:"connectionId"`
}

// Register adds the poll job's kind to the queue.
func (p *Poller) Register() {
	p.Jobs.Register(PollKind, jobs.Policy{MaxAttempts: 5, Timeout: 5 * time.Minute, Lane: jobs.LaneOutbound}, p.handle)
}

func (p *Poller) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

func (p *Poller) interval() time.Duration {
	if p.Interval > 0 {
		return p.Interval
	}
	return DefaultPollInterval
}

// Ensure gives every CLEARINGHOUSE_API connection with a coreUrl its
// cursor and poll job (a new connection starts from five minutes before it
// was stored), and revives a poll job that failed for good or whose chain
// ended while the connection had no coreUrl. Run it at start and then now
// and then. A connection without a coreUrl (optional: only claims need
// it) has nothing to poll and is left alone, quietly.
func (p *Poller) Ensure(ctx context.Context) error {
	accounts, err := p.Store.ListAccounts(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, a := range accounts {
		for _, mode := range []string{store.ModeTest, store.ModeProduction} {
			conns, err := p.Store.ListConnections(ctx, a.ID, mode)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			for _, c := range conns {
				if c.Type == store.ConnectionClearinghouseAPI {
					errs = append(errs, p.ensure(ctx, c))
				}
			}
		}
	}
	return errors.Join(errs...)
}

func (p *Poller) ensure(ctx context.Context, c store.Connection) error {
	if !hasCoreURL(c) {
		return nil
	}
	cur, err := p.Store.GetUpstreamCursor(ctx, c.AccountID, c.Mode, c.ID)
	if errors.Is(err, store.ErrNotFound) {
		return p.Store.InTx(ctx, func(tx store.Queries) error {
			cur := store.UpstreamCursor{AccountID: c.AccountID, Mode: c.Mode, ConnectionID: c.ID,
				After: c.CreatedAt.Add(-5 * time.Minute), JobID: store.NewUUID(), UpdatedAt: p.Now()}
			created, err := tx.CreateUpstreamCursor(ctx, cur)
			if err != nil || !created {
				return err
			}
			_, err = p.Jobs.Enqueue(ctx, tx, PollKind, pollPayload{c.AccountID, c.Mode, c.ID},
				jobs.WithID(cur.JobID), jobs.ForTenant(c.AccountID, c.Mode))
			return err
		})
	}
	if err != nil {
		return err
	}
	// A poll that succeeded and is still the cursor's job scheduled no
	// next one: its chain ended while the connection had no coreUrl.
	if j, err := p.Store.GetJob(ctx, cur.JobID); err == nil && (j.State == store.JobFailed || j.State == store.JobSucceeded) {
		return p.Jobs.Retry(ctx, j.ID)
	}
	return nil
}

// hasCoreURL says whether c's settings name the upstream's EDI core, which
// answers are polled from.
func hasCoreURL(c store.Connection) bool {
	var s StoredSettings
	return json.Unmarshal(c.Settings, &s) == nil && s.CoreURL != ""
}

// handle polls one connection and schedules its next poll, in the
// transaction that completes this one. An upstream that fails is logged
// and asked again at the next interval (the chain never ends while the
// connection exists).
func (p *Poller) handle(ctx context.Context, j store.Job) error {
	var pl pollPayload
	if err := jobs.Decode(j, &pl); err != nil {
		return jobs.Permanent(err)
	}
	conn, err := p.Store.GetConnection(ctx, pl.AccountID, pl.Mode, pl.ConnectionID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && conn.Type != store.ConnectionClearinghouseAPI) {
		return nil // connection removed or retyped: its chain ends
	}
	if err != nil {
		return err
	}
	log := p.Logger.With("connection_id", conn.ID, "account_id", conn.AccountID, "mode", conn.Mode)
	if !hasCoreURL(conn) {
		// Not a failure, and not worth a warning every interval for as
		// long as the connection lives: said once, the chain ends, and
		// Ensure starts it again once a coreUrl is set.
		log.Info("upstream: connection has no coreUrl; its answers are not polled until one is set")
		return nil
	}
	cur, err := p.Store.GetUpstreamCursor(ctx, pl.AccountID, pl.Mode, pl.ConnectionID)
	if err != nil {
		return err
	}
	taken, perr := p.poll(ctx, conn, &cur)
	if perr != nil {
		log.Warn("upstream: poll failed; next poll at the interval", logsafe.Error(perr), "answers_taken", taken)
	} else if taken > 0 {
		log.Info("upstream: answers taken", "answers_taken", taken)
	}
	return p.Store.InTx(ctx, func(tx store.Queries) error {
		next, err := p.Jobs.Enqueue(ctx, tx, PollKind, pl, jobs.At(p.Now().Add(p.interval())), jobs.ForTenant(pl.AccountID, pl.Mode))
		if err != nil {
			return err
		}
		cur.JobID, cur.UpdatedAt = next.ID, p.Now()
		if err := tx.SaveUpstreamCursor(ctx, cur); err != nil {
			return err
		}
		return jobs.Complete(ctx, tx)
	})
}

// polledTransaction is what this package reads of a polled transaction.
type polledTransaction struct {
	TransactionID string     `json:"transactionId"`
	Direction     string     `json:"direction"`
	ProcessedAt   time.Time  `json:"processedAt"`
	X12           *polledX12 `json:"x12"`
}

type polledX12 struct {
	Metadata struct {
		Transaction *polledSet `json:"transaction"`
	} `json:"metadata"`
}

type polledSet struct {
	TransactionSetIdentifier string `json:"transactionSetIdentifier"`
}

func (t polledTransaction) set() string {
	if t.X12 == nil || t.X12.Metadata.Transaction == nil {
		return ""
	}
	return t.X12.Metadata.Transaction.TransactionSetIdentifier
}

// poll takes the answers listed after cur.After, moving cur (saved after
// each answer) as it goes; it stops at the first failure.
func (p *Poller) poll(ctx context.Context, conn store.Connection, cur *store.UpstreamCursor) (int, error) {
	c, err := p.Delivery.Client(delivery.File{Connection: conn})
	if err != nil {
		return 0, err
	}
	if c.CoreURL == "" {
		return 0, &Error{Connection: c.ID, Op: "poll", Message: "the connection has no coreUrl (the upstream's EDI core base, …/2023-08-01); set it to collect answers"}
	}
	// A millisecond back: transactions processed in the same instant as
	// the last one taken are listed again and found received.
	q := url.Values{"startDateTime": {cur.After.Add(-time.Millisecond).UTC().Format(time.RFC3339Nano)}}
	taken := 0
	for range maxPagesPerPoll {
		status, body, err := c.do(ctx, "poll", http.MethodGet, join(c.CoreURL, "/polling/transactions")+"?"+q.Encode(), nil, nil)
		if err != nil {
			return taken, err
		}
		if status != http.StatusOK {
			return taken, c.statusError("poll", status, body)
		}
		var page struct {
			Items         []polledTransaction `json:"items"`
			NextPageToken string              `json:"nextPageToken"`
		}
		if err := json.Unmarshal(body, &page); err != nil {
			return taken, &Error{Connection: c.ID, Op: "poll", HTTPStatus: status, Message: "answer is not a page of transactions: " + err.Error()}
		}
		for _, t := range page.Items {
			if t.Direction == store.DirectionInbound && answerSets[t.set()] {
				n, err := p.take(ctx, c, conn, t)
				if err != nil {
					return taken, err
				}
				taken += n
				cur.Ingested += int64(n)
			}
			if t.ProcessedAt.After(cur.After) {
				cur.After = t.ProcessedAt
			}
			if err := p.Store.SaveUpstreamCursor(ctx, *cur); err != nil {
				return taken, err
			}
		}
		if page.NextPageToken == "" {
			return taken, nil
		}
		q = url.Values{"pageToken": {page.NextPageToken}}
	}
	return taken, nil
}

// take fetches one answer's input X12 and receives it, unless received
// before (1 when it was new).
func (p *Poller) take(ctx context.Context, c *Client, conn store.Connection, t polledTransaction) (int, error) {
	id := answerExecutionID(conn, t.TransactionID)
	if _, err := p.Store.GetExecution(ctx, conn.AccountID, id); err == nil {
		return 0, nil
	}
	status, body, err := c.do(ctx, "fetch", http.MethodGet, join(c.CoreURL, "/transactions/"+url.PathEscape(t.TransactionID)+"/input"), nil, nil)
	if err != nil {
		return 0, err
	}
	if status == http.StatusFound {
		// The document is behind a signed link (documentDownloadUrl), which
		// needs no key: it is dialled through the same guard, keyless.
		var link struct {
			URL string `json:"documentDownloadUrl"`
		}
		if json.Unmarshal(body, &link) != nil || link.URL == "" {
			return 0, &Error{Connection: c.ID, Op: "fetch", HTTPStatus: status, Message: "redirect without documentDownloadUrl"}
		}
		status, body, err = c.download(ctx, link.URL)
		if err != nil {
			return 0, err
		}
	}
	if status != http.StatusOK {
		return 0, c.statusError("fetch", status, body)
	}
	_, err = p.Receive(ctx, core.ReceiveParams{AccountID: conn.AccountID, Mode: conn.Mode, ConnectionID: conn.ID,
		Name: "upstream-" + t.set() + "-" + t.TransactionID + ".x12", Dirname: "upstream/" + conn.ID,
		Body: bytes.NewReader(body), ExecutionID: id})
	if err != nil {
		return 0, fmt.Errorf("upstream connection %s: transaction %s: %w", conn.ID, t.TransactionID, err)
	}
	return 1, nil
}

// answerExecutionID is the execution id of an upstream transaction taken
// in: the same for the same transaction of the same connection, so a
// second receive finds the first.
func answerExecutionID(conn store.Connection, transactionID string) string {
	h := sha256.Sum256([]byte(conn.AccountID + "\x00" + conn.Mode + "\x00" + conn.ID + "\x00" + transactionID))
	h[6] = h[6]&0x0f | 0x50 // a name-based UUID (version 5 layout)
	h[8] = h[8]&0x3f | 0x80
	s := hex.EncodeToString(h[:16])
	return s[0:8] + "-" + s[8:12] + "-" + s[12:16] + "-" + s[16:20] + "-" + s[20:32]
}
