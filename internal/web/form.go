package web

import (
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/clearhouse/clearhouse/internal/eligibility"
)

// checkForm is the new-check form: its values by input name, and the
// server's validation messages by input name.
type checkForm struct {
	Values  map[string]string
	Errors  map[string][]string
	Summary []summaryItem // every message, in form order, for the box on top
	CSRF    string
	Mock    string // the mock request that filled the form, if any
	PayerID string // the directory id the payer box resolved to
	general []summaryItem
}

// summaryItem links a message to its input.
type summaryItem struct {
	Field   string // input id ("" when the message concerns the whole request)
	Label   string
	Message string
}

// fieldSpec describes one input. The order of formFields is the form's.
type fieldSpec struct {
	Name, Label, Hint   string
	Type                string // "text" (default), "date"
	Required            bool
	Inputmode, Autocomp string
	MaxLen              int
	List                string // id of a datalist searched as one types
}

var formFields = []fieldSpec{
	{Name: "payer", Label: "Payer", Hint: "Type the insurance company's name or the payer ID from the card, then pick it from the list.", Required: true, MaxLen: 120, List: "payer-options"},
	{Name: "provider_org", Label: "Organization name", MaxLen: 60, Autocomp: "organization"},
	{Name: "provider_first", Label: "Provider first name", MaxLen: 35},
	{Name: "provider_last", Label: "Provider last name", MaxLen: 60},
	{Name: "npi", Label: "NPI", Hint: "10 digits.", Required: true, Inputmode: "numeric", MaxLen: 10},
	{Name: "sub_first", Label: "First name", MaxLen: 35},
	{Name: "sub_last", Label: "Last name", MaxLen: 60},
	{Name: "sub_dob", Label: "Date of birth", Type: "date"},
	{Name: "sub_member_id", Label: "Member ID", Hint: "As printed on the insurance card.", MaxLen: 80},
	{Name: "sub_ssn", Label: "SSN", Hint: "Only for a Medicare MBI lookup (payer MBILU). 9 digits.", Inputmode: "numeric", MaxLen: 9},
	{Name: "dep_first", Label: "Dependent first name", MaxLen: 35},
	{Name: "dep_last", Label: "Dependent last name", MaxLen: 60},
	{Name: "dep_dob", Label: "Dependent date of birth", Type: "date"},
	{Name: "dep_rel", Label: "Relationship to subscriber"},
	{Name: "service_type", Label: "Service type"},
	{Name: "procedure_code", Label: "Procedure code", Hint: "Optional, e.g. a CDT code such as D0120.", MaxLen: 48},
	{Name: "procedure_qualifier", Label: "Code set"},
	{Name: "provider_kind", Label: "Provider type"},
}

func fieldSpecOf(name string) fieldSpec {
	for _, f := range formFields {
		if f.Name == name {
			return f
		}
	}
	return fieldSpec{Name: name, Label: name}
}

// fieldView is what the "input" template renders.
type fieldView struct {
	fieldSpec
	ID     string
	Value  string
	Errors []string
}

// Field returns the view of one input.
func (f *checkForm) Field(name string) fieldView {
	spec := fieldSpecOf(name)
	if spec.Type == "" {
		spec.Type = "text"
	}
	return fieldView{fieldSpec: spec, ID: "f-" + name, Value: f.Values[name], Errors: f.Errors[name]}
}

// selectView is what the "select" template renders.
type selectView struct {
	fieldView
	Options []option
}

// Select returns the view of one <select>.
func (f *checkForm) Select(name string) selectView {
	opts := map[string]func() []option{
		"service_type": f.ServiceTypes, "dep_rel": f.Relationships, "procedure_qualifier": f.ProcedureQualifiers,
	}[name]
	sv := selectView{fieldView: f.Field(name)}
	if opts != nil {
		sv.Options = opts()
	}
	return sv
}

// fieldsetView is a fieldset that can carry messages of its own ("needs
// at least one of memberId, dateOfBirth or lastName").
type fieldsetView struct {
	ID, Label, Hint string
	Optional        bool
	Errors          []string
}

// Fieldset returns the view of the subscriber or dependent fieldset.
func (f *checkForm) Fieldset(name string) fieldsetView {
	fv := fieldsetView{ID: "f-" + name, Label: fieldsetLabels[name], Errors: f.Errors[name]}
	if name == "dependent" {
		fv.Optional = true
		fv.Hint = "Fill in only when the patient is on the subscriber's plan as a dependent and has no member ID of their own."
	}
	return fv
}

// Value returns the value of one input.
func (f *checkForm) Value(name string) string { return f.Values[name] }

// Invalid reports whether an input or fieldset has messages.
func (f *checkForm) Invalid(name string) bool { return len(f.Errors[name]) > 0 }

