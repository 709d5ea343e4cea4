package mockpayer_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/payers"
)

// expectation is what one published mock request must get back.
type expectation struct {
	levels    string // HL03 sequence
	payerID   string // 2100A NM109
	memberID  string // 2100C NM109
	firstName string // 2100C NM104 (the patient, for BCBS TX)
	aaa       string // "code@level"
	eb01      string // first EB01 at the patient level: "1" active, "6" inactive
	plan      string // EB05 of the first EB
	dental    bool
}

var expectations = map[string]expectation{
	"aetna-dependent":           {levels: "20,21,22,23", payerID: "60054", memberID: "AETNA9wcSu", firstName: "JOHN", eb01: "1", plan: "AETNA CHOICE POS II"},
	"anthem-ca-dependent":       {levels: "20,21,22,23", payerID: "040", memberID: "CGMBCBSCA123", firstName: "JANE", eb01: "1", plan: "PRUDENT BUYER PPO"},
	"bcbstx-dependent":          {levels: "20,21,22", payerID: "G84980", memberID: "A2CBCBSTX123", firstName: "JANE", eb01: "1", plan: "BLUECHOICE PPO"},
	"cigna-dependent":           {levels: "20,21,22,23", payerID: "62308", memberID: "CIGNAJTUxNm", firstName: "JOHN", eb01: "1", plan: "OPEN ACCESS PLUS"},
	"oscar-dependent":           {levels: "20,21,22,23", payerID: "OSCAR", memberID: "OSCAR123456", firstName: "John", eb01: "1", plan: "OSCAR SIMPLE SILVER"},
	"uhc-dependent":             {levels: "20,21,22,23", payerID: "87726", memberID: "UHC202649", firstName: "JOHN", eb01: "1", plan: "CHOICE PLUS"},
	"aetna-subscriber":          {levels: "20,21,22", payerID: "60054", memberID: "AETNA12345", firstName: "JANE", eb01: "1", plan: "OPEN ACCESS AETNA SELECT"},
	"ambetter-subscriber":       {levels: "20,21,22", payerID: "68069", memberID: "AMBETTER123", firstName: "JOHN", eb01: "1", plan: "AMBETTER BALANCED CARE 12"},
	"cigna-subscriber-jones":    {levels: "20,21,22", payerID: "62308", memberID: "23456789100", firstName: "JAMES", eb01: "1", plan: "OPEN ACCESS PLUS"},
	"cigna-subscriber-arrojo":   {levels: "20,21,22", payerID: "62308", memberID: "5643296", firstName: "ROLANDO", eb01: "1", plan: "LOCALPLUS"},
	"cigna-subscriber-beck":     {levels: "20,21,22", payerID: "62308", memberID: "R5TJR4HR4H", firstName: "ROD", eb01: "1", plan: "OPEN ACCESS PLUS HSA 3300"},
	"cigna-subscriber-cone":     {levels: "20,21,22", payerID: "62308", memberID: "5642296", firstName: "DAVID", eb01: "1", plan: "OPEN ACCESS PLUS"},
	"cigna-subscriber-castillo": {levels: "20,21,22", payerID: "62308", memberID: "FTRJRG3254", firstName: "FRANK", eb01: "1", plan: "LOCALPLUS"},
	"cigna-subscriber-fossum":   {levels: "20,21,22", payerID: "62308", memberID: "5641296", firstName: "CASEY", eb01: "1", plan: "OPEN ACCESS PLUS HSA 3300"},
	"cigna-subscriber-garces":   {levels: "20,21,22", payerID: "62308", memberID: "DHW5445", firstName: "RICH", eb01: "1", plan: "OPEN ACCESS PLUS"},
	"humana-subscriber":         {levels: "20,21,22", payerID: "61101", memberID: "HUMANA123", firstName: "JANE", eb01: "1", plan: "HUMANA GOLD PLUS HMO"},
	"kaiser-subscriber":         {levels: "20,21,22", payerID: "KSRCN", memberID: "KAISER123456", firstName: "JANE", eb01: "1", plan: "KAISER PERMANENTE DEDUCTIBLE HMO 1500"},
	"cms-subscriber":            {levels: "20,21,22", payerID: "CMS", memberID: "1EG4TE5MK73", firstName: "JANE", eb01: "1"},
	"uhc-subscriber":            {levels: "20,21,22", payerID: "87726", memberID: "UHC123456", firstName: "JANE", eb01: "1", plan: "NAVIGATE HMO"},
	"mbi-lookup":                {levels: "20,21,22", payerID: "CMS", memberID: "1EG4TE5MK73", firstName: "JANE", eb01: "1"},
	"uhc-inactive":              {levels: "20,21,22", payerID: "87726", memberID: "UHCINACTIVE", firstName: "JANE", eb01: "6", plan: "CHOICE PLUS"},
	"ameritas-dental":           {levels: "20,21,22", payerID: "AMTAS00425", memberID: "007007007", firstName: "FALCON", eb01: "1", plan: "AMERITAS CLASSIC 100/80/50", dental: true},
	"anthem-dental":             {levels: "20,21,22", payerID: "84103", memberID: "AFK987654321", firstName: "AARDVARK", eb01: "1", plan: "DENTAL COMPLETE", dental: true},
	"cigna-dental":              {levels: "20,21,22", payerID: "62308", memberID: "U3141592653", firstName: "JAGUAR", eb01: "1", plan: "CIGNA DENTAL 1500", dental: true},
	"cigna-dental-procedure":    {levels: "20,21,22", payerID: "62308", memberID: "U9876543210", firstName: "JAMES", eb01: "1", plan: "CIGNA DENTAL 1000"},
	"metlife-dental":            {levels: "20,21,22", payerID: "10134", memberID: "88877788", firstName: "ELEPHANT", eb01: "1", plan: "PDP PLUS", dental: true},
	"uhc-dental":                {levels: "20,21,22", payerID: "52133", memberID: "404404404", firstName: "BEAVER", eb01: "1", plan: "OPTIONS PPO 30", dental: true},
	"uhc-aaa-42":                {levels: "20", payerID: "87726", aaa: "42@20"},
	"uhc-aaa-43":                {levels: "20,21", payerID: "87726", aaa: "43@21"},
	"uhc-aaa-72":                {levels: "20,21,22", payerID: "87726", memberID: "UHCAAA72", firstName: "John", aaa: "72@22"},
	"uhc-aaa-73":                {levels: "20,21,22", payerID: "87726", memberID: "UHCAAA73", firstName: "John", aaa: "73@22"},
	"uhc-aaa-75":                {levels: "20,21,22", payerID: "87726", memberID: "UHCAAA75", firstName: "Jane", aaa: "75@22"},
	"uhc-aaa-79":                {levels: "20", payerID: "87726", aaa: "79@20"},
}

