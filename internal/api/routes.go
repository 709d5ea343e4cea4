package api

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/mockpayer/scenario"
	"github.com/clearhouse/clearhouse/internal/partners"
	"github.com/clearhouse/clearhouse/internal/practice"
	"github.com/clearhouse/clearhouse/internal/reports"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/upstream"
)

// routes is the whole API, top to bottom: every pattern and its handler.
// Routes need an API key unless Public. Adding an endpoint means adding a
// line here and its description in openapi.json (TestOpenAPIMatchesRoutes
// fails until both exist).
func (s *Server) routes() []Route {
	svc := s.svc
	eligibility := &eligibilityHandlers{svc: svc.Eligibility, checks: svc.Store}
	pdf := pdfHandler{checks: svc.Store, payers: svc.Payers}
	claims := &claimHandlers{svc: svc.Claims}
	files := fileHandlers{core: svc.Core, store: svc.Store, events: svc.Events, pace: s.upload}
	events := eventHandlers{store: svc.Store}
	hooks := webhookHandlers{svc: svc.Webhooks}
	usage := usageHandler{store: svc.Store}
	simulator := mockScenarioHandlers{store: svc.Store, clock: svc.Clock}
	status := statusHandlers{svc: svc.StatusInquiry}
	auditLog := auditHandlers{store: svc.Store}
	report := reportHandlers{store: svc.Store, blobs: svc.Core.Blob()}
	lifecycle := lifecycleHandlers{store: svc.Store, events: svc.Events}
	directory := payerHandlers{dir: svc.Payers}
	partner := partnerHandlers{store: svc.Store, box: svc.Secrets, dirs: svc.Directories, guard: svc.ConnectionGuard, clock: svc.Clock}
	inbound := settingHandlers{partnerHandlers: partner, direction: store.DirectionInbound}
	outbound := settingHandlers{partnerHandlers: partner, direction: store.DirectionOutbound}
	providers := &practice.Service{Store: svc.Store, Clock: svc.Clock}
	billing := practiceHandlers{svc: providers, role: practice.Billing}
	rendering := practiceHandlers{svc: providers, role: practice.Rendering}
	const x12 = "/2023-08-01/x12"
	const professional = "/2024-04-01/change/medicalnetwork/professionalclaims/v3"
	const institutional = "/2024-04-01/change/medicalnetwork/institutionalclaims/v1"
	const inboundSettings = x12 + "/partnerships/{partnershipId}/inbound-transactions"
	const outboundSettings = x12 + "/partnerships/{partnershipId}/outbound-transactions"
	const billingProviders = "/2024-04-01/practice/billing-providers"
	const renderingProviders = "/2024-04-01/practice/rendering-providers"

	return []Route{
		// Operations (public).
		{Pattern: "GET /healthz", Public: true, Handler: http.HandlerFunc(s.healthy)},
		{Pattern: "GET /readyz", Public: true, Handler: http.HandlerFunc(s.ready)},
		{Pattern: "GET /metrics", Public: true, Handler: promhttp.HandlerFor(s.gather, promhttp.HandlerOpts{})},
		{Pattern: "GET /openapi.json", Public: true, Handler: http.HandlerFunc(serveOpenAPI)},

		// Eligibility (api-contract.md §1): the JSON check, its raw-X12
		// sibling, the history of checks and a check's printable summary.
		{Pattern: "POST /2024-04-01/change/medicalnetwork/eligibility/v3", Handler: http.HandlerFunc(eligibility.check)},
		{Pattern: "POST /2024-04-01/change/medicalnetwork/eligibility/v3/raw-x12", Handler: http.HandlerFunc(eligibility.checkRawX12)},
		{Pattern: "GET /2024-04-01/eligibility-checks", Handler: http.HandlerFunc(eligibility.list)},
		{Pattern: "GET /2024-04-01/eligibility-checks/{id}", Handler: http.HandlerFunc(eligibility.get)},
		{Pattern: "GET /2024-04-01/eligibility-checks/{id}/pdf", Handler: http.HandlerFunc(pdf.get)},
		{Pattern: "GET /2024-04-01/usage", Handler: http.HandlerFunc(usage.get)},

		// The payer simulator's scenario file of the key's account (test
		// mode; docs/guides/payer-simulator.md).
		{Pattern: "GET /2024-04-01/mock-payer/scenarios", Handler: http.HandlerFunc(simulator.get)},
		{Pattern: "PUT /2024-04-01/mock-payer/scenarios", Handler: http.HandlerFunc(simulator.put), MaxBodyBytes: scenario.MaxFileBytes},
		{Pattern: "DELETE /2024-04-01/mock-payer/scenarios", Handler: http.HandlerFunc(simulator.delete)},

		// Dental claims (api-contract.md §4).
		{Pattern: "POST /2024-04-01/dental-claims/submission", Handler: http.HandlerFunc(claims.submit)},
		{Pattern: "POST /2024-04-01/dental-claims/raw-x12-submission", Handler: http.HandlerFunc(claims.submitRaw)},

		// The practice's saved providers (package practice; the contract has
		// none: docs/decisions.md), which the console's claim and check forms
		// pick.
		{Pattern: "GET " + billingProviders, Handler: http.HandlerFunc(billing.list)},
		{Pattern: "POST " + billingProviders, Handler: http.HandlerFunc(billing.create)},
		{Pattern: "GET " + billingProviders + "/{id}", Handler: http.HandlerFunc(billing.get)},
		{Pattern: "PUT " + billingProviders + "/{id}", Handler: http.HandlerFunc(billing.replace)},
		{Pattern: "DELETE " + billingProviders + "/{id}", Handler: http.HandlerFunc(billing.delete)},
		{Pattern: "GET " + renderingProviders, Handler: http.HandlerFunc(rendering.list)},
		{Pattern: "POST " + renderingProviders, Handler: http.HandlerFunc(rendering.create)},
		{Pattern: "GET " + renderingProviders + "/{id}", Handler: http.HandlerFunc(rendering.get)},
		{Pattern: "PUT " + renderingProviders + "/{id}", Handler: http.HandlerFunc(rendering.replace)},
		{Pattern: "DELETE " + renderingProviders + "/{id}", Handler: http.HandlerFunc(rendering.delete)},

		// Professional (837P) and institutional (837I) claims (api-contract.md
		// §4.3), in the hosted API's paths.
		{Pattern: "POST " + professional + "/submission", Handler: http.HandlerFunc(claims.submitProfessional)},
		{Pattern: "POST " + professional + "/validation", Handler: http.HandlerFunc(claims.validateProfessional)},
		{Pattern: "POST " + professional + "/raw-x12-submission", Handler: http.HandlerFunc(claims.submitProfessionalRaw)},
		{Pattern: "POST " + institutional + "/submission", Handler: http.HandlerFunc(claims.submitInstitutional)},
		{Pattern: "POST " + institutional + "/raw-x12-submission", Handler: http.HandlerFunc(claims.submitInstitutionalRaw)},

		// Files (spec §4.3, api-contract §5.3): the upload of inbound files,
		// executions and transactions with their documents, and the signed
		// download links those answer with.
		{Pattern: "POST /2023-08-01/files/inbound", Handler: http.HandlerFunc(files.upload), MaxBodyBytes: svc.Core.MaxFileBytes()},
		{Pattern: "GET /2023-08-01/executions", Handler: http.HandlerFunc(files.listExecutions)},
		{Pattern: "GET /2023-08-01/executions/{executionId}", Handler: http.HandlerFunc(files.getExecution)},
		{Pattern: "GET /2023-08-01/executions/{executionId}/input", Handler: files.executionDocument("input")},
		{Pattern: "GET /2023-08-01/executions/{executionId}/output", Handler: files.executionDocument("output")},
		{Pattern: "GET /2023-08-01/executions/{executionId}/metadata", Handler: files.executionDocument("metadata")},
		{Pattern: "GET /2023-08-01/executions/{executionId}/transactions", Handler: http.HandlerFunc(files.executionTransactions)},
		{Pattern: "GET /2023-08-01/transactions", Handler: http.HandlerFunc(files.listTransactions)},
		{Pattern: "GET /2023-08-01/transactions/{transactionId}", Handler: http.HandlerFunc(files.getTransaction)},
		{Pattern: "GET /2023-08-01/transactions/{transactionId}/input", Handler: files.transactionDocument("input")},
		{Pattern: "GET /2023-08-01/transactions/{transactionId}/output", Handler: files.transactionDocument("output")},
		{Pattern: "GET /2023-08-01/transactions/{transactionId}/fragments/{fragmentIndex}/output", Handler: http.HandlerFunc(files.fragmentDocument)},
		{Pattern: "GET /2023-08-01/transactions/{transactionId}/edi-platform/fragments/{fragmentIndex}/output", Handler: http.HandlerFunc(files.fragmentDocument)},
		{Pattern: "GET /2023-08-01/polling/transactions", Handler: http.HandlerFunc(files.pollTransactions)},
		// A CLEARINGHOUSE_API upstream's webhook events (the token names the
		// connection; the event's signature is checked with its secret).
		{Pattern: "POST " + upstream.WebhookPath + "{token}", Public: true, Handler: http.HandlerFunc(upstreamWebhookHandler{hook: svc.UpstreamWebhook}.receive)},
		{Pattern: "GET " + core.DownloadsPath + "{token}", Public: true, Handler: http.HandlerFunc(files.download)},

		// Real-time claim status (276/277), through the eligibility router.
		{Pattern: "POST /2024-04-01/change/medicalnetwork/claimstatus/v2", Handler: http.HandlerFunc(status.check)},
		{Pattern: "POST /2024-04-01/change/medicalnetwork/claimstatus/v2/raw-x12", Handler: http.HandlerFunc(status.checkRaw)},

		// Reports (api-contract §4.2): stored 835 and 277 answers as the
		// contract's report JSON, and an 835 as an ERA PDF.
		{Pattern: "GET /2024-04-01/change/medicalnetwork/reports/v2/{transactionId}/835", Handler: report.report("835", reports.Convert835)},
		{Pattern: "GET /2024-04-01/change/medicalnetwork/reports/v2/{transactionId}/277", Handler: report.report("277", reports.Convert277)},
		{Pattern: "GET /2024-04-01/electronic-remittance-advice/{transactionId}/pdf", Handler: http.HandlerFunc(report.eraPDF)},

		// The claims lifecycle (the hosted Claims API, 2025-03-07): every
		// claim with its status and timeline; and, ours, the claims of
		// inbound 277CAs and 835s that name no claim.
		{Pattern: "GET /2025-03-07/claims", Handler: http.HandlerFunc(lifecycle.list)},
		{Pattern: "GET /2025-03-07/claims/{id}", Handler: http.HandlerFunc(lifecycle.get)},
		{Pattern: "GET /2025-03-07/claims/{id}/timeline", Handler: http.HandlerFunc(lifecycle.timeline)},
		{Pattern: "GET /2025-03-07/unmatched-claim-reports", Handler: http.HandlerFunc(lifecycle.unmatched)},

		// The payer directory (the hosted Payers API): the operator's
		// directory, the same for every account.
		{Pattern: "GET /2024-04-01/payers", Handler: http.HandlerFunc(directory.list)},
		{Pattern: "GET /2024-04-01/payers/search", Handler: http.HandlerFunc(directory.search)},
		{Pattern: "GET /2024-04-01/payers/csv", Handler: http.HandlerFunc(directory.csv)},
		{Pattern: "GET /2024-04-01/payer/{stediId}", Handler: http.HandlerFunc(directory.get)},

		// The access audit (package audit; what each route records: audit.go).
		{Pattern: auditEventsPattern, Handler: http.HandlerFunc(auditLog.list)},

		// Events, and webhooks with their attempt log and the re-emit of a
		// stored event (spec §3, the console's Retry button).
		{Pattern: "GET /2023-08-01/events", Handler: http.HandlerFunc(events.list)},
		{Pattern: "GET /2023-08-01/events/{eventId}", Handler: http.HandlerFunc(events.get)},
		{Pattern: "GET /2023-08-01/events/{eventId}/deliveries", Handler: http.HandlerFunc(hooks.eventDeliveries)},
		{Pattern: "POST /2023-08-01/events/{eventId}/retry", Handler: http.HandlerFunc(hooks.reemit)},
		{Pattern: "POST /2023-08-01/webhooks", Handler: http.HandlerFunc(hooks.create)},
		{Pattern: "GET /2023-08-01/webhooks", Handler: http.HandlerFunc(hooks.list)},
		{Pattern: "GET /2023-08-01/webhooks/{id}", Handler: http.HandlerFunc(hooks.get)},
		{Pattern: "PATCH /2023-08-01/webhooks/{id}", Handler: http.HandlerFunc(hooks.update)},
		{Pattern: "DELETE /2023-08-01/webhooks/{id}", Handler: http.HandlerFunc(hooks.delete)},
		{Pattern: "GET /2023-08-01/webhooks/{id}/secret", Handler: http.HandlerFunc(hooks.secret)},
		{Pattern: "POST /2023-08-01/webhooks/{id}/secret/rotate", Handler: http.HandlerFunc(hooks.rotate)},
		{Pattern: "GET /2023-08-01/webhooks/{id}/deliveries", Handler: http.HandlerFunc(hooks.webhookDeliveries)},
		{Pattern: "POST /2023-08-01/webhooks/{id}/test", Handler: http.HandlerFunc(hooks.sendTest)},

		// Trading partners under /2023-08-01/x12, named as the hosted
		// Partners API names them; every record belongs to the key's
		// account and mode.
		{Pattern: "GET " + x12 + "/profiles", Handler: http.HandlerFunc(partner.listProfiles)},
		{Pattern: "POST " + x12 + "/profiles", Handler: http.HandlerFunc(partner.createProfile)},
		{Pattern: "GET " + x12 + "/profiles/{profileId}", Handler: http.HandlerFunc(partner.getProfile)},
		{Pattern: "PUT " + x12 + "/profiles/{profileId}", Handler: http.HandlerFunc(partner.updateProfile)},
		{Pattern: "DELETE " + x12 + "/profiles/{profileId}", Handler: partner.delete(partners.KindProfile, "profileId")},
		{Pattern: "GET " + x12 + "/connections", Handler: http.HandlerFunc(partner.listConnections)},
		{Pattern: "POST " + x12 + "/connections", Handler: http.HandlerFunc(partner.createConnection)},
		{Pattern: "GET " + x12 + "/connections/{connectionId}", Handler: http.HandlerFunc(partner.getConnection)},
		{Pattern: "PUT " + x12 + "/connections/{connectionId}", Handler: http.HandlerFunc(partner.updateConnection)},
		{Pattern: "DELETE " + x12 + "/connections/{connectionId}", Handler: partner.delete(partners.KindConnection, "connectionId")},
		{Pattern: "GET " + x12 + "/partnerships", Handler: http.HandlerFunc(partner.listPartnerships)},
		{Pattern: "POST " + x12 + "/partnerships", Handler: http.HandlerFunc(partner.createPartnership)},
		{Pattern: "GET " + x12 + "/partnerships/{partnershipId}", Handler: http.HandlerFunc(partner.getPartnership)},
		{Pattern: "PUT " + x12 + "/partnerships/{partnershipId}", Handler: http.HandlerFunc(partner.updatePartnership)},
		{Pattern: "DELETE " + x12 + "/partnerships/{partnershipId}", Handler: partner.delete(partners.KindPartnership, "partnershipId")},
		{Pattern: "GET " + inboundSettings, Handler: http.HandlerFunc(inbound.list)},
		{Pattern: "POST " + inboundSettings, Handler: http.HandlerFunc(inbound.create)},
		{Pattern: "GET " + inboundSettings + "/{transactionSettingId}", Handler: http.HandlerFunc(inbound.get)},
		{Pattern: "PUT " + inboundSettings + "/{transactionSettingId}", Handler: http.HandlerFunc(inbound.update)},
		{Pattern: "DELETE " + inboundSettings + "/{transactionSettingId}", Handler: http.HandlerFunc(inbound.delete)},
		{Pattern: "GET " + outboundSettings, Handler: http.HandlerFunc(outbound.list)},
		{Pattern: "POST " + outboundSettings, Handler: http.HandlerFunc(outbound.create)},
		{Pattern: "GET " + outboundSettings + "/{transactionSettingId}", Handler: http.HandlerFunc(outbound.get)},
		{Pattern: "PUT " + outboundSettings + "/{transactionSettingId}", Handler: http.HandlerFunc(outbound.update)},
		{Pattern: "DELETE " + outboundSettings + "/{transactionSettingId}", Handler: http.HandlerFunc(outbound.delete)},
	}
}
