package eligibility

import (
	"strings"
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

// personName is strings.Join(strings.Fields(first+" "+last), " ") — the
// names history is searched by are unchanged — in at most one allocation.
func TestPersonName(t *testing.T) {
	names := []string{"", " ", "Jane", " Jane ", "Mary Ann", "Mary\tAnn\n", "O'Brien", "van  der  Berg",
		"Zoë", "\u00a0Zoë\u00a0", "a\u2003b", "x\u0085y", "\u3000", "名 字", "a\x00b", "\xff \xfe", strings.Repeat("Long ", 30)}
	for _, first := range names {
		for _, last := range names {
			want := strings.Join(strings.Fields(first+" "+last), " ")
			if got := personName(first, last); got != want {
				t.Errorf("personName(%q, %q) = %q, want %q", first, last, got, want)
			}
		}
	}
	if n := testing.AllocsPerRun(100, func() { _ = personName("  Jane ", "Q.  Public") }); n > 1 {
		t.Errorf("personName: %v allocations, want at most 1", n)
	}
}