// TestEveryMockRequestThroughTheRealPath builds the 270 of every published
// mock request with the eligibility builder, sends it through the mock
// connection, and checks the 271: envelope clean, echoes, loops, content.
func TestEveryMockRequestThroughTheRealPath(t *testing.T) {
	m := newMock()
	reqs := mockpayer.Requests()
	if len(reqs) != len(expectations) {
		t.Errorf("%d mock requests, %d expectations", len(reqs), len(expectations))
	}
	for _, mr := range reqs {
		t.Run(mr.Name, func(t *testing.T) {
			want, ok := expectations[mr.Name]
			if !ok {
				t.Fatalf("no expectation for %s", mr.Name)
			}
			x270 := build270(t, mr.RequestJSON())
			req := parseRequest(t, x270)
			p := parse271(t, exchange(t, m, x270))
			checkEnvelope(t, p, req)
			if got := p.levels(); got != want.levels {
				t.Errorf("HL levels = %s, want %s", got, want.levels)
			}
			if pr := p.find("20", "NM1", "PR"); len(pr) != 1 || pr[0].el(9) != want.payerID {
				t.Errorf("2100A = %v, want payer %s", pr, want.payerID)
			}
			if len(p.find("20", "PER", "IC")) == 0 {
				t.Error("2100A has no PER*IC payer contact")
			}
			if want.levels != "20" {
				if prov := p.find("21", "NM1"); len(prov) != 1 || !slices.Equal(prov[0].elems, req.find("21", "NM1")[0].elems) {
					t.Errorf("2100B = %v, want the request's %v", prov, req.find("21", "NM1"))
				}
			}
			if strings.Contains(want.levels, "22") {
				checkSubscriber(t, p, req, want)
			}
			if want.aaa != "" {
				checkRejection(t, p, want.aaa)
				return
			}
			patient := want.levels[len(want.levels)-2:]
			checkBenefits(t, p, patient, want)
			if len(mr.Dependents) > 0 {
				checkDependentPlacement(t, p, mr, want)
			}
		})
	}
}

