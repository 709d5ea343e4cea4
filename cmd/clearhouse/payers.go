package main

import (
	"fmt"
	"log/slog"
	"maps"
	"slices"

	"github.com/clearhouse/clearhouse/internal/api"
	"github.com/clearhouse/clearhouse/internal/connections"
	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/secrets"
)

// payerDirectory is the shipped directory, with the operator's override
// file (--payers) applied when one is named.
func payerDirectory(path string) (*payers.Directory, error) {
	if path == "" {
		return payers.Default(), nil
	}
	dir, err := payers.LoadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--payers: %w", err)
	}
	return dir, nil
}

// productionConnections are the real-time payer connections declared in
// the --payers file ("connections", type CAQH_CORE), by the id a directory
// entry's "connection" names. Their secrets open with --secrets-key; a
// file with secrets and no key stops the start.
func productionConnections(cfg serveConfig, box *secrets.Box, logger *slog.Logger) (map[string]payers.Connection, error) {
	set, err := loadConnections(cfg.payersFile, box)
	if err != nil {
		return nil, err
	}
	conns, err := set.Eligibility(connections.Options{Guard: cfg.connections.guard(logger)})
	if err != nil {
		return nil, fmt.Errorf("--payers: %w", err)
	}
	if len(conns) > 0 {
		logger.Info("payer connections", "ids", slices.Sorted(maps.Keys(conns)))
	}
	return conns, nil
}

// eligibilityService builds the process's eligibility service over dir and
// warns about directory entries naming a connection this server lacks: their
// production checks answer "not configured".
func eligibilityService(env api.Env, dir *payers.Directory, cfg serveConfig, logger *slog.Logger) (*eligibility.Service, error) {
	conns, err := productionConnections(cfg, env.Secrets, logger)
	if err != nil {
		return nil, err
	}
	var missing []string
	for _, p := range dir.List() {
		if _, ok := conns[p.Connection]; p.Connection != "" && !ok {
			missing = append(missing, p.ID+"→"+p.Connection)
		}
	}
	if len(missing) > 0 {
		logger.Warn("payers name connections this server does not have; their production checks answer not configured",
			"payers", missing)
	}
	calls := cfg.payerCallsPerKey
	if calls == 0 {
		calls = -1 // the flag's 0 turns the cap off
	}
	return api.NewEligibilityService(env, dir, conns, calls)
}
