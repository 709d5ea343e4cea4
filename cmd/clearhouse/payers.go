package main

import (
	"fmt"
	"log/slog"

	"github.com/clearhouse/clearhouse/internal/api"
	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/payers"
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

// productionConnections are the payer connections this build can reach in
// production, by the name a directory entry's "connection" gives. None
// ships yet (CAQH CORE and SFTP transports are future work), so every
// production check answers the contract's "not configured" error.
func productionConnections() map[string]payers.Connection { return nil }

// eligibilityService builds the process's eligibility service over dir and
// warns about directory entries naming a connection this build lacks: their
// production checks answer "not configured".
func eligibilityService(env api.Env, dir *payers.Directory, logger *slog.Logger) (*eligibility.Service, error) {
	conns := productionConnections()
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
	return api.NewEligibilityService(env, dir, conns)
}
