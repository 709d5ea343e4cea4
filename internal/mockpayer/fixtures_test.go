package mockpayer

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/clearhouse/clearhouse/internal/payers"
)

// The published mock table has rows 1-34; row 34 (the Stedi agent demo
// against "Stedi Test Payer") is not part of the eligibility mock set.
const publishedRows = 33

func TestFixturesCoverThePublishedMockTable(t *testing.T) {
	scs, err := fixtures()
	if err != nil {
		t.Fatal(err)
	}
	rows := map[int]string{}
	for _, s := range scs {
		if prev, dup := rows[s.row]; dup {
			t.Errorf("row %d is both %s and %s", s.row, prev, s.name)
		}
		rows[s.row] = s.name
	}
	for r := 1; r <= publishedRows; r++ {
		if _, ok := rows[r]; !ok {
			t.Errorf("published mock row %d has no fixture", r)
		}
	}
	if len(scs) != publishedRows {
		t.Errorf("%d fixtures, want %d", len(scs), publishedRows)
	}
}

func TestFixturePayersAgreeWithTheDirectory(t *testing.T) {
	scs, _ := fixtures()
	dir := payers.Default()
	for _, s := range scs {
		p, ok := dir.Lookup(s.request.TradingPartnerServiceID)
		if !ok {
			t.Errorf("%s: payer %s not in the directory", s.name, s.request.TradingPartnerServiceID)
			continue
		}
		if !p.Supports(payers.Eligibility) {
			t.Errorf("%s: directory payer %s does not list 270", s.name, p.ID)
		}
		if len(s.request.Dependents) == 0 || s.reject != nil {
			continue
		}
		answersInDependents := len(s.dependent) > 0
		if want := p.DependentPlacement == payers.PlacementDependents; answersInDependents != want {
			t.Errorf("%s: fixture answers the dependent in dependents=%v, directory placement is %q",
				s.name, answersInDependents, p.DependentPlacement)
		}
	}
}

var mbiPattern = regexp.MustCompile(`^[1-9][AC-HJKMNP-RT-Y][AC-HJKMNP-RT-Y0-9][0-9][AC-HJKMNP-RT-Y][AC-HJKMNP-RT-Y0-9][0-9][AC-HJKMNP-RT-Y]{2}[0-9]{2}$`)

// The CMS mock's member id is a format-valid MBI, and the MBI lookup
// returns exactly that MBI, so lookup-then-check works.
func TestCMSMockUsesTheMBIThatTheLookupReturns(t *testing.T) {
	cms, lookup := scenarioNamed(t, "cms-subscriber"), scenarioNamed(t, "mbi-lookup")
	mbi := cms.request.Subscriber.MemberID
	if !mbiPattern.MatchString(mbi) {
		t.Fatalf("CMS mock member id %q is not a valid MBI", mbi)
	}
	got := strings.Split(lookup.subscriber[0].line, "*")
	if got[8] != "MI" || got[9] != mbi {
		t.Errorf("MBI lookup answers %q, want NM1 ...*MI*%s", lookup.subscriber[0].line, mbi)
	}
	if lookup.request.Subscriber.MemberID != "" || lookup.request.Subscriber.SSN != "123456789" ||
		lookup.request.Subscriber.FirstName != "" {
		t.Errorf("MBI lookup request = %+v, want SSN, no member id, no first name", lookup.request.Subscriber)
	}
}

// Every EB line is checked against the element rules the mapper and the
// guide rely on, so a miscounted "*" in a fixture cannot shift a value into
// the wrong element.
func TestFixtureBenefitLinesAreWellFormed(t *testing.T) {
	scs, _ := fixtures()
	timePeriods := strings.Fields("6 7 13 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36")
	levels := strings.Fields("CHD DEP ECH EMP ESP FAM IND SPC SPO")
	amount := regexp.MustCompile(`^\d+(\.\d{1,2})?$`)
	for _, s := range scs {
		for _, tmpl := range slices.Concat(s.subscriberBenefits, s.dependentBenefits) {
			e := strings.Split(tmpl.line, "*")
			el := func(n int) string {
				if n < len(e) {
					return e[n]
				}
				return ""
			}
			switch tmpl.id {
			case "EB":
				checks := []struct {
					ok   bool
					what string
				}{
					{len(e) <= 15, "more than 14 elements"},
					{el(2) == "" || slices.Contains(levels, el(2)), "EB02 coverage level"},
					{el(6) == "" || slices.Contains(timePeriods, el(6)), "EB06 time period"},
					{el(7) == "" || amount.MatchString(el(7)), "EB07 amount"},
					{el(8) == "" || validPercent(el(8)), "EB08 percent"},
					{(el(9) == "") == (el(10) == ""), "EB09/EB10 together"},
					{el(11) == "" || strings.Contains("YNU", el(11)), "EB11"},
					{el(12) == "" || strings.Contains("YNUW", el(12)), "EB12 network"},
					{el(13) == "" || strings.HasPrefix(el(13), "AD:D"), "EB13 CDT procedure"},
					{el(1) != "A" || el(7) == "", "coinsurance carries a percent, not an amount"},
				}
				for _, c := range checks {
					if !c.ok {
						t.Errorf("%s: %q: %s", s.name, tmpl.line, c.what)
					}
				}
			case "HSD":
				if len(e) > 9 || !slices.Contains([]string{"DY", "FL", "HS", "MN", "VS"}, el(1)) ||
					!slices.Contains(timePeriods, el(5)) {
					t.Errorf("%s: %q is not a frequency (HSD01 qualifier, HSD05 period)", s.name, tmpl.line)
				}
			}
		}
	}
}

