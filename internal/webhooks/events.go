package webhooks

import (
	"context"

	"github.com/clearhouse/clearhouse/internal/store"
)

// StoreEvents reads events from the store's events table (written by
// events.Emit). Until that table lands this source finds none.
func StoreEvents(store.Store) EventSource {
	return func(context.Context, string, string) (Event, error) { return Event{}, store.ErrNotFound }
}
