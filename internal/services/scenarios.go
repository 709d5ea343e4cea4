package services

import (
	"context"
	"crypto/sha256"
	"errors"
	"sync"

	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/mockpayer/scenario"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store"
)

// storeScenarios is where the in-process mock payer finds the scenarios
// of an exchange's caller: the account's test-mode file. Production
// callers and calls without a caller get none. Parsed files are kept by
// content, so an unchanged file is parsed once.
func storeScenarios(st store.Queries) mockpayer.ScenarioSource {
	var mu sync.Mutex
	parsed := map[[32]byte]*scenario.Set{}
	return func(ctx context.Context) (*scenario.Set, error) {
		c, ok := payers.CallerFrom(ctx)
		if !ok || c.AccountID == "" || c.Mode != payers.ModeTest {
			return nil, nil
		}
		f, err := st.GetMockScenarios(ctx, c.AccountID, string(c.Mode))
		if errors.Is(err, store.ErrNotFound) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(f.Body)
		mu.Lock()
		defer mu.Unlock()
		if set, ok := parsed[sum]; ok {
			return set, nil
		}
		set, err := scenario.Parse(f.Body)
		if err != nil {
			return nil, err // validated on upload: only a schema change gets here
		}
		if len(parsed) >= 256 {
			clear(parsed)
		}
		parsed[sum] = set
		return set, nil
	}
}
