package mockpayer

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/claims"
	sim "github.com/clearhouse/clearhouse/internal/mockpayer/scenario"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/x12"
)

// ScenarioSource returns the scenarios that apply to an exchange: the
// caller's own (an account's test-mode file, read from ctx's
// payers.Caller), or the file the standalone mock was started with. nil:
// only the built-in published mocks answer.
type ScenarioSource func(ctx context.Context) (*sim.Set, error)

// WithScenarios makes the payer try src's scenarios before the published
// mocks, for eligibility, 277CA and 835 answers.
func WithScenarios(src ScenarioSource) Option { return func(p *Payer) { p.scenarios = src } }

// WithScenarioSet is WithScenarios for one fixed file (mockpayer serve
// --scenarios FILE).
func WithScenarioSet(set *sim.Set) Option {
	return WithScenarios(func(context.Context) (*sim.Set, error) { return set, nil })
}

// WithLogger logs which scenario answered each simulated exchange (names
// only: never a member's data).
func WithLogger(l *slog.Logger) Option { return func(p *Payer) { p.logger = l } }

// ErrSimulatedTimeout is a scenario's timeout reached without the caller's
// own deadline (the standalone mock): the payer never answered.
var ErrSimulatedTimeout = errors.New("mockpayer: the payer did not answer (scenario timeout)")

// ErrSimulatedDrop is a scenario's dropped connection: the payer's
// connection broke before it answered.
var ErrSimulatedDrop = errors.New("mockpayer: the payer's connection was dropped before it answered (scenario drop)")

// maxSimulatedTimeout bounds how long a timeout scenario holds a call that
// has no deadline of its own.
const maxSimulatedTimeout = 2 * time.Minute

func (p *Payer) scenarioSet(ctx context.Context) (*sim.Set, error) {
	if p.scenarios == nil {
		return nil, nil
	}
	return p.scenarios(ctx)
}

// logScenario records which scenario answered an exchange (and, for a
// claim's answers, which claim): in the caller's simulation log
// (payers.WithSimulationLog), so the answer is stored with it, and in the
// log.
func (p *Payer) logScenario(ctx context.Context, kind, claim string, s *sim.Scenario) {
	payers.NoteSimulation(ctx, payers.Simulation{Kind: kind, Claim: claim, Scenario: s.Name, Index: s.Index, Line: s.Line})
	if p.logger == nil {
		return
	}
	attrs := []any{"kind", kind, "scenario", s.Name, "line", s.Line}
	if c, ok := payers.CallerFrom(ctx); ok {
		attrs = append(attrs, "account", c.AccountID, "mode", string(c.Mode))
	}
	p.logger.InfoContext(ctx, "mockpayer: scenario answered", attrs...)
}

// simulatedEligibility finds the caller's scenario for an inquiry. A
// request with a dependent is left to the published mocks: scenarios
// describe subscribers.
func (p *Payer) simulatedEligibility(ctx context.Context, inq *inquiry) (*sim.Scenario, error) {
	if inq.hasDependent {
		return nil, nil
	}
	set, err := p.scenarioSet(ctx)
	if err != nil || set == nil {
		return nil, err
	}
	req := sim.EligibilityRequest{PayerID: p.canonical(inq.payerID), MemberID: inq.subscriber.memberID,
		FirstName: inq.subscriber.first, LastName: inq.subscriber.last, DateOfBirth: inq.subscriber.dob,
		ServiceTypeCodes: inq.serviceTypes}
	if inq.procedure != "" {
		_, code, _ := strings.Cut(inq.procedure, ":")
		req.ProcedureCodes = []string{code}
	}
	return set.Eligibility(req, p.canonical), nil
}

// answerSimulated writes the 271 a scenario describes, after its delay.
func (p *Payer) answerSimulated(ctx context.Context, inq *inquiry, sc *sim.Scenario) ([]byte, error) {
	p.logScenario(ctx, "eligibility", "", sc)
	el := sc.Eligibility
	if err := sleep(ctx, time.Duration(el.DelayMs)*time.Millisecond); err != nil {
		return nil, err
	}
	if el.Drop {
		return nil, ErrSimulatedDrop
	}
	if el.Timeout {
		if err := sleep(ctx, maxSimulatedTimeout); err != nil {
			return nil, err
		}
		return nil, ErrSimulatedTimeout
	}
	s, err := p.simulatedScenario(inq, sc)
	if err != nil {
		return nil, err
	}
	return p.respond(inq, s)
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// simulatedScenario compiles a scenario's answer into the fixture shape
// respond writes: the payer's profile, the subscriber and the benefits, or
// the rejection.
func (p *Payer) simulatedScenario(inq *inquiry, sc *sim.Scenario) (*scenario, error) {
	payerID := p.canonical(inq.payerID)
	s := &scenario{name: sc.Name, title: sc.Description, payer: p.profileFor(payerID), simulated: sc.Name}
	if r := sc.Eligibility.Reject; r != nil {
		loop := r.Loop
		if loop == "" {
			loop = "2100C"
		}
		valid := "N"
		if r.Code == "42" || r.Code == "75" {
			valid = "Y"
		}
		s.reject = &reject{Loop: loop, AAA: "AAA*" + valid + "**" + r.Code + "*" + cmp.Or(r.FollowUp, "C")}
		aaa, err := compileLines([]string{s.reject.AAA}, nil)
		if err != nil {
			return nil, err
		}
		s.rejectAAA = aaa[0]
		return s, nil
	}
	sub, ben := benefitLines(inq, sc.Eligibility.Benefits)
	var err error
	if s.subscriber, err = compileLines(sub, nil); err != nil {
		return nil, fmt.Errorf("%w: cannot echo the subscriber: %v", ErrInvalidInquiry, err)
	}
	if s.subscriberBenefits, err = compileLines(ben, nil); err != nil {
		return nil, fmt.Errorf("mockpayer: scenario %s: %w", sc.Name, err)
	}
	return s, nil
}

// profileFor is the payer's 2100A: the published mock's profile when the
// payer has one, else the directory's name.
func (p *Payer) profileFor(payerID string) *payerProfile {
	if scs := p.byPayer[payerID]; len(scs) > 0 {
		return scs[0].payer
	}
	name := "MOCK PAYER"
	if e, ok := p.dir.Lookup(payerID); ok && e.Name != "" {
		name = strings.ToUpper(e.Name)
	}
	return &payerProfile{ID: payerID, Name: cleanText(name, 60), TraceOriginator: "9999999999"}
}

// cleanText keeps the characters a 271 element can carry as is.
func cleanText(s string, max int) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() >= max {
			break
		}
		if r < 0x80 && !strings.ContainsRune("*^:~>|", r) {
			b.WriteRune(r)
		}
	}
	return strings.TrimSpace(b.String())
}

