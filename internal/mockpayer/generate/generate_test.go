package generate

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/claims"
	"github.com/clearhouse/clearhouse/internal/mockpayer/scenario"
)

var today = time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)

// The same seed writes the same files; the scenario file loads with one
// scenario per member, and every claim file is a valid dental claim
// request for its member.
func TestGenerateIsSeededAndValid(t *testing.T) {
	gen := func(seed uint64) ([]byte, map[string][]byte) {
		d, err := New(Options{Seed: seed, Members: 25, Today: today})
		if err != nil {
			t.Fatal(err)
		}
		file, err := d.ScenarioFile()
		if err != nil {
			t.Fatal(err)
		}
		cl, err := d.DentalClaims()
		if err != nil {
			t.Fatal(err)
		}
		return file, cl
	}
	a, ca := gen(7)
	b, cb := gen(7)
	c, _ := gen(8)
	if !bytes.Equal(a, b) || len(ca) != len(cb) || !bytes.Equal(ca["claim-003.json"], cb["claim-003.json"]) {
		t.Error("the same seed wrote different files")
	}
	if bytes.Equal(a, c) {
		t.Error("another seed wrote the same file")
	}
	set, err := scenario.Parse(a)
	if err != nil || len(set.Scenarios) != 25 {
		t.Fatalf("scenario file: %v", err)
	}
	if len(ca) != 25 {
		t.Fatalf("%d claim files", len(ca))
	}
	for name, body := range ca {
		var r claims.Request
		if err := json.Unmarshal(body, &r); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := claims.Validate(&r); err != nil {
			t.Errorf("%s: %v\n%s", name, err, body)
		}
		req := scenario.ClaimRequest{PayerID: "52133", MemberID: r.Subscriber.MemberID}
		if sc := set.Claim(req, nil); sc == nil {
			t.Errorf("%s: no scenario for member %s", name, r.Subscriber.MemberID)
		}
		if len(r.Subscriber.MemberID) != 9 {
			t.Errorf("%s: UHC dental member id %q is not 9 digits", name, r.Subscriber.MemberID)
		}
	}
}

func TestGenerateLimits(t *testing.T) {
	for _, o := range []Options{{Members: 0}, {Members: MaxMembers + 1}, {Members: 1, PayerID: "NOPE"}} {
		if _, err := New(o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
	d, err := New(Options{Members: 1, PayerID: "60054", Today: today})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.DentalClaims(); err == nil {
		t.Error("dental claims for a medical payer")
	}
	if id := d.Members[0].MemberID; len(id) != 10 || id[0] != 'W' {
		t.Errorf("Aetna member id %q", id)
	}
}
