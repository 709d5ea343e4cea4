package main

import (
	"context"
	"fmt"
	"github.com/clearhouse/clearhouse/internal/upstream"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/api"
	"github.com/clearhouse/clearhouse/internal/app"
	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/delivery"
	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// serveConfig is every option of clearhouse serve.
type serveConfig struct {
	listen           string
	dataDir          string
	databaseURL      string
	blobURL          string
	payersFile       string
	payerDirectory   string
	logLevel         slog.Level
	maxBodyBytes     int64
	readTimeout      time.Duration
	writeTimeout     time.Duration
	idleTimeout      time.Duration
	shutdownTimeout  time.Duration
	workers          int
	lanes            laneFlags
	pprofListen      string
	pgTimeouts       store.PostgresTimeouts
	rateLimit        float64
	rateBurst        int
	payerCallsPerKey int
	upstreamPoll     time.Duration
	publicURL        string
	region           string
	secrets          secretsKeyFlag
	connections      connectionFlags
	sftpListen       string
	directoryRoot    string
	sftpPoll         time.Duration // tests: the SFTP poller's interval (default 30 s)
	maxFileBytes     int64
	processTimeout   time.Duration
	webhooks         webhookFlags
	deliveryRetry    time.Duration
	deliveryTries    int
	mockRemitDelay   time.Duration
}

// defaultGCPercent is serve's GOGC unless the environment sets one.
const defaultGCPercent = 400

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cfg serveConfig
	fs := newFlagSet("serve", "serve [options]",
		"Runs the Clearhouse HTTP API. With no --database it keeps its state in SQLite inside\n"+
			"the data directory; with --database postgres://… in PostgreSQL. File contents go to\n"+
			"the data directory unless --blob names a bucket. Stops gracefully on SIGTERM/SIGINT.", stderr)
	fs.StringVar(&cfg.listen, "listen", "127.0.0.1:8080", "address to listen on (host:port; use :8080 for all interfaces)")
	fs.StringVar(&cfg.dataDir, "data", "./data", "data directory: SQLite database and file contents (created if missing)")
	fs.StringVar(&cfg.databaseURL, "database", "", "database URL: postgres://user:pass@host:5432/db?sslmode=disable; empty for SQLite in --data")
	fs.StringVar(&cfg.blobURL, "blob", "", "where file contents live: s3://bucket?region=…&endpoint=…&use_path_style=true, file:///dir; empty for --data/blobs")
	fs.StringVar(&cfg.payerDirectory, "payer-directory", "", "payer directory file (JSON or the hosted Payers API's CSV; see docs/api/payers.md): support flags with ENROLLMENT_REQUIRED, names, aliases, coverage types, operating states and the accounts' enrollments, applied over the shipped directory; empty for none")
	fs.StringVar(&cfg.payersFile, "payers", "", "payer directory overrides (JSON, see internal/payers/README.md): connections, aliases, extra payers; empty for the shipped directory")
	fs.TextVar(&cfg.logLevel, "log-level", slog.LevelInfo, "log level: debug, info, warn or error (logs are JSON on stderr)")
	fs.Int64Var(&cfg.maxBodyBytes, "max-body-bytes", api.DefaultMaxBodyBytes, "largest request body accepted; larger ones get 413")
	fs.DurationVar(&cfg.readTimeout, "read-timeout", 60*time.Second, "time allowed to read a whole request (a file upload gets 60 s plus its size limit at 1 MiB/s instead)")
	fs.DurationVar(&cfg.writeTimeout, "write-timeout", 120*time.Second, "time allowed to handle a request and write the response (payer calls included)")
	fs.DurationVar(&cfg.idleTimeout, "idle-timeout", 120*time.Second, "how long an idle keep-alive connection stays open")
	fs.DurationVar(&cfg.shutdownTimeout, "shutdown-timeout", 30*time.Second, "on SIGTERM, how long in-flight requests may take to finish")
	fs.IntVar(&cfg.workers, "workers", 4, "background jobs (files, claims) run at once by this process; 0 runs none, outbound calls included (an API-only replica)")
	cfg.lanes.register(fs)
	fs.StringVar(&cfg.pprofListen, "pprof-listen", "", "serve Go's profiler (net/http/pprof) on this separate address, e.g. 127.0.0.1:6060; empty: off. Never expose it publicly")
	fs.StringVar(&cfg.publicURL, "public-url", "", "base URL clients reach this service at, used in event resources and artifact URLs (e.g. https://edi.example.com); empty: http://<listen>")
	fs.StringVar(&cfg.region, "region", events.DefaultRegion, "the region named in every event envelope")
	cfg.secrets.add(fs)
	cfg.connections.register(fs)
	fs.StringVar(&cfg.directoryRoot, "directory-root", "", "folder under which DIRECTORY connections' folders live, each account's in ROOT/<account-id>/production/ (never inside --data); empty: DIRECTORY connections are refused")
	fs.StringVar(&cfg.sftpListen, "sftp-listen", "", "address of the embedded SFTP server for partners (users: clearhouse sftp users); empty: off")
	fs.Int64Var(&cfg.maxFileBytes, "max-file-bytes", core.DefaultMaxFileBytes, "largest inbound file accepted (upload, directory, SFTP); larger ones are refused")
	fs.DurationVar(&cfg.processTimeout, "process-timeout", core.DefaultProcessTimeout, "time allowed to process one inbound file before the attempt is retried")
	cfg.webhooks.register(fs)
	fs.DurationVar(&cfg.deliveryRetry, "delivery-retry-interval", delivery.DefaultRetryInterval, "wait between attempts to deliver an outbound file (spec: 6 minutes)")
	fs.IntVar(&cfg.deliveryTries, "delivery-attempts", delivery.DefaultAttempts, "attempts to deliver an outbound file before it is FAILED (spec: 3)")
	fs.DurationVar(&cfg.mockRemitDelay, "mock-remit-delay", delivery.DefaultRemitDelay, "how long after its 277CA the test-mode mock payer's 835 arrives")
	fs.Float64Var(&cfg.rateLimit, "rate-limit", 50, "requests per second each API key may make, on average (token bucket, per process); 0 turns limits off")
	fs.IntVar(&cfg.rateBurst, "rate-burst", 100, "requests an API key may make at once above --rate-limit")
	fs.DurationVar(&cfg.upstreamPoll, "upstream-poll-interval", upstream.DefaultPollInterval, "how often each stored CLEARINGHOUSE_API connection's upstream is polled for answers (999, 277CA, 835)")
	fs.IntVar(&cfg.payerCallsPerKey, "payer-calls-per-key", eligibility.DefaultPayerCallsPerKey, "eligibility checks each API key may have waiting on one payer connection at once (per process); more answer 429; 0 turns the cap off")
	fs.DurationVar(&cfg.pgTimeouts.Connect, "db-connect-timeout", store.DefaultPostgresTimeouts.Connect, "PostgreSQL: time to open a connection (TCP and handshake); 0 for none")
	fs.DurationVar(&cfg.pgTimeouts.Acquire, "db-acquire-timeout", store.DefaultPostgresTimeouts.Acquire, "PostgreSQL: time to wait for a pooled connection (added to the statement timeout as a statement's overall bound); 0 for none")
	fs.DurationVar(&cfg.pgTimeouts.Statement, "db-statement-timeout", store.DefaultPostgresTimeouts.Statement, "PostgreSQL: statement_timeout of every statement, lock waits included (not migrations); 0 for none")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return &exitError{code: 2, err: fmt.Errorf("unexpected argument %q (see --help)", rest[0])}
	}
	logger := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: cfg.logLevel}))
	if _, set := os.LookupEnv("GOGC"); !set {
		// The service keeps little live data (tens of MB) but allocates
		// ~100 KB per check: collecting at 4× the live heap instead of 2×
		// cost ~20% less CPU per check in bench-load. GOGC overrides it.
		debug.SetGCPercent(defaultGCPercent)
	}
	return serve(ctx, cfg, logger, nil)
}

