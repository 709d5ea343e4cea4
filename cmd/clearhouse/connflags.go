package main

import (
	"flag"
	"fmt"
	"log/slog"

	"github.com/clearhouse/clearhouse/internal/connections"
	"github.com/clearhouse/clearhouse/internal/netguard"
	"github.com/clearhouse/clearhouse/internal/secrets"
)

// connectionFlags are the options every command that reaches partners
// shares (serve, connections test).
type connectionFlags struct {
	allowPrivate bool
}

func (f *connectionFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&f.allowPrivate, "allow-private-connections", false,
		"let payer and partner connections reach loopback and private addresses (development and tests only; cloud metadata addresses stay blocked)")
}

// guard is the SSRF guard of partner connections.
func (f *connectionFlags) guard(logger *slog.Logger) *netguard.Guard {
	if f.allowPrivate && logger != nil {
		logger.Warn("connections may reach loopback and private addresses (--allow-private-connections): for development and tests only")
	}
	return netguard.New(netguard.Options{AllowPrivate: f.allowPrivate})
}

// loadConnections reads the connections of the --payers file; no file, no
// connections.
func loadConnections(payersFile string, box *secrets.Box) (*connections.Set, error) {
	if payersFile == "" {
		return connections.NewSet(nil, box)
	}
	set, err := connections.LoadFile(payersFile, box)
	if err != nil {
		return nil, fmt.Errorf("--payers: %w", err)
	}
	return set, nil
}
