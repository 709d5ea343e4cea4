package webhooks_test

import (
	"context"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// TestCheckSecrets: the key that sealed the webhooks' secrets passes; another
// key, or none, is refused with the webhook named.
func TestCheckSecrets(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{noRun: true})
	w, _ := e.create(t, "http://127.0.0.1:9/hook", webhooks.Input{})
	ctx := context.Background()
	if err := webhooks.CheckSecrets(ctx, e.st, e.box); err != nil {
		t.Fatalf("the sealing key: %v", err)
	}
	otherKey, _ := secrets.ParseKey(secrets.NewKey())
	other, _ := secrets.New(otherKey)
	for name, box := range map[string]*secrets.Box{"another key": other, "no key": nil} {
		err := webhooks.CheckSecrets(ctx, e.st, box)
		if err == nil || !strings.Contains(err.Error(), "webhook "+w.ID) || !strings.Contains(err.Error(), "--secrets-key") {
			t.Errorf("%s: %v, want a refusal naming webhook %s and --secrets-key", name, err, w.ID)
		}
	}
}
