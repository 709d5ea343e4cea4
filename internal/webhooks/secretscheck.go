package webhooks

import (
	"context"
	"fmt"

	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/store"
)

// CheckSecrets opens every stored webhook secret (signing secret, the one
// it replaced, outbound credentials) with box and names the first that
// does not open. serve calls it before it accepts requests: a server that
// started with the wrong key would answer 500 to GET …/secret and fail
// every delivery while looking healthy.
func CheckSecrets(ctx context.Context, st store.Store, box *secrets.Box) error {
	accounts, err := st.ListAccounts(ctx)
	if err != nil {
		return err
	}
	for _, a := range accounts {
		for _, mode := range []string{store.ModeTest, store.ModeProduction} {
			hooks, err := st.ListWebhooks(ctx, a.ID, mode)
			if err != nil {
				return err
			}
			for _, w := range hooks {
				if err := openAll(box, w); err != nil {
					return fmt.Errorf("webhook %s (account %q, %s mode): %w", w.ID, a.Name, mode, err)
				}
			}
		}
	}
	return nil
}

// openAll opens each sealed value of w.
func openAll(box *secrets.Box, w store.Webhook) error {
	for _, v := range []struct{ name, sealed, context string }{
		{"signing secret", w.Secret, secretContext(w.ID)},
		{"previous signing secret", w.PreviousSecret, previousSecretContext(w.ID)},
		{"outbound authentication", w.Auth, authContext(w.ID)},
	} {
		if v.sealed == "" {
			continue
		}
		if !box.Configured() {
			return fmt.Errorf("its %s is encrypted and no secrets key is set: start with the --secrets-key that sealed it", v.name)
		}
		if _, err := box.Open(v.sealed, v.context); err != nil {
			return fmt.Errorf("its %s cannot be opened with this secrets key (id %s): start with the --secrets-key that sealed it", v.name, box.KeyID())
		}
	}
	return nil
}
