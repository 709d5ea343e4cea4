package api

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/claims"
	"github.com/clearhouse/clearhouse/internal/claimstatus"
	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/delivery"
	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/netguard"
	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/statusinquiry"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/tenantdir"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// Services are the finished services the routes serve.
type Services struct {
	Store   store.Store
	Clock   clock.Clock
	Logger  *slog.Logger
	Metrics *prometheus.Registry
	// Secrets seals and opens stored secrets (connection credentials);
	// nil when no --secrets-key is set, and then storing one is refused.
	Secrets *secrets.Box
	// Directories is the operator's directory root DIRECTORY connections'
	// folders live under; nil refuses DIRECTORY connections.
	Directories     *tenantdir.Root
	ConnectionGuard *netguard.Guard
	Core            *core.Service
	Eligibility     *eligibility.Service
	// EligibilityPDF renders a check's one-page printable summary; nil:
	// the PDF endpoint answers 404.
	EligibilityPDF func(store.EligibilityCheck) ([]byte, error)
	Claims         *claims.Service
	StatusInquiry  *statusinquiry.Service
	Webhooks       *webhooks.Service
}

// services fills env's defaults and builds what it lacks.
func (env Env) services() (Services, error) {
	if env.Store == nil {
		return Services{}, fmt.Errorf("api: Env.Store is required")
	}
	if env.Clock == nil {
		env.Clock = clock.System{}
	}
	if env.Logger == nil {
		env.Logger = slog.Default()
	}
	if env.Jobs == nil {
		env.Jobs = jobs.New(env.Store, jobs.Options{Clock: env.Clock, Logger: env.Logger})
	}
	if env.Metrics == nil {
		env.Metrics = prometheus.NewRegistry()
	}
	var err error
	if env.Blob == nil { // tests: file contents in memory
		if env.Blob, err = blob.Open(context.Background(), "mem://", ""); err != nil {
			return Services{}, err
		}
	}
	if env.Core == nil {
		if env.Core, err = core.New(core.Options{Store: env.Store, Blob: env.Blob, Jobs: env.Jobs, Clock: env.Clock, Logger: env.Logger}); err != nil {
			return Services{}, err
		}
	}
	svc := Services{Store: env.Store, Clock: env.Clock, Logger: env.Logger, Metrics: env.Metrics, Secrets: env.Secrets, Directories: env.Directories, ConnectionGuard: env.ConnectionGuard,
		Core: env.Core, Eligibility: env.Eligibility, EligibilityPDF: env.EligibilityPDF, Webhooks: env.Webhooks}
	if svc.Eligibility == nil {
		if svc.Eligibility, err = NewEligibilityService(env, nil, nil, 0); err != nil {
			return Services{}, err
		}
	}
	if svc.Webhooks == nil {
		if svc.Webhooks, err = webhooks.New(webhooks.Config{Store: env.Store, Queue: env.Jobs, Events: webhooks.StoreEvents(env.Store),
			Secrets: env.Secrets, Clock: env.Clock, Logger: env.Logger}); err != nil {
			return Services{}, err
		}
	}
	if svc.Claims, err = claimsService(env); err != nil {
		return Services{}, err
	}
	// Claim status goes through the eligibility service's router: the same
	// connections reach the same payers.
	if svc.StatusInquiry, err = statusinquiry.New(statusinquiry.Config{Router: svc.Eligibility.Router(),
		Numbers:  eligibility.StoreControlNumbers(env.Store, eligibility.DefaultSenderID, 0),
		SenderID: eligibility.DefaultSenderID, Now: env.Clock.Now, Logger: env.Logger}); err != nil {
		return Services{}, err
	}
	return svc, nil
}

// claimsService builds outbound delivery (with the MOCK connection), hooks
// it to the core's outbound files, and builds the claims service on it.
func claimsService(env Env) (*claims.Service, error) {
	mock, err := delivery.NewMock(delivery.MockOptions{Payer: mockpayer.New(mockpayer.WithClock(env.Clock.Now),
		mockpayer.WithScenarios(storeScenarios(env.Store)), mockpayer.WithLogger(env.Logger)), Core: env.Core,
		Store: env.Store, Blob: env.Blob, Jobs: env.Jobs, Logger: env.Logger, Now: env.Clock.Now})
	if err != nil {
		return nil, err
	}
	transports := map[string]delivery.Transport{store.ConnectionMock: mock}
	for typ, t := range env.Transports {
		transports[typ] = t
	}
	d, err := delivery.New(delivery.Options{Store: env.Store, Blob: env.Blob, Jobs: env.Jobs, Clock: env.Clock, Logger: env.Logger,
		Attempts: env.DeliveryAttempts, RetryInterval: env.DeliveryRetryInterval, Transports: transports})
	if err != nil {
		return nil, err
	}
	env.Core.OnOutbound(d.Enqueue)
	env.Core.OnInbound((&claimstatus.Linker{Blob: env.Blob}).Link) // the claims a 999, 277CA or 835 answers
	svc, err := claims.NewService(claims.Options{Store: env.Store, Blob: env.Blob, Clock: env.Clock, Logger: env.Logger,
		Outbound: d.Enqueue, TestOnlyPayers: []string{mockpayer.UnreachablePayerID}})
	if err != nil {
		return nil, err
	}
	if env.OnClaims != nil {
		env.OnClaims(svc)
	}
	return svc, nil
}
