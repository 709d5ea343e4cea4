package web

import (
	"crypto/rand"
	"math/big"
	"net/url"
	"strings"
	"time"
)

// claimSample is a test-mode claim one click away, like the eligibility
// mocks: each follows one of the mock payer's published rules (README
// "Mock claims").
type claimSample struct {
	Name, Label string
	edit        func(url.Values)
	kind        string // "" is dental
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
	out := []claimSample{{Name: "accepted", Label: "Accepted: UnitedHealthcare Dental accepts it", edit: func(url.Values) {}}}
	if m.RejectMemberID != "" {
		out = append(out, claimSample{Name: "rejected", Label: "Rejected: the payer turns down member " + m.RejectMemberID, edit: func(v url.Values) {
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
			out = append(out, claimSample{Name: r.name, Label: r.label, edit: func(v url.Values) { v.Set("sub_member_id", member) }})
		}
	}
	if m.UnreachablePayerID != "" {
		out = append(out, claimSample{Name: "undeliverable", Label: "Not delivered: payer " + m.UnreachablePayerID + " never answers", edit: func(v url.Values) {
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
		switch s.kind {
		case kindProfessional:
			medicalSample(v, now)
			v.Set("kind", kindProfessional)
			v.Set("payer", "UnitedHealthcare (87726)")
			v.Set("bill_taxonomy", "207Q00000X")
			for k, x := range map[string]string{"dx1": "J06.9", "dx2": "R05.9", "line1_code": "99213", "line1_ptr": "AB", "line1_units": "1",
				"line1_charge": "125.00", "line2_code": "87880", "line2_mods": "QW", "line2_ptr": "A", "line2_units": "1", "line2_charge": "35.00"} {
				v.Set(k, x)
			}
		case kindInstitutional:
			medicalSample(v, now)
			v.Set("kind", kindInstitutional)
			v.Set("payer", "UnitedHealthcare (87726)")
			v.Set("bill_org", "Mercy Community Hospital")
			v.Set("bill_taxonomy", "282N00000X")
			day := now.AddDate(0, 0, -1).Format("2006-01-02")
			for k, x := range map[string]string{"tob": "131", "from_date": day, "to_date": day, "adm_type": "3", "adm_source": "1",
				"pat_status": "01", "dx1": "R45.851", "dx2": "F32.9", "line1_rev": "0450", "line1_code": "99284", "line1_units": "1",
				"line1_charge": "500.00", "line2_rev": "0300", "line2_units": "1", "line2_charge": "80.00"} {
				v.Set(k, x)
			}
		}
		s.edit(v)
		v.Set("sample", s.Name)
		return claimFormFrom(v), true
	}
	return nil, false
}

// medicalSample clears the dental parts of a sample for a medical form.
func medicalSample(v url.Values, now time.Time) {
	for _, k := range []string{"diagnosis", "line1_code", "line1_charge", "line2_code", "line2_tooth", "line2_surfaces", "line2_charge"} {
		v.Del(k)
	}
	v.Set("filing", "CI")
}

// samplesOf are the test samples of a kind of claim form: the dental ones
// as they are; the medical ones are the same rules (accepted, rejected,
// paid in part, denied, reversed) on a UnitedHealthcare claim.
func (c *Console) samplesOf(kind string) []claimSample {
	if kind == kindDental {
		return c.samples
	}
	var out []claimSample
	for _, s := range c.samples {
		if s.Name == "undeliverable" {
			continue // the unreachable payer takes dental claims only
		}
		s.kind = kind
		s.Label = strings.Replace(s.Label, "UnitedHealthcare Dental", "UnitedHealthcare", 1)
		out = append(out, s)
	}
	return out
}

func leftPad(s string, n int) string {
	for len(s) < n {
		s = "0" + s
	}
	return s
}
