package scenario

import (
	"encoding/json"
	"strings"
	"testing"
)

// doneWhenYAML is the done-when file written as YAML: plain
// numbers (payer id, amounts, dates, CARC) in fields that hold strings.
const doneWhenYAML = `# a member of our own
scenarios:
  - name: hdhp-denied-197
    match:
      payerId: 52133
      memberId: SIM0001
    eligibility:
      benefits:
        planName: SIMULATED DENTAL PPO
        coverageBegin: 20260101
        coverageEnd: 20261231
        serviceTypeCodes: [35]
        deductibles:
          - {level: individual, serviceTypeCode: 35, amount: 2500, remaining: 1500, inNetwork: true}
    claim:
      remittance: {outcome: denied, groupCode: CO, carc: 197, allowedPercent: 0}
`

const doneWhenJSON = `{"scenarios": [{"name": "hdhp-denied-197", "match": {"payerId": "52133", "memberId": "SIM0001"},
 "eligibility": {"benefits": {"planName": "SIMULATED DENTAL PPO", "coverageBegin": "20260101", "coverageEnd": "20261231",
   "serviceTypeCodes": ["35"], "deductibles": [{"level": "individual", "serviceTypeCode": "35", "amount": "2500", "remaining": "1500", "inNetwork": true}]}},
 "claim": {"remittance": {"outcome": "denied", "groupCode": "CO", "carc": "197", "allowedPercent": 0}}}]}`

// A YAML file loads to exactly what its JSON twin loads to, and its
// scenario's line is the YAML's.
func TestYAMLLoadsAsItsJSON(t *testing.T) {
	y := loadsAlike(t, doneWhenYAML, doneWhenJSON)
	if y.Scenarios[0].Line != 3 {
		t.Errorf("scenario line %d, want 3", y.Scenarios[0].Line)
	}
	if !IsYAML([]byte(doneWhenYAML)) || IsYAML([]byte(" \n"+doneWhenJSON)) {
		t.Error("IsYAML tells the formats apart wrongly")
	}
}

// YAML errors name the YAML's line and the field, with the JSON loader's
// messages (one schema, one validator).
func TestYAMLErrorsNameLineAndField(t *testing.T) {
	line := func(n int, old, new string) string {
		lines := strings.Split(doneWhenYAML, "\n")
		if !strings.Contains(lines[n-1], old) {
			t.Fatalf("line %d %q lacks %q", n, lines[n-1], old)
		}
		lines[n-1] = strings.Replace(lines[n-1], old, new, 1)
		return strings.Join(lines, "\n")
	}
	cases := []struct {
		name, file, want string
	}{
		{"bad amount", line(14, "amount: 2500", "amount: 2500.999"), "line 14: scenarios[0].eligibility.benefits.deductibles[0].amount: must be a dollar amount"},
		{"bad carc", line(16, "carc: 197", "carc: 1977"), "line 16: scenarios[0].claim.remittance.carc: must be a claim adjustment reason code"},
		{"unknown field", line(6, "memberId", "member"), "line 6: member: is not a known field"},
		{"wrong type", line(16, "allowedPercent: 0", "allowedPercent: most"), "line 16: scenarios.claim.remittance.allowedPercent: must be a whole number"},
		{"bad date", line(10, "20260101", "2026-01-01"), "line 10: scenarios[0].eligibility.benefits.coverageBegin: must be a date as YYYYMMDD"},
		{"syntax", line(5, "payerId: 52133", "payerId: 52133: 1"), "line 5: invalid YAML"},
		{"tab indent", line(7, "    eligibility:", "\teligibility:"), "invalid YAML"},
		{"not a mapping", "- a\n- b\n", "line 1: a scenario file is a mapping"},
		{"two documents", doneWhenYAML + "---\nscenarios: []\n", "line 17: a scenario file is one YAML document"},
		{"merge key", "base: &b {memberId: X}\nscenarios:\n  - name: a\n    match:\n      <<: *b\n    eligibility: {timeout: true}\n", "line 5: merge keys"},
		{"empty", "\n", "the file is empty"},
		{"no action", "scenarios:\n  - name: a\n    match: {memberId: X}\n", "line 2: scenarios[0]: says nothing"},
		{"duplicate name", "scenarios:\n  - {name: a, match: {memberId: X}, eligibility: {timeout: true}}\n  - {name: A, match: {memberId: Y}, eligibility: {timeout: true}}\n",
			"line 3: scenarios[1].name: \"A\" is used by an earlier scenario"},
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

// An alias stands for its anchor's value (a plan shared by two members);
// nesting is bounded.
func TestYAMLAliasesAndDepth(t *testing.T) {
	file := `plan: &plan
  planName: SHARED PPO
  deductibles: [{amount: 500, remaining: 100}]
scenarios:
  - {name: a, match: {memberId: A1}, eligibility: {benefits: *plan}}
  - {name: b, match: {memberId: B1}, eligibility: {benefits: *plan}}
`
	_, err := Parse([]byte(file))
	if err == nil || !strings.Contains(err.Error(), "plan: is not a known field") {
		t.Fatalf("a top-level helper key is an unknown field: %v", err)
	}
	file = strings.Replace(file, "plan: &plan", "_comment: &plan", 1)
	_, err = Parse([]byte(file))
	if err == nil || !strings.Contains(err.Error(), "_comment") {
		t.Fatalf("_comment holds text only: %v", err)
	}
	file = `scenarios:
  - name: a
    match: {memberId: A1}
    eligibility:
      benefits: &plan
        planName: SHARED PPO
        deductibles: [{amount: 500, remaining: 100}]
  - {name: b, match: {memberId: B1}, eligibility: {benefits: *plan}}
`
	set, err := Parse([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	if b := set.Scenarios[1].Eligibility.Benefits; b == nil || b.PlanName != "SHARED PPO" || b.Deductibles[0].Remaining != "100" {
		t.Errorf("alias: %+v", b)
	}
	deep := "scenarios: " + strings.Repeat("[", 40) + strings.Repeat("]", 40) + "\n"
	if _, err := Parse([]byte(deep)); err == nil || !strings.Contains(err.Error(), "nested deeper") {
		t.Errorf("deep nesting: %v", err)
	}
}

// loadsAlike parses a YAML file and a JSON file and fails unless they load
// to the same scenarios; it returns the YAML's.
func loadsAlike(t *testing.T, yamlFile, jsonFile string) *Set {
	t.Helper()
	y, err := Parse([]byte(yamlFile))
	if err != nil {
		t.Fatal(err)
	}
	j, err := Parse([]byte(jsonFile))
	if err != nil {
		t.Fatal(err)
	}
	gy, _ := json.Marshal(y.Scenarios)
	gj, _ := json.Marshal(j.Scenarios)
	if string(gy) != string(gj) {
		t.Errorf("YAML %s\nJSON %s", gy, gj)
	}
	return y
}
