package web

import (
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/clearhouse/clearhouse/internal/claims"
	"github.com/clearhouse/clearhouse/internal/practice"
	"github.com/clearhouse/clearhouse/internal/store"
)

// The practice pages: the billing providers (the practice as it bills)
// and the treating providers an account saves, which the claim and check
// forms offer, the default preselected. The rules are the claims' own
// (package practice), said in a front desk's words.

var practicePages = []string{"practice", "practice_form"}

// practiceFuncs: dict passes several values to a partial.
var practiceFuncs = template.FuncMap{"dict": func(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		k, _ := kv[i].(string)
		m[k] = kv[i+1]
	}
	return m
}}

func (c *Console) practiceService() *practice.Service {
	return &practice.Service{Store: c.cfg.Store, Clock: c.cfg.Clock}
}

func scopeOf(v *viewer) store.Scope { return store.Scope{AccountID: v.AccountID, Mode: v.Mode} }

// providerFields are each role's inputs, in form order.
var providerFields = map[string][]fieldSpec{
	practice.Billing: {
		{Name: "org", Label: "Practice name", MaxLen: 60, Autocomp: "organization"},
		{Name: "npi", Label: "NPI", Hint: "10 digits, the practice's (type 2) NPI.", Inputmode: "numeric", MaxLen: 10},
		{Name: "tin", Label: "Tax ID (EIN)", Hint: "9 digits.", Inputmode: "numeric", MaxLen: 10},
		{Name: "taxonomy", Label: "Taxonomy code", Hint: "10 characters, e.g. 1223G0001X for general dentistry.", MaxLen: 10},
		{Name: "address1", Label: "Street address", Hint: "Where the practice is, not a PO box.", MaxLen: 55},
		{Name: "city", Label: "City", MaxLen: 30},
		{Name: "state", Label: "State", Hint: "Two letters, e.g. CO.", MaxLen: 2},
		{Name: "zip", Label: "ZIP+4", Hint: "9 digits, e.g. 80238-3000.", Inputmode: "numeric", MaxLen: 10},
		{Name: "contact", Label: "Billing contact", MaxLen: 60},
		{Name: "phone", Label: "Billing phone", Hint: "10 digits.", Inputmode: "tel", MaxLen: 14},
	},
	practice.Rendering: {
		{Name: "first", Label: "First name", MaxLen: 35},
		{Name: "last", Label: "Last name", MaxLen: 60},
		{Name: "npi", Label: "NPI", Hint: "10 digits, the dentist's own (type 1) NPI.", Inputmode: "numeric", MaxLen: 10},
		{Name: "taxonomy", Label: "Taxonomy code", Hint: "Optional, 10 characters.", MaxLen: 10},
	},
}

// providerForm is the provider form's values and messages.
type providerForm struct {
	Role, ID string
	Values   map[string]string
	Errors   map[string][]string
	Summary  []summaryItem
	Default  bool
	CSRF     string
}

func (f *providerForm) Field(name string) fieldView {
	fv := fieldView{ID: "p-" + name, Value: f.Values[name], Errors: f.Errors[name]}
	for _, s := range providerFields[f.Role] {
		if s.Name == name {
			fv.fieldSpec = s
		}
	}
	fv.Type = "text"
	fv.Required = slices.Contains(requiredProviderFields[f.Role], name)
	return fv
}

// Names are the role's inputs, in order.
func (f *providerForm) Names() []string {
	var out []string
	for _, s := range providerFields[f.Role] {
		out = append(out, s.Name)
	}
	return out
}

// RoleLabel names the kind of provider.
func (f *providerForm) RoleLabel() string { return roleLabel(f.Role) }

func roleLabel(role string) string {
	if role == practice.Billing {
		return "practice (billing provider)"
	}
	return "treating dentist"
}

// input is what the form describes, with the address and contact always
// there for a billing provider, so an empty form reports each of their
// missing parts at once.
func (f *providerForm) input() practice.Input {
	v := f.Values
	in := practice.Input{Default: f.Default, NPI: v["npi"], TaxonomyCode: strings.ToUpper(v["taxonomy"])}
	if f.Role == practice.Rendering {
		in.FirstName, in.LastName = v["first"], v["last"]
		return in
	}
	in.OrganizationName, in.EmployerID = v["org"], digitsOnly(v["tin"])
	in.Address = &claims.Address{Address1: v["address1"], City: v["city"], State: strings.ToUpper(v["state"]), PostalCode: digitsOnly(v["zip"])}
	in.ContactInformation = &claims.ContactInformation{Name: v["contact"], PhoneNumber: digitsOnly(v["phone"])}
	return in
}

// providerPathField maps a rule's path to its input.
func providerPathField(path string) string {
	return map[string]string{"/npi": "npi", "/employerId": "tin", "/ssn": "tin", "/organizationName": "org", "/lastName": "last",
		"/firstName": "first", "/taxonomyCode": "taxonomy", "/address": "address1", "/address/address1": "address1",
		"/address/city": "city", "/address/state": "state", "/address/postalCode": "zip", "/contactInformation": "phone",
		"/contactInformation/name": "contact", "/contactInformation/phoneNumber": "phone"}[path]
}

// requiredProviderFields are the inputs the rules require: those an empty
// form gets a message for (derived, so the stars follow the rules).
var requiredProviderFields = func() map[string][]string {
	out := map[string][]string{}
	for role := range providerFields {
		f := &providerForm{Role: role, Values: map[string]string{}}
		for _, e := range practice.Check(role, f.input()) {
			if name := providerPathField(e.Path); name != "" && !slices.Contains(out[role], name) {
				out[role] = append(out[role], name)
			}
		}
	}
	return out
}()

