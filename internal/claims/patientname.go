package claims

import "strings"

// patientName is the patient as the claim names them: the dependent when
// there is one, else the subscriber ("Jane Doe"), for the claims list.
func patientName(req *Request) string {
	join := func(parts ...string) string { return strings.Join(strings.Fields(strings.Join(parts, " ")), " ") }
	if d := req.Dependent; d != nil && (d.FirstName != "" || d.LastName != "") {
		return join(d.FirstName, d.LastName)
	}
	if s := req.Subscriber; s != nil {
		return join(s.FirstName, s.LastName, s.OrganizationName)
	}
	return ""
}
