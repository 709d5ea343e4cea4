package eligibility

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/mockpayer/scenario"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/testenv"
	"github.com/clearhouse/clearhouse/x12"
)

// outcomesFile holds a digest of every outcome TestCheckOutcomesUnchanged
// computes, written by 078a2b3: the commit before the work on the check's
// CPU outside HTTP and the database (session 7, elig-svc). Each of those
// changes must leave every digest as it is; -update rewrites the file and
// is only right for a change that means to alter an answer.
const outcomesFile = "testdata/outcomes.txt"

// TestCheckOutcomesUnchanged is the differential test of the check's
// path: it runs Service.Check with the in-process mock payer over every
// published mock request, every cookbook scenario of the payer simulator,
// and seeded variations of the mock requests (fields set to odd,
// escaping, X12-delimiter, over-long and empty values, dependents and
// service types added), and Map271 with the answer's JSON over every
// corpus 271 and seeded mutations of them (segments dropped, repeated or
// cut, elements replaced by known, unknown and odd codes). Each outcome —
// HTTP status, history status, the 270, the 271, the answer's JSON and
// the request JSON history keeps, or the mapping's error — is hashed and
// compared with outcomesFile, so the old path's output is the reference.
func TestCheckOutcomesUnchanged(t *testing.T) {
	got := map[string]string{}
	var order []string
	add := func(name string, parts ...[]byte) {
		if _, dup := got[name]; dup {
			t.Fatalf("case %s twice", name)
		}
		h := sha256.New()
		for _, p := range parts {
			fmt.Fprintf(h, "%d:", len(p))
			h.Write(p)
		}
		got[name] = hex.EncodeToString(h.Sum(nil)[:12])
		order = append(order, name)
	}
	checkOutcomes(t, add)
	mapOutcomes(t, add)

	if testenv.Updating() {
		var b bytes.Buffer
		for _, name := range order {
			fmt.Fprintf(&b, "%s %s\n", name, got[name])
		}
		if err := os.WriteFile(outcomesFile, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want := readOutcomes(t)
	bad := 0
	for _, name := range order {
		w, ok := want[name]
		switch {
		case !ok:
			t.Errorf("%s: no outcome in %s (run go test -update on the commit it names)", name, outcomesFile)
			bad++
		case w != got[name]:
			t.Errorf("%s: outcome changed", name)
			bad++
		}
		if bad > 20 {
			t.Fatal("too many changed outcomes")
		}
	}
	// The corpus may be the repository's smaller copy: only the outcomes
	// this run computed are compared, but the published mocks and their
	// variations must all be there.
	if len(order) < 1000 {
		t.Errorf("only %d outcomes computed", len(order))
	}
}

func readOutcomes(t *testing.T) map[string]string {
	f, err := os.Open(outcomesFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, digest, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			t.Fatalf("%s: bad line %q", outcomesFile, sc.Text())
		}
		want[name] = digest
	}
	return want
}

// checkOutcomes runs the checks and adds each outcome.
func checkOutcomes(t *testing.T, add func(string, ...[]byte)) {
	plain := outcomeService(t, nil)
	var mocks []*Request
	var names []string
	for _, m := range mockpayer.Requests() {
		var req Request
		if err := json.Unmarshal(m.RequestJSON(), &req); err != nil {
			t.Fatal(err)
		}
		mocks, names = append(mocks, &req), append(names, m.Name)
		addCheck(t, add, plain, "mock/"+m.Name, &req)
	}

	// The simulator's cookbook, each scenario asked for as it matches.
	data, err := os.ReadFile(filepath.Join("..", "mockpayer", "scenario", "testdata", "cookbook.json"))
	if err != nil {
		t.Fatal(err)
	}
	set, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	cook := outcomeService(t, set)
	var cookbook struct {
		Scenarios []struct {
			Name        string         `json:"name"`
			Match       scenario.Match `json:"match"`
			Eligibility *struct {
				DelayMs int  `json:"delayMs"`
				Timeout bool `json:"timeout"`
			} `json:"eligibility"`
		} `json:"scenarios"`
	}
	if err := json.Unmarshal(data, &cookbook); err != nil {
		t.Fatal(err)
	}
	for _, sc := range cookbook.Scenarios {
		if e := sc.Eligibility; e == nil || e.DelayMs > 0 || e.Timeout {
			continue // no eligibility answer, or one that waits
		}
		i := 0
		for _, base := range mocks {
			if len(base.Dependents) > 0 || base.Encounter == nil {
				continue // scenarios describe subscribers
			}
			if i++; i > 4 {
				break
			}
			req := cloneRequest(t, base)
			m := sc.Match
			if m.PayerID != "" {
				req.TradingPartnerServiceID = m.PayerID
			}
			req.Subscriber.MemberID = m.MemberID
			if m.LastName != "" {
				req.Subscriber.LastName = m.LastName
			}
			if len(m.ProcedureCodes) > 0 {
				req.Encounter = &Encounter{ProcedureCode: m.ProcedureCodes[0], ProductOrServiceIDQualifier: "AD"}
			}
			addCheck(t, add, cook, fmt.Sprintf("cookbook/%s/%d", sc.Name, i), req)
		}
	}

	// Seeded variations of every mock request.
	rng := rand.New(rand.NewPCG(29, 2))
	for i, base := range mocks {
		for v := range 48 {
			req := cloneRequest(t, base)
			vary(rng, req, v%2 == 0)
			addCheck(t, add, plain, fmt.Sprintf("vary/%s/%d", names[i], v), req)
		}
	}
}

// outcomeService is a service as BenchmarkCheck has it, with fixed
// control numbers and clock, the mock answering with set's scenarios
// first when set is not nil.
func outcomeService(t *testing.T, set *scenario.Set) *Service {
	opts := []mockpayer.Option{mockpayer.WithClock(func() time.Time { return serviceTime })}
	if set != nil {
		opts = append(opts, mockpayer.WithScenarioSet(set))
	}
	router, err := payers.NewRouter(payers.Default(), mockpayer.New(opts...), nil)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := NewService(Config{Router: router, History: &lastHistory{}, Clock: clock.NewFake(serviceTime),
		Numbers: &x12.SequentialControlNumbers{Interchange: 100, Group: 100}})
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// lastHistory keeps the last check recorded.
type lastHistory struct{ c store.EligibilityCheck }

func (h *lastHistory) InsertEligibilityCheck(_ context.Context, c store.EligibilityCheck) error {
	h.c = c
	return nil
}

// traceInX12 finds our trace number in a 270 (TRN02 of our TRN*1).
var traceInX12 = regexp.MustCompile(`TRN\*1\*([0-9A-Z]{26})\*`)

// addCheck runs one check and adds its outcome, the check's random ids
// (its id and our trace number) replaced by fixed ones.
func addCheck(t *testing.T, add func(string, ...[]byte), svc *Service, name string, req *Request) {
	res, err := svc.Check(context.Background(), Caller{AccountID: "acct1", KeyID: "key1", Mode: payers.ModeTest}, req)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	fixed := func(b []byte) []byte {
		b = bytes.Clone(b)
		if res.ID != "" {
			b = bytes.ReplaceAll(b, []byte(res.ID), []byte("ec_ID"))
		}
		if m := traceInX12.FindSubmatch(res.X12Request); m != nil {
			b = bytes.ReplaceAll(b, m[1], []byte("TRACE"))
		}
		return b
	}
	c := svc.cfg.History.(*lastHistory).c
	sim := ""
	if s := c.Simulation; s != nil {
		sim = fmt.Sprintf("%s %s %d %d", s.Kind, s.Scenario, s.Index, s.Line)
	}
	add(name, fmt.Appendf(nil, "%d %s %t", res.HTTPStatus, res.Status, res.Response != nil),
		fixed(res.X12Request), fixed(res.X12Answer), fixed(res.JSON), c.RequestJSON, fixed(c.ResponseJSON),
		fmt.Appendf(nil, "%s|%s|%s|%s|%s|%s|%d|%s|%s|%s|%s|%s|%s|%v", c.TradingPartnerServiceID, c.PayerName, c.ControlNumber,
			c.SubmitterControlNumber, c.Status, c.Mode, c.HTTPStatus, c.PatientName, c.MemberID, c.PatientBirthDate,
			c.ServiceDate, c.Route, sim, c.CreatedAt))
	res.Release()
}

func cloneRequest(t *testing.T, r *Request) *Request {
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var c Request
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return &c
}

// oddValues are what vary sets fields to: values the mock payer echoes,
// values validation refuses, values JSON must escape, X12 delimiters,
// codes and dates.
var oddValues = []string{
	"", "A", "x", "SMITH", "Smith", "O'NEIL", "Dr. Who & Co", "<b>", `"quoted"`, `back\slash`, "tab\there",
	"line\nbreak", "é", "\u2028", "*", "~", ":", "^", "|", ">", "  padded  ", "1999999984", "1234567893",
	"20240801", "19710101", "20240101-20241231", "30", "35", "98", "1", "XX", "PI", "MI", "F", "M", "U", "18",
	"lower case", strings.Repeat("L", 81), "ABC123456", "UHC123456", "\x00", "\xff", "TX", "75034", "D8",
	"01", "19", "D2740", "HC", "AD", "99213", "11", "G8", "9", "-", ".5", "1.", "ZZZ",
}

// plainValues are values validation lets through.
var plainValues = []string{"SMITH", "Smith", "O'NEIL", "Dr. Who & Co", "A", "ABC123456", "lower case", "  padded  ",
	"NORTH TEXAS", "#1 CLINIC (MAIN)", "a+b=c", "50% OFF", "X-Y/Z", "Q?", "!@", "1999999984", "20240801"}

// vary changes one to four fields of r to odd values (one field to a
// plain value when plain is set), and sometimes adds a dependent, service
// types or procedures.
func vary(rng *rand.Rand, r *Request, plain bool) {
	if plain {
		slots := stringSlots(reflect.ValueOf(r).Elem(), rng)
		slots[rng.IntN(len(slots))].SetString(plainValues[rng.IntN(len(plainValues))])
		return
	}
	for range 1 + rng.IntN(4) {
		switch rng.IntN(10) {
		case 0:
			d := Dependent{Patient: Patient{FirstName: "KID", LastName: "DOE", DateOfBirth: "20150505"}}
			if r.Subscriber != nil {
				d.Patient = r.Subscriber.Patient
				d.FirstName = oddValues[rng.IntN(len(oddValues))]
			}
			r.Dependents = append(r.Dependents, d)
		case 1:
			if r.Encounter == nil {
				r.Encounter = &Encounter{}
			}
			r.Encounter.ServiceTypeCodes = append(r.Encounter.ServiceTypeCodes, oddValues[rng.IntN(len(oddValues))])
		case 2:
			if r.Encounter == nil {
				r.Encounter = &Encounter{}
			}
			r.Encounter.MedicalProcedures = append(r.Encounter.MedicalProcedures, MedicalProcedure{
				ProcedureCode: oddValues[rng.IntN(len(oddValues))], ProductOrServiceIDQualifier: "HC",
				ProcedureModifiers: []string{oddValues[rng.IntN(len(oddValues))]}})
		default:
			slots := stringSlots(reflect.ValueOf(r).Elem(), rng)
			slots[rng.IntN(len(slots))].SetString(oddValues[rng.IntN(len(oddValues))])
		}
	}
}

// stringSlots lists the settable strings of v, making nil pointers to
// structs as it goes (a few at random, so most requests keep their shape).
func stringSlots(v reflect.Value, rng *rand.Rand) []reflect.Value {
	var out []reflect.Value
	switch v.Kind() {
	case reflect.String:
		out = append(out, v)
	case reflect.Pointer:
		if v.IsNil() {
			if rng.IntN(6) != 0 {
				return nil
			}
			v.Set(reflect.New(v.Type().Elem()))
		}
		out = append(out, stringSlots(v.Elem(), rng)...)
	case reflect.Struct:
		for i := range v.NumField() {
			out = append(out, stringSlots(v.Field(i), rng)...)
		}
	case reflect.Slice:
		for i := range v.Len() {
			out = append(out, stringSlots(v.Index(i), rng)...)
		}
	}
	return out
}

// mapOutcomes maps every corpus 271 and seeded mutations of it, adding the
// answer's JSON (or the error).
func mapOutcomes(t *testing.T, add func(string, ...[]byte)) {
	rng := rand.New(rand.NewPCG(29, 271))
	files := corpus271s(t)
	slices.Sort(files)
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := "map/" + filepath.Base(path)
		addMapped(add, name, data)
		for v := range 24 {
			addMapped(add, fmt.Sprintf("%s/%d", name, v), mutate271(rng, data))
		}
	}
}

func addMapped(add func(string, ...[]byte), name string, data []byte) {
	r, err := Map271(data)
	if err != nil {
		add(name, []byte("error: "+err.Error()))
		return
	}
	r.X12 = string(data)
	b, buf := encodeShared(r)
	add(name, b, []byte(checkStatus(r)))
	bodyBuffers.Put(buf)
}

// oddCodes replace elements of a mutated 271.
var oddCodes = []string{"", "1", "6", "C", "B", "A", "L", "IND", "FAM", "30", "98", "35", "ZZZ", "zz", "AB CD", "HM",
	"23", "29", "27", ".5", "-.5", "1.", "Y", "N", "W", "72", "42", "RD8", "D8", "20240101-20241231", "6P", "18",
	"NQ", "SY", "PI", "XX", "II", "MI", "P3", "1P", "IL", "03", "20", "21", "22", "23", "2120", "TE", "UR", "EM",
	"\"", `\`, "<&>", "é", "\u2028", "\x01"}

// mutate271 drops, repeats or cuts a segment, replaces an element or
// truncates data, one to three times.
func mutate271(rng *rand.Rand, data []byte) []byte {
	term, elem := byte('~'), byte('*')
	if bytes.HasPrefix(data, []byte("ISA")) && len(data) > 106 {
		elem, term = data[3], data[105]
	} else if i := bytes.Index(data, []byte("ST")); i >= 0 && i+2 < len(data) {
		elem = data[i+2]
		if bytes.IndexByte(data, '~') < 0 {
			term = '\n'
		}
	}
	segs := bytes.SplitAfter(data, []byte{term})
	for range 1 + rng.IntN(3) {
		if len(segs) == 0 {
			break
		}
		i := rng.IntN(len(segs))
		switch rng.IntN(6) {
		case 0:
			segs = slices.Delete(segs, i, i+1)
		case 1:
			segs = slices.Insert(segs, i, segs[i])
		case 2:
			segs[i] = segs[i][:rng.IntN(len(segs[i])+1)]
		default:
			els := bytes.Split(segs[i], []byte{elem})
			if len(els) > 1 {
				j := 1 + rng.IntN(len(els)-1)
				last := j == len(els)-1 && bytes.HasSuffix(els[j], []byte{term})
				els[j] = []byte(oddCodes[rng.IntN(len(oddCodes))])
				if last {
					els[j] = append(els[j], term)
				}
				segs[i] = bytes.Join(els, []byte{elem})
			}
		}
	}
	out := bytes.Join(segs, nil)
	if rng.IntN(8) == 0 {
		out = out[:rng.IntN(len(out)+1)]
	}
	return out
}