// simRequest is claim i of the batch as a scenario sees it.
func (b *claimBatch) simRequest(i int, resolve func(string) string) sim.ClaimRequest {
	c := b.claims[i]
	return sim.ClaimRequest{PayerID: resolve(b.payerID), MemberID: c.MemberID, FirstName: c.PatientFirst, LastName: c.PatientLast,
		DateOfBirth: b.facts[i].dob, ProcedureCodes: b.facts[i].procedures, ChargeCents: money(c.Charge),
		PatientControlNumber: c.PatientControlNumber}
}

// scenarioRejection is the 277CA rejection a scenario asks for.
func scenarioRejection(sc *sim.Scenario) (claims.Status, bool) {
	if sc == nil || sc.Claim.Acknowledgment == nil || sc.Claim.Acknowledgment.Status != "rejected" {
		return claims.Status{}, false
	}
	a := sc.Claim.Acknowledgment
	return claims.Status{Category: cmp.Or(a.Category, "A7"), Code: cmp.Or(a.Code, "21"), Entity: a.Entity}, true
}

// unacknowledged reports whether a scenario keeps the payer silent about a
// claim: no 277CA status, and so no payment.
func unacknowledged(sc *sim.Scenario) bool {
	return sc != nil && sc.Claim.Acknowledgment != nil && sc.Claim.Acknowledgment.Status == "none"
}

// simulatedStatus is the caller's scenario with a claim status for the
// claim a 276 asks about, or nil.
func (p *Payer) simulatedStatus(ctx context.Context, q *statusRequest) (*sim.Scenario, error) {
	set, err := p.scenarioSet(ctx)
	if err != nil || set == nil {
		return nil, err
	}
	req := sim.ClaimRequest{PayerID: p.canonical(q.payerID), MemberID: q.memberID, FirstName: q.subscriberFirst,
		LastName: q.subscriberLast, ChargeCents: money(q.amount), PatientControlNumber: q.ej}
	for _, sc := range set.Scenarios {
		if sc.Claim == nil || sc.Claim.Status == nil {
			continue
		}
		if one := (&sim.Set{Scenarios: []*sim.Scenario{sc}}); one.Claim(req, p.canonical) != nil {
			p.logScenario(ctx, "277", q.ej, sc)
			return sc, nil
		}
	}
	return nil, nil
}

// injectRejection adds the scenario's 999 rejection of claim i to the
// validation report: an error on the claim's CLM (IK3) and one of its
// elements (IK4), in the transaction set that holds it, so the 999
// rejects that set as a payer's front end would.
func injectRejection(rep *x12.Report, b *claimBatch, i int, fa *sim.FunctionalAck) {
	f := b.facts[i]
	var sets []*x12.SetReport
	for _, ic := range rep.Interchanges {
		for _, g := range ic.Groups {
			sets = append(sets, g.Sets...)
		}
	}
	if f.set < 0 || f.set >= len(sets) {
		return
	}
	element := fa.Element
	if element == 0 {
		element = 1
	}
	value := ""
	if element <= len(f.clm) {
		value = f.clm[element-1]
	}
	if len(value) > 99 {
		value = value[:99]
	}
	sets[f.set].Findings = append(sets[f.set].Findings, x12.Finding{
		Severity: x12.Error, Code: "mockpayer.scenario-rejection", Offset: -1,
		Message:   "the payer's scenario rejects this claim",
		SegmentID: "CLM", Position: f.position, LoopID: "2300", Element: element, Value: value,
		ElementRef:  map[int]string{1: "1028", 2: "782", 7: "1359", 8: "1073", 9: "1363"}[element],
		ContextName: "CLM01", ContextValue: b.claims[i].PatientControlNumber,
		IK3: cmp.Or(fa.SegmentCode, "8"), IK4: cmp.Or(fa.ElementCode, "7"),
	})
}
