package mockpayer

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/clearhouse/clearhouse/internal/payers"
)

// ErrNoMockMatch: the 270 matches no published mock request. Test mode
// answers only those.
var ErrNoMockMatch = payers.ErrNoMockMatch

// ErrUnsupportedServiceType: the 270 asks for a service type other than 30
// (health benefit plan coverage) or 35 (dental care). Errors carrying it
// also match ErrNoMockMatch.
var ErrUnsupportedServiceType = errors.New("test mode supports only service type codes 30 and 35")

// MockListReference is where a NoMatchError sends the caller for the list
// of mock requests. The service may point it at its own documentation.
var MockListReference = `the mock request list (internal/mockpayer/README.md, "Mock requests")`

// testServiceTypes are the only service type codes test mode answers.
var testServiceTypes = []string{"30", "35"}

// NoMatchError explains why a 270 matched no mock request. Its message
// names the fields that differ, never their values, so it echoes nothing
// beyond the payer id the caller sent.
type NoMatchError struct {
	PayerID string
	// Fields that differ from the closest mock request of the payer
	// ("subscriber member id", "dependent date of birth", ...); empty when
	// the payer has no mock requests at all.
	Fields []string
	// ServiceType is set for an unsupported service type code.
	ServiceType string
	mockPayers  []string
}

func (e *NoMatchError) Error() string {
	var b strings.Builder
	b.WriteString("test mode accepts only the published mock requests: ")
	switch {
	case e.ServiceType != "":
		fmt.Fprintf(&b, "service type code %s is not supported; test mode supports 30 (health benefit plan coverage) and 35 (dental care)", e.ServiceType)
	case len(e.Fields) == 0:
		fmt.Fprintf(&b, "payer %s has no mock requests (mock payers: %s)", e.PayerID, strings.Join(e.mockPayers, ", "))
	default:
		fmt.Fprintf(&b, "no mock request for payer %s matches the %s you sent", e.PayerID, joinFields(e.Fields))
	}
	b.WriteString("; see ")
	b.WriteString(MockListReference)
	return b.String()
}

// Is makes errors.Is work for ErrNoMockMatch and, for a service type
// error, ErrUnsupportedServiceType.
func (e *NoMatchError) Is(target error) bool {
	return target == ErrNoMockMatch || (target == ErrUnsupportedServiceType && e.ServiceType != "")
}

func joinFields(f []string) string {
	switch len(f) {
	case 1:
		return f[0]
	case 2:
		return f[0] + " and " + f[1]
	}
	return strings.Join(f[:len(f)-1], ", ") + " and " + f[len(f)-1]
}

// want is one expected value of a mock request.
type want struct {
	label    string // "subscriber member id"
	value    string
	optional bool // may be absent; must match when present
	fold     bool // names compare case-insensitively
}

func (w want) matches(got string) bool {
	got = strings.TrimSpace(got)
	if got == "" {
		return w.optional
	}
	if w.fold {
		return strings.EqualFold(got, w.value)
	}
	return got == w.value
}

// matchSpec is what a 270 must carry to select a scenario.
type matchSpec struct {
	payerID      string // primary directory id
	subscriber   []want
	dependent    []want // empty: the request has no dependent
	serviceTypes []string
	procedure    string // "AD:D0120"
}

func newMatchSpec(r MockRequest, optional map[string]string) (matchSpec, error) {
	m := matchSpec{
		payerID:      canonicalPayerID(r.TradingPartnerServiceID),
		serviceTypes: r.Encounter.ServiceTypeCodes,
	}
	if r.Encounter.ProcedureCode != "" {
		m.procedure = r.Encounter.ProductOrServiceIDQualifier + ":" + r.Encounter.ProcedureCode
	}
	for _, st := range m.serviceTypes {
		if !slices.Contains(testServiceTypes, st) {
			return m, fmt.Errorf("request service type %s is outside the test set", st)
		}
	}
	if len(m.serviceTypes) == 0 && m.procedure == "" {
		return m, fmt.Errorf("request has neither service type nor procedure")
	}
	m.subscriber = personWants("subscriber", r.Subscriber, optional)
	switch len(r.Dependents) {
	case 0:
	case 1:
		m.dependent = personWants("dependent", r.Dependents[0], optional)
	default:
		return m, fmt.Errorf("a mock request has at most one dependent")
	}
	for key := range optional {
		if !slices.ContainsFunc(append(m.subscriber, m.dependent...), func(w want) bool { return w.optional && optionalKey(w.label) == key }) {
			return m, fmt.Errorf("optional key %q is not a known field", key)
		}
	}
	if len(m.subscriber) == 0 {
		return m, fmt.Errorf("request identifies no subscriber")
	}
	return m, nil
}

