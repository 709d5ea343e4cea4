package auth

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// Principal is who a request acts for: an account, through one key, in one
// mode. Every handler scopes what it reads and writes by AccountID and
// behaves by Mode (test keys only reach the mock payers).
type Principal struct {
	AccountID string
	KeyID     string
	Mode      string // ModeTest or ModeProduction
}

// IsTest reports whether the principal uses a test key.
func (p Principal) IsTest() bool { return p.Mode == ModeTest }

// Authenticator checks keys against the store.
type Authenticator struct {
	Keys store.APIKeys
}

// Authenticate resolves an Authorization header value to a Principal.
// Errors are ErrMissingKey, ErrMalformedKey, ErrUnknownKey, ErrRevokedKey,
// or a store failure (anything else).
func (a Authenticator) Authenticate(ctx context.Context, header string) (Principal, error) {
	key, err := KeyFromHeader(header)
	if err != nil {
		return Principal{}, err
	}
	id, mode, err := ParseKey(key)
	if err != nil {
		return Principal{}, err
	}
	rec, err := a.Keys.GetAPIKey(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return Principal{}, ErrUnknownKey
	}
	if err != nil {
		return Principal{}, fmt.Errorf("auth: look up key: %w", err)
	}
	if subtle.ConstantTimeCompare([]byte(HashKey(key)), []byte(rec.Hash)) != 1 || rec.Mode != mode {
		return Principal{}, ErrUnknownKey
	}
	if rec.Revoked() {
		return Principal{}, ErrRevokedKey
	}
	return Principal{AccountID: rec.AccountID, KeyID: rec.ID, Mode: rec.Mode}, nil
}

// CreateKey issues a key for the named account, creating the account if it
// does not exist yet. It returns the plaintext key, which is shown once and
// never stored, and the stored record.
func CreateKey(ctx context.Context, s store.Store, accountName, mode, label string, now time.Time) (string, store.APIKey, error) {
	if accountName == "" {
		return "", store.APIKey{}, errors.New("auth: account name is empty")
	}
	gen, err := GenerateKey(mode)
	if err != nil {
		return "", store.APIKey{}, err
	}
	rec := store.APIKey{ID: gen.ID, Mode: mode, Name: label, Hash: gen.Hash, CreatedAt: now}
	err = s.InTx(ctx, func(tx store.Queries) error {
		acct, err := tx.GetAccountByName(ctx, accountName)
		if errors.Is(err, store.ErrNotFound) {
			acct = store.Account{ID: store.NewID(), Name: accountName, CreatedAt: now}
			err = tx.CreateAccount(ctx, acct)
		}
		if err != nil {
			return err
		}
		rec.AccountID = acct.ID
		return tx.CreateAPIKey(ctx, rec)
	})
	if err != nil {
		return "", store.APIKey{}, fmt.Errorf("auth: create key: %w", err)
	}
	return gen.Plaintext, rec, nil
}
