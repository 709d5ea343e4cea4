package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/clearhouse/clearhouse/internal/api"
	"github.com/clearhouse/clearhouse/internal/httpkit"
	"github.com/clearhouse/clearhouse/internal/retention"
	"github.com/clearhouse/clearhouse/internal/upstream"
)

// HTTP is the API's listener and its limits.
type HTTP struct {
	Listen          string
	MaxBodyBytes    int64 // 0: api.DefaultMaxBodyBytes
	ReadTimeout     time.Duration
	WriteTimeout    time.Duration
	IdleTimeout     time.Duration
	ShutdownTimeout time.Duration
	// RateLimit and RateBurst are each API key's token bucket; 0: no limit.
	RateLimit float64
	RateBurst int
	// Upload paces uploads' read deadline (zero: api's defaults; tests).
	Upload api.UploadPace
}

// RunWorkers works the job queue, polls the DIRECTORY connections' folders
// and the SFTP connections, and enforces retention until ctx ends, then waits for the jobs
// in hand (each within its kind's timeout). With Config.Workers 0 it only
// waits for ctx.
func (a *App) RunWorkers(ctx context.Context) {
	if a.cfg.Workers <= 0 {
		<-ctx.Done()
		return
	}
	svc := a.Services
	done := make(chan struct{}, 4)
	go func() { runUpstreamEnsure(ctx, svc.UpstreamPoller); done <- struct{}{} }()
	go func() { svc.Core.NewDirectoryPoller(svc.Directories).Run(ctx); done <- struct{}{} }()
	go func() { svc.SFTPPoller.Run(ctx); done <- struct{}{} }()
	// Retention policies are enforced hourly (docs/operations/retention.md).
	go func() { retention.Run(ctx, svc.Store, svc.Blob, time.Hour, svc.Logger); done <- struct{}{} }()
	svc.Jobs.Run(ctx)
	for range 4 {
		<-done
	}
}

// Run serves the API (and the SFTP server when configured) and runs the
// workers until ctx is cancelled, then shuts down gracefully: in-flight
// requests get HTTP.ShutdownTimeout, jobs in hand finish. If ready is not
// nil it receives the API's address once requests are accepted.
func (a *App) Run(ctx context.Context, ready chan<- string) error {
	start := time.Now()
	cfg, logger := a.cfg, a.cfg.Logger
	jobsCtx, stopJobs := context.WithCancel(context.WithoutCancel(ctx))
	jobsDone := make(chan struct{})
	go func() { a.RunWorkers(jobsCtx); close(jobsDone) }()
	defer func() { stopJobs(); <-jobsDone }()
	if srv := a.Services.SFTPServer; srv != nil {
		if err := a.serveSFTP(cfg.SFTPListen, logger); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", cfg.HTTP.Listen)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           a.API,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       cfg.HTTP.ReadTimeout,
		WriteTimeout:      cfg.HTTP.WriteTimeout,
		IdleTimeout:       cfg.HTTP.IdleTimeout,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	// An eligibility check's answer leaves in one write(2) (httpkit.WriteWhole).
	ln = httpkit.OneWriteListener(srv, ln)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	logger.Info("listening", "addr", ln.Addr().String(), "database", a.Services.Store.Engine(), "data", cfg.DataDir,
		"version", cfg.Version, "startup_ms", time.Since(start).Milliseconds())
	if ready != nil {
		ready <- ln.Addr().String()
	}

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down", "timeout", cfg.HTTP.ShutdownTimeout.String())
	sctx, cancel := context.WithTimeout(context.Background(), cfg.HTTP.ShutdownTimeout)
	defer cancel()
	err = srv.Shutdown(sctx)
	stopJobs() // jobs in hand finish (each within its kind's timeout)
	<-jobsDone
	if serveErr := <-served; !errors.Is(serveErr, http.ErrServerClosed) {
		err = errors.Join(err, serveErr)
	}
	if err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	logger.Info("stopped")
	return nil
}

// serveSFTP serves the embedded SFTP server on addr; Close stops it
// (unfinished uploads are discarded).
func (a *App) serveSFTP(addr string, logger *slog.Logger) error {
	srv := a.Services.SFTPServer
	log := logger.With("component", "sftp")
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	go func() {
		if err := srv.Serve(ln); err != nil {
			log.Error("sftp server stopped", "error", err.Error())
		}
	}()
	logger.Info("sftp listening", "addr", ln.Addr().String(),
		"hostKey", strings.TrimSpace(string(ssh.MarshalAuthorizedKey(srv.HostKey()))))
	return nil
}

// runUpstreamEnsure gives each new CLEARINGHOUSE_API connection its poll
// job, at start and then every interval (a minute at most), until ctx ends.
func runUpstreamEnsure(ctx context.Context, p *upstream.Poller) {
	every := min(p.Interval, time.Minute)
	if every <= 0 {
		every = time.Minute
	}
	for {
		if err := p.Ensure(ctx); err != nil && ctx.Err() == nil {
			p.Logger.Warn("upstream: cannot schedule the answer polls", "error", err.Error())
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
		}
	}
}
