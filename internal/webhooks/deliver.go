package webhooks

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/netguard"
	"github.com/clearhouse/clearhouse/internal/store"
)

// UserAgent is sent with every delivery.
const UserAgent = "Clearhouse-Webhooks/1"

// deliver makes one attempt of one delivery (see the package comment).
func (s *Service) deliver(ctx context.Context, job store.Job) error {
	var p deliverPayload
	if err := jobs.Decode(job, &p); err != nil {
		return jobs.Permanent(err)
	}
	ev, err := s.cfg.Events(ctx, p.AccountID, p.EventID)
	if errors.Is(err, store.ErrNotFound) {
		return jobs.Permanent(fmt.Errorf("event %s not found", p.EventID))
	}
	if err != nil {
		return err
	}
	d, w, ok, err := s.takeSlot(ctx, job, p)
	if err != nil || !ok {
		return err
	}
	res := s.send(ctx, w, ev, d)
	return s.record(ctx, job, d, res, true)
}

// takeSlot checks that job still owns the delivery's next attempt and
// takes one of the webhook's concurrency slots for it. When every slot is
// taken it hands the attempt to a new job due a little later (or woken
// when a slot frees) and reports !ok.
func (s *Service) takeSlot(ctx context.Context, job store.Job, p deliverPayload) (d store.WebhookDelivery, w store.Webhook, ok bool, err error) {
	now := s.cfg.Clock.Now()
	err = s.store.GroupInTx(ctx, func(tx store.Queries) error {
		if d, err = tx.GetWebhookDelivery(ctx, p.AccountID, p.DeliveryID); errors.Is(err, store.ErrNotFound) {
			return jobs.Complete(ctx, tx) // its webhook was deleted
		} else if err != nil {
			return err
		}
		if d.JobID != job.ID || d.Status != store.DeliveryPending {
			return jobs.Complete(ctx, tx) // superseded (a re-emit) or already done
		}
		if w, err = tx.LockWebhook(ctx, d.AccountID, d.WebhookID); err != nil {
			return err
		}
		d.UpdatedAt = now
		if w.Status != store.WebhookEnabled {
			d.Status, d.JobID, d.NextAttemptAt, d.WaitingSince = store.DeliveryFailed, "", time.Time{}, time.Time{}
			d.LastError = "webhook disabled"
			if w.DisabledReason != "" {
				d.LastError += ": " + w.DisabledReason
			}
			if err := tx.UpdateWebhookDelivery(ctx, d); err != nil {
				return err
			}
			return jobs.Complete(ctx, tx)
		}
		busy, err := tx.CountInflightWebhookDeliveries(ctx, w.ID, now)
		if err != nil {
			return err
		}
		if d.InflightUntil.After(now) {
			busy-- // our own slot, from an attempt whose worker died
		}
		if busy >= w.Concurrency {
			if d.WaitingSince.IsZero() {
				d.WaitingSince = now
			}
			d.JobID, d.NextAttemptAt = store.NewID(), now.Add(waitRetry)
			if err := tx.UpdateWebhookDelivery(ctx, d); err != nil {
				return err
			}
			if err := s.enqueueAttempt(ctx, tx, d, w.Mode, now); err != nil {
				return err
			}
			return jobs.Complete(ctx, tx)
		}
		d.InflightUntil, d.WaitingSince = now.Add(s.cfg.Timeout+slotGrace), time.Time{}
		ok = true
		return tx.UpdateWebhookDelivery(ctx, d)
	})
	return d, w, ok && err == nil, err
}

// result is what one attempt got.
type result struct {
	started    time.Time
	latency    time.Duration
	status     int
	excerpt    string
	err        string
	retryAfter time.Duration
}

func (r result) ok() bool { return r.err == "" && r.status >= 200 && r.status < 300 }

// Body returns the delivered body of an event: {"event": <envelope>}.
func Body(envelope []byte) []byte {
	body := make([]byte, 0, len(envelope)+10)
	body = append(body, `{"event":`...)
	body = append(body, envelope...)
	return append(body, '}')
}

