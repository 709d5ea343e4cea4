package main

import (
	"flag"

	"github.com/clearhouse/clearhouse/internal/jobs"
)

// Outbound lane defaults: calls to receivers and partners wait on the
// network, not the CPU, so they get more workers than files; one account
// gets a quarter of them, whatever its receivers do.
const (
	defaultOutboundWorkers    = 16
	defaultOutboundPerAccount = 4
)

// laneFlags size the outbound lane (webhook attempts, delivery of outbound
// files), apart from --workers (files and claims), and cap one account's
// share of each.
type laneFlags struct {
	outboundWorkers    int
	outboundPerAccount int
	workersPerAccount  int
}

func (f *laneFlags) register(fs *flag.FlagSet) {
	fs.IntVar(&f.outboundWorkers, "outbound-workers", defaultOutboundWorkers,
		"outbound calls (webhook attempts, deliveries of outbound files) run at once by this process, apart from --workers (0: the default)")
	fs.IntVar(&f.outboundPerAccount, "outbound-per-account", defaultOutboundPerAccount,
		"outbound calls one account may have running at once in each mode (test, production) in this process; its others of that mode wait, holding no worker; 0: no cap")
	fs.IntVar(&f.workersPerAccount, "workers-per-account", 0,
		"files and claims jobs one account may have running at once of --workers (e.g. --workers minus 1, so another account's file never waits for a free worker); 0: no cap")
}

// lanes is the queue's lane sizes (defaults for a zero config, as in tests).
func (f laneFlags) lanes() map[string]jobs.Lane {
	out := jobs.Lane{Concurrency: f.outboundWorkers, PerAccount: f.outboundPerAccount}
	if out.Concurrency <= 0 {
		out = jobs.Lane{Concurrency: defaultOutboundWorkers, PerAccount: defaultOutboundPerAccount}
	}
	return map[string]jobs.Lane{jobs.LaneOutbound: out, jobs.LaneDefault: {PerAccount: f.workersPerAccount}}
}
