// Package events records what happens to files and transactions as events
// in the envelope of spec §2.5, stored once, in the same database
// transaction as the change they report. Each stored event also enqueues
// one job of kind DispatchKind in that transaction: the webhooks module
// works those jobs (fan-out to the account's webhooks); this package
// registers no handler.
//
// Events carry no file or transaction content: their artifacts and
// resources are retrieval URLs (spec §4.3) under the public base URL.
//
// The region and the public base URL are a value, not process-wide state:
// the composition root (package app) builds one Emitter from serve's
// --region and --public-url and passes it to every service that records
// events or builds resource URLs; tests build their own.
package events

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// Envelope constants (spec §2.5, §9).
const (
	// Version is the envelope version.
	Version = "0"
	// Source is the constant, neutral name of the component that produces
	// every event.
	Source = "clearhouse.core"
	// DispatchKind is the job enqueued with every event; its payload is
	// DispatchPayload.
	DispatchKind = "events.dispatch"
	// DispatchMaxAttempts bounds the dispatch job's attempts.
	DispatchMaxAttempts = 10
)

// Detail types (spec §6).
const (
	TransactionProcessed = "transaction.processed.v2"
	FragmentProcessed    = "fragment.processed.v2"
	FileProcessed        = "file.processed.v2"
	FileDelivered        = "file.delivered.v2"
	FileFailed           = "file.failed.v2"
	// ClaimStatusChanged is Clearhouse's: a claim's status changed
	// (package claimstatus; the hosted API documents no claim event, and
	// the contract's event types carry the suffix v2, spec §9.3).
	ClaimStatusChanged = "claim.status.changed.v2"
)

// Envelope is an event as stored, served and delivered (wrapped in
// {"event": …} for webhooks).
type Envelope struct {
	Version    string          `json:"version"`
	ID         string          `json:"id"`
	DetailType string          `json:"detail-type"`
	Source     string          `json:"source"`
	Account    string          `json:"account"`
	Time       string          `json:"time"`
	Region     string          `json:"region"`
	Resources  []string        `json:"resources"`
	Detail     json.RawMessage `json:"detail"`
}

// DispatchPayload is the JSON payload of a DispatchKind job.
type DispatchPayload struct {
	EventID   string `json:"eventId"`
	AccountID string `json:"accountId"`
}

// Event is what Emit records.
type Event struct {
	AccountID  string
	Mode       string // store.ModeTest or store.ModeProduction
	DetailType string
	// ExecutionID and TransactionID are what the event concerns; they are
	// stored beside the envelope for the list filters.
	ExecutionID   string
	TransactionID string
	// Resources are URLs of what the event concerns (ExecutionURL,
	// TransactionURL); nil is sent as [].
	Resources []string
	// Detail is marshaled as the envelope's detail (a json.RawMessage is
	// used as is).
	Detail any
	// Time is when it happened; zero means now.
	Time time.Time
}

