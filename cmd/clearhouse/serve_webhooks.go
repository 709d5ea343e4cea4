package main

import (
	"flag"
	"fmt"
	"time"

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

// schedule is --webhooks-retry-schedule, parsed.
func (f *webhookFlags) schedule() ([]time.Duration, error) {
	if f.retrySchedule == "" {
		return webhooks.DefaultSchedule, nil
	}
	schedule, err := webhooks.ParseSchedule(f.retrySchedule)
	if err != nil {
		return nil, &exitError{code: 2, err: fmt.Errorf("--webhooks-retry-schedule: %v", err)}
	}
	return schedule, nil
}