// personWants lists a person's identifying values in the order a mismatch
// is reported.
func personWants(who string, p Person, optional map[string]string) []want {
	fields := []struct {
		label, value string
		fold         bool
	}{
		{"member id", p.MemberID, false},
		{"last name", p.LastName, true},
		{"first name", p.FirstName, true},
		{"date of birth", p.DateOfBirth, false},
		{"SSN", p.SSN, false},
	}
	var out []want
	for _, f := range fields {
		label := who + " " + f.label
		w := want{label: label, value: f.value, fold: f.fold}
		if v, ok := optional[optionalKey(label)]; ok && f.value == "" {
			w.value, w.optional = v, true
		}
		if w.value != "" {
			out = append(out, w)
		}
	}
	return out
}

// optionalKey maps "subscriber first name" to the JSON path
// "subscriber.firstName" used in fixtures.
func optionalKey(label string) string {
	who, field, _ := strings.Cut(label, " ")
	name := map[string]string{
		"member id": "memberId", "last name": "lastName", "first name": "firstName",
		"date of birth": "dateOfBirth", "SSN": "ssn",
	}[field]
	return who + "." + name
}

// personValue returns the inquiry's value for a want label.
func personValue(p *person, label string) string {
	_, field, _ := strings.Cut(label, " ")
	switch field {
	case "member id":
		return p.memberID
	case "last name":
		return p.last
	case "first name":
		return p.first
	case "date of birth":
		return p.dob
	case "SSN":
		return p.ssn
	}
	return ""
}

// compare reports whether the inquiry carries what the spec wants (payer
// excluded: candidates are chosen by payer). With miss nil it stops at the
// first difference and allocates nothing; otherwise it appends the label
// of every difference to *miss.
func (m *matchSpec) compare(inq *inquiry, miss *[]string) bool {
	ok := true
	differ := func(label string) bool {
		ok = false
		if miss == nil {
			return true
		}
		*miss = append(*miss, label)
		return false
	}
	for _, w := range m.subscriber {
		if !w.matches(personValue(&inq.subscriber, w.label)) && differ(w.label) {
			return false
		}
	}
	switch {
	case len(m.dependent) > 0 && !inq.hasDependent:
		if differ("dependent (this mock request sends one in dependents)") {
			return false
		}
	case len(m.dependent) == 0 && inq.hasDependent:
		if differ("dependent (this mock request has none)") {
			return false
		}
	case inq.hasDependent:
		for _, w := range m.dependent {
			if !w.matches(personValue(&inq.dependent, w.label)) && differ(w.label) {
				return false
			}
		}
	}
	if !m.encounterMatches(inq) {
		differ(m.encounterHint())
	}
	return ok
}

// encounterMatches: the service types must be the mock's, and a procedure
// mock needs its procedure (with no service type, or 35).
func (m *matchSpec) encounterMatches(inq *inquiry) bool {
	if m.procedure != "" {
		if inq.procedure != m.procedure {
			return false
		}
		return len(inq.serviceTypes) == 0 || slices.Equal(inq.serviceTypes, []string{"35"})
	}
	return inq.procedure == "" && slices.Equal(inq.serviceTypes, m.serviceTypes)
}

func (m *matchSpec) encounterHint() string {
	if m.procedure != "" {
		q, code, _ := strings.Cut(m.procedure, ":")
		return fmt.Sprintf("encounter (this mock request sends procedure code %s with qualifier %s)", code, q)
	}
	return fmt.Sprintf("service type (this mock request sends service type code %s)", strings.Join(m.serviceTypes, ", "))
}