func validPercent(s string) bool {
	f, err := strconv.ParseFloat(s, 64)
	return err == nil && f >= 0 && f <= 1
}

func TestFixtureLoaderRejects(t *testing.T) {
	const head = `{"payer": {"id": "87726", "name": "UHC", "traceOriginator": "9000000001", "contacts": []},
		"blocks": {"b": ["EB*1**30"]}, "scenarios": [`
	const req = `"request": {"tradingPartnerServiceId": "87726", "provider": {"npi": "1999999984"},
		"subscriber": {"lastName": "Doe", "memberId": "X1"}, "encounter": {"serviceTypeCodes": ["30"]}}`
	tests := map[string]string{
		"unknown block":      `{"name": "a", "row": 1, "title": "t", ` + req + `, "subscriber": ["NM1*IL*1*DOE"], "subscriberBenefits": ["@nope"]}`,
		"trailing element":   `{"name": "a", "row": 1, "title": "t", ` + req + `, "subscriber": ["NM1*IL*1*DOE*"], "subscriberBenefits": ["@b"]}`,
		"no benefits":        `{"name": "a", "row": 1, "title": "t", ` + req + `, "subscriber": ["NM1*IL*1*DOE"]}`,
		"subscriber not IL":  `{"name": "a", "row": 1, "title": "t", ` + req + `, "subscriber": ["NM1*03*1*DOE"], "subscriberBenefits": ["@b"]}`,
		"bad reject loop":    `{"name": "a", "row": 1, "title": "t", ` + req + `, "reject": {"loop": "2110C", "aaa": "AAA*N**72*C"}}`,
		"reject not AAA":     `{"name": "a", "row": 1, "title": "t", ` + req + `, "reject": {"loop": "2100C", "aaa": "MSG*X"}}`,
		"no row":             `{"name": "a", "title": "t", ` + req + `, "subscriber": ["NM1*IL*1*DOE"], "subscriberBenefits": ["@b"]}`,
		"unknown field":      `{"name": "a", "row": 1, "title": "t", "colour": "red", ` + req + `}`,
		"service type 98":    `{"name": "a", "row": 1, "title": "t", "request": {"tradingPartnerServiceId": "87726", "provider": {"npi": "1"}, "subscriber": {"lastName": "D"}, "encounter": {"serviceTypeCodes": ["98"]}}, "subscriber": ["NM1*IL*1*DOE"], "subscriberBenefits": ["@b"]}`,
		"bad optional key":   `{"name": "a", "row": 1, "title": "t", ` + req + `, "optional": {"subscriber.nickname": "J"}, "subscriber": ["NM1*IL*1*DOE"], "subscriberBenefits": ["@b"]}`,
		"dependent unsent":   `{"name": "a", "row": 1, "title": "t", ` + req + `, "subscriber": ["NM1*IL*1*DOE"], "dependent": ["NM1*03*1*DOE"], "dependentBenefits": ["@b"]}`,
		"bad segment id":     `{"name": "a", "row": 1, "title": "t", ` + req + `, "subscriber": ["NM1*IL*1*DOE"], "subscriberBenefits": ["eb*1"]}`,
		"colon in text":      `{"name": "a", "row": 1, "title": "t", ` + req + `, "subscriber": ["NM1*IL*1*DOE"], "subscriberBenefits": ["@b", "MSG*NOTE: X"]}`,
		"delimiter in value": `{"name": "a", "row": 1, "title": "t", ` + req + `, "subscriber": ["NM1*IL*1*DOE~X"], "subscriberBenefits": ["@b"]}`,
	}
	for name, sc := range tests {
		fsys := fstest.MapFS{"f/p.json": {Data: []byte(head + sc + `]}`)}}
		if _, err := loadFixtures(fsys, "f"); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	ok := `{"name": "a", "row": 1, "title": "t", ` + req + `, "subscriber": ["NM1*IL*1*DOE"], "subscriberBenefits": ["@b"]}`
	if _, err := loadFixtures(fstest.MapFS{"f/p.json": {Data: []byte(head + ok + `]}`)}}, "f"); err != nil {
		t.Errorf("valid fixture refused: %v", err)
	}
}

func scenarioNamed(t *testing.T, name string) *scenario {
	t.Helper()
	scs, err := fixtures()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range scs {
		if s.name == name {
			return s
		}
	}
	t.Fatalf("no scenario %q", name)
	return nil
}
