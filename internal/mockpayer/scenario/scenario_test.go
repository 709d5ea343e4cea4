package scenario

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestCookbookLoads(t *testing.T) {
	data, err := os.ReadFile("testdata/cookbook.json")
	if err != nil {
		t.Fatal(err)
	}
	set, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Scenarios) != 11 || set.Scenarios[0].Line != 4 {
		t.Fatalf("%d scenarios, first at line %d", len(set.Scenarios), set.Scenarios[0].Line)
	}
	el := set.Eligibility(EligibilityRequest{PayerID: "60054", MemberID: "hdhp0001", ServiceTypeCodes: []string{"30"}}, nil)
	if el == nil || el.Name != "high-deductible-plan" {
		t.Errorf("eligibility match %+v", el)
	}
	cases := []struct {
		req  ClaimRequest
		want string
	}{
		{ClaimRequest{MemberID: "PA0001", ProcedureCodes: []string{"D0120", "D2740"}}, "no-prior-auth"},
		{ClaimRequest{MemberID: "PA0001", ProcedureCodes: []string{"D0120"}}, ""},
		{ClaimRequest{MemberID: "PART0002", ChargeCents: 10000}, "partial-payment"},
		{ClaimRequest{MemberID: "PART0002", ChargeCents: 9999}, ""},
		{ClaimRequest{MemberID: "X", PatientControlNumber: "REJ-1"}, "rejected-claim"},
		{ClaimRequest{MemberID: "X", PatientControlNumber: "XREJ-1"}, ""},
	}
	for _, c := range cases {
		got := ""
		if s := set.Claim(c.req, nil); s != nil {
			got = s.Name
		}
		if got != c.want {
			t.Errorf("Claim(%+v) = %q, want %q", c.req, got, c.want)
		}
	}
}

// Errors name the line and the field, and say how to fix it.
func TestParseErrorsNameLineAndField(t *testing.T) {
	cases := []struct {
		name, file, want string
	}{
		{"syntax", "{\n \"scenarios\": [\n  {\"name\": \"a\",,}\n ]\n}", "line 3: invalid JSON"},
		{"unknown field", "{\"scenarios\": [\n {\"name\": \"a\",\n  \"match\": {\"member\": \"X\"}}]}", `line 3: member: is not a known field`},
		{"wrong type", "{\"scenarios\": [\n {\"name\": \"a\",\n  \"match\": {\"memberId\": 7}}]}", "line 3: scenarios.match.memberId: must be a string"},
		{"missing list", `{}`, "line 1: scenarios: is required"},
		{"no action", "{\"scenarios\": [\n {\"name\": \"a\", \"match\": {\"memberId\": \"X\"}}]}", "line 2: scenarios[0]: says nothing"},
		{"bad amount", "{\"scenarios\": [\n {\"name\": \"a\", \"match\": {\"memberId\": \"X\"},\n \"eligibility\": {\"benefits\": {\"planName\": \"P\",\n \"deductibles\": [{\"amount\": \"2,500\"}]}}}]}",
			"line 4: scenarios[0].eligibility.benefits.deductibles[0].amount: must be a dollar amount"},
		{"remaining above amount", "{\"scenarios\": [\n {\"name\": \"a\", \"match\": {\"memberId\": \"X\"},\n \"eligibility\": {\"benefits\": {\"planName\": \"P\",\n \"deductibles\": [{\"amount\": \"100\",\n \"remaining\": \"200\"}]}}}]}",
			"line 5: scenarios[0].eligibility.benefits.deductibles[0].remaining: is more than amount"},
		{"two answers", "{\"scenarios\": [\n {\"name\": \"a\", \"match\": {\"memberId\": \"X\"},\n \"eligibility\": {\"timeout\": true, \"reject\": {\"code\": \"75\"}}}]}",
			"line 3: scenarios[0].eligibility: needs exactly one of"},
		{"bad carc", "{\"scenarios\": [\n {\"name\": \"a\", \"match\": {\"memberId\": \"X\"},\n \"claim\": {\"remittance\": {\"outcome\": \"denied\",\n \"carc\": \"1977\"}}}]}",
			"line 4: scenarios[0].claim.remittance.carc: must be a claim adjustment reason code"},
		{"matches everything", "{\"scenarios\": [\n {\"name\": \"a\", \"match\": {\"serviceTypeCodes\": [\"30\"]}, \"eligibility\": {\"timeout\": true}}]}",
			"scenarios[0].match: matches every request"},
		{"duplicate name", "{\"scenarios\": [\n {\"name\": \"a\", \"match\": {\"memberId\": \"X\"}, \"eligibility\": {\"timeout\": true}},\n {\"name\": \"A\", \"match\": {\"memberId\": \"Y\"}, \"eligibility\": {\"timeout\": true}}]}",
			"line 3: scenarios[1].name: \"A\" is used by an earlier scenario"},
		{"bad regexp", "{\"scenarios\": [\n {\"name\": \"a\", \"match\": {\"patientControlNumber\": \"(\"}, \"claim\": {\"remittance\": {\"outcome\": \"paid\"}}}]}",
			"scenarios[0].match.patientControlNumber: is not a valid regular expression"},
		{"rejected but paid", "{\"scenarios\": [\n {\"name\": \"a\", \"match\": {\"memberId\": \"X\"}, \"claim\": {\"acknowledgment\": {\"status\": \"rejected\"}, \"remittance\": {\"outcome\": \"paid\"}}}]}",
			"a claim the 277CA rejects or never acknowledges is never paid"},
		{"delimiter in plan name", "{\"scenarios\": [\n {\"name\": \"a\", \"match\": {\"memberId\": \"X\"}, \"eligibility\": {\"benefits\": {\"planName\": \"P*LAN~\"}}}]}",
			"benefits.planName: is required: 1-60 letters"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.file))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Parse: %v\nwant it to contain %q", err, c.want)
			}
		})
	}
}