// send POSTs the event to the webhook once.
func (s *Service) send(ctx context.Context, w store.Webhook, ev Event, d store.WebhookDelivery) result {
	r := result{started: s.cfg.Clock.Now()}
	fail := func(format string, args ...any) result { r.err = fmt.Sprintf(format, args...); return r }
	if u, err := url.Parse(w.URL); err != nil || (w.Mode == store.ModeProduction && u.Scheme != "https") {
		return fail("the URL must be https for a production webhook")
	}
	secrets, err := s.signingSecrets(w, r.started)
	if err != nil {
		return fail("the signing secret cannot be opened (%v)", err)
	}
	body := Body(ev.Envelope)
	sig, err := Sign(ev.ID, r.started, body, secrets...)
	if err != nil {
		return fail("signing failed: %v", err)
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, bytes.NewReader(body))
	if err != nil {
		return fail("the URL cannot be called: %v", err)
	}
	h := req.Header
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", UserAgent)
	h.Set("webhook-id", ev.ID)
	h.Set("webhook-timestamp", strconv.FormatInt(r.started.Unix(), 10))
	h.Set("webhook-signature", sig)
	h.Set("attempt-number", strconv.Itoa(d.Attempts+1))
	h.Set("attempt-type", d.NextAttemptType)
	if err := s.authenticate(w, h); err != nil {
		return fail("%v", err)
	}
	start := time.Now()
	resp, err := s.client.Do(req)
	if err != nil {
		r.latency = time.Since(start)
		return fail("%s", describe(err, s.cfg.Timeout))
	}
	excerpt, _ := io.ReadAll(io.LimitReader(resp.Body, ExcerptBytes))
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // reuse the connection if the rest is short
	resp.Body.Close()
	r.latency, r.status, r.excerpt = time.Since(start), resp.StatusCode, printable(excerpt)
	switch {
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		r.err = fmt.Sprintf("HTTP %d: redirects are not followed; configure the final URL", resp.StatusCode)
	case resp.StatusCode < 200 || resp.StatusCode >= 300:
		r.err = fmt.Sprintf("HTTP %d", resp.StatusCode)
		if secs, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && secs > 0 {
			r.retryAfter = min(time.Duration(secs)*time.Second, 24*time.Hour)
		}
	}
	return r
}

// authenticate adds the webhook's outbound credentials.
func (s *Service) authenticate(w store.Webhook, h http.Header) error {
	if w.AuthType == AuthNone || w.Auth == "" {
		return nil
	}
	raw, err := s.cfg.Secrets.Open(w.Auth, authContext(w.ID))
	if err != nil {
		return fmt.Errorf("the webhook's credentials cannot be opened (%v)", err)
	}
	var a Authentication
	if err := json.Unmarshal(raw, &a); err != nil {
		return fmt.Errorf("the webhook's credentials are damaged")
	}
	switch a.Type {
	case AuthAPIKey:
		h.Set(a.HeaderName, a.Value)
	case AuthBasic:
		h.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(a.Username+":"+a.Password)))
	}
	return nil
}

// describe says why a call got no answer, in words for the attempt log.
func describe(err error, timeout time.Duration) string {
	switch {
	case errors.Is(err, netguard.ErrBlocked):
		msg := err.Error()
		if i := strings.Index(msg, netguard.ErrBlocked.Error()); i >= 0 {
			msg = msg[i:]
		}
		return "blocked by the SSRF guard (" + msg + "); private addresses need --webhooks-allow-private"
	case errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "Client.Timeout"):
		return fmt.Sprintf("no answer within %s", timeout)
	}
	// A lookup's error names the server's own resolver ("lookup x on
	// 10.0.0.53:53"), which is no business of the webhook's owner.
	var dns *net.DNSError
	if errors.As(err, &dns) {
		named := *dns
		named.Server = ""
		return "dial tcp: " + named.Error()
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}

