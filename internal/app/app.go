// Package app is the composition root of `clearhouse serve`: New builds the
// whole object graph of the process once, in one place — the store and the
// blob store, the domain services (package services: jobs, core, delivery,
// claims, eligibility with its payers, webhooks, SFTP), the API and the
// console — and Run serves it until its context ends.
//
// Hooks and job kinds are constructor arguments all the way down; nothing
// is installed after construction, and no package keeps process-wide
// settings. Tests build the same graph through package apptest.
package app

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"slices"
	"time"

	"github.com/clearhouse/clearhouse/internal/api"
	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/delivery"
	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/netguard"
	"github.com/clearhouse/clearhouse/internal/partners"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/services"
	"github.com/clearhouse/clearhouse/internal/sftpd"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/sweep"
	"github.com/clearhouse/clearhouse/internal/tenantdir"
	"github.com/clearhouse/clearhouse/internal/web"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// Config is everything `clearhouse serve` is configured with (its flags,
// parsed). The zero value of a field is its default.
type Config struct {
	// DataDir holds the SQLite database (without DatabaseURL), the file
	// contents (without BlobURL), the console's and the download links'
	// signing secrets and the SFTP server's host key and folders.
	DataDir     string
	DatabaseURL string
	BlobURL     string
	Postgres    store.PostgresTimeouts
	// Store and Blob, when set, are used instead of opening DatabaseURL and
	// BlobURL (tests); the caller closes them.
	Store store.Store
	Blob  blob.Store

	Logger  *slog.Logger // default slog.Default
	Clock   clock.Clock  // default clock.System
	Secrets *secrets.Box // nil: no --secrets-key
	// Directories is the --directory-root DIRECTORY connections' folders
	// live under (nil refuses them); the caller closes it.
	Directories *tenantdir.Root
	Version     string // clearhouse_build_info
	// Events are every event's region and the public base URL of every
	// resource URL (--region, --public-url).
	Events events.Options

	// Payers is the payer directory (default payers.Default()) and
	// PayerConnections its production connections by id (both from the
	// --payers file). PayerCallsPerKey is --payer-calls-per-key (0: no cap).
	Payers           *payers.Directory
	PayerConnections map[string]payers.Connection
	// PayerBreakers are the connections' breaker settings (failover
	// between a payer's routes).
	PayerBreakers map[string]payers.BreakerSettings
	// UpstreamPollInterval is services.Config.UpstreamPollInterval.
	UpstreamPollInterval time.Duration
	PayerCallsPerKey     int
	// AllowPrivateConnections lets payer and partner connections reach
	// loopback and private addresses (development and tests).
	AllowPrivateConnections bool

	// HTTP is the listener and its limits (see HTTP).
	HTTP HTTP
	// Workers is how many jobs this process runs at once; 0 runs none.
	Workers int
	// JobLanes are the queue's lanes of their own (outbound calls).
	JobLanes map[string]jobs.Lane
	// JobPollInterval is how often idle workers look for due jobs (tests).
	JobPollInterval time.Duration
	// MaxFileBytes and ProcessTimeout bound inbound files.
	MaxFileBytes   int64
	ProcessTimeout time.Duration
	// DeliveryAttempts and DeliveryRetryInterval schedule outbound delivery.
	DeliveryAttempts      int
	DeliveryRetryInterval time.Duration
	// MockRemitDelay is how long after its 277CA the mock payer's 835
	// arrives (delivery.DefaultRemitDelay when zero).
	MockRemitDelay time.Duration
	// Webhooks tunes webhook delivery: Schedule, Jitter, DisableAfter;
	// WebhooksAllowPrivate lets webhooks reach private addresses.
	Webhooks             webhooks.Config
	WebhooksAllowPrivate bool

	// WithoutConsole leaves the console out (tests of the API alone);
	// ExtraRoutes are added after the API's and the console's (tests).
	WithoutConsole bool
	ExtraRoutes    []api.Route

	// SFTPListen is the embedded SFTP server's address; empty: none.
	// SFTPPoll is the interval of the SFTP connections' poller.
	SFTPListen string
	SFTPPoll   time.Duration
}

