package storetest

import (
	"slices"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// testEligibilitySearch: the history is searched by what a front desk
// knows (patient name, member id, date of birth, date of service), by
// several payer ids at once, and can leave out checks that never reached a
// payer.
func testEligibilitySearch(t *testing.T, s store.Store) {
	a, k := Seed(t, s, store.ModeTest)
	other, otherKey := Seed(t, s, store.ModeTest)
	type row struct {
		name, member, dob, dos, payer string
		http                          int
		x12                           bool
	}
	rows := map[string]row{
		"jane":    {"Jane Doe", "uhc123456", "19710101", "20260314", "87726", 200, true},
		"jordan":  {"JORDAN DOE", "AETNA9WCSU", "20010714", "20260315", "60054", 200, true},
		"percent": {"AL 100% SMITH", "X_1", "19800101", "20260314", "62308", 200, true},
		"invalid": {"JANE ROE", "BAD", "19710101", "20260314", "87726", 400, false},
		"refused": {"JANE ZOE", "ZZZ", "19710101", "20260314", "87726", 403, true},
	}
	ids := map[string]string{}
	i := 0
	for _, key := range []string{"jane", "jordan", "percent", "invalid", "refused"} {
		r := rows[key]
		c := newCheck(a, k, t0.Add(time.Duration(i)*time.Minute))
		i++
		c.PatientName, c.MemberID, c.PatientBirthDate, c.ServiceDate = r.name, r.member, r.dob, r.dos
		c.TradingPartnerServiceID, c.HTTPStatus = r.payer, r.http
		if !r.x12 {
			c.X12Request, c.X12Response = nil, nil
		}
		must(t, s.InsertEligibilityCheck(ctx, c))
		ids[key] = c.ID
	}
	// Another account's Jane Doe is never found.
	oc := newCheck(other, otherKey, t0)
	oc.PatientName, oc.MemberID = "JANE DOE", "UHC123456"
	must(t, s.InsertEligibilityCheck(ctx, oc))

	got, err := s.GetEligibilityCheck(ctx, a.ID, ids["jane"])
	must(t, err)
	if got.PatientName != "JANE DOE" || got.MemberID != "UHC123456" || got.PatientBirthDate != "19710101" || got.ServiceDate != "20260314" {
		t.Errorf("search keys read back as %q %q %q %q", got.PatientName, got.MemberID, got.PatientBirthDate, got.ServiceDate)
	}
	for _, tc := range []struct {
		f    store.EligibilityFilter
		want []string // newest first
	}{
		{store.EligibilityFilter{PatientName: "jane"}, []string{"refused", "invalid", "jane"}},
		{store.EligibilityFilter{PatientName: "doe"}, []string{"jordan", "jane"}},
		{store.EligibilityFilter{PatientName: "Jane Doe"}, []string{"jane"}},
		{store.EligibilityFilter{PatientName: "100%"}, []string{"percent"}},
		{store.EligibilityFilter{PatientName: "%"}, []string{"percent"}},
		{store.EligibilityFilter{PatientName: "_"}, nil},
		{store.EligibilityFilter{MemberID: "UHC123456"}, []string{"jane"}},
		{store.EligibilityFilter{MemberID: "aetna9wcsu"}, []string{"jordan"}},
		{store.EligibilityFilter{MemberID: "X_1"}, []string{"percent"}},
		{store.EligibilityFilter{MemberID: "X%1"}, nil},
		{store.EligibilityFilter{PatientBirthDate: "19710101"}, []string{"refused", "invalid", "jane"}},
		{store.EligibilityFilter{ServiceDate: "20260315"}, []string{"jordan"}},
		{store.EligibilityFilter{PatientBirthDate: "19710101", SentOnly: true}, []string{"jane"}},
		{store.EligibilityFilter{PayerIDs: []string{"60054", "62308"}}, []string{"percent", "jordan"}},
		{store.EligibilityFilter{PayerIDs: []string{"87726"}, PatientName: "doe"}, []string{"jane"}},
		{store.EligibilityFilter{SentOnly: true}, []string{"percent", "jordan", "jane"}},
	} {
		list, _, err := s.ListEligibilityChecks(ctx, a.ID, tc.f)
		must(t, err)
		var names []string
		for _, c := range list {
			for key, id := range ids {
				if id == c.ID {
					names = append(names, key)
				}
			}
		}
		if !slices.Equal(names, tc.want) {
			t.Errorf("filter %+v: %q, want %q", tc.f, names, tc.want)
		}
	}
}