// printable keeps valid UTF-8 text of an answer for the log.
func printable(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// record writes the attempt and what follows from it, in one transaction:
// the delivery done, failed, or its next attempt enqueued; the slot freed
// and the longest-waiting delivery woken; the webhook's health.
//
// With complete, job completes in the same transaction (jobs.Complete);
// without, the transaction only checks that this worker still holds it.
func (s *Service) record(ctx context.Context, job store.Job, taken store.WebhookDelivery, r result, complete bool) error {
	now := s.cfg.Clock.Now()
	disabled := ""
	err := s.store.GroupInTx(ctx, func(tx store.Queries) error {
		// The webhook's row first, then the delivery's, in the order of
		// takeSlot and fanOut: no two transactions wait for each other.
		w, err := tx.LockWebhook(ctx, taken.AccountID, taken.WebhookID)
		if errors.Is(err, store.ErrNotFound) {
			return completeIf(ctx, tx, complete) // the webhook was deleted meanwhile
		} else if err != nil {
			return err
		}
		d, err := tx.GetWebhookDelivery(ctx, taken.AccountID, taken.ID)
		if errors.Is(err, store.ErrNotFound) {
			return completeIf(ctx, tx, complete)
		} else if err != nil {
			return err
		}
		d.Attempts++
		if err := tx.InsertWebhookAttempt(ctx, store.WebhookAttempt{
			DeliveryID: d.ID, Attempt: d.Attempts, AttemptType: taken.NextAttemptType, StartedAt: r.started,
			Latency: r.latency, StatusCode: r.status, ResponseExcerpt: r.excerpt, Error: r.err, Succeeded: r.ok(),
		}); err != nil {
			return err
		}
		d.LastStatusCode, d.LastError, d.InflightUntil, d.UpdatedAt = r.status, r.err, time.Time{}, now
		if d.JobID == job.ID { // still ours: a re-emit may have taken over meanwhile
			d.RoundAttempts++
			d.JobID, d.NextAttemptAt = "", time.Time{}
			switch {
			case r.ok():
				d.Status, d.DeliveredAt = store.DeliveryDelivered, now
			case r.status == http.StatusGone:
				d.Status = store.DeliveryFailed
				disabled = "the receiver answered 410 Gone"
			case d.RoundAttempts >= len(s.cfg.Schedule):
				d.Status = store.DeliveryFailed
			default:
				d.JobID, d.NextAttemptType = store.NewID(), store.AttemptAutomatic
				d.NextAttemptAt = now.Add(max(s.delay(d.RoundAttempts+1), r.retryAfter))
				if err := s.enqueueAttempt(ctx, tx, d, w.Mode, now); err != nil {
					return err
				}
			}
		}
		if err := tx.UpdateWebhookDelivery(ctx, d); err != nil {
			return err
		}
		if err := tx.WakeWaitingWebhookDelivery(ctx, d.WebhookID, now); err != nil {
			return err
		}
		if err := s.noteHealth(ctx, tx, w, r, now, &disabled); err != nil {
			return err
		}
		return completeIf(ctx, tx, complete)
	})
	if disabled != "" && err == nil {
		// The status only: the reason's text (stored on the webhook for its
		// owner) can quote a network error naming the receiver's URL.
		s.log.Warn("webhook disabled", "webhook_id", taken.WebhookID, "account_id", taken.AccountID, "last_status", r.status)
	}
	return err
}

// completeIf completes the job in tx, or (when the job records more
// attempts after this one) checks that this worker still holds it.
func completeIf(ctx context.Context, tx store.Queries, complete bool) error {
	if !complete {
		return jobs.Hold(ctx, tx)
	}
	return jobs.Complete(ctx, tx)
}

// noteHealth tracks the webhook's run of failures and disables it, with the
// reason, when the run has lasted DisableAfter (or the receiver said 410).
// w is the webhook's row, locked by tx.
func (s *Service) noteHealth(ctx context.Context, tx store.Queries, w store.Webhook, r result, now time.Time, disabled *string) error {
	if r.ok() {
		if w.FailingSince.IsZero() {
			return nil
		}
		return tx.SetWebhookFailingSince(ctx, w.ID, time.Time{})
	}
	if w.FailingSince.IsZero() {
		w.FailingSince = now
		if err := tx.SetWebhookFailingSince(ctx, w.ID, now); err != nil {
			return err
		}
	}
	if *disabled == "" && now.Sub(w.FailingSince) >= s.cfg.DisableAfter {
		*disabled = fmt.Sprintf("every attempt since %s failed (last: %s)", w.FailingSince.Format(time.RFC3339), r.err)
	}
	if *disabled == "" || w.Status != store.WebhookEnabled {
		*disabled = ""
		return nil
	}
	w.Status, w.DisabledReason, w.UpdatedAt = store.WebhookDisabled, *disabled, now
	return tx.UpdateWebhook(ctx, w)
}
