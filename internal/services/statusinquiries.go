package services

import (
	"context"
	"errors"
	"time"

	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/statusinquiry"
	"github.com/clearhouse/clearhouse/internal/store"
)

// maxClaimsPerStatusAnswer bounds the claims of one 277 kept on
// timelines (a 276 asks about one claim; a payer may answer with a few).
const maxClaimsPerStatusAnswer = 20

// recordStatusInquiries keeps a payer's real-time answer (277) on the
// timelines of the claims it is about: for each claim of the answer, the
// newest claim of the caller's own account and mode with the patient
// control number it names (or, when it names none, the one the request
// named), sent to the same payer (ids and aliases resolved through the
// directory). Only the caller's scope is searched: a 276 naming another
// tenant's claim number finds nothing, and nothing is recorded.
func recordStatusInquiries(st store.Store, dir *payers.Directory, now func() time.Time) func(context.Context, payers.Caller, string, string, []statusinquiry.Claim) error {
	return func(ctx context.Context, caller payers.Caller, payerID, askedPCN string, claims []statusinquiry.Claim) error {
		t := store.ForTenant(st, store.Scope{AccountID: caller.AccountID, Mode: string(caller.Mode)})
		var errs []error
		for i, c := range claims {
			if i == maxClaimsPerStatusAnswer {
				break
			}
			cs := c.ClaimStatus
			pcn := cs.PatientAccountNumber
			if pcn == "" && len(claims) == 1 {
				pcn = askedPCN
			}
			if pcn == "" {
				continue
			}
			claim, ok, err := newestClaim(ctx, t, dir, payerID, pcn)
			if err != nil || !ok {
				errs = append(errs, err)
				continue
			}
			errs = append(errs, st.RecordClaimStatusInquiry(ctx, store.ClaimStatusInquiry{AccountID: caller.AccountID,
				Mode: string(caller.Mode), ID: store.NewID(), ClaimID: claim, PayerID: payerID, CategoryCode: cs.StatusCategoryCode,
				StatusCode: cs.StatusCode, EntityCode: cs.EntityCode, EffectiveDate: cs.EffectiveDate,
				SubmittedAmount: cs.SubmittedAmount, AmountPaid: cs.AmountPaid, PaidDate: cs.PaidDate, CheckNumber: cs.CheckNumber,
				PayerClaimNumber: cs.TradingPartnerClaimNumber, CreatedAt: now().UTC()}))
		}
		return errors.Join(errs...)
	}
}

// newestClaim is the tenant's newest claim with the patient control
// number, to the payer.
func newestClaim(ctx context.Context, t store.Tenant, dir *payers.Directory, payerID, pcn string) (string, bool, error) {
	rows, _, err := t.DentalClaims(ctx, store.DentalClaimFilter{PatientControlNumber: pcn, Limit: 20})
	if err != nil {
		return "", false, err
	}
	for _, r := range rows {
		if id, ok := dir.Resolve(r.PayerID); ok && id == payerID || r.PayerID == payerID {
			return r.ID, true, nil
		}
	}
	return "", false, nil
}