// App is the built process.
type App struct {
	cfg      Config
	Services *services.Set
	API      *api.Server
	Console  *web.Console
	closers  []func() error
}

// New builds the whole process: it opens the store and the blob store,
// checks the stored secrets, then builds the services, the console and the
// API. Close releases what New opened.
func New(ctx context.Context, cfg Config) (a *App, err error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.System{}
	}
	if cfg.Payers == nil {
		cfg.Payers = payers.Default()
	}
	built := &App{cfg: cfg}
	defer func() {
		if err != nil {
			built.Close() // what was opened before the failure
		}
	}()
	a = built
	logger := cfg.Logger
	st, blobs := cfg.Store, cfg.Blob
	if st == nil {
		if st, err = store.Open(ctx, cfg.DataDir, cfg.DatabaseURL, cfg.Postgres); err != nil {
			return nil, err
		}
		a.closers = append(a.closers, st.Close)
	}
	if blobs == nil {
		if blobs, err = blob.Open(ctx, cfg.BlobURL, cfg.DataDir); err != nil {
			return nil, err
		}
		a.closers = append(a.closers, blobs.Close)
		go sweepBlobTemporaries(blobs, logger) // in the background: a large store takes a while to walk
	}
	// Small documents written with their records (a claim's 837 and Guide
	// JSON) live in the database; every reader gets them by key here.
	blobs = blob.WithInline(blobs, st)
	// Refuse to start with a key that cannot open the stored secrets: it
	// would fail every delivery while looking healthy.
	if err := webhooks.CheckSecrets(ctx, st, cfg.Secrets); err != nil {
		return nil, err
	}
	// Every account's test-mode partners; refuse secrets we cannot open.
	if _, err := partners.Startup(ctx, st, cfg.Secrets, services.MockPayers(), cfg.Clock.Now()); err != nil {
		return nil, err
	}
	downloadSecret, err := web.LoadOrCreateSecret(filepath.Join(cfg.DataDir, "download-secret"))
	if err != nil {
		return nil, err
	}
	warnMissingConnections(cfg.Payers, cfg.PayerConnections, logger)
	connectionGuard := netguard.New(netguard.Options{AllowPrivate: cfg.AllowPrivateConnections})
	if cfg.Secrets == nil {
		logger.Warn("no --secrets-key: webhooks cannot be created (their signing secrets are stored encrypted)")
	}
	if cfg.WebhooksAllowPrivate {
		logger.Warn("webhooks may reach loopback and private addresses (--webhooks-allow-private): for local development and tests only")
	}
	hooks := cfg.Webhooks
	hooks.Guard = netguard.New(netguard.Options{AllowPrivate: cfg.WebhooksAllowPrivate})
	var sftp *sftpd.Config
	if cfg.SFTPListen != "" {
		c := services.SFTPConfig(cfg.DataDir)
		sftp = &c
	}
	calls := cfg.PayerCallsPerKey
	if calls == 0 {
		calls = -1 // the flag's 0 turns the cap off
	}
	svc, err := services.New(services.Config{
		Store: st, Blob: blobs, Secrets: cfg.Secrets, Clock: cfg.Clock, Logger: logger, Events: cfg.Events,
		Jobs:           jobs.Options{Concurrency: max(cfg.Workers, 1), PollInterval: cfg.JobPollInterval, Lanes: cfg.JobLanes},
		Core:           core.Options{MaxFileBytes: cfg.MaxFileBytes, ProcessTimeout: cfg.ProcessTimeout, DownloadSecret: downloadSecret},
		Delivery:       delivery.Options{Attempts: cfg.DeliveryAttempts, RetryInterval: cfg.DeliveryRetryInterval},
		MockRemitDelay: cfg.MockRemitDelay,
		Webhooks:       hooks,
		Payers:         cfg.Payers, PayerConnections: cfg.PayerConnections, PayerBreakers: cfg.PayerBreakers, PayerCallsPerKey: calls,
		UpstreamPollInterval: cfg.UpstreamPollInterval,
		Directories:          cfg.Directories, ConnectionGuard: connectionGuard, SFTP: sftp,
	})
	if err != nil {
		return nil, err
	}
	svc.SFTPPoller.Interval = cfg.SFTPPoll
	a.Services = svc
	if svc.SFTPServer != nil {
		a.closers = append(a.closers, svc.SFTPServer.Close)
	}

	// The console: its checks, claims, files and webhooks run on the
	// services the API uses. Its session secret lives in the data
	// directory (created on first start); replicas must share it.
	sessionSecret, err := web.LoadOrCreateSecret(filepath.Join(cfg.DataDir, web.SecretFile))
	if err != nil {
		return nil, err
	}
	var routes []api.Route
	if !cfg.WithoutConsole {
		if a.Console, err = web.New(web.Config{Store: st, Eligibility: svc.Eligibility, Payers: svc.Payers,
			MockRequests: services.MockExamples(), MockClaims: mockClaims, Secret: sessionSecret, Clock: cfg.Clock, Logger: logger,
			Core: svc.Core, Webhooks: svc.Webhooks, Claims: svc.Claims}); err != nil {
			return nil, err
		}
		routes = a.Console.Routes()
	}
	if a.API, err = api.New(APIServices(svc), api.Options{MaxBodyBytes: cfg.HTTP.MaxBodyBytes,
		RateLimit: cfg.HTTP.RateLimit, RateBurst: cfg.HTTP.RateBurst, Version: cfg.Version, Upload: cfg.HTTP.Upload,
		ExtraRoutes: append(routes, cfg.ExtraRoutes...)}); err != nil {
		return nil, err
	}
	return a, nil
}

