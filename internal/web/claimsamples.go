package web

import (
	"crypto/rand"
	"math/big"
	"net/url"
	"time"
)

// claimSample is a test-mode claim one click away, like the eligibility
// mocks: each follows one of the mock payer's published rules (README
// "Mock claims").
type claimSample struct {
	Name, Label string
	edit        func(url.Values)
}

// MockClaims are the mock payer's claim rules the test-mode samples follow
// (the composition root gives internal/mockpayer's). A zero field leaves
// its sample out.
type MockClaims struct {
	// RejectMemberID is the member whose claims the payer rejects.
	RejectMemberID string
	// UnreachablePayerID and UnreachablePayerName are the payer whose
	// connection always fails.
	UnreachablePayerID, UnreachablePayerName string
	// PartialMemberID, DeniedMemberID and ReversalMemberID are members
	// whose accepted claims the payer's 835 pays in part, denies, or pays,
	// reverses and pays again.
	PartialMemberID, DeniedMemberID, ReversalMemberID string
}

// samples are the claim samples the rules allow: the accepted one always.
func (m MockClaims) samples() []claimSample {
	out := []claimSample{{"accepted", "Accepted: UnitedHealthcare Dental accepts it", func(url.Values) {}}}
	if m.RejectMemberID != "" {
		out = append(out, claimSample{"rejected", "Rejected: the payer turns down member " + m.RejectMemberID, func(v url.Values) {
			v.Set("sub_member_id", m.RejectMemberID)
		}})
	}
	for _, r := range []struct{ name, label, member string }{
		{"partial", "Paid in part: 20 % written off, a deductible left to the patient", m.PartialMemberID},
		{"denied", "Denied by the payment: nothing paid, a reason per line", m.DeniedMemberID},
		{"reversed", "Paid, reversed and paid again at 80 %", m.ReversalMemberID},
	} {
		if r.member != "" {
			member := r.member
			out = append(out, claimSample{r.name, r.label, func(v url.Values) { v.Set("sub_member_id", member) }})
		}
	}
	if m.UnreachablePayerID != "" {
		out = append(out, claimSample{"undeliverable", "Not delivered: payer " + m.UnreachablePayerID + " never answers", func(v url.Values) {
			v.Set("payer", m.UnreachablePayerName+" ("+m.UnreachablePayerID+")")
		}})
	}
	return out
}

// sampleForm fills the claim form with a sample; each fill gets a fresh
// claim number, so the payer's answers match this claim and no other.
func sampleForm(samples []claimSample, name string, now time.Time) (*claimForm, bool) {
	for _, s := range samples {
		if s.Name != name {
			continue
		}
		n, _ := rand.Int(rand.Reader, big.NewInt(1e6))
		v := url.Values{
			"payer": {"UnitedHealthcare Dental (52133)"}, "pcn": {"T" + now.Format("0102") + "-" + leftPad(n.String(), 6)},
			"sub_first": {"John"}, "sub_last": {"Doe"}, "sub_member_id": {"123412345"}, "sub_dob": {"1980-06-15"},
			"sub_gender": {"M"}, "sub_group": {"1234567890"}, "sub_address1": {"1234 Some St"}, "sub_city": {"Buckeye"},
			"sub_state": {"AZ"}, "sub_zip": {"85326"},
			"bill_org": {"Sunrise Family Dental"}, "bill_npi": {"1999999992"}, "bill_tin": {"123456789"},
			"bill_taxonomy": {"1223G0001X"}, "bill_address1": {"123 Main St"}, "bill_city": {"Denver"}, "bill_state": {"CO"},
			"bill_zip": {"802383000"}, "bill_contact": {"Billing Office"}, "bill_phone": {"3035550100"},
			"rend_first": {"Jane"}, "rend_last": {"Smith"}, "rend_npi": {"1999999992"},
			"service_date": {now.AddDate(0, 0, -1).Format("2006-01-02")}, "place": {"11"}, "filing": {"CI"}, "diagnosis": {"K029"},
			"line1_code": {"D0120"}, "line1_charge": {"65.00"},
			"line2_code": {"D2150"}, "line2_tooth": {"3"}, "line2_surfaces": {"MO"}, "line2_charge": {"180.00"},
		}
		s.edit(v)
		v.Set("sample", s.Name)
		return claimFormFrom(v), true
	}
	return nil, false
}

func leftPad(s string, n int) string {
	for len(s) < n {
		s = "0" + s
	}
	return s
}
