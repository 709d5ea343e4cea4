// Package generate writes synthetic members and claims for load tests and
// demos: names from shipped lists of common names, dates of birth, member
// ids in the payer's pattern, procedure and diagnosis codes from shipped
// code lists (lists/README.md names their sources). Everything comes from
// a seeded random source, so the same options write the same files; no
// value is taken from a real person.
package generate

import (
	"embed"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/mockpayer/scenario"
)

//go:embed lists/*.txt
var lists embed.FS

func list(name string) []string {
	b, err := lists.ReadFile("lists/" + name)
	if err != nil {
		panic(err) // embedded: a missing list is a build mistake
	}
	return strings.Fields(string(b))
}

// Options say what to generate.
type Options struct {
	Seed    uint64
	Members int    // 1..MaxMembers
	PayerID string // a payer of IDPatterns (default 52133, UHC dental)
	// Dental: CDT lines and a dental plan; else CPT lines and a medical
	// plan. Default by the payer's pattern.
	Today time.Time // dates of service and coverage are around it
}

// MaxMembers bounds one run (a scenario file holds at most
// scenario.MaxScenarios scenarios).
const MaxMembers = scenario.MaxScenarios

// IDPattern is how a payer's member ids look: a prefix and digits.
type IDPattern struct {
	Prefix string
	Digits int
	Dental bool
}

// IDPatterns are the member id shapes of the payers the generator knows.
var IDPatterns = map[string]IDPattern{
	"52133":      {Prefix: "", Digits: 9, Dental: true},  // UnitedHealthcare Dental
	"62308":      {Prefix: "U", Digits: 8, Dental: true}, // Cigna Dental
	"60054":      {Prefix: "W", Digits: 9},               // Aetna
	"87726":      {Prefix: "", Digits: 9},                // UnitedHealthcare
	"AMTAS00425": {Prefix: "", Digits: 9, Dental: true},  // Ameritas
}

// Member is one synthetic member and what the payer does with it.
type Member struct {
	MemberID, FirstName, LastName, DateOfBirth, Gender string
	Procedures                                         []string // the claim's lines
	Diagnosis                                          string
	ChargeCents                                        []int64 // per line
	Outcome                                            string  // the claim's remittance outcome
}

// Data is one generated set.
type Data struct {
	Options Options
	Members []Member
}

// New generates opts.Members members.
func New(opts Options) (*Data, error) {
	if opts.Members < 1 || opts.Members > MaxMembers {
		return nil, fmt.Errorf("generate: members must be between 1 and %d, not %d", MaxMembers, opts.Members)
	}
	if opts.PayerID == "" {
		opts.PayerID = "52133"
	}
	pat, ok := IDPatterns[opts.PayerID]
	if !ok {
		return nil, fmt.Errorf("generate: no member id pattern for payer %q; use one of 52133, 62308, 60054, 87726, AMTAS00425", opts.PayerID)
	}
	if opts.Today.IsZero() {
		opts.Today = time.Now().UTC()
	}
	r := rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x5eed))
	first, last, icd := list("first_names.txt"), list("last_names.txt"), list("icd10.txt")
	procs := list("cpt.txt")
	if pat.Dental {
		procs = list("cdt.txt")
	}
	outcomes := []string{"paid", "paid", "partial", "denied"}
	d := &Data{Options: opts}
	seen := map[string]bool{}
	for len(d.Members) < opts.Members {
		m := Member{
			FirstName: first[r.IntN(len(first))], LastName: last[r.IntN(len(last))],
			Gender:    []string{"F", "M"}[r.IntN(2)],
			Diagnosis: icd[r.IntN(len(icd))], Outcome: outcomes[r.IntN(len(outcomes))],
		}
		id := pat.Prefix
		for range pat.Digits {
			id += string(rune('0' + r.IntN(10)))
		}
		if seen[id] {
			continue
		}
		seen[id] = true
		m.MemberID = id
		age := 1 + r.IntN(85)
		dob := opts.Today.AddDate(-age, 0, -r.IntN(365))
		m.DateOfBirth = dob.Format("20060102")
		for range 1 + r.IntN(3) {
			m.Procedures = append(m.Procedures, procs[r.IntN(len(procs))])
			m.ChargeCents = append(m.ChargeCents, int64(50+r.IntN(1200))*100)
		}
		d.Members = append(d.Members, m)
	}
	return d, nil
}
