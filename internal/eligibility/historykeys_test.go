package eligibility

import (
	"testing"
	"time"
)

func TestKeysOf(t *testing.T) {
	now := time.Date(2026, 11, 23, 23, 30, 0, 0, time.FixedZone("EST", -5*3600)) // Nov 24 in UTC
	for _, tc := range []struct {
		name string
		req  Request
		want historyKeys
	}{
		{"subscriber, no date of service", Request{Subscriber: &Subscriber{MemberID: "U1", Patient: Patient{FirstName: "Jane", LastName: " Doe", DateOfBirth: "19710101"}}},
			historyKeys{"Jane Doe", "U1", "19710101", "20261124"}},
		{"dependent is the patient", Request{
			Subscriber: &Subscriber{MemberID: "U2", Patient: Patient{FirstName: "John", LastName: "Doe", DateOfBirth: "19700101"}},
			Dependents: []Dependent{{Patient: Patient{FirstName: "Jordan", LastName: "Doe", DateOfBirth: "20010714"}}},
			Encounter:  &Encounter{DateOfService: "20261201"}},
			historyKeys{"Jordan Doe", "U2", "20010714", "20261201"}},
		{"a range starts the service", Request{Encounter: &Encounter{BeginningDateOfService: "20261110", EndDateOfService: "20261112"}},
			historyKeys{serviceDate: "20261110"}},
	} {
		if got := keysOf(&tc.req, now); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