// mockClaims are the mock payer's claim rules the console's test-mode
// claim samples follow.
var mockClaims = web.MockClaims{RejectMemberID: mockpayer.ClaimRejectMemberID,
	UnreachablePayerID: mockpayer.UnreachablePayerID, UnreachablePayerName: services.UnreachablePayerName,
	PartialMemberID: mockpayer.RemitMember(mockpayer.RemitPartial), DeniedMemberID: mockpayer.RemitMember(mockpayer.RemitDenied),
	ReversalMemberID: mockpayer.RemitMember(mockpayer.RemitReverse)}

// APIServices are the services of s the API serves.
func APIServices(s *services.Set) api.Services {
	return api.Services{Store: s.Store, Clock: s.Clock, Logger: s.Logger, Metrics: s.Metrics, Secrets: s.Secrets,
		Directories: s.Directories, ConnectionGuard: s.ConnectionGuard, Core: s.Core, Eligibility: s.Eligibility,
		Payers: s.Payers, Claims: s.Claims, StatusInquiry: s.StatusInquiry, Webhooks: s.Webhooks, Events: s.Events,
		UpstreamWebhook: s.UpstreamWebhook}
}

// sweepBlobTemporaries removes the unfinished writes a crash left in the
// file store (blob.SweepTemporary), and says how many.
func sweepBlobTemporaries(blobs blob.Store, logger *slog.Logger) {
	n, err := blob.SweepTemporary(blobs, sweep.DefaultAge)
	if err != nil {
		logger.Warn("file store: sweeping temporary files left by a crash", "error", err.Error())
		return
	}
	if n > 0 {
		logger.Info("file store: removed temporary files left by a crash", "files", n)
	}
}

// Close releases what New opened (the store, the blob store, the SFTP
// server), in reverse order.
func (a *App) Close() error {
	var errs []error
	for i := len(a.closers) - 1; i >= 0; i-- {
		errs = append(errs, a.closers[i]())
	}
	a.closers = nil
	return errors.Join(errs...)
}

// warnMissingConnections warns about directory entries naming a
// connection this server lacks: their production checks answer "not
// configured".
func warnMissingConnections(dir *payers.Directory, conns map[string]payers.Connection, logger *slog.Logger) {
	var missing []string
	for _, p := range dir.List() {
		for _, tx := range []string{payers.Eligibility, payers.ClaimStatus} {
			for _, name := range p.RoutesFor(tx) {
				if _, ok := conns[name]; !ok && !slices.Contains(missing, p.ID+"→"+name) {
					missing = append(missing, p.ID+"→"+name)
				}
			}
		}
	}
	if len(missing) > 0 {
		logger.Warn("payers name connections this server does not have; their production checks answer not configured",
			"payers", missing)
	}
}