func parseRequest(t *testing.T, x270 []byte) parsed271 {
	t.Helper()
	return parse271(t, x270) // the same reader and envelope check serve the 270
}

func checkEnvelope(t *testing.T, p, req parsed271) {
	t.Helper()
	isa := p.find("", "ISA")[0]
	if isa.el(15) != "T" {
		t.Errorf("ISA15 = %q, want T", isa.el(15))
	}
	reqISA := req.find("", "ISA")[0]
	if isa.el(7) != reqISA.el(5) || isa.el(8) != reqISA.el(6) {
		t.Errorf("ISA receiver %s/%s does not answer the request's sender %s/%s", isa.el(7), isa.el(8), reqISA.el(5), reqISA.el(6))
	}
	if gs := p.find("", "GS")[0]; gs.el(1) != "HB" || gs.el(8) != "005010X279A1" || gs.el(3) != req.find("", "GS")[0].el(2) {
		t.Errorf("GS = %v", gs.elems)
	}
	if st := p.find("", "ST")[0]; st.el(1) != "271" || st.el(3) != "005010X279A1" {
		t.Errorf("ST = %v", st.elems)
	}
	bht, reqBHT := p.find("", "BHT")[0], req.find("", "BHT")[0]
	if bht.el(1) != "0022" || bht.el(2) != "11" || bht.el(3) != reqBHT.el(3) {
		t.Errorf("BHT = %v, want 0022*11 echoing %s", bht.elems, reqBHT.el(3))
	}
}

func checkSubscriber(t *testing.T, p, req parsed271, want expectation) {
	t.Helper()
	il := p.find("22", "NM1", "IL")
	if len(il) != 1 || il[0].el(9) != want.memberID || il[0].el(4) != want.firstName {
		t.Errorf("2100C NM1 = %v, want member %s first name %s", il, want.memberID, want.firstName)
	}
	// The request's trace comes back as TRN*2 with the same number and
	// originator, at the level of the answer that carries the patient.
	reqTRN := req.find("", "TRN", "1")
	if len(reqTRN) != 1 {
		t.Fatalf("request has %d TRN", len(reqTRN))
	}
	echo := p.find("", "TRN", "2", reqTRN[0].el(2), reqTRN[0].el(3))
	if len(echo) != 1 {
		t.Errorf("request trace %v not echoed once as TRN*2: %v", reqTRN[0].elems, p.find("", "TRN"))
	}
	if own := p.find("", "TRN", "1"); len(own) != 1 || len(own[0].el(3)) != 10 {
		t.Errorf("payer trace TRN*1 = %v", own)
	}
}

func checkRejection(t *testing.T, p parsed271, want string) {
	t.Helper()
	code, level, _ := strings.Cut(want, "@")
	aaa := p.find("", "AAA")
	if len(aaa) != 1 || aaa[0].el(3) != code || aaa[0].level != level {
		t.Fatalf("AAA = %v, want code %s at HL level %s", aaa, code, level)
	}
	follow := map[string]string{"42": "R", "43": "C", "72": "C", "73": "C", "75": "C", "79": "C"}[code]
	if aaa[0].el(4) != follow {
		t.Errorf("AAA04 = %q, want %q", aaa[0].el(4), follow)
	}
	if eb := p.find("", "EB"); len(eb) != 0 {
		t.Errorf("a rejection carries benefits: %v", eb)
	}
	// The AAA of 2100C follows the NM1 (and precedes DMG), as the guide
	// orders the loop.
	if level == "22" {
		var order []string
		for _, s := range p.segs {
			if s.elems[0] == "SE" {
				break
			}
			if s.level == "22" && s.elems[0] != "HL" && s.elems[0] != "TRN" {
				order = append(order, s.elems[0])
			}
		}
		if strings.Join(order, ",") != "NM1,AAA,DMG" {
			t.Errorf("2100C order = %v, want NM1,AAA,DMG", order)
		}
	}
}

