package partners

import (
	"context"

	"github.com/clearhouse/clearhouse/internal/store"
)

// world is every partner record of one account and mode, as it is in the
// store or as it will be after a change: what references and uniqueness
// are checked against.
type world struct {
	accountID, mode string
	profiles        map[string]store.Profile
	connections     map[string]store.Connection
	partnerships    map[string]store.Partnership
	settings        map[string]store.TransactionSetting
}

// loadWorld reads every record of the account and mode.
func loadWorld(ctx context.Context, q store.Queries, accountID, mode string) (*world, error) {
	w := &world{accountID: accountID, mode: mode,
		profiles: map[string]store.Profile{}, connections: map[string]store.Connection{},
		partnerships: map[string]store.Partnership{}, settings: map[string]store.TransactionSetting{}}
	profiles, err := q.ListProfiles(ctx, accountID, mode)
	if err != nil {
		return nil, err
	}
	for _, p := range profiles {
		w.profiles[p.ID] = p
	}
	conns, err := q.ListConnections(ctx, accountID, mode)
	if err != nil {
		return nil, err
	}
	for _, c := range conns {
		w.connections[c.ID] = c
	}
	ships, err := q.ListPartnerships(ctx, accountID, mode)
	if err != nil {
		return nil, err
	}
	for _, p := range ships {
		w.partnerships[p.ID] = p
	}
	settings, err := q.ListTransactionSettings(ctx, accountID, mode, "")
	if err != nil {
		return nil, err
	}
	for _, s := range settings {
		w.settings[s.ID] = s
	}
	return w, nil
}

// settingByKey finds a partnership's setting by its natural key.
func (w *world) settingByKey(partnershipID, direction, set, guideID string) (store.TransactionSetting, bool) {
	for _, s := range w.settings {
		if s.PartnershipID == partnershipID && s.Direction == direction &&
			s.TransactionSetIdentifier == set && s.GuideID == guideID {
			return s, true
		}
	}
	return store.TransactionSetting{}, false
}
