// Package apptest builds the whole process for a test, the way
// `clearhouse serve` does (app.New), over a test store and a temporary data
// directory, served on a loopback port.
package apptest

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/api"
	"github.com/clearhouse/clearhouse/internal/app"
	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/httpkit"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
	"github.com/clearhouse/clearhouse/internal/tenantdir"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// Options tune the test process. The zero value is the API alone over a
// fresh SQLite store, quiet, with no workers and no secrets key.
type Options struct {
	// Store is the store to serve (default storetest.SQLite).
	Store  store.Store
	Clock  clock.Clock
	Logger *slog.Logger // default: discarded
	// Secrets gives the process a fresh secrets key.
	Secrets bool
	// Workers runs the job queue (polling every 10 ms) for the test's
	// duration.
	Workers bool
	// RefusePrivateConnections makes connections' SSRF guard refuse
	// loopback and private addresses, as serve does by default (tests
	// reach loopback servers otherwise).
	RefusePrivateConnections bool
	// MaxFileBytes bounds inbound files (default core.DefaultMaxFileBytes).
	MaxFileBytes int64
	// Directories is the directory root of DIRECTORY connections.
	Directories *tenantdir.Root
	// Console mounts the console beside the API.
	Console bool
	// Webhooks tunes webhook delivery; webhooks may reach loopback
	// addresses (the tests' receivers).
	Webhooks webhooks.Config
	// API tunes the API server (body and rate limits, version, extra routes).
	API api.Options
	// MockRemitDelay is how long after its 277CA the mock payer's 835
	// arrives (delivery.DefaultRemitDelay when zero).
	MockRemitDelay time.Duration
	// Events are the events' region and public base URL; the base URL
	// defaults to the test server's own, as serve's does to its listener.
	Events events.Options
	// Payers is the payer directory (default payers.Default()).
	Payers *payers.Directory
}

// Server is the built process and its loopback address.
type Server struct {
	*app.App
	URL   string
	Store store.Store
}

// New builds the process and serves it until the test ends.
func New(t testing.TB, opts Options) *Server {
	t.Helper()
	if opts.Store == nil {
		opts.Store = storetest.SQLite(t)
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	var box *secrets.Box
	if opts.Secrets {
		key, err := secrets.ParseKey(secrets.NewKey())
		if err != nil {
			t.Fatal(err)
		}
		if box, err = secrets.New(key); err != nil {
			t.Fatal(err)
		}
	}
	workers := 0
	if opts.Workers {
		workers = 4
	}
	dir := t.TempDir()
	// The listener first: its address is the public base URL of the
	// resource URLs the process builds.
	hs := httptest.NewUnstartedServer(nil)
	if opts.Events.PublicURL == "" {
		opts.Events.PublicURL = "http://" + hs.Listener.Addr().String()
	}
	a, err := app.New(context.Background(), app.Config{
		DataDir: dir, Store: opts.Store, Clock: opts.Clock, Logger: opts.Logger, Secrets: box,
		Directories: opts.Directories, MaxFileBytes: opts.MaxFileBytes, Events: opts.Events, Payers: opts.Payers,
		Version: opts.API.Version, Workers: workers, JobPollInterval: 10 * time.Millisecond, MockRemitDelay: opts.MockRemitDelay,
		HTTP: app.HTTP{MaxBodyBytes: opts.API.MaxBodyBytes, RateLimit: opts.API.RateLimit, RateBurst: opts.API.RateBurst,
			Upload: opts.API.Upload},
		Webhooks:                opts.Webhooks,
		WebhooksAllowPrivate:    true,
		AllowPrivateConnections: !opts.RefusePrivateConnections,
		WithoutConsole:          !opts.Console,
		ExtraRoutes:             opts.API.ExtraRoutes,
	})
	if err != nil {
		hs.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	hs.Config.Handler = a.API
	hs.Listener = httpkit.OneWriteListener(hs.Config, hs.Listener) // as serve's (app.Run)
	hs.Start()
	t.Cleanup(hs.Close)
	if opts.Workers {
		ctx, stop := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { a.RunWorkers(ctx); close(done) }()
		t.Cleanup(func() { stop(); <-done })
	}
	return &Server{App: a, URL: hs.URL, Store: opts.Store}
}
