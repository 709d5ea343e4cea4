package api

import (
	"errors"

	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/payers"
)

// NewEligibilityService builds a process's one eligibility service, for
// Env.Eligibility and the console: test keys reach the mock payers; a
// production check reaches the connection its payer's directory entry names
// in production (none ship, so until an operator registers one every
// production check answers the contract's "not configured" error). dir nil
// is payers.Default(). Interchange and group control numbers come from
// env.Store, unique across restarts and replicas; every check is recorded
// in env.Store. payerCallsPerKey is eligibility.Config.PayerCallsPerKey.
func NewEligibilityService(env Env, dir *payers.Directory, production map[string]payers.Connection, payerCallsPerKey int) (*eligibility.Service, error) {
	if env.Store == nil {
		return nil, errors.New("api: NewEligibilityService needs Env.Store")
	}
	if dir == nil {
		dir = payers.Default()
	}
	// The mock answers 276s about the caller's own test claims too, and
	// tries the caller's simulator scenarios before the published mocks.
	mockOpts := []mockpayer.Option{mockpayer.WithDirectory(dir), mockpayer.WithClaimStates(storeClaimStates(env.Store)),
		mockpayer.WithScenarios(storeScenarios(env.Store)), mockpayer.WithLogger(env.Logger)}
	if env.Clock != nil {
		mockOpts = append(mockOpts, mockpayer.WithClock(env.Clock.Now))
	}
	router, err := payers.NewRouter(dir, mockpayer.New(mockOpts...), production)
	if err != nil {
		return nil, err
	}
	return eligibility.NewService(eligibility.Config{
		Router:  router,
		Numbers: eligibility.StoreControlNumbers(env.Store, eligibility.DefaultSenderID, 0),
		History: env.Store,
		Clock:   env.Clock,
		Logger:  env.Logger,

		PayerCallsPerKey: payerCallsPerKey,
	})
}