func checkBenefits(t *testing.T, p parsed271, patient string, want expectation) {
	t.Helper()
	ebs := p.find(patient, "EB")
	if len(ebs) == 0 {
		t.Fatalf("no EB at level %s", patient)
	}
	if ebs[0].el(1) != want.eb01 || (want.plan != "" && ebs[0].el(5) != want.plan) {
		t.Errorf("first EB = %v, want EB01 %s plan %q", ebs[0].elems, want.eb01, want.plan)
	}
	if want.eb01 != "1" {
		if len(p.find("22", "DTP", "347")) == 0 {
			t.Error("inactive coverage without a plan end date (DTP*347)")
		}
		return
	}
	if len(p.find("", "DTP", "346"))+len(p.find("", "DTP", "307")) == 0 {
		t.Error("no plan begin (DTP*346) or eligibility (DTP*307) date")
	}
	has := func(eb01, period string) bool {
		for _, e := range ebs {
			if e.el(1) == eb01 && (period == "" || e.el(6) == period) {
				return true
			}
		}
		return false
	}
	if want.payerID == "CMS" {
		for _, ins := range []string{"MA", "MB"} {
			if len(p.find(patient, "EB", "1", "", "30", ins)) != 1 {
				t.Errorf("Medicare answer lacks EB*1**30*%s", ins)
			}
		}
		return
	}
	if !has("C", "23") && !has("C", "22") && !has("C", "32") {
		t.Error("no deductible total (EB*C, period 23/22/32)")
	}
	if !has("C", "29") {
		t.Error("no remaining deductible (EB*C, period 29)")
	}
	if !has("A", "") {
		t.Error("no coinsurance (EB*A)")
	}
	if want.dental {
		checkDental(t, p, patient, has)
		return
	}
	if want.plan != "CIGNA DENTAL 1000" && !has("G", "29") {
		t.Error("no remaining out-of-pocket (EB*G, period 29)")
	}
}

func checkDental(t *testing.T, p parsed271, patient string, has func(string, string) bool) {
	t.Helper()
	if len(p.find(patient, "EB", "1", "", "35^23^24^25^26^27^36^38^39^40^41")) != 1 {
		t.Error("dental coverage line does not list STC 35 and the dental categories")
	}
	if !has("F", "29") {
		t.Error("no remaining annual maximum (EB*F, period 29)")
	}
	if len(p.find(patient, "HSD", "VS")) < 2 {
		t.Error("fewer than 2 frequency limits (HSD)")
	}
	percents := map[string]bool{}
	for _, e := range p.find(patient, "EB", "A") {
		if e.el(12) == "Y" {
			percents[e.el(8)] = true
		}
	}
	for _, want := range []string{"0", ".2", ".5"} {
		if !percents[want] {
			t.Errorf("no in-network coinsurance %s (classes preventive 0, basic .2, major .5): %v", want, percents)
		}
	}
}

func checkDependentPlacement(t *testing.T, p parsed271, mr mockpayer.MockRequest, want expectation) {
	t.Helper()
	dep := mr.Dependents[0]
	payer, _ := payers.Default().Lookup(mr.TradingPartnerServiceID)
	if payer.DependentPlacement == payers.PlacementSubscriber {
		// BCBS TX: the dependent comes back as the subscriber.
		if dmg := p.find("22", "DMG"); len(dmg) != 1 || dmg[0].el(2) != dep.DateOfBirth {
			t.Errorf("2100C DMG = %v, want the dependent's birth date", dmg)
		}
		if len(p.find("", "INS")) != 0 {
			t.Error("dependent-as-subscriber answer carries INS")
		}
		return
	}
	nm1 := p.find("23", "NM1", "03")
	if len(nm1) != 1 || !strings.EqualFold(nm1[0].el(4), dep.FirstName) || nm1[0].el(9) != "" {
		t.Errorf("2100D NM1 = %v, want %s with no NM109", nm1, dep.FirstName)
	}
	if dmg := p.find("23", "DMG"); len(dmg) != 1 || dmg[0].el(2) != dep.DateOfBirth {
		t.Errorf("2100D DMG = %v", dmg)
	}
	if ins := p.find("23", "INS", "N"); len(ins) != 1 || (ins[0].el(2) != "01" && ins[0].el(2) != "19") {
		t.Errorf("2100D INS = %v", ins)
	}
	if eb := p.find("22", "EB"); len(eb) != 0 {
		t.Errorf("subscriber level carries benefits in a dependent answer: %v", eb)
	}
}