func TestParseLimits(t *testing.T) {
	if _, err := Parse(make([]byte, MaxFileBytes+1)); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("oversized file: %v", err)
	}
	var b strings.Builder
	b.WriteString(`{"scenarios": [`)
	for i := range MaxScenarios + 1 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"name": "s` + strings.Repeat("x", i%3) + string(rune('a'+i%26)) + `", "match": {"memberId": "X"}, "eligibility": {"timeout": true}}`)
	}
	b.WriteString("]}")
	if _, err := Parse([]byte(b.String())); err == nil || !strings.Contains(err.Error(), "at most 200") {
		t.Errorf("too many scenarios: %v", err)
	}
}

// The shipped JSON Schema describes exactly the fields Parse accepts:
// every object's properties are the Go struct's JSON names, and it refuses
// others.
func TestSchemaMatchesTypes(t *testing.T) {
	var schema map[string]any
	if err := json.Unmarshal(Schema, &schema); err != nil {
		t.Fatal(err)
	}
	defs := schema["$defs"].(map[string]any)
	objectAt := func(path ...string) map[string]any {
		node := defs[path[0]].(map[string]any)
		for _, p := range path[1:] {
			node = node["properties"].(map[string]any)[p].(map[string]any)
			if items, ok := node["items"].(map[string]any); ok {
				node = items
			}
			if ref, ok := node["$ref"].(string); ok {
				node = defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
			}
		}
		return node
	}
	cases := []struct {
		typ  reflect.Type
		path []string
	}{
		{reflect.TypeFor[Scenario](), []string{"scenario"}},
		{reflect.TypeFor[Match](), []string{"match"}},
		{reflect.TypeFor[AmountRange](), []string{"match", "claimAmount"}},
		{reflect.TypeFor[Eligibility](), []string{"eligibility"}},
		{reflect.TypeFor[Reject](), []string{"eligibility", "reject"}},
		{reflect.TypeFor[Benefits](), []string{"benefits"}},
		{reflect.TypeFor[Copay](), []string{"benefits", "copays"}},
		{reflect.TypeFor[Coinsurance](), []string{"benefits", "coinsurance"}},
		{reflect.TypeFor[Limitation](), []string{"benefits", "limitations"}},
		{reflect.TypeFor[Accumulator](), []string{"accumulator"}},
		{reflect.TypeFor[Claim](), []string{"claim"}},
		{reflect.TypeFor[Acknowledgment](), []string{"claim", "acknowledgment"}},
		{reflect.TypeFor[Remittance](), []string{"claim", "remittance"}},
		{reflect.TypeFor[ClaimStatus](), []string{"claim", "status"}},
		{reflect.TypeFor[FunctionalAck](), []string{"claim", "functionalAck"}},
	}
	for _, c := range cases {
		obj := objectAt(c.path...)
		if obj["additionalProperties"] != false {
			t.Errorf("%s: schema allows additional properties", c.typ)
		}
		props := obj["properties"].(map[string]any)
		var fields []string
		for f := range c.typ.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			fields = append(fields, name)
			if _, ok := props[name]; !ok {
				t.Errorf("%s: field %q missing from the schema", c.typ, name)
			}
		}
		if len(fields) != len(props) {
			t.Errorf("%s: schema has %d properties, the type %d (%v)", c.typ, len(props), len(fields), fields)
		}
	}
}

// Every scenario file in the guide loads: the cookbook is not prose that
// drifted from the loader.
func TestGuideScenariosLoad(t *testing.T) {
	guide, err := os.ReadFile("../../../docs/guides/payer-simulator.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := 0
	for _, part := range strings.Split(string(guide), "```json\n")[1:] {
		block, _, _ := strings.Cut(part, "```")
		if !strings.Contains(block, `"scenarios"`) || strings.Contains(block, `"code":"VALIDATION_ERROR"`) {
			continue
		}
		blocks++
		if _, err := Parse([]byte(block)); err != nil {
			t.Errorf("guide block %d: %v\n%s", blocks, err, block)
		}
	}
	if blocks < 8 {
		t.Errorf("only %d scenario files in the guide", blocks)
	}
	// The YAML example is the first JSON example, and the error the guide
	// quotes for it is the loader's.
	first, _, _ := strings.Cut(strings.Split(string(guide), "```json\n")[1], "```")
	yamlBlock, _, _ := strings.Cut(strings.Split(string(guide), "```yaml\n")[1], "```")
	loadsAlike(t, yamlBlock, first)
	_, err = Parse([]byte(strings.Replace(yamlBlock, "carc: 197", "carc: 1977", 1)))
	if err == nil || !strings.Contains(string(guide), "`"+err.Error()+"`") {
		t.Errorf("the guide does not quote the YAML error %v", err)
	}
}

