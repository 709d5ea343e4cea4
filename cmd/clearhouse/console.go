package main

import (
	"log/slog"
	"path/filepath"

	"github.com/clearhouse/clearhouse/internal/api"
	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/web"
)

// consoleRoutes builds the web console served at /. Its checks run through
// checks, the eligibility service the API uses too, so they share control
// numbers, payer routing and history; dir feeds its payer picker. The
// session-signing secret lives in the data directory (created on first
// start); replicas must share it.
//
// The EDI pages (files, transactions, webhooks) run on env's core and
// webhooks services, the ones the API uses; its claim form submits through
// the claims service the API's claims module builds (env.OnClaims).
func consoleRoutes(st store.Store, checks *eligibility.Service, dir *payers.Directory, dataDir string, logger *slog.Logger, env *api.Env) ([]api.Route, error) {
	secret, err := web.LoadOrCreateSecret(filepath.Join(dataDir, web.SecretFile))
	if err != nil {
		return nil, err
	}
	console, err := web.New(web.Config{Store: st, Eligibility: checks, Payers: dir, Secret: secret, Logger: logger,
		Core: env.Core, Webhooks: env.Webhooks})
	if err != nil {
		return nil, err
	}
	env.OnClaims = console.UseClaims
	return console.Routes(), nil
}