// An MBI lookup followed by a CMS check with the MBI it returned works.
func TestMBILookupThenCMSCheck(t *testing.T) {
	m := newMock()
	lookup := findRequest(t, "mbi-lookup")
	p := parse271(t, exchange(t, m, build270(t, lookup.RequestJSON())))
	mbi := p.find("22", "NM1", "IL")[0].el(9)

	check := findRequest(t, "cms-subscriber")
	check.Subscriber.MemberID = mbi
	p = parse271(t, exchange(t, m, build270(t, check.RequestJSON())))
	if got := p.find("22", "NM1", "IL")[0].el(9); got != mbi {
		t.Errorf("CMS answered member %s, want %s", got, mbi)
	}
	if len(p.find("22", "EB", "1", "", "30", "MA")) != 1 {
		t.Error("CMS check with the looked-up MBI is not active Part A")
	}
}

func TestTestModeRoutesToTheMockAndProductionNever(t *testing.T) {
	m := newMock()
	if _, err := payers.NewRouter(payers.Default(), m, map[string]payers.Connection{"core": m}); err == nil {
		t.Fatal("router accepted the mock payer as a production connection")
	}
	r, err := payers.NewRouter(payers.Default(), m, nil)
	if err != nil {
		t.Fatal(err)
	}
	route, err := r.Route(payers.ModeTest, "87726", payers.Eligibility)
	if err != nil {
		t.Fatal(err)
	}
	x270 := build270(t, findRequest(t, "uhc-subscriber").RequestJSON())
	if _, err := route.Connection.Exchange(context.Background(), x270); err != nil {
		t.Fatalf("test route: %v", err)
	}
	if _, err := r.Route(payers.ModeProduction, "87726", payers.Eligibility); !errors.Is(err, payers.ErrNotConfigured) {
		t.Fatalf("production route to an unconfigured mock payer: %v", err)
	}
}

func findRequest(t testing.TB, name string) mockpayer.MockRequest {
	t.Helper()
	for _, r := range mockpayer.Requests() {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("no mock request %s", name)
	return mockpayer.MockRequest{}
}

func TestRequestsAreCopiesAndReadyToSend(t *testing.T) {
	a := mockpayer.Requests()
	a[0].Encounter.ServiceTypeCodes[0] = "XX"
	a[0].Dependents[0].FirstName = "XX"
	b := mockpayer.Requests()
	if b[0].Encounter.ServiceTypeCodes[0] == "XX" || b[0].Dependents[0].FirstName == "XX" {
		t.Fatal("Requests shares its slices with the fixtures")
	}
	names := map[string]bool{}
	for _, r := range b {
		if r.Name == "" || r.Scenario == "" || r.PayerName == "" || r.Outcome == "" || names[r.Name] {
			t.Errorf("incomplete or duplicate mock request %+v", r)
		}
		names[r.Name] = true
		body := string(r.RequestJSON())
		for _, meta := range []string{r.Scenario, r.Outcome} {
			if strings.Contains(body, meta) {
				t.Errorf("%s: request JSON carries metadata %q", r.Name, meta)
			}
		}
	}
}

// The README's table lists every mock request with its identifiers.
func TestReadmeListsEveryMockRequest(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range mockpayer.Requests() {
		id := r.Subscriber.MemberID
		if id == "" {
			id = "SSN " + r.Subscriber.SSN
		}
		row := fmt.Sprintf("| %d | `%s` |", r.Row, r.Name)
		i := bytes.Index(readme, []byte(row))
		if i < 0 {
			t.Errorf("README has no row %q", row)
			continue
		}
		line := readme[i : i+bytes.IndexByte(readme[i:], '\n')]
		if !bytes.Contains(line, []byte("`"+id+"`")) || !bytes.Contains(line, []byte(r.Outcome)) {
			t.Errorf("README row for %s lacks %s or %q: %s", r.Name, id, r.Outcome, line)
		}
	}
}

// Exchanges run concurrently (the API serves many checks at once); run
// with -race. Control numbers stay unique.
func TestConcurrentExchanges(t *testing.T) {
	m := newMock()
	reqs := mockpayer.Requests()
	inputs := make([][]byte, len(reqs))
	for i, r := range reqs {
		inputs[i] = build270(t, r.RequestJSON())
	}
	var mu sync.Mutex
	seen := map[string]bool{}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range inputs {
				out, err := m.Exchange(context.Background(), inputs[(i+g)%len(inputs)])
				if err != nil {
					t.Error(err)
					return
				}
				isa13 := string(out[90:99])
				mu.Lock()
				if seen[isa13] {
					t.Errorf("ISA13 %s handed out twice", isa13)
				}
				seen[isa13] = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}
