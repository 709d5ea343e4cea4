package services

import (
	"strings"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/upstream"
)

// routeMetrics counts the attempts of exchanges routed over a payer's
// ordered connections: which route answered, which failed over, which were
// skipped while their breaker was open, and how often a breaker opened.
func routeMetrics(reg prometheus.Registerer) func(payers.RouteEvent) {
	attempts := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "clearhouse_payer_route_attempts_total",
		Help: "Attempts of routed payer exchanges, by transaction, connection and outcome (answered, failover, refused, skipped).",
	}, []string{"transaction", "connection", "outcome"})
	opened := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "clearhouse_payer_route_breaker_opened_total",
		Help: "Times a connection's circuit breaker opened after repeated outages.",
	}, []string{"connection"})
	if reg != nil {
		reg.MustRegister(attempts, opened)
	}
	return func(e payers.RouteEvent) {
		attempts.WithLabelValues(e.Transaction, e.Connection, e.Outcome).Inc()
		if e.BreakerOpen {
			opened.WithLabelValues(e.Connection).Inc()
		}
	}
}

// claimRoutes reads a payer's claims routes from the directory: only its
// "connections": {"claims": [...]}, not the single "connection" (which
// names an eligibility connection of the --payers file).
func claimRoutes(dir *payers.Directory) upstream.ClaimRoutes {
	return func(payerID string) []string {
		p, ok := dir.Lookup(payerID)
		if !ok {
			return nil
		}
		return p.Connections[payers.RouteClaims]
	}
}

// accountRoutes are the production connections the router gets: the
// --payers file's, and for every eligibility or claim status route a payer
// names that the file does not declare, an upstream.AccountRoute that
// resolves it to the caller's own stored connection of that id.
func accountRoutes(dir *payers.Directory, file map[string]payers.Connection, d *upstream.Delivery) map[string]payers.Connection {
	out := make(map[string]payers.Connection, len(file))
	for name, c := range file {
		out[name] = c
	}
	for _, p := range dir.List() {
		for _, tx := range []string{payers.Eligibility, payers.ClaimStatus} {
			for _, name := range p.RoutesFor(tx) {
				if _, ok := out[name]; !ok && !strings.EqualFold(name, payers.MockConnectionName) {
					out[name] = &upstream.AccountRoute{Name: name, Delivery: d}
				}
			}
		}
	}
	return out
}
