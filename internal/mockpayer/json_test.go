package mockpayer_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
)

// TestMockAnswersAsJSON maps every mock 271 with the eligibility mapper and
// checks the JSON the API returns: test mode, where the patient lands, the
// AAA errors with their location and follow-up, and no mapper warnings.
func TestMockAnswersAsJSON(t *testing.T) {
	m := newMock()
	for _, mr := range mockpayer.Requests() {
		t.Run(mr.Name, func(t *testing.T) {
			want := expectations[mr.Name]
			res, err := eligibility.Map271(exchange(t, m, build270(t, mr.RequestJSON())))
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := json.Marshal(res)
			var got struct {
				Meta struct {
					ApplicationMode string `json:"applicationMode"`
				} `json:"meta"`
				TradingPartnerServiceID string `json:"tradingPartnerServiceId"`
				Subscriber              *struct {
					MemberID  string `json:"memberId"`
					FirstName string `json:"firstName"`
				} `json:"subscriber"`
				Dependents []struct {
					FirstName   string `json:"firstName"`
					DateOfBirth string `json:"dateOfBirth"`
				} `json:"dependents"`
				Benefits []struct {
					Code string `json:"code"`
				} `json:"benefitsInformation"`
				Errors []struct {
					Code           string `json:"code"`
					FollowupAction string `json:"followupAction"`
					Location       string `json:"location"`
				} `json:"errors"`
				Warnings []struct {
					Code string `json:"code"`
				} `json:"warnings"`
			}
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatal(err)
			}
			if got.Meta.ApplicationMode != "test" || got.TradingPartnerServiceID != want.payerID {
				t.Errorf("meta/payer = %q/%q", got.Meta.ApplicationMode, got.TradingPartnerServiceID)
			}
			if len(got.Warnings) > 0 {
				t.Errorf("mapper warnings: %s", raw)
			}
			if want.aaa != "" {
				code, _, _ := strings.Cut(want.aaa, "@")
				loop := map[string]string{"42": "Loop 2100A", "79": "Loop 2100A", "43": "Loop 2100B"}[code]
				if loop == "" {
					loop = "Loop 2100C"
				}
				follow := map[string]string{"42": "Resubmission Allowed"}[code]
				if follow == "" {
					follow = "Please Correct and Resubmit"
				}
				if len(got.Errors) != 1 || got.Errors[0].Code != code || got.Errors[0].Location != loop || got.Errors[0].FollowupAction != follow {
					t.Errorf("errors = %+v, want %s at %s, %s", got.Errors, code, loop, follow)
				}
				return
			}
			if len(got.Errors) != 0 || len(got.Benefits) == 0 {
				t.Errorf("errors %v, %d benefits", got.Errors, len(got.Benefits))
			}
			if got.Subscriber == nil || got.Subscriber.MemberID != want.memberID {
				t.Fatalf("subscriber = %+v", got.Subscriber)
			}
			wantDependents := 0
			if strings.HasSuffix(want.levels, "23") {
				wantDependents = 1
			}
			if len(got.Dependents) != wantDependents {
				t.Errorf("%d dependents, want %d", len(got.Dependents), wantDependents)
			}
			if len(mr.Dependents) > 0 && wantDependents == 0 {
				// Dependent returned as the subscriber (BCBS TX).
				if !strings.EqualFold(got.Subscriber.FirstName, mr.Dependents[0].FirstName) {
					t.Errorf("subscriber %q, want the dependent %q", got.Subscriber.FirstName, mr.Dependents[0].FirstName)
				}
			}
		})
	}
}
