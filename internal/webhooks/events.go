package webhooks

import (
	"context"

	"github.com/clearhouse/clearhouse/internal/store"
)

// StoreEvents reads events from the store's events table (events.Emitter.Emit
// writes them).
func StoreEvents(st store.Events) EventSource {
	return func(ctx context.Context, accountID, id string) (Event, error) {
		e, err := st.GetEvent(ctx, accountID, id)
		if err != nil {
			return Event{}, err
		}
		return Event{ID: e.ID, AccountID: e.AccountID, Mode: e.Mode, DetailType: e.DetailType, Envelope: e.Envelope}, nil
	}
}
