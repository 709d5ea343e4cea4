package web

import (
	"context"
	"strconv"
	"strings"

	"github.com/clearhouse/clearhouse/internal/reports"
	"github.com/clearhouse/clearhouse/internal/store"
)

// An 835 file's payment summary (its page's Summary tab): per payment,
// the payer and payee, how and when the money came (check or EFT, its
// number and date), the total, how many claims were paid, paid in part,
// denied or reversed, and each claim with a link to the claim it paid.

// maxSummaryClaims bounds the claims a file's summary lists (all are
// counted).
const maxSummaryClaims = 200

// maxLinkedClaims bounds the claim numbers looked up to link their claims.
const maxLinkedClaims = 100

type remitSummary struct {
	reports.Remittance
	Claims                                      []remitClaimRow
	PaidFull, PaidPart, Denied, Reversed, Total int
}

type remitClaimRow struct {
	reports.ClaimPayment
	ClaimID string // the matched claim ("" when none matched)
}

// CountsText says how many claims the payment settles and how.
func (r remitSummary) CountsText() string {
	out := plural(r.Total, "claim")
	var parts []string
	for _, c := range []struct {
		n    int
		word string
	}{{r.PaidFull, "paid in full"}, {r.PaidPart, "paid in part"}, {r.Denied, "denied"}, {r.Reversed, "reversed"}} {
		if c.n > 0 {
			parts = append(parts, strconv.Itoa(c.n)+" "+c.word)
		}
	}
	if len(parts) > 0 {
		out += ": " + strings.Join(parts, ", ")
	}
	return out
}

// OutcomeLabel names what the payer did with the claim.
func (r remitClaimRow) OutcomeLabel() string { label, _ := r.outcome(); return label }

// OutcomeClass is the outcome's badge colour.
func (r remitClaimRow) OutcomeClass() string { _, class := r.outcome(); return class }

func (r remitClaimRow) outcome() (label, class string) {
	switch {
	case r.Denied():
		return "Denied", "bad"
	case r.Reversal():
		return "Payment reversed", "warn"
	case r.PaidCents >= r.ChargeCents:
		return "Paid", "ok"
	}
	return "Partly paid", "warn"
}

// filePayments reads an inbound file's 835 payments; nil when it holds none.
func (c *Console) filePayments(ctx context.Context, t store.Tenant, e store.Execution) ([]remitSummary, bool, error) {
	if e.Direction != store.DirectionInbound || e.Status != store.ExecutionCompleted {
		return nil, false, nil
	}
	txs, _, err := t.Transactions(ctx, store.TransactionFilter{ExecutionID: e.ID, Limit: 500})
	if err != nil {
		return nil, false, err
	}
	has835 := false
	for _, tx := range txs {
		has835 = has835 || tx.TransactionSetID == "835"
	}
	if !has835 {
		return nil, false, nil
	}
	sets, partial, err := c.readRemittances(ctx, e.Input.Key, nil, maxSummaryClaims)
	if err != nil {
		return nil, false, err
	}
	// The claims the payments name, to link them: a claim number names the
	// newest claim with that number that this file answered.
	var pcns []string
	seen := map[string]bool{}
	for _, s := range sets {
		for _, cp := range s.Claims {
			if !seen[cp.PCN] && len(pcns) < maxLinkedClaims {
				seen[cp.PCN] = true
				pcns = append(pcns, cp.PCN)
			}
		}
	}
	linked := map[string]string{}
	if len(pcns) > 0 {
		claims, _, err := t.Claims(ctx, store.ClaimFilter{PatientControlNumbers: pcns, Limit: 500})
		if err != nil {
			return nil, false, err
		}
		for _, cl := range claims { // newest first
			if linked[cl.PatientControlNumber] != "" {
				continue
			}
			answers, err := t.ClaimAnswers(ctx, cl.ID)
			if err != nil {
				return nil, false, err
			}
			for _, a := range answers {
				if a.ExecutionID == e.ID && a.Kind == store.ClaimAnswer835 {
					linked[cl.PatientControlNumber] = cl.ID
				}
			}
		}
	}
	out := make([]remitSummary, len(sets))
	for i, s := range sets {
		rs := remitSummary{Remittance: s, Total: len(s.Claims) + s.MoreClaims}
		for _, cp := range s.Claims {
			row := remitClaimRow{ClaimPayment: cp, ClaimID: linked[cp.PCN]}
			switch row.OutcomeLabel() {
			case "Denied":
				rs.Denied++
			case "Payment reversed":
				rs.Reversed++
			case "Paid":
				rs.PaidFull++
			default:
				rs.PaidPart++
			}
			rs.Claims = append(rs.Claims, row)
		}
		out[i] = rs
	}
	return out, partial, nil
}
