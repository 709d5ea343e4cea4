package payers

import (
	"strconv"
	"strings"
	"testing"
)

// The search tolerates typos, finds ids and aliases, applies the hosted
// filters, and says what matched.
func TestFind(t *testing.T) {
	d := Default()
	tests := []struct {
		name      string
		q         Query
		wantFirst string // "" when only wantIn matters
		wantIn    []string
		wantOut   []string
		fuzzy     bool // the first hit is a typo match
		matches   string
	}{
		{"exact id", Query{Text: "87726"}, "87726", nil, nil, false, "primaryPayerId=<b>87726</b>"},
		{"alias", Query{Text: "uhc"}, "87726", nil, nil, false, "aliases=<b>UHC</b>"},
		{"id prefix", Query{Text: "6230"}, "62308", nil, nil, false, "primaryPayerId=<b>6230</b>8"},
		{"id with a typo", Query{Text: "87762"}, "87726", nil, nil, true, "primaryPayerId=<b>87726</b>"},
		{"name with a swap", Query{Text: "cigan"}, "62308", nil, nil, true, "displayName=<b>Cigna</b>"},
		{"name with a missing letter", Query{Text: "untedhealthcare"}, "87726", []string{"52133"}, nil, true, ""},
		{"two words, one typo", Query{Text: "delta dentl"}, "", []string{"77777", "23166", "91062"}, nil, true, ""},
		{"words of a name", Query{Text: "blue cross texas"}, "G84980", nil, []string{"00621"}, false,
			"displayName=<b>Blue</b> <b>Cross</b> Blue Shield of <b>Texas</b>"},
		{"word inside a name", Query{Text: "healthcare"}, "", []string{"87726", "52133"}, nil, false, ""},
		{"nonsense", Query{Text: "zzzzqqq"}, "", nil, []string{"87726"}, false, ""},
		{"filter: dental claims", Query{Support: map[string]string{"dentalClaimSubmission": Supported}}, "",
			[]string{"52133", "77777"}, []string{"87726"}, false, ""},
		{"filter: not supported", Query{Text: "united", Support: map[string]string{"dentalClaimSubmission": NotSupported}}, "87726",
			nil, []string{"52133"}, false, ""},
		{"filter: EITHER and coverage", Query{Support: map[string]string{"eligibilityCheck": Either}, CoverageTypes: []string{"dental", "medical"}}, "",
			[]string{"60054", "62308"}, []string{"87726", "52133"}, false, ""},
		{"filter: states (none classified)", Query{OperatingStates: []string{"CA"}}, "", nil, []string{"87726"}, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hits := d.Find(tt.q)
			ids := map[string]bool{}
			for _, h := range hits {
				ids[h.Payer.ID] = true
			}
			if tt.wantFirst != "" {
				if len(hits) == 0 || hits[0].Payer.ID != tt.wantFirst {
					t.Fatalf("first hit = %v, want %s", firstID(hits), tt.wantFirst)
				}
				if hits[0].Fuzzy != tt.fuzzy {
					t.Errorf("fuzzy = %v, want %v", hits[0].Fuzzy, tt.fuzzy)
				}
			}
			for _, id := range tt.wantIn {
				if !ids[id] {
					t.Errorf("%s not found (%d hits)", id, len(hits))
				}
			}
			for _, id := range tt.wantOut {
				if ids[id] {
					t.Errorf("%s found", id)
				}
			}
			if tt.matches != "" {
				m := hits[0].Matches
				got := "primaryPayerId=" + m.PrimaryPayerID + " aliases=" + strings.Join(m.Aliases, ",") + " displayName=" + m.DisplayName
				if !strings.Contains(got, tt.matches) {
					t.Errorf("matches = %s, want %s", got, tt.matches)
				}
			}
		})
	}
}

func firstID(hits []Hit) string {
	if len(hits) == 0 {
		return "(none)"
	}
	return hits[0].Payer.ID
}

func TestWithinEdits(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		k    int
		want bool
	}{
		{"cigna", "cigan", 1, true}, {"cigna", "cigna", 0, true}, {"united", "untied", 1, true},
		{"humana", "humanna", 1, true}, {"aetna", "etna", 1, true}, {"aetna", "xtnx", 1, false},
		{"unitedhealthcare", "untedhealthcar", 2, true}, {"abc", "xyz", 2, false},
	} {
		if got := withinEdits(tt.a, tt.b, tt.k); got != tt.want {
			t.Errorf("withinEdits(%q, %q, %d) = %v", tt.a, tt.b, tt.k, got)
		}
	}
}

func TestStats(t *testing.T) {
	hits := Default().Find(Query{Text: "dental"})
	s := Stats(hits)
	c := s.TransactionSupportCounts["dentalClaimSubmission"]
	if s.Total != len(hits) || c.Supported.Total+c.NotSupported.Total != len(hits) ||
		s.TransactionSupport["coordinationOfBenefits"].NotSupported != len(hits) || len(s.TransactionSupport) != 8 {
		t.Errorf("stats = %+v", s)
	}
}

// BenchmarkFind: a typo'd two-word query over a directory of 20,000
// payers (the size of a hosted list), the worst case of the search (every
// payer's names are compared word by word).
func BenchmarkFind(b *testing.B) {
	words := []string{"Blue", "Cross", "Shield", "Health", "Plan", "Dental", "Medical", "Care", "United", "Community",
		"Alliance", "Mutual", "Life", "Partners", "Advantage", "Choice", "Select", "First", "Premier", "Total"}
	f := &DirectoryFile{}
	for i := range 20000 {
		name := words[i%20] + " " + words[(i/20)%20] + " " + words[(i/400)%20] + " " + strconv.Itoa(i)
		id := "B" + strconv.Itoa(100000+i)
		f.Records = append(f.Records, FileRecord{Line: i + 2, Record: Record{StediID: id, PrimaryPayerID: id, DisplayName: name,
			Names: []string{name + " of Somewhere"}, Aliases: []string{"A" + strconv.Itoa(i)},
			TransactionSupport: TransactionSupport{EligibilityCheck: Supported, ClaimStatus: Supported, ProfessionalClaimSubmission: Supported,
				InstitutionalClaimSubmission: NotSupported, DentalClaimSubmission: NotSupported, ClaimPayment: EnrollmentRequired,
				CoordinationOfBenefits: NotSupported, UnsolicitedClaimAttachment: NotSupported}}})
	}
	d, err := Default().WithDirectoryFile("bench", f)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if hits := d.Find(Query{Text: "unitd helth"}); len(hits) == 0 {
			b.Fatal("no hits")
		}
	}
}