// Individual reports whether the provider is a person.
func (f *checkForm) Individual() bool { return f.Values["provider_kind"] == "individual" }

// option is one <option>.
type option struct{ Value, Label string }

// ServiceTypes are the service types offered; the mock payers answer 30
// and 35, real payers any of them.
func (f *checkForm) ServiceTypes() []option {
	codes := []string{"30", "35", "1", "33", "47", "48", "50", "86", "88", "98", "A6", "AL", "MH", "UC", "23", "24", "25", "26", "27", "36", "37", "38", "41", "AD", "AE", "AF"}
	out := []option{{"", "None — ask by procedure code"}}
	for _, c := range codes {
		out = append(out, option{c, c + " · " + eligibility.ServiceTypeName(c)})
	}
	return out
}

// Relationships are the 270's individual relationship codes.
func (f *checkForm) Relationships() []option {
	return []option{{"", "Not specified"}, {"01", "Spouse"}, {"19", "Child"}, {"34", "Other adult"}}
}

// ProcedureQualifiers are the code sets of a procedure code.
func (f *checkForm) ProcedureQualifiers() []option {
	return []option{{"AD", "CDT (dental)"}, {"HC", "CPT / HCPCS"}}
}

// formFromValues reads the posted form.
func formFromValues(v url.Values) *checkForm {
	f := &checkForm{Values: map[string]string{}, Errors: map[string][]string{}}
	for _, spec := range formFields {
		f.Values[spec.Name] = strings.TrimSpace(v.Get(spec.Name))
	}
	if f.Values["provider_kind"] != "individual" {
		f.Values["provider_kind"] = "organization"
	}
	return f
}

// emptyForm is a new check's form.
func emptyForm() *checkForm {
	return formFromValues(url.Values{"service_type": {"30"}, "procedure_qualifier": {"AD"}})
}

// formFromMock fills the form with a published mock request.
func formFromMock(m eligibility.Example) *checkForm {
	req := m.Request
	f := formFromRequest(&req)
	f.Mock = m.Name
	return f
}

// formFromRequest fills the form with a request (a mock, or a stored check
// to run again). Fields the form has no input for are dropped.
func formFromRequest(req *eligibility.Request) *checkForm {
	v := url.Values{"payer": {req.TradingPartnerServiceID}, "procedure_qualifier": {"AD"}}
	if p := req.Provider; p != nil {
		v.Set("npi", p.NPI)
		v.Set("provider_org", p.OrganizationName)
		v.Set("provider_first", p.FirstName)
		v.Set("provider_last", p.LastName)
		if p.OrganizationName == "" && p.LastName != "" {
			v.Set("provider_kind", "individual")
		}
	}
	if s := req.Subscriber; s != nil {
		v.Set("sub_first", s.FirstName)
		v.Set("sub_last", s.LastName)
		v.Set("sub_dob", inputDate(s.DateOfBirth))
		v.Set("sub_member_id", s.MemberID)
		v.Set("sub_ssn", s.SSN)
	}
	if len(req.Dependents) > 0 {
		d := req.Dependents[0]
		v.Set("dep_first", d.FirstName)
		v.Set("dep_last", d.LastName)
		v.Set("dep_dob", inputDate(d.DateOfBirth))
		v.Set("dep_rel", d.IndividualRelationshipCode)
	}
	if e := req.Encounter; e != nil {
		if len(e.ServiceTypeCodes) > 0 {
			v.Set("service_type", e.ServiceTypeCodes[0])
		}
		v.Set("procedure_code", e.ProcedureCode)
		if e.ProductOrServiceIDQualifier != "" {
			v.Set("procedure_qualifier", e.ProductOrServiceIDQualifier)
		}
	}
	return formFromValues(v)
}

// request builds the eligibility request the form describes. Empty inputs
// are left out, so the service's rules see exactly what was typed.
func (f *checkForm) request() *eligibility.Request {
	v := f.Values
	req := &eligibility.Request{TradingPartnerServiceID: f.PayerID}
	if f.PayerID == "" {
		req.TradingPartnerServiceID = v["payer"]
	}
	p := &eligibility.Provider{NPI: v["npi"]}
	if f.Individual() {
		p.FirstName, p.LastName = v["provider_first"], v["provider_last"]
	} else {
		p.OrganizationName = v["provider_org"]
	}
	req.Provider = p
	sub := &eligibility.Subscriber{MemberID: v["sub_member_id"]}
	sub.FirstName, sub.LastName, sub.DateOfBirth, sub.SSN = v["sub_first"], v["sub_last"], requestDate(v["sub_dob"]), v["sub_ssn"]
	req.Subscriber = sub
	if v["dep_first"] != "" || v["dep_last"] != "" || v["dep_dob"] != "" {
		d := eligibility.Dependent{IndividualRelationshipCode: v["dep_rel"]}
		d.FirstName, d.LastName, d.DateOfBirth = v["dep_first"], v["dep_last"], requestDate(v["dep_dob"])
		req.Dependents = []eligibility.Dependent{d}
	}
	enc := &eligibility.Encounter{}
	if v["service_type"] != "" {
		enc.ServiceTypeCodes = []string{v["service_type"]}
	}
	if v["procedure_code"] != "" {
		enc.ProcedureCode, enc.ProductOrServiceIDQualifier = v["procedure_code"], v["procedure_qualifier"]
	}
	req.Encounter = enc
	return req
}

