package partners

import (
	"context"

	"github.com/clearhouse/clearhouse/internal/store"
)

// Export is the account's records of the mode as a Document: applying it
// changes nothing. Secrets appear by name only (null values: keep).
func Export(ctx context.Context, q store.Queries, accountID, mode string) (Document, error) {
	w, err := loadWorld(ctx, q, accountID, mode)
	if err != nil {
		return Document{}, err
	}
	doc := Document{Profiles: []Profile{}, Connections: []Connection{}, Partnerships: []Partnership{}}
	for _, id := range sortedKeys(w.profiles) {
		doc.Profiles = append(doc.Profiles, ProfileOf(w.profiles[id]))
	}
	for _, id := range sortedKeys(w.connections) {
		doc.Connections = append(doc.Connections, ConnectionOf(w.connections[id]))
	}
	settings := make([]store.TransactionSetting, 0, len(w.settings))
	for _, id := range sortedKeys(w.settings) {
		settings = append(settings, w.settings[id])
	}
	for _, id := range sortedKeys(w.partnerships) {
		doc.Partnerships = append(doc.Partnerships, PartnershipOf(w.partnerships[id], settings))
	}
	return doc, nil
}