// Emit stores e in the envelope of spec §2.5, in em's region, and enqueues
// its dispatch job, both through tx: call it inside the transaction of the
// change it reports, so the event exists exactly when the change does.
func (em *Emitter) Emit(ctx context.Context, tx store.Queries, e Event) (Envelope, error) {
	if e.AccountID == "" || e.DetailType == "" {
		return Envelope{}, fmt.Errorf("events: account and detail type are required")
	}
	if e.Mode != store.ModeTest && e.Mode != store.ModeProduction {
		return Envelope{}, fmt.Errorf("events: mode %q is neither test nor production", e.Mode)
	}
	at := e.Time
	if at.IsZero() {
		at = time.Now()
	}
	at = at.UTC().Truncate(time.Microsecond)
	detail, ok := e.Detail.(json.RawMessage)
	if !ok {
		var err error
		if detail, err = json.Marshal(e.Detail); err != nil {
			return Envelope{}, fmt.Errorf("events: detail of %s: %w", e.DetailType, err)
		}
	}
	env := Envelope{
		Version: Version, ID: store.NewUUID(), DetailType: e.DetailType, Source: Source,
		Account: e.AccountID, Time: at.Format(time.RFC3339), Region: em.region,
		Resources: e.Resources, Detail: detail,
	}
	if env.Resources == nil {
		env.Resources = []string{}
	}
	body, err := json.Marshal(env)
	if err != nil {
		return Envelope{}, fmt.Errorf("events: envelope of %s: %w", e.DetailType, err)
	}
	err = tx.InsertEvent(ctx, store.Event{
		ID: env.ID, AccountID: e.AccountID, Mode: e.Mode, DetailType: e.DetailType,
		ExecutionID: e.ExecutionID, TransactionID: e.TransactionID, Time: at, Envelope: body,
	})
	if err != nil {
		return Envelope{}, fmt.Errorf("events: store %s: %w", e.DetailType, err)
	}
	payload, _ := json.Marshal(DispatchPayload{EventID: env.ID, AccountID: e.AccountID})
	if _, err := tx.EnqueueJob(ctx, store.NewJob{Kind: DispatchKind, AccountID: e.AccountID, Mode: e.Mode, Payload: payload,
		MaxAttempts: DispatchMaxAttempts, CreatedAt: at}); err != nil {
		return Envelope{}, fmt.Errorf("events: enqueue dispatch of %s: %w", e.DetailType, err)
	}
	return env, nil
}

// Decode reads a stored event's envelope.
func Decode(e store.Event) (Envelope, error) {
	var env Envelope
	if err := json.Unmarshal(e.Envelope, &env); err != nil {
		return Envelope{}, fmt.Errorf("events: stored envelope %s: %w", e.ID, err)
	}
	return env, nil
}

// Options are an Emitter's settings (serve's --region and --public-url).
type Options struct {
	// Region is the envelope's region (default DefaultRegion).
	Region string
	// PublicURL is the base URL clients reach this service at; resource and
	// artifact URLs start with it (default DefaultPublicURL).
	PublicURL string
}

// Defaults of Options.
const (
	DefaultRegion    = "local"
	DefaultPublicURL = "http://127.0.0.1:8080"
)

// Emitter records events (Emit) and builds the public URLs they link to,
// with one process's Options. It is immutable, so safe for concurrent use;
// build it once with New.
type Emitter struct {
	region    string
	publicURL string
}

// New is an Emitter with o, its zero fields defaulted.
func New(o Options) *Emitter {
	if o.Region == "" {
		o.Region = DefaultRegion
	}
	if o.PublicURL == "" {
		o.PublicURL = DefaultPublicURL
	}
	return &Emitter{region: o.Region, publicURL: strings.TrimRight(o.PublicURL, "/")}
}

// Region is the envelope's region.
func (em *Emitter) Region() string { return em.region }

// PublicURL is the public base URL, without a trailing slash.
func (em *Emitter) PublicURL() string { return em.publicURL }

// APIVersion is the date version of the retrieval and events paths.
const APIVersion = "2023-08-01"

// URL is the public URL of a path under the base URL: the parts joined
// by slashes (URL("2024-04-01", "claims", id)).
func (em *Emitter) URL(parts ...string) string {
	return em.publicURL + "/" + strings.Join(parts, "/")
}

// ExecutionURL is the public URL of a file execution; with parts it is a
// sub-resource: ExecutionURL(id, "input").
func (em *Emitter) ExecutionURL(id string, parts ...string) string {
	return em.URL(append([]string{APIVersion, "executions", id}, parts...)...)
}

// TransactionURL is the public URL of a transaction or of a sub-resource:
// TransactionURL(id, "fragments", "0", "output").
func (em *Emitter) TransactionURL(id string, parts ...string) string {
	return em.URL(append([]string{APIVersion, "transactions", id}, parts...)...)
}
