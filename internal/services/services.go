// Package services builds the domain object graph of one Clearhouse
// process once, in dependency order, with every hook and job kind passed to
// a constructor: the job queue, the EDI core, outbound delivery (with the
// MOCK payer and the SFTP transports), claims, eligibility (with the mock
// payers and the production connections) and webhooks.
//
// It is the half of the composition root below HTTP: package app adds the
// API and the console on top. Tests that cannot import app (the console's
// own) build the same graph here.
package services

import (
	"errors"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/claims"
	"github.com/clearhouse/clearhouse/internal/claimstatus"
	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/connections"
	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/delivery"
	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/netguard"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/sftpconn"
	"github.com/clearhouse/clearhouse/internal/sftpd"
	"github.com/clearhouse/clearhouse/internal/statusinquiry"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/tenantdir"
	"github.com/clearhouse/clearhouse/internal/upstream"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// Config is what the graph is built from. Store and Blob are required;
// the rest has defaults. The option structs of the services are taken as
// they are, with their Store, Blob, queue, clock, logger and hooks filled
// in here.
type Config struct {
	Store store.Store
	Blob  blob.Store
	// Secrets seals stored secrets (connection credentials, webhook
	// signing secrets); nil: none can be stored.
	Secrets *secrets.Box
	Clock   clock.Clock          // default clock.System
	Logger  *slog.Logger         // default slog.Default
	Metrics *prometheus.Registry // default a new registry
	// Events are the region and public base URL of every event and
	// resource URL (serve's --region and --public-url): New builds the one
	// events.Emitter every service records events with.
	Events events.Options

	// Jobs tunes the queue (Concurrency, PollInterval, Lease).
	Jobs jobs.Options
	// Core tunes the EDI core (MaxFileBytes, ProcessTimeout, DownloadSecret).
	Core core.Options
	// Delivery tunes outbound delivery (Attempts, RetryInterval, Timeout).
	Delivery delivery.Options
	// MockRemitDelay is how long after its 277CA the mock payer's 835
	// arrives (delivery.DefaultRemitDelay when zero).
	MockRemitDelay time.Duration
	// Webhooks tunes webhook delivery (Guard, Schedule, Jitter, DisableAfter).
	Webhooks webhooks.Config

	// Payers is the payer directory (default payers.Default()).
	Payers *payers.Directory
	// PayerConnections are the production eligibility connections by id
	// (the --payers file's); PayerCallsPerKey is
	// eligibility.Config.PayerCallsPerKey.
	PayerConnections map[string]payers.Connection
	PayerBreakers    map[string]payers.BreakerSettings
	PayerCallsPerKey int
	// UpstreamPollInterval is how often each stored CLEARINGHOUSE_API
	// connection's upstream is polled for answers
	// (upstream.DefaultPollInterval when zero).
	UpstreamPollInterval time.Duration

	// Directories is the operator's directory root DIRECTORY connections'
	// folders live under (serve --directory-root); nil refuses them.
	Directories *tenantdir.Root
	// ConnectionGuard is the SSRF guard of partner connections: SFTP
	// transports dial through it (default: private addresses refused) and
	// the API checks literal hosts against it when a connection is stored
	// (nil: only when dialled).
	ConnectionGuard *netguard.Guard
	// SFTP, when set, is the embedded SFTP server: its uploads are handed
	// to the core (see NewSFTPServer) and SFTP_SERVER connections deliver
	// to it.
	SFTP *sftpd.Config
}

// Set is the built graph.
type Set struct {
	Store   store.Store
	Blob    blob.Store
	Secrets *secrets.Box
	Clock   clock.Clock
	Logger  *slog.Logger
	Metrics *prometheus.Registry
	// Events records every event and builds the public URLs (Config.Events).
	Events *events.Emitter

	Jobs     *jobs.Queue
	Core     *core.Service
	Delivery *delivery.Service
	Claims   *claims.Service
	// StatusInquiry answers real-time claim status (276/277) through the
	// eligibility router: the same connections reach the same payers.
	StatusInquiry *statusinquiry.Service
	Payers        *payers.Directory
	Eligibility   *eligibility.Service
	Webhooks      *webhooks.Service
	Directories   *tenantdir.Root
	// ConnectionGuard is Config.ConnectionGuard, as given.
	ConnectionGuard *netguard.Guard
	// SFTPServer is the embedded SFTP server (nil without Config.SFTP);
	// SFTPPoller fetches the inbound files of SFTP connections.
	SFTPServer *sftpd.Server
	SFTPPoller *sftpconn.Poller
	// UpstreamPoller collects the answers of stored CLEARINGHOUSE_API
	// connections (its jobs are registered; run Ensure now and then).
	UpstreamPoller *upstream.Poller
	// UpstreamWebhook receives their upstreams' webhook events and fetches
	// the answers they name (its job kind is registered).
	UpstreamWebhook *upstream.Webhook
}

// New builds the graph. Every job kind is registered on Set.Jobs when it
// returns; run the queue after.
func New(cfg Config) (*Set, error) {
	if cfg.Store == nil || cfg.Blob == nil {
		return nil, errors.New("services: Store and Blob are required")
	}
	s := &Set{Store: cfg.Store, Blob: cfg.Blob, Secrets: cfg.Secrets, Clock: cfg.Clock, Logger: cfg.Logger,
		Metrics: cfg.Metrics, Payers: cfg.Payers, Directories: cfg.Directories,
		ConnectionGuard: cfg.ConnectionGuard, Events: events.New(cfg.Events)}
	if s.Clock == nil {
		s.Clock = clock.System{}
	}
	if s.Logger == nil {
		s.Logger = slog.Default()
	}
	if s.Metrics == nil {
		s.Metrics = prometheus.NewRegistry()
	}
	if s.Payers == nil {
		s.Payers = payers.Default()
	}
	if cfg.ConnectionGuard == nil {
		cfg.ConnectionGuard = netguard.New(netguard.Options{})
	}

	jo := cfg.Jobs
	jo.Clock, jo.Logger, jo.Metrics = s.Clock, s.Logger, s.Metrics
	s.Jobs = jobs.New(s.Store, jo)

	// The core enqueues the delivery of the 999s it makes, and links the
	// 999s, 277CAs and 835s it receives to the claims they answer.
	enqueueDelivery := delivery.EnqueueOn(s.Jobs)
	co := cfg.Core
	co.Store, co.Blob, co.Jobs, co.Clock, co.Logger, co.Events = s.Store, s.Blob, s.Jobs, s.Clock, s.Logger, s.Events
	co.Outbound, co.Inbound = enqueueDelivery, (&claimstatus.Linker{Blob: s.Blob, Events: s.Events, Clock: s.Clock}).Link
	var err error
	if s.Core, err = core.New(co); err != nil {
		return nil, err
	}

	if cfg.SFTP != nil {
		if s.SFTPServer, err = NewSFTPServer(*cfg.SFTP, s.Store, s.Core, s.Logger); err != nil {
			return nil, err
		}
	}
	remote := &sftpconn.Remote{Box: s.Secrets, Options: connections.Options{Guard: cfg.ConnectionGuard}}
	s.SFTPPoller = &sftpconn.Poller{Store: s.Store, Core: s.Core, Remote: remote, Logger: s.Logger.With("component", "sftp-poll")}

	// Outbound files go out through their connection's transport; the
	// MOCK payer answers through the core.
	// Both mock payers try the caller's simulator scenarios before the
	// published mocks.
	scenarios := storeScenarios(s.Store)
	mock, err := delivery.NewMock(delivery.MockOptions{Payer: MockClaimsPayer(mockpayer.New(mockpayer.WithClock(s.Clock.Now),
		mockpayer.WithScenarios(scenarios), mockpayer.WithLogger(s.Logger))), Core: s.Core,
		Store: s.Store, Blob: s.Blob, Jobs: s.Jobs, Logger: s.Logger, Now: s.Clock.Now, RemitDelay: cfg.MockRemitDelay})
	if err != nil {
		return nil, err
	}
	// Claims to a CLEARINGHOUSE_API connection fail over along the payer's
	// claims routes, resolved in the claim's own account and mode.
	observeRoute := routeMetrics(s.Metrics)
	upstreamDelivery := &upstream.Delivery{Box: s.Secrets, Guard: cfg.ConnectionGuard, Store: s.Store,
		ClaimRoutes: claimRoutes(s.Payers), Logger: s.Logger.With("component", "upstream-claims"), Now: s.Clock.Now,
		Observe: func(connection, outcome string) {
			observeRoute(payers.RouteEvent{Transaction: payers.RouteClaims, Connection: connection, Outcome: outcome})
		}}
	s.UpstreamPoller = &upstream.Poller{Store: s.Store, Jobs: s.Jobs, Receive: s.Core.Receive, Delivery: upstreamDelivery,
		Interval: cfg.UpstreamPollInterval, Logger: s.Logger.With("component", "upstream-poll"), Now: s.Clock.Now}
	s.UpstreamPoller.Register()
	s.UpstreamWebhook = &upstream.Webhook{Poller: s.UpstreamPoller, Box: s.Secrets}
	s.UpstreamWebhook.Register()
	do := cfg.Delivery
	do.Store, do.Blob, do.Jobs, do.Clock, do.Logger, do.Events = s.Store, s.Blob, s.Jobs, s.Clock, s.Logger, s.Events
	do.Transports = map[string]delivery.Transport{
		store.ConnectionMock:             mock,
		store.ConnectionSFTP:             remote,
		store.ConnectionSFTPServer:       &sftpconn.Local{Server: s.SFTPServer, Users: s.Store},
		store.ConnectionDirectory:        &delivery.Directory{Dirs: s.Directories},
		store.ConnectionClearinghouseAPI: upstreamDelivery,
	}
	do.Failed = claimDeliveryFailed(s.Events)
	for typ, t := range cfg.Delivery.Transports {
		do.Transports[typ] = t
	}
	if s.Delivery, err = delivery.New(do); err != nil {
		return nil, err
	}

	if s.Claims, err = claims.NewService(claims.Options{Store: s.Store, Blob: s.Blob, Clock: s.Clock, Logger: s.Logger, Events: s.Events,
		Directory: s.Payers, Outbound: claims.OutboundHook(enqueueDelivery), TestOnlyPayers: []string{mockpayer.UnreachablePayerID}}); err != nil {
		return nil, err
	}

	// Test keys reach the mock payers; a production check reaches the
	// connection its payer's directory entry names (none ship, so until an
	// operator registers one every production check answers "not
	// configured"). Control numbers come from the store, unique across
	// restarts and replicas.
	// The mock answers 276s about the caller's own test claims too.
	mock276 := mockpayer.New(mockpayer.WithDirectory(s.Payers), mockpayer.WithClock(s.Clock.Now),
		mockpayer.WithClaimStates(storeClaimStates(s.Store)), mockpayer.WithScenarios(scenarios), mockpayer.WithLogger(s.Logger))
	router, err := payers.NewRouterWith(s.Payers, mock276, accountRoutes(s.Payers, cfg.PayerConnections, upstreamDelivery), payers.RouterOptions{
		Breakers: cfg.PayerBreakers, Observe: observeRoute})
	if err != nil {
		return nil, err
	}
	if s.Eligibility, err = eligibility.NewService(eligibility.Config{
		Router:  router,
		Numbers: eligibility.StoreControlNumbers(s.Store, eligibility.DefaultSenderID, 0),
		History: s.Store, Clock: s.Clock, Logger: s.Logger,
		PayerCallsPerKey: cfg.PayerCallsPerKey,
	}); err != nil {
		return nil, err
	}

	if s.StatusInquiry, err = statusinquiry.New(statusinquiry.Config{Router: router,
		Numbers:  eligibility.StoreControlNumbers(s.Store, eligibility.DefaultSenderID, 0),
		SenderID: eligibility.DefaultSenderID, Now: s.Clock.Now, Logger: s.Logger,
		Record: recordStatusInquiries(s.Store, s.Payers, s.Clock.Now)}); err != nil {
		return nil, err
	}

	wo := cfg.Webhooks
	wo.Store, wo.Queue, wo.Events, wo.Secrets, wo.Clock, wo.Logger = s.Store, s.Jobs, webhooks.StoreEvents(s.Store), s.Secrets, s.Clock, s.Logger
	wo.Emitter = s.Events
	if s.Webhooks, err = webhooks.New(wo); err != nil {
		return nil, err
	}
	return s, nil
}

// The linker reads up to claimstatus.MaxClaimsPerSet patient control numbers
// of a set, and the core hands its hook only core.HookIdentifiers of each
// element: this fails to compile if the linker would be shortchanged.
var _ [core.HookIdentifiers - claimstatus.MaxClaimsPerSet]struct{}
