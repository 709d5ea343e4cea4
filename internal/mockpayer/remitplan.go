package mockpayer

import (
	"cmp"
	"strings"

	sim "github.com/clearhouse/clearhouse/internal/mockpayer/scenario"
)

// remitPlan is how the mock pays one claim: the outcome, the share of each
// line's charge it allows and leaves to the patient (percent), and the
// codes that explain the rest.
type remitPlan struct {
	outcome          string
	allowed, patient int
	group, carc      string // what is not allowed
	patientCarc      string // the patient's share (group PR)
	rarc             []string
}

// builtinPlan is a published outcome of remitdata/remit.json.
func builtinPlan(outcome string) remitPlan {
	switch outcome {
	case RemitPartial:
		return remitPlan{outcome: outcome, allowed: 80, patient: 10, group: "CO", carc: "45", patientCarc: "1"}
	case RemitDenied:
		return remitPlan{outcome: outcome, group: "CO", carc: "16", rarc: []string{"N290"}}
	case RemitReverse:
		return remitPlan{outcome: outcome, allowed: 80, group: "CO", carc: "45", patientCarc: "1"}
	}
	return remitPlan{outcome: RemitPaid, allowed: 100, group: "CO", carc: "45", patientCarc: "1"}
}

// planFor is the plan of a claim: its scenario's remittance, else the
// published rule of its member id. pays is false for a claim that gets no
// 835: rejected by the 277CA, or a scenario's outcome none.
func planFor(sc *sim.Scenario, member string) (plan remitPlan, pays bool) {
	if sc == nil {
		if strings.EqualFold(member, ClaimRejectMemberID) {
			return remitPlan{}, false
		}
		return builtinPlan(RemitOutcome(member)), true
	}
	if _, rejected := scenarioRejection(sc); rejected || unacknowledged(sc) || sc.Claim.FunctionalAck != nil {
		return remitPlan{}, false
	}
	r := sc.Claim.Remittance
	if r == nil {
		return builtinPlan(RemitPaid), true
	}
	outcome := map[string]string{"paid": RemitPaid, "partial": RemitPartial, "denied": RemitDenied, "reversed": RemitReverse}[r.Outcome]
	if outcome == "" { // none
		return remitPlan{}, false
	}
	plan = builtinPlan(outcome)
	plan.allowed, plan.patient = r.Shares()
	plan.group = cmp.Or(r.GroupCode, plan.group)
	plan.carc = cmp.Or(r.CARC, plan.carc)
	plan.patientCarc = cmp.Or(r.PatientResponsibilityCARC, plan.patientCarc)
	if len(r.RARC) > 0 {
		plan.rarc = r.RARC
	}
	return plan, true
}

// simRequest is the claim as a scenario sees it.
func (c *remitClaim) simRequest(payerID string) sim.ClaimRequest {
	var procs []string
	for _, l := range c.lines {
		procs = append(procs, l.code)
		if l.revenue != "" {
			procs = append(procs, l.revenue)
		}
	}
	return sim.ClaimRequest{PayerID: payerID, MemberID: c.member, FirstName: c.first, LastName: c.last, DateOfBirth: c.dob,
		ProcedureCodes: procs, ChargeCents: money(c.charge), PatientControlNumber: c.pcn}
}