func (f *providerForm) addErrors(fields []claims.FieldError) {
	for _, e := range fields {
		name := providerPathField(e.Path)
		if name == "" {
			name = f.Names()[0]
		}
		if name == "last" && f.Role == practice.Billing {
			name = "org"
		}
		msg := claimMessage(name, e.Message)
		if !slices.Contains(f.Errors[name], msg) {
			f.Errors[name] = append(f.Errors[name], msg)
		}
	}
	f.Summary = nil
	for _, s := range providerFields[f.Role] {
		for _, msg := range f.Errors[s.Name] {
			f.Summary = append(f.Summary, summaryItem{Field: "p-" + s.Name, Label: s.Label, Message: msg})
		}
	}
}

func providerFormOf(role, id string, p practice.Input) *providerForm {
	f := &providerForm{Role: role, ID: id, Default: p.Default, Errors: map[string][]string{}, Values: map[string]string{
		"npi": p.NPI, "taxonomy": p.TaxonomyCode, "org": p.OrganizationName, "tin": p.EmployerID, "first": p.FirstName, "last": p.LastName}}
	if a := p.Address; a != nil {
		f.Values["address1"], f.Values["city"], f.Values["state"], f.Values["zip"] = a.Address1, a.City, a.State, a.PostalCode
	}
	if ci := p.ContactInformation; ci != nil {
		f.Values["contact"], f.Values["phone"] = ci.Name, ci.PhoneNumber
	}
	return f
}

type practiceData struct {
	Billing, Rendering []practice.Provider
	CSRF               string
}

// practicePage lists the saved providers.
func (c *Console) practicePage(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	data := practiceData{CSRF: v.CSRF}
	var err error
	if data.Billing, err = c.practiceService().List(r.Context(), scopeOf(v), practice.Billing); err == nil {
		data.Rendering, err = c.practiceService().List(r.Context(), scopeOf(v), practice.Rendering)
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.renderPage(w, r, http.StatusOK, "practice", page{Title: "Practice", Nav: "practice", Data: data})
}

func practiceRole(w http.ResponseWriter, r *http.Request, c *Console) (string, bool) {
	role := r.PathValue("role")
	if !practice.ValidRole(role) {
		c.missing(w, r, "kind of provider")
		return "", false
	}
	return role, true
}

// providerFormPage shows the form, empty (new) or filled (edit).
func (c *Console) providerFormPage(w http.ResponseWriter, r *http.Request) {
	role, ok := practiceRole(w, r, c)
	if !ok {
		return
	}
	f := providerFormOf(role, "", practice.Input{})
	if id := r.PathValue("id"); id != "" {
		p, err := c.practiceService().Get(r.Context(), scopeOf(viewerFrom(r.Context())), role, id)
		if err != nil {
			c.storeError(w, r, "provider", err)
			return
		}
		f = providerFormOf(role, id, p.Input)
	}
	c.showProviderForm(w, r, http.StatusOK, f)
}

func (c *Console) showProviderForm(w http.ResponseWriter, r *http.Request, status int, f *providerForm) {
	f.CSRF = viewerFrom(r.Context()).CSRF
	title := "New " + roleLabel(f.Role)
	if f.ID != "" {
		title = "Edit " + roleLabel(f.Role)
	}
	c.renderPage(w, r, status, "practice_form", page{Title: title, Nav: "practice", Data: f})
}

// saveProvider creates or replaces a provider from the form.
func (c *Console) saveProvider(w http.ResponseWriter, r *http.Request) {
	role, ok := practiceRole(w, r, c)
	if !ok {
		return
	}
	f := &providerForm{Role: role, ID: r.PathValue("id"), Values: map[string]string{}, Errors: map[string][]string{},
		Default: r.PostFormValue("default") == "yes"}
	for _, name := range f.Names() {
		f.Values[name] = strings.TrimSpace(r.PostFormValue(name))
	}
	_, err := c.practiceService().Save(r.Context(), scopeOf(viewerFrom(r.Context())), role, f.ID, f.input())
	var inv *practice.Invalid
	switch {
	case errors.As(err, &inv):
		f.addErrors(inv.Fields)
		c.showProviderForm(w, r, http.StatusBadRequest, f)
		return
	case err != nil:
		c.storeError(w, r, "provider", err)
		return
	}
	http.Redirect(w, r, "/practice", http.StatusSeeOther)
}

// deleteProvider removes a provider, after asking.
func (c *Console) deleteProvider(w http.ResponseWriter, r *http.Request) {
	role, ok := practiceRole(w, r, c)
	if !ok {
		return
	}
	svc, scope, id := c.practiceService(), scopeOf(viewerFrom(r.Context())), r.PathValue("id")
	p, err := svc.Get(r.Context(), scope, role, id)
	if err != nil {
		c.storeError(w, r, "provider", err)
		return
	}
	if !c.confirmed(w, r, confirmData{Heading: "Delete " + p.Name() + "?", Question: "Delete the saved " + roleLabel(role) + " " + p.Name() + " (NPI " + p.NPI + ")?",
		Consequence: "New claims no longer offer it; claims already sent keep it.", Button: "Delete it", Cancel: "/practice"}) {
		return
	}
	if err := svc.Delete(r.Context(), scope, role, id); err != nil {
		c.storeError(w, r, "provider", err)
		return
	}
	http.Redirect(w, r, "/practice?deleted="+url.QueryEscape(p.Name()), http.StatusSeeOther)
}
