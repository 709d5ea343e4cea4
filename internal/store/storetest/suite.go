package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// Run runs the conformance suite against stores made by open. Each subtest
// gets its own fresh store (its own SQLite file, its own PostgreSQL schema),
// so the subtests run in parallel.
func Run(t *testing.T, open Opener) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"Accounts", testAccounts},
		{"APIKeys", testAPIKeys},
		{"EligibilityRoundTrip", testEligibilityRoundTrip},
		{"EligibilityAccountIsolation", testEligibilityIsolation},
		{"EligibilityListFiltersAndPages", testEligibilityList},
		{"EligibilityListByMode", testEligibilityListByMode},
		{"EligibilitySearch", testEligibilitySearch},
		{"EligibilityPayload", testEligibilityPayload},
		{"EligibilityConcurrentInserts", testEligibilityConcurrentInserts},
		{"UsageMetering", testUsage},
		{"UsageFromChecks", testUsageFromChecks},
		{"UsageKeptWhenAnOlderBuildDeletes", testUsageKeptWhenAnOlderBuildDeletes},
		{"TxRollback", testTxRollback},
		{"ControlNumbersConcurrent", testControlNumbersConcurrent},
		{"ControlNumbersWrap", testControlNumbersWrap},
		{"JobLifecycle", testJobLifecycle},
		{"JobRetrySchedule", testJobRetrySchedule},
		{"JobLeaseExpiry", testJobLeaseExpiry},
		{"JobLeaseExpiryOnLastAttempt", testJobLeaseExpiryLastAttempt},
		{"JobClaimAvailableOnly", testJobClaimAvailableOnly},
		{"JobManualRetry", testJobManualRetry},
		{"JobKindsFilter", testJobKinds},
		{"JobExcludeAccounts", testJobExcludeAccounts},
		{"JobEnqueueInTx", testJobEnqueueInTx},
		{"JobConcurrentClaimsExactlyOnce", testJobConcurrentClaims},
		{"EventsRoundTrip", testEventsRoundTrip},
		{"EventsListFiltersAndPages", testEventsListFiltersAndPages},
		{"EventsInTx", testEventsInTx},
		{"AuditChains", testAuditChains},
		{"RetentionPurge", testRetentionPurge},
		{"RetentionPurgeBothModes", testRetentionPurgeBothModes},
		{"PartnersRoundTrip", testPartnersRoundTrip},
		{"PartnersReferences", testPartnersReferences},
		{"PartnersIsolation", testPartnersIsolation},
		{"FindPartnershipByInterchange", testFindPartnershipByInterchange},
		{"FindTransactionSetting", testFindTransactionSetting},
		{"PartnershipControlNumbers", testPartnershipControlNumbers},
		{"WriteFailures", testWriteFailures},
		{"IdempotencyLifecycle", testIdempotencyLifecycle},
		{"IdempotencyConcurrentStart", testIdempotencyConcurrentStart},
		{"DentalClaims", testDentalClaims},
		{"ClaimStatus", testClaimStatus},
		{"ClaimLifecycle", testClaimLifecycle},
		{"APIKeyLastUsed", testAPIKeyLastUsed},
		{"GroupInTx", testGroupInTx},
		{"ExecutionLifecycle", testExecutionLifecycle},
		{"ExecutionList", testExecutionList},
		{"Transactions", testTransactions},
		{"WebhooksCRUD", testWebhooksCRUD},
		{"WebhookDeliveries", testWebhookDeliveries},
		{"WebhookSlots", testWebhookSlots},
		{"WebhookDispatchConcurrent", testWebhookDispatchConcurrent},
		{"SFTPUsers", testSFTPUsers},
		{"MockScenarios", testMockScenarios},
		{"PracticeProviders", testPracticeProviders},
		{"SimulatedAnswers", testSimulatedAnswers},
		{"UpstreamCursors", testUpstreamCursors},
		{"ClaimResends", testClaimResends},
		{"UpstreamSubmissions", testUpstreamSubmissions},
		{"ClaimStatusInquiries", testClaimStatusInquiries},
		{"InlineBlobs", testInlineBlobs},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { t.Parallel(); tc.fn(t, open(t)) })
	}
}

// t0 is a fixed clock reading, truncated to what the store keeps (µs).
var t0 = time.Date(2026, 3, 14, 15, 9, 26, 535897000, time.UTC)

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func wantErr(t *testing.T, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("error = %v, want %v", err, target)
	}
}

var ctx = context.Background()
