package web

import (
	"context"
	"errors"
	"io"

	"github.com/clearhouse/clearhouse/internal/reports"
	"github.com/clearhouse/clearhouse/internal/store"
)

// What was paid: the claim page reads the 835s that answered the claim
// (each answer's inbound transaction) and shows the payer's decision per
// service line — billed, allowed, paid, each adjustment with its CARC and
// RARC explained, the patient's share (group PR) — and, when a payment was
// reversed and paid again, the net and each step of that history.

// maxRemitBytes bounds how much of one 835 transaction the claim page
// reads: a week of a hospital's payments is tens of MB; the claim's own
// payments are kept, nothing else.
const maxRemitBytes = 64 << 20

// paidView is the "What was paid" section.
type paidView struct {
	// Current is the payer's standing decision: the newest payment that is
	// not a reversal (nil when every payment was reversed).
	Current *paymentView
	// History is every payment, reversal and re-payment in the order the
	// payer sent them; shown when there is more than one.
	History []paymentView
	// Net is what the payer paid in all, after reversals; Patient what the
	// standing decision leaves to the patient.
	NetCents, PatientCents, ChargeCents, AdjustedCents int64
	// Partial: some 835 could not be read whole (its payments may be
	// missing here).
	Partial bool
}

// paymentView is one claim payment (CLP) with the payment it came in.
type paymentView struct {
	reports.ClaimPayment
	Trace, Method, MethodCode, Date, File, ExecutionID, TransactionID string
	Lines                                                             []paidLineView
}

// Label names a step of the history.
func (p paymentView) Label() string {
	switch {
	case p.Reversal():
		return "Payment reversed"
	case p.Denied():
		return "Denied"
	}
	return "Paid"
}

// paidLineView is one line's payment beside what was billed on it.
type paidLineView struct {
	reports.LinePayment
	Number         int
	Tooth, Surface string // from the billed line, for a dental claim
}

// OtherAdjustedCents is what the line's non-patient adjustments take off.
func (l paidLineView) OtherAdjustedCents() int64 {
	var sum int64
	for _, a := range l.Adjustments {
		if a.Group != "PR" {
			sum += a.AmountCents
		}
	}
	return sum
}

// claimPaid reads what the claim's 835 answers paid; nil when none did.
func (c *Console) claimPaid(ctx context.Context, t store.Tenant, cl store.DentalClaim, answers []store.ClaimAnswer, billed []billedLine) (*paidView, error) {
	var out paidView
	for _, a := range answers {
		if a.Kind != store.ClaimAnswer835 {
			continue
		}
		tx, err := t.Transaction(ctx, a.TransactionID)
		if errors.Is(err, store.ErrNotFound) {
			continue // removed by retention
		}
		if err != nil {
			return nil, err
		}
		sets, partial, err := c.readRemittances(ctx, tx.Input.Key, func(pcn string) bool { return pcn == cl.PatientControlNumber }, 50)
		if err != nil {
			return nil, err
		}
		out.Partial = out.Partial || partial
		file := ""
		if e, err := t.Execution(ctx, a.ExecutionID); err == nil {
			file = e.SourceName
		}
		for _, s := range sets {
			for _, p := range s.Claims {
				pv := paymentView{ClaimPayment: p, Trace: s.Trace, Method: s.MethodWords(), MethodCode: s.Method, Date: s.Date, File: file,
					ExecutionID: a.ExecutionID, TransactionID: a.TransactionID}
				for i, l := range p.Lines {
					lv := paidLineView{LinePayment: l, Number: i + 1}
					if i < len(billed) && billed[i].Code == l.Code {
						lv.Tooth, lv.Surface = billed[i].Tooth, billed[i].Surfaces
					}
					pv.Lines = append(pv.Lines, lv)
				}
				out.History = append(out.History, pv)
			}
		}
	}
	if len(out.History) == 0 {
		return nil, nil
	}
	for i := range out.History {
		p := out.History[i]
		out.NetCents += p.PaidCents
		if !p.Reversal() {
			out.Current = &out.History[i]
		}
	}
	if out.Current != nil {
		// CLP05 is the claim's patient responsibility; a payer that leaves
		// it out still says it line by line (group PR).
		out.ChargeCents, out.PatientCents = out.Current.ChargeCents, out.Current.PatientCents
		if out.PatientCents == 0 {
			out.PatientCents = reports.PatientShare(out.Current.Adjustments)
			for _, l := range out.Current.Lines {
				out.PatientCents += l.PatientCents()
			}
		}
		out.AdjustedCents = out.ChargeCents - out.Current.PaidCents - out.PatientCents
	}
	return &out, nil
}

// readRemittances reads the 835 sets of a stored document, streaming (at
// most maxRemitBytes); partial reports a document cut short or unreadable
// past its first payments.
func (c *Console) readRemittances(ctx context.Context, key string, keep func(string) bool, maxClaims int) ([]reports.Remittance, bool, error) {
	rc, err := c.openStored(ctx, key)
	if rc == nil || err != nil {
		return nil, false, err
	}
	defer rc.Close()
	lr := &io.LimitedReader{R: rc, N: maxRemitBytes}
	sets, err := reports.ReadRemittances(lr, keep, maxClaims)
	if err != nil {
		// A document that is not X12 (or is cut) shows what could be read.
		return sets, true, nil
	}
	return sets, lr.N <= 0, nil
}
