package main

import (
	"fmt"
	"log/slog"
	"maps"
	"os"
	"slices"

	"github.com/clearhouse/clearhouse/internal/connections"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/secrets"
)

// payerDirectory is the shipped directory, with the operator's directory
// file (--payer-directory) and override file (--payers) applied when named;
// a problem names the flag and the file.
func payerDirectory(directoryPath, payersPath string) (*payers.Directory, error) {
	dir := payers.Default()
	if directoryPath != "" {
		f, err := payers.ReadDirectoryFile(directoryPath)
		if err == nil {
			dir, err = dir.WithDirectoryFile(directoryPath, f)
		}
		if err != nil {
			return nil, fmt.Errorf("--payer-directory: %w", err)
		}
	}
	if payersPath != "" {
		data, err := os.ReadFile(payersPath)
		if err == nil {
			dir, err = dir.WithOverrides(data)
		}
		if err != nil {
			return nil, fmt.Errorf("--payers: %s: %w", payersPath, err)
		}
	}
	return dir, nil
}

// productionConnections are the real-time payer connections declared in
// the --payers file ("connections", types CAQH_CORE and CLEARINGHOUSE_API),
// by the id a directory entry's "connection" or "connections" names, with
// their breaker settings. Their secrets open with --secrets-key; a file
// with secrets and no key stops the start.
func productionConnections(cfg serveConfig, box *secrets.Box, logger *slog.Logger) (map[string]payers.Connection, map[string]payers.BreakerSettings, error) {
	set, err := loadConnections(cfg.payersFile, box)
	if err != nil {
		return nil, nil, err
	}
	conns, err := set.Eligibility(connections.Options{Guard: cfg.connections.guard(logger)})
	if err != nil {
		return nil, nil, fmt.Errorf("--payers: %w", err)
	}
	if len(conns) > 0 {
		logger.Info("payer connections", "ids", slices.Sorted(maps.Keys(conns)))
	}
	return conns, set.Breakers(), nil
}
