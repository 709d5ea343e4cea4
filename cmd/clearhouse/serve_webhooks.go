package main

import (
	"flag"
	"fmt"
	"log/slog"
	"time"

	"github.com/clearhouse/clearhouse/internal/api"
	"github.com/clearhouse/clearhouse/internal/netguard"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// webhookFlags are serve's webhook delivery options.
type webhookFlags struct {
	retrySchedule string
	allowPrivate  bool
	disableAfter  time.Duration
}

func (f *webhookFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.retrySchedule, "webhooks-retry-schedule", webhooks.FormatSchedule(webhooks.DefaultSchedule),
		"delay before each webhook delivery attempt, comma-separated (the first is usually 0s); each retry moves by up to ±10% (jitter)")
	fs.BoolVar(&f.allowPrivate, "webhooks-allow-private", false,
		"let webhooks reach loopback and private addresses (local development and tests only; cloud metadata addresses stay blocked)")
	fs.DurationVar(&f.disableAfter, "webhooks-disable-after", webhooks.DefaultDisableAfter,
		"disable a webhook, with the reason, once every attempt to it has failed for this long")
}

// webhooksService builds the webhook delivery of serve: its secrets key,
// SSRF guard and retry schedule. It registers the job kinds on env.Jobs.
func webhooksService(env api.Env, cfg serveConfig, logger *slog.Logger) (*webhooks.Service, error) {
	schedule := webhooks.DefaultSchedule
	if cfg.webhooks.retrySchedule != "" {
		var err error
		if schedule, err = webhooks.ParseSchedule(cfg.webhooks.retrySchedule); err != nil {
			return nil, &exitError{code: 2, err: fmt.Errorf("--webhooks-retry-schedule: %v", err)}
		}
	}
	if env.Secrets == nil {
		logger.Warn("no --secrets-key: webhooks cannot be created (their signing secrets are stored encrypted)")
	}
	if cfg.webhooks.allowPrivate {
		logger.Warn("webhooks may reach loopback and private addresses (--webhooks-allow-private): for local development and tests only")
	}
	return webhooks.New(webhooks.Config{
		Store: env.Store, Queue: env.Jobs, Events: webhooks.StoreEvents(env.Store), Secrets: env.Secrets,
		Guard: netguard.New(netguard.Options{AllowPrivate: cfg.webhooks.allowPrivate}), Clock: env.Clock,
		Logger: logger, Schedule: schedule, DisableAfter: cfg.webhooks.disableAfter,
	})
}
