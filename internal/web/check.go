package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store"
)

// newCheckData is the new-check page.
type newCheckData struct {
	Form       *checkForm
	Payers     []payers.Payer
	MockGroups []mockGroup // test mode only
}

// mockGroup is an <optgroup> of the mock request picker.
type mockGroup struct {
	Label   string
	Options []option
}

// newCheckPage shows an empty form, or one filled with ?mock=<name>.
func (c *Console) newCheckPage(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	form := emptyForm()
	if name := r.URL.Query().Get("mock"); name != "" && v.IsTest() {
		m, ok := c.mock(name)
		if !ok {
			c.showError(w, r, http.StatusNotFound, "Not found", "There is no mock request named "+name+".")
			return
		}
		form = formFromMock(m)
	}
	if id := r.URL.Query().Get("from"); id != "" {
		ch, ok := c.ownCheck(w, r, id)
		if !ok {
			return
		}
		var req eligibility.Request
		if json.Unmarshal(ch.RequestJSON, &req) == nil {
			form = formFromRequest(&req)
		}
	}
	c.showForm(w, r, http.StatusOK, form)
}

func (c *Console) showForm(w http.ResponseWriter, r *http.Request, status int, form *checkForm) {
	v := viewerFrom(r.Context())
	form.CSRF = v.CSRF
	data := newCheckData{Form: form, Payers: c.cfg.Payers.List()}
	if v.IsTest() {
		data.MockGroups = groupMocks(c.mocks)
	}
	c.renderPage(w, r, status, "check_new", page{Title: "New eligibility check", Nav: "new", Data: data})
}

func (c *Console) mock(name string) (mockpayer.MockRequest, bool) {
	for _, m := range c.mocks {
		if m.Name == name {
			return m, true
		}
	}
	return mockpayer.MockRequest{}, false
}

// groupMocks sorts the mock requests into the picker's groups by what
// they demonstrate.
func groupMocks(ms []mockpayer.MockRequest) []mockGroup {
	labels := []string{"Active coverage, subscriber", "Active coverage, dependent", "Dental", "Inactive coverage", "Medicare MBI lookup", "Payer rejections (AAA errors)"}
	groups := make([]mockGroup, len(labels))
	for i, l := range labels {
		groups[i].Label = l
	}
	for _, m := range ms {
		i := 0
		switch {
		case strings.Contains(m.Outcome, "AAA"):
			i = 5
		case m.TradingPartnerServiceID == eligibility.PayerMBILookup:
			i = 4
		case strings.Contains(m.Outcome, "inactive"):
			i = 3
		case m.Encounter.ProcedureCode != "" || (len(m.Encounter.ServiceTypeCodes) > 0 && m.Encounter.ServiceTypeCodes[0] == "35"):
			i = 2
		case len(m.Dependents) > 0:
			i = 1
		}
		patient := strings.TrimSpace(m.Subscriber.FirstName + " " + m.Subscriber.LastName)
		if len(m.Dependents) > 0 {
			patient = strings.TrimSpace(m.Dependents[0].FirstName+" "+m.Dependents[0].LastName) + " (dependent of " + patient + ")"
		}
		label := fmt.Sprintf("%s · %s — %s", m.PayerName, patient, m.Scenario)
		groups[i].Options = append(groups[i].Options, option{m.Name, label})
	}
	return groups
}

// runCheck runs the form's check through the eligibility service. Invalid
// input comes back as the form with the service's messages next to the
// fields; anything else is a stored check whose result is shown.
func (c *Console) runCheck(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	if err := r.ParseForm(); err != nil {
		c.showError(w, r, http.StatusBadRequest, "Bad request", "The form could not be read; reload the page and try again.")
		return
	}
	form := formFromValues(r.PostForm)
	form.Mock = r.PostFormValue("mock")
	caller := eligibility.Caller{AccountID: v.AccountID, KeyID: v.KeyID, Mode: payers.Mode(v.Mode)}
	res, err := c.cfg.Eligibility.Check(r.Context(), caller, form.request())
	if err != nil {
		c.fail(w, r, err)
		return
	}
	if res.NotRecorded {
		c.showError(w, r, http.StatusServiceUnavailable, "Check not saved", "The check could not be saved, so nothing was stored. Try again in a moment.")
		return
	}
	if res.Problem != nil && res.Problem.Code == eligibility.CodeValidation {
		form.addErrors(res.Problem.FieldList)
		form.CSRF = v.CSRF
		if isHTMX(r) {
			w.Header().Set("HX-Retarget", "#check-form")
			w.Header().Set("HX-Reswap", "outerHTML")
			c.render(w, r, http.StatusUnprocessableEntity, "check_new", "check_form_swap", newCheckData{Form: form, Payers: c.cfg.Payers.List()})
			return
		}
		c.showForm(w, r, http.StatusUnprocessableEntity, form)
		return
	}
	// The service stored the check; read it back so the page shows exactly
	// what history will show.
	stored, err := c.cfg.Store.GetEligibilityCheck(r.Context(), v.AccountID, res.ID)
	if errors.Is(err, store.ErrNotFound) {
		err = fmt.Errorf("check %s was not recorded", res.ID)
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	view := newResultView(stored, c.cfg.Payers)
	if isHTMX(r) {
		c.render(w, r, http.StatusOK, "check_new", "result_swap", view)
		return
	}
	http.Redirect(w, r, "/checks/"+res.ID, http.StatusSeeOther)
}
