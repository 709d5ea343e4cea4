package main

import (
	"log/slog"
	"path/filepath"

	"github.com/clearhouse/clearhouse/internal/api"
	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/web"
)

// consoleRoutes builds the web console served at /: the payer directory,
// the mock payers for test mode, and an eligibility service recording into
// the store's history, the same way the API's checks are recorded. The
// session-signing secret lives in the data directory (created on first
// start); replicas must share it.
func consoleRoutes(st store.Store, dataDir string, logger *slog.Logger) ([]api.Route, error) {
	dir := payers.Default()
	router, err := payers.NewRouter(dir, mockpayer.New(mockpayer.WithDirectory(dir)), nil)
	if err != nil {
		return nil, err
	}
	checks, err := eligibility.NewService(eligibility.Config{Router: router, History: st, Logger: logger})
	if err != nil {
		return nil, err
	}
	secret, err := web.LoadOrCreateSecret(filepath.Join(dataDir, web.SecretFile))
	if err != nil {
		return nil, err
	}
	console, err := web.New(web.Config{Store: st, Eligibility: checks, Payers: dir, Secret: secret, Logger: logger})
	if err != nil {
		return nil, err
	}
	return console.Routes(), nil
}
