package payers

import (
	"context"
	"sync"
)

// Simulation names the payer simulator scenario that produced one answer
// of an in-process payer (the test-mode mock): which answer, for which
// claim, and where the scenario stands in its file.
type Simulation struct {
	Kind     string // eligibility, 999, 277CA, 835 or 277
	Claim    string // the claim's patient control number (CLM01); "" for eligibility
	Scenario string // the scenario's name
	Index    int    // its position in the file, from 0
	Line     int    // the line it starts at
}

// SimulationLog collects the simulations of one exchange or answer job.
// Safe for concurrent use.
type SimulationLog struct {
	mu   sync.Mutex
	list []Simulation
}

// WithSimulationLog returns ctx carrying a new log that an in-process
// payer fills with the scenarios that answer through ctx.
func WithSimulationLog(ctx context.Context) (context.Context, *SimulationLog) {
	l := &SimulationLog{}
	return with(ctx, func(v *exchangeValues) { v.sims = l }), l
}

// NoteSimulation records s in ctx's log, if it carries one.
func NoteSimulation(ctx context.Context, s Simulation) {
	if v := exchangeFrom(ctx); v != nil && v.sims != nil {
		l := v.sims
		l.mu.Lock()
		l.list = append(l.list, s)
		l.mu.Unlock()
	}
}

// All returns the simulations recorded so far, in order.
func (l *SimulationLog) All() []Simulation {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Simulation(nil), l.list...)
}
