package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/eligibility/summary"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/practice"
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
	// The practice's default billing provider fills the provider, and a
	// dental one asks about dental care (35) instead of health benefits (30).
	if p, ok, err := c.practiceService().Default(r.Context(), scopeOf(v), practice.Billing); err != nil {
		c.fail(w, r, err)
		return
	} else if ok {
		form.Values["provider_org"], form.Values["npi"] = p.OrganizationName, p.NPI
		if p.Dental() {
			form.Values["service_type"] = "35"
		}
	}
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
	if p, ok := c.cfg.Payers.Lookup(form.Values["payer"]); ok {
		form.Values["payer"] = payerLabel(p) // the box shows the name, not only an id
	}
	data := newCheckData{Form: form, Payers: c.payersTaking(payers.Eligibility)}
	if v.IsTest() {
		data.MockGroups = groupMocks(c.mocks)
	}
	c.renderPage(w, r, status, "check_new", page{Title: "New eligibility check", Nav: "new", Data: data})
}

func (c *Console) mock(name string) (eligibility.Example, bool) {
	for _, m := range c.mocks {
		if m.Name == name {
			return m, true
		}
	}
	return eligibility.Example{}, false
}

// groupMocks sorts the mock requests into the picker's groups by what
// they demonstrate.
func groupMocks(ms []eligibility.Example) []mockGroup {
	labels := []string{"Active coverage, subscriber", "Active coverage, dependent", "Dental", "Inactive coverage", "Medicare MBI lookup", "Payer turns the check down"}
	groups := make([]mockGroup, len(labels))
	for i, l := range labels {
		groups[i].Label = l
	}
	for _, m := range ms {
		req, enc, sub := m.Request, eligibility.Encounter{}, eligibility.Subscriber{}
		if req.Encounter != nil {
			enc = *req.Encounter
		}
		if req.Subscriber != nil {
			sub = *req.Subscriber
		}
		i := 0
		switch {
		case strings.Contains(m.Outcome, "AAA"):
			i = 5
		case req.TradingPartnerServiceID == eligibility.PayerMBILookup:
			i = 4
		case strings.Contains(m.Outcome, "inactive"):
			i = 3
		case enc.ProcedureCode != "" || (len(enc.ServiceTypeCodes) > 0 && enc.ServiceTypeCodes[0] == "35"):
			i = 2
		case len(req.Dependents) > 0:
			i = 1
		}
		patient := strings.TrimSpace(sub.FirstName + " " + sub.LastName)
		if len(req.Dependents) > 0 {
			patient = strings.TrimSpace(req.Dependents[0].FirstName+" "+req.Dependents[0].LastName) + " (dependent of " + patient + ")"
		}
		label := fmt.Sprintf("%s · %s — %s", m.PayerName, patient, m.Scenario)
		groups[i].Options = append(groups[i].Options, option{m.Name, label})
	}
	return groups
}

// runCheck runs the form's check through the eligibility service. The
// payer is resolved and the request validated here first, so a form with
// problems comes back with messages next to its fields and is never sent
// nor recorded; anything else is a stored check whose result is shown.
func (c *Console) runCheck(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	if err := r.ParseForm(); err != nil {
		c.showError(w, r, http.StatusBadRequest, "Bad request", "The form could not be read; reload the page and try again.")
		return
	}
	form := formFromValues(r.PostForm)
	form.Mock = r.PostFormValue("mock")
	payer, msg, candidates := resolvePayer(c.cfg.Payers, form.Values["payer"])
	var known *payers.Payer
	if msg != "" {
		if len(candidates) > 0 {
			names := make([]string, len(candidates))
			for i, p := range candidates {
				names[i] = payerLabel(p)
			}
			msg += " For example: " + strings.Join(names, "; ") + "."
		}
		form.addError("payer", msg)
	} else if !payer.Supports(payers.Eligibility) {
		// The directory (and GET /payers) says NOT_SUPPORTED: nothing to send.
		form.Values["payer"] = payerLabel(payer)
		form.addError("payer", payerLabel(payer)+" does not answer eligibility checks through this service. Check coverage with the payer another way (its website or phone line), or pick another payer from the list.")
	} else {
		known, form.PayerID, form.Values["payer"] = &payer, payer.ID, payerLabel(payer)
	}
	req := form.request()
	if err := eligibility.Validate(req, known); err != nil {
		var ve *eligibility.ValidationError
		if errors.As(err, &ve) {
			fields := ve.Fields
			if known == nil { // the payer's own message is already there
				fields = slices.DeleteFunc(slices.Clone(fields), func(e eligibility.FieldError) bool { return e.Path == "/tradingPartnerServiceId" })
			}
			form.addErrors(fields)
		}
	}
	if len(form.Errors) > 0 {
		c.refuseForm(w, r, form)
		return
	}
	caller := eligibility.Caller{AccountID: v.AccountID, KeyID: v.KeyID, Mode: payers.Mode(v.Mode)}
	res, err := c.cfg.Eligibility.Check(r.Context(), caller, req)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	if res.NotRecorded {
		c.showError(w, r, http.StatusServiceUnavailable, "Check not saved", "The check could not be saved, so nothing was stored. Try again in a moment.")
		return
	}
	if p := res.Problem; p != nil {
		switch {
		case p.Code == eligibility.CodeValidation:
			form.addErrors(p.FieldList)
			c.refuseForm(w, r, form)
			return
		case p.Code == eligibility.CodeForbidden && v.IsTest():
			// Not a published mock request: nothing reached a payer.
			form.addError("mock", "Test mode answers only the published mock requests, and this is not one of them. Pick a mock request in \"Fill with a mock request\" above this form, then run the check.")
			c.refuseForm(w, r, form)
			return
		}
	}
	// The service stored the check; read it back so the page shows exactly
	// what history will show.
	stored, err := c.tenant(v).EligibilityCheck(r.Context(), res.ID)
	if errors.Is(err, store.ErrNotFound) {
		err = fmt.Errorf("check %s was not recorded", res.ID)
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	view := summary.New(stored, c.cfg.Payers)
	if isHTMX(r) {
		view.Focus = true // move the screen reader to the new result
		c.render(w, r, http.StatusOK, "check_new", "result_swap", view)
		return
	}
	http.Redirect(w, r, "/checks/"+res.ID, http.StatusSeeOther)
}

// refuseForm shows the form again with its messages (422).
func (c *Console) refuseForm(w http.ResponseWriter, r *http.Request, form *checkForm) {
	form.summarize()
	form.CSRF = viewerFrom(r.Context()).CSRF
	if isHTMX(r) {
		w.Header().Set("HX-Retarget", "#check-form")
		w.Header().Set("HX-Reswap", "outerHTML")
		// 200, not 422: htmx swaps either, but a 4xx is logged as an error in
		// the browser's console, and a form with a typo is not one.
		c.render(w, r, http.StatusOK, "check_new", "check_form_swap", newCheckData{Form: form, Payers: c.payersTaking(payers.Eligibility)})
		return
	}
	c.showForm(w, r, http.StatusUnprocessableEntity, form)
}
