package eligibility

import (
	"strings"
	"time"
)

// historyKeys are what the history is searched by: the person a check is
// about and the date of service, so a front desk finds "Jane Doe's check
// of March 14" without knowing its id.
type historyKeys struct {
	patientName, memberID, birthDate, serviceDate string
}

// keysOf takes the search keys from a request: the dependent when there is
// one (the patient), else the subscriber; the subscriber's member id (the
// card's); the request's date of service, else the day the check runs
// (payers answer as of today when none is sent).
func keysOf(r *Request, now time.Time) historyKeys {
	var k historyKeys
	if e := r.Encounter; e != nil {
		switch {
		case len(e.DateOfService) == 8:
			k.serviceDate = e.DateOfService
		case len(e.BeginningDateOfService) == 8:
			k.serviceDate = e.BeginningDateOfService
		}
	}
	if k.serviceDate == "" {
		k.serviceDate = now.UTC().Format("20060102")
	}
	if len(r.Dependents) > 0 {
		d := r.Dependents[0]
		k.patientName = personName(d.FirstName, d.LastName)
		k.birthDate = d.DateOfBirth
	} else if s := r.Subscriber; s != nil {
		k.patientName = personName(s.FirstName, s.LastName)
		k.birthDate = s.DateOfBirth
	}
	if s := r.Subscriber; s != nil {
		k.memberID = s.MemberID
	}
	return k
}

// personName is strings.Join(strings.Fields(first+" "+last), " ") — the
// words of both names, one space between — in one allocation, not three.
func personName(first, last string) string {
	var buf [64]byte
	b := buf[:0]
	for _, name := range [2]string{first, last} {
		for word := range strings.FieldsSeq(name) {
			if len(b) > 0 {
				b = append(b, ' ')
			}
			b = append(b, word...)
		}
	}
	return string(b)
}