// serve runs until ctx is cancelled, then shuts down gracefully. If ready is
// not nil it receives the listening address once requests are accepted.
// The whole process is built by app.New; this is only its configuration.
func serve(ctx context.Context, cfg serveConfig, logger *slog.Logger, ready chan<- string) error {
	dir, err := payerDirectory(cfg.payerDirectory, cfg.payersFile)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(cfg.dataDir, 0o700); err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	box, err := cfg.secrets.serveBox(cfg.dataDir, cfg.databaseURL, logger)
	if err != nil {
		return err
	}
	schedule, err := cfg.webhooks.schedule()
	if err != nil {
		return err
	}
	conns, breakers, err := productionConnections(cfg, box, logger)
	if err != nil {
		return err
	}
	dirs, err := openDirectoryRoot(cfg, logger)
	if err != nil {
		return err
	}
	if dirs != nil {
		defer dirs.Close()
	}
	a, err := app.New(ctx, app.Config{
		DataDir: cfg.dataDir, DatabaseURL: cfg.databaseURL, BlobURL: cfg.blobURL, Postgres: cfg.pgTimeouts,
		Logger: logger, Secrets: box, Directories: dirs, Version: buildVersion(),
		Events: events.Options{Region: cfg.region, PublicURL: publicURL(cfg)},
		Payers: dir, PayerConnections: conns, PayerBreakers: breakers, PayerCallsPerKey: cfg.payerCallsPerKey,
		UpstreamPollInterval:    cfg.upstreamPoll,
		AllowPrivateConnections: cfg.connections.allowPrivate,
		HTTP: app.HTTP{Listen: cfg.listen, MaxBodyBytes: cfg.maxBodyBytes, ReadTimeout: cfg.readTimeout,
			WriteTimeout: cfg.writeTimeout, IdleTimeout: cfg.idleTimeout, ShutdownTimeout: cfg.shutdownTimeout,
			RateLimit: cfg.rateLimit, RateBurst: cfg.rateBurst},
		Workers:          cfg.workers,
		JobLanes:         cfg.lanes.lanes(),
		MaxFileBytes:     cfg.maxFileBytes,
		ProcessTimeout:   cfg.processTimeout,
		DeliveryAttempts: cfg.deliveryTries, DeliveryRetryInterval: cfg.deliveryRetry, MockRemitDelay: cfg.mockRemitDelay,
		Webhooks:             webhooks.Config{Schedule: schedule, DisableAfter: cfg.webhooks.disableAfter},
		WebhooksAllowPrivate: cfg.webhooks.allowPrivate,
		SFTPListen:           cfg.sftpListen, SFTPPoll: cfg.sftpPoll,
	})
	if err != nil {
		return err
	}
	defer a.Close()
	if cfg.pprofListen != "" {
		stopProfiler, err := serveProfiler(cfg.pprofListen, logger)
		if err != nil {
			return err
		}
		defer stopProfiler()
	}
	return a.Run(ctx, ready)
}

// publicURL is --public-url, or the listen address as a URL.
func publicURL(cfg serveConfig) string {
	if cfg.publicURL != "" {
		return cfg.publicURL
	}
	host := cfg.listen
	if strings.HasPrefix(host, ":") {
		host = "127.0.0.1" + host
	}
	return "http://" + host
}
