package web

import (
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/services"
)

// Every published mock request must survive the trip through the form:
// picker → inputs → posted values → request, with nothing lost or added
// (the control number is not a form input; the service makes its own).
func TestEveryMockRequestFillsTheForm(t *testing.T) {
	for _, m := range services.MockExamples() {
		t.Run(m.Name, func(t *testing.T) {
			want := m.Request
			want.ControlNumber = ""
			posted := url.Values{}
			for name, v := range formFromMock(m).Values {
				posted.Set(name, v)
			}
			got := formFromValues(posted).request()
			if got.Encounter != nil && len(got.Encounter.ServiceTypeCodes) == 0 && got.Encounter.ProcedureCode == "" {
				got.Encounter = nil
			}
			if d := cmp.Diff(want, *got); d != "" {
				t.Errorf("request from the form (-mock +form):\n%s", d)
			}
		})
	}
}

func TestEmptyFormSendsNothingMadeUp(t *testing.T) {
	req := emptyForm().request()
	if req.TradingPartnerServiceID != "" || req.Dependents != nil || req.Provider.OrganizationName != "" ||
		req.Subscriber.MemberID != "" || req.Encounter.ServiceTypeCodes[0] != "30" {
		t.Errorf("empty form request: %+v", req)
	}
}

// The validation rules' field paths land next to the input that holds the
// value; a path the form cannot show goes to the summary.
func TestFieldForPath(t *testing.T) {
	org, ind := emptyForm(), emptyForm()
	ind.Values["provider_kind"] = "individual"
	for _, tc := range []struct {
		form *checkForm
		path string
		want string
	}{
		{org, "/tradingPartnerServiceId", "payer"},
		{org, "/provider", "provider_org"},
		{ind, "/provider", "provider_last"},
		{org, "/provider/organizationName", "provider_org"},
		{ind, "/provider/organizationName", "provider_last"},
		{ind, "/provider/firstName", "provider_first"},
		{org, "/provider/npi", "npi"},
		{org, "/subscriber", "subscriber"},
		{org, "/subscriber/memberId", "sub_member_id"},
		{org, "/subscriber/dateOfBirth", "sub_dob"},
		{org, "/subscriber/ssn", "sub_ssn"},
		{org, "/subscriber/firstName", "sub_first"},
		{org, "/subscriber/address/state", "subscriber"},
		{org, "/dependents", "dependent"},
		{org, "/dependents/0/dateOfBirth", "dep_dob"},
		{org, "/dependents/0/lastName", "dep_last"},
		{org, "/dependents/0/individualRelationshipCode", "dep_rel"},
		{org, "/dependents/0/ssn", "dependent"},
		{org, "/encounter/serviceTypeCodes/0", "service_type"},
		{org, "/encounter/procedureCode", "procedure_code"},
		{org, "/controlNumber", ""},
	} {
		if got := tc.form.fieldForPath(tc.path); got != tc.want {
			t.Errorf("%s (%s provider) → %q, want %q", tc.path, tc.form.Values["provider_kind"], got, tc.want)
		}
	}
}

// The real rules, run on what the form sends, put every message somewhere
// visible: next to an input, on a fieldset, or in the summary.
func TestServiceMessagesReachTheForm(t *testing.T) {
	f := formFromValues(url.Values{
		"payer": {"CMS"}, "npi": {"123"}, "sub_dob": {"1990-02-30"}, "sub_member_id": {"not-an-mbi"},
		"dep_first": {"Ann"}, "dep_rel": {"07"}, "service_type": {"ZZZ"},
	})
	dir := payers.Default()
	p, _ := dir.Lookup("CMS")
	err := eligibility.Validate(f.request(), &p)
	ve, ok := err.(*eligibility.ValidationError)
	if !ok {
		t.Fatalf("Validate: %v", err)
	}
	f.addErrors(ve.Fields)
	f.summarize()
	if len(f.Summary) == 0 || len(f.Summary) > len(ve.Fields) {
		t.Errorf("summary has %d items for %d field errors", len(f.Summary), len(ve.Fields))
	}
	for _, name := range []string{"npi", "sub_dob", "sub_member_id", "dependent", "dep_rel", "service_type"} {
		if !f.Invalid(name) {
			t.Errorf("no message next to %s; summary: %+v", name, f.Summary)
		}
	}
}