var isoDate = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})$`)

// requestDate turns a date input's YYYY-MM-DD into the contract's
// YYYYMMDD; anything else goes to the service as typed, whose rules say
// what is wrong with it.
func requestDate(s string) string {
	if m := isoDate.FindStringSubmatch(s); m != nil {
		return m[1] + m[2] + m[3]
	}
	return s
}

// inputDate turns YYYYMMDD into a date input's YYYY-MM-DD.
func inputDate(s string) string {
	if len(s) == 8 {
		return s[:4] + "-" + s[4:6] + "-" + s[6:]
	}
	return s
}

// fieldForPath maps a field error's JSON pointer to the input (or
// fieldset) that shows it; "" means the message concerns the request as a
// whole.
func (f *checkForm) fieldForPath(path string) string {
	switch path {
	case "/tradingPartnerServiceId", "/tradingPartnerName":
		return "payer"
	case "/provider", "/provider/organizationName":
		if f.Individual() {
			return "provider_last"
		}
		return "provider_org"
	case "/provider/firstName":
		return "provider_first"
	case "/provider/lastName":
		return "provider_last"
	case "/provider/npi":
		return "npi"
	case "/subscriber":
		return "subscriber"
	case "/dependents", "/dependents/0":
		return "dependent"
	case "/dependents/0/individualRelationshipCode":
		return "dep_rel"
	case "/encounter", "/encounter/serviceTypeCodes", "/encounter/serviceTypeCodes/0":
		return "service_type"
	case "/encounter/procedureCode":
		return "procedure_code"
	case "/encounter/productOrServiceIDQualifier":
		return "procedure_qualifier"
	}
	for prefix, form := range map[string]string{"/subscriber/": "sub_", "/dependents/0/": "dep_"} {
		if rest, ok := strings.CutPrefix(path, prefix); ok {
			switch rest {
			case "firstName":
				return form + "first"
			case "lastName":
				return form + "last"
			case "dateOfBirth":
				return form + "dob"
			case "memberId":
				if form == "sub_" {
					return "sub_member_id"
				}
			case "ssn":
				if form == "sub_" {
					return "sub_ssn"
				}
			}
			if form == "sub_" {
				return "subscriber"
			}
			return "dependent"
		}
	}
	return ""
}

// fieldsetLabels name the fieldsets that can carry messages.
var fieldsetLabels = map[string]string{"subscriber": "Subscriber", "dependent": "Dependent"}

// addErrors places the service's field errors next to their inputs and in
// the summary, in form order.
func (f *checkForm) addErrors(errs []eligibility.FieldError) {
	var general []summaryItem
	for _, e := range errs {
		name := f.fieldForPath(e.Path)
		msg := frontDeskFieldMessage(name, e.Message)
		if name == "" {
			general = append(general, summaryItem{Label: "Check", Message: msg})
			continue
		}
		if !slices.Contains(f.Errors[name], msg) {
			f.Errors[name] = append(f.Errors[name], msg)
		}
	}
	f.general = append(f.general, general...)
}

// summarize lists every message in form order for the box on top.
func (f *checkForm) summarize() {
	f.Summary = nil
	order := []string{"payer", "provider_org", "provider_first", "provider_last", "npi", "subscriber", "sub_first", "sub_last",
		"sub_dob", "sub_member_id", "sub_ssn", "dependent", "dep_first", "dep_last", "dep_dob", "dep_rel",
		"service_type", "procedure_code", "procedure_qualifier", "mock"}
	for _, name := range order {
		label := fieldsetLabels[name]
		if label == "" {
			label = fieldSpecOf(name).Label
		}
		id := "f-" + name
		if name == "mock" {
			id, label = "mock", "Mock request"
		}
		for _, msg := range f.Errors[name] {
			f.Summary = append(f.Summary, summaryItem{Field: id, Label: label, Message: msg})
		}
	}
	f.Summary = append(f.Summary, f.general...)
}

// addError puts one message of the console's own next to an input.
func (f *checkForm) addError(field, msg string) {
	f.Errors[field] = append(f.Errors[field], msg)
}
