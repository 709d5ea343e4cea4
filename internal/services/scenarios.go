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
// callers and calls without a caller get none.
//
// What each account's file held (or that it had none) is kept with the
// scenarios version it was read under (store.MockScenariosVersion, raised
// in the transaction of every change to any file), so a check reads that
// one row instead of the file: a change made by any process on the same
// database is seen by the next check that starts after it. The version is
// read before the file, so a file read under an older version than its own
// is only read again. Parsed files are kept by content, so an unchanged
// file is parsed once.
func storeScenarios(st store.Queries) mockpayer.ScenarioSource {
	var mu sync.Mutex
	parsed := map[[32]byte]*scenario.Set{}
	type known struct {
		version int64
		set     *scenario.Set // nil: the account has no file
	}
	accounts := map[string]known{}
	return func(ctx context.Context) (*scenario.Set, error) {
		c, ok := payers.CallerFrom(ctx)
		if !ok || c.AccountID == "" || c.Mode != payers.ModeTest {
			return nil, nil
		}
		version, err := st.MockScenariosVersion(ctx)
		if err != nil {
			return nil, err
		}
		mu.Lock()
		k, ok := accounts[c.AccountID]
		mu.Unlock()
		if ok && k.version == version {
			return k.set, nil
		}
		f, err := st.GetMockScenarios(ctx, c.AccountID, string(c.Mode))
		var set *scenario.Set
		switch {
		case errors.Is(err, store.ErrNotFound):
		case err != nil:
			return nil, err
		default:
			sum := sha256.Sum256(f.Body)
			mu.Lock()
			set = parsed[sum]
			mu.Unlock()
			if set == nil {
				if set, err = scenario.Parse(f.Body); err != nil {
					return nil, err // validated on upload: only a schema change gets here
				}
			}
			mu.Lock()
			if len(parsed) >= 256 {
				clear(parsed)
			}
			parsed[sum] = set
			mu.Unlock()
		}
		mu.Lock()
		defer mu.Unlock()
		if len(accounts) >= maxScenarioAccounts {
			clear(accounts)
		}
		if k, ok := accounts[c.AccountID]; !ok || k.version <= version {
			accounts[c.AccountID] = known{version: version, set: set}
		}
		return set, nil
	}
}

// maxScenarioAccounts bounds the accounts whose files are kept; past it
// they are forgotten together and read again on their next check.
const maxScenarioAccounts = 4096
