// Package claimstest helps tests of dental claims: the test-mode trading
// partners a claim needs, in the shape of the seeded test setup.
package claimstest

import (
	"context"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// SetupMockPartners gives account (mode) a local profile ZZ/CLEARHOUSE, the
// MOCK connection "mock", and per payer a partner profile ZZ/<payer id>, a
// partnership "clearhouse_mock-<id>" with inbound 999 and 277 settings and
// an outbound 837 setting "clearhouse_mock-<id>-out-837".
func SetupMockPartners(ctx context.Context, st store.Partners, account, mode string, payerIDs ...string) error {
	now := time.Now().UTC()
	if err := st.CreateProfile(ctx, store.Profile{ID: "clearhouse", AccountID: account, Mode: mode, Type: store.ProfileLocal,
		ISAQualifier: "ZZ", ISAID: "CLEARHOUSE", ApplicationCode: "CLEARHOUSE", CreatedAt: now}); err != nil {
		return err
	}
	if err := st.CreateConnection(ctx, store.Connection{ID: "mock", AccountID: account, Mode: mode, Type: store.ConnectionMock,
		Name: "Mock payers", Settings: []byte("{}"), CreatedAt: now}); err != nil {
		return err
	}
	for _, id := range payerIDs {
		prof, ship := "mock-"+strings.ToLower(id), "clearhouse_mock-"+strings.ToLower(id)
		if err := st.CreateProfile(ctx, store.Profile{ID: prof, AccountID: account, Mode: mode, Type: store.ProfilePartner,
			ISAQualifier: "ZZ", ISAID: id, ApplicationCode: id, CreatedAt: now}); err != nil {
			return err
		}
		if err := st.CreatePartnership(ctx, store.Partnership{ID: ship, AccountID: account, Mode: mode, LocalProfileID: "clearhouse",
			PartnerProfileID: prof, ConnectionID: "mock", CreatedAt: now}); err != nil {
			return err
		}
		for _, s := range []store.TransactionSetting{
			{ID: ship + "-in-999", Direction: store.DirectionInbound, TransactionSetIdentifier: "999", GuideID: "005010X231A1"},
			{ID: ship + "-in-277", Direction: store.DirectionInbound, TransactionSetIdentifier: "277", GuideID: "005010X214"},
			{ID: ship + "-in-835", Direction: store.DirectionInbound, TransactionSetIdentifier: "835", GuideID: "005010X221A1"},
			{ID: ship + "-out-837", Direction: store.DirectionOutbound, TransactionSetIdentifier: "837", GuideID: "005010X224A2", ConnectionID: "mock"},
		} {
			s.AccountID, s.Mode, s.PartnershipID, s.CreatedAt = account, mode, ship, now
			if err := st.CreateTransactionSetting(ctx, s); err != nil {
				return err
			}
		}
	}
	return nil
}
