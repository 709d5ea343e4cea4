package partners

import (
	"context"
	"fmt"
	"strings"

	"github.com/clearhouse/clearhouse/internal/store"
)

// Record kinds, as Change and problems name them.
const (
	KindProfile     = "profile"
	KindConnection  = "connection"
	KindPartnership = "partnership"
	KindSetting     = "transaction setting"
)

// Expectation makes Apply check, in its transaction, that a record exists
// (an update) or does not (a create): store.ErrNotFound or a
// *ConflictError otherwise.
type Expectation struct {
	Kind, ID string
	Exists   bool
}

// ConflictError is a change the current records do not allow: the id is
// taken, or other records still use the one to delete.
type ConflictError struct{ Message string }

func (e *ConflictError) Error() string { return e.Message }

func (w *world) has(kind, id string) bool {
	var ok bool
	switch kind {
	case KindProfile:
		_, ok = w.profiles[id]
	case KindConnection:
		_, ok = w.connections[id]
	case KindPartnership:
		_, ok = w.partnerships[id]
	case KindSetting:
		_, ok = w.settings[id]
	}
	return ok
}

func (e Expectation) check(w *world) error {
	switch has := w.has(e.Kind, e.ID); {
	case e.Exists && !has:
		return store.ErrNotFound
	case !e.Exists && has:
		return &ConflictError{Message: fmt.Sprintf("%s %q already exists in %s mode; update it with PUT, or choose another id", e.Kind, e.ID, w.mode)}
	}
	return nil
}

// Delete removes one record, refusing while other records use it.
func Delete(ctx context.Context, st store.Store, accountID, mode, kind, id string) error {
	return st.InTx(ctx, func(tx store.Queries) error {
		w, err := loadWorld(ctx, tx, accountID, mode)
		if err != nil {
			return err
		}
		if !w.has(kind, id) {
			return store.ErrNotFound
		}
		if users := w.usersOf(kind, id); len(users) > 0 {
			return &ConflictError{Message: fmt.Sprintf("%s %q is used by %s; change or delete those first", kind, id, strings.Join(users, ", "))}
		}
		switch kind {
		case KindProfile:
			return tx.DeleteProfile(ctx, accountID, mode, id)
		case KindConnection:
			return tx.DeleteConnection(ctx, accountID, mode, id)
		case KindPartnership:
			// A partnership's settings go with it.
			for _, sid := range sortedKeys(w.settings) {
				if w.settings[sid].PartnershipID == id {
					if err := tx.DeleteTransactionSetting(ctx, accountID, mode, sid); err != nil {
						return err
					}
				}
			}
			return tx.DeletePartnership(ctx, accountID, mode, id)
		case KindSetting:
			return tx.DeleteTransactionSetting(ctx, accountID, mode, id)
		}
		return fmt.Errorf("partners: unknown kind %q", kind)
	})
}

// usersOf names the records that refer to a record.
func (w *world) usersOf(kind, id string) []string {
	var users []string
	switch kind {
	case KindProfile:
		for _, pid := range sortedKeys(w.partnerships) {
			if p := w.partnerships[pid]; p.LocalProfileID == id || p.PartnerProfileID == id {
				users = append(users, partnershipEntry(pid))
			}
		}
	case KindConnection:
		for _, pid := range sortedKeys(w.partnerships) {
			if w.partnerships[pid].ConnectionID == id {
				users = append(users, partnershipEntry(pid))
			}
		}
		for _, sid := range sortedKeys(w.settings) {
			if w.settings[sid].ConnectionID == id {
				users = append(users, fmt.Sprintf("transaction setting %q", sid))
			}
		}
	}
	return users
}