// The guide's cookbook snippets are the scenarios the simulator tests run
// (testdata/cookbook.json): every snippet's scenario is there, identical,
// so the tests try exactly what the guide shows.
func TestGuideCookbookIsTested(t *testing.T) {
	guide, err := os.ReadFile("../../../docs/guides/payer-simulator.md")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("testdata/cookbook.json")
	if err != nil {
		t.Fatal(err)
	}
	tested, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*Scenario{}
	for _, s := range tested.Scenarios {
		byName[s.Name] = s
	}
	_, cookbook, _ := strings.Cut(string(guide), "## Cookbook")
	cookbook, _, _ = strings.Cut(cookbook, "\n## ")
	n := 0
	for _, part := range strings.Split(cookbook, "```json\n")[1:] {
		block, _, _ := strings.Cut(part, "```")
		set, err := Parse([]byte(block))
		if err != nil {
			t.Fatalf("cookbook block: %v", err)
		}
		for _, s := range set.Scenarios {
			n++
			var got []byte
			if run := byName[s.Name]; run != nil {
				copied := *run
				copied.Description = s.Description // prose only
				got, _ = json.Marshal(copied)
			}
			want, _ := json.Marshal(s)
			if string(got) != string(want) {
				t.Errorf("cookbook scenario %s is not the tested one:\n guide %s\ntested %s", s.Name, want, got)
			}
		}
	}
	if n < 6 {
		t.Errorf("only %d cookbook scenarios", n)
	}
}
