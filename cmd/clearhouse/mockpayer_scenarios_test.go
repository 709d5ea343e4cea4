package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/connections"
	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/netguard"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/reports"
	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/x12"
)

// simulatorScenarios is the "done when" file for the standalone
// mock payer: the test's own member, a $2,500 deductible with $1,000 met,
// claims denied CO-197.
const simulatorScenarios = `{"scenarios": [{
  "name": "hdhp-denied-197",
  "match": {"memberId": "SIM0001"},
  "eligibility": {"benefits": {"planName": "SIMULATED PPO",
    "deductibles": [{"amount": "2500", "remaining": "1500"}]}},
  "claim": {"remittance": {"outcome": "denied", "carc": "197"}}
}]}`

// TestMockpayerServeScenarios: `mockpayer serve --scenarios FILE` answers
// the file's member over CAQH CORE SOAP with its benefits, and over SFTP
// with a 999, a 277CA and an 835 denying the claim CO-197; the published
// mocks still answer.
func TestMockpayerServeScenarios(t *testing.T) {
	file := filepath.Join(t.TempDir(), "scenarios.json")
	if err := os.WriteFile(file, []byte(simulatorScenarios), 0o600); err != nil {
		t.Fatal(err)
	}
	core, side := startMockpayerLogs(t, "--username", "clearhouse", "--password", "mock-pw", "--sftp-listen", "127.0.0.1:0",
		"--scenarios", file)
	key, _ := secrets.ParseKey(secrets.NewKey())
	box, _ := secrets.New(key)
	seal := func(id string) string {
		v, _ := box.SealString("mock-pw", connections.SealContext(id, connections.FieldPassword))
		return v
	}
	host, port, _ := net.SplitHostPort(side.addr)
	portN, _ := strconv.Atoi(port)
	set, err := connections.NewSet([]connections.Definition{
		{ID: "core", Type: connections.CAQHCore, URL: core, Envelope: "SOAP", SenderID: "CLEARHOUSE", ReceiverID: "MOCKPAYER",
			Username: "clearhouse", Password: seal("core")},
		{ID: "sftp", Type: connections.SFTP, Host: host, Port: portN, Username: "clearhouse", Password: seal("sftp"),
			HostKey: side.hostKey, OutboundDir: "inbound", InboundDir: "outbound"},
	}, box)
	if err != nil {
		t.Fatal(err)
	}
	opts := connections.Options{Guard: netguard.New(netguard.Options{AllowPrivate: true})}
	ctx := context.Background()

	// CORE SOAP: the member's benefits.
	client, err := set.CAQHClient(mustGet(t, set, "core"), opts)
	if err != nil {
		t.Fatal(err)
	}
	check := func(body string) []byte {
		t.Helper()
		answer, err := client.Exchange(ctx, build270(t, body))
		if err != nil {
			t.Fatalf("CORE exchange: %v", err)
		}
		return answer
	}
	answer := check(strings.Replace(uhcSubscriber, "UHC123456", "SIM0001", 1))
	res, err := eligibility.Map271(answer)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(res.BenefitsInformation)
	var benefits []struct{ Code, CoverageLevelCode, TimeQualifierCode, BenefitAmount string }
	if err := json.Unmarshal(raw, &benefits); err != nil {
		t.Fatal(err)
	}
	var deductibles []string
	for _, b := range benefits {
		if b.Code == "C" {
			deductibles = append(deductibles, b.CoverageLevelCode+"/"+b.TimeQualifierCode+"/"+b.BenefitAmount)
		}
	}
	if len(benefits) != 3 || strings.Join(deductibles, " ") != "IND/23/2500 IND/29/1500" {
		t.Errorf("benefits %s", raw)
	}
	if !bytes.Contains(answer, []byte("*hdhp-denied-197~")) {
		t.Errorf("the 271 does not name its scenario: %s", answer)
	}
	// Every published mock answers over CORE what the mock payer without
	// scenarios answers (benefits, subscriber, payer, plan, errors).
	plain := mockpayer.New()
	for _, mr := range mockpayer.Requests() {
		built := build270(t, string(mr.RequestJSON()))
		want, err := plain.Exchange(ctx, built)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := memberParts(t, check(string(mr.RequestJSON()))), memberParts(t, want); got != want {
			t.Errorf("published mock %s over CORE with --scenarios:\n got %s\nwant %s", mr.Name, got, want)
		}
	}

	// SFTP: 999, 277CA and an 835 denying the claim CO-197.
	remote, err := set.SFTPClient(mustGet(t, set, "sftp"), opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := remote.Deliver(ctx, "claims-1.x12", dental837(t, "SIM0001")); err != nil {
		t.Fatal(err)
	}
	got := map[string][]byte{}
	if _, err := remote.Poll(ctx, func(_ context.Context, name, _ string, body io.Reader) error {
		got[name], _ = io.ReadAll(body)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	era := got["claims-1-835.x12"]
	if len(got) != 3 || !bytes.Contains(got["claims-1-277CA.x12"], []byte("STC*A2:20")) || !bytes.Contains(era, []byte("CAS*CO*197*")) {
		t.Fatalf("answers %d files; 835:\n%s", len(got), era)
	}
	var report bytes.Buffer
	if err := reports.Convert835(bytes.NewReader(era), &report, reports.Meta{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"claimStatusCode":"4"`, `"adjustmentReasonCode1":"197"`} {
		if !strings.Contains(report.String(), want) {
			t.Errorf("835 report lacks %s: %s", want, report.String())
		}
	}
}

// A scenario file with a problem stops the start, naming line and field.
func TestMockpayerServeRefusesABadScenarioFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "scenarios.json")
	if err := os.WriteFile(file, []byte(strings.Replace(simulatorScenarios, `"197"`, `"1977"`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	code := run(context.Background(), []string{"mockpayer", "serve", "--listen", "127.0.0.1:0", "--data", t.TempDir(), "--scenarios", file}, io.Discard, &stderr)
	if code != 2 || !strings.Contains(stderr.String(), "line 6: scenarios[0].claim.remittance.carc: must be a claim adjustment reason code") {
		t.Errorf("exit %d: %s", code, stderr.String())
	}
}

// `mockpayer scenarios apply` stores the account's test-mode file (what
// PUT /2024-04-01/mock-payer/scenarios stores); a bad file changes nothing.
func TestMockpayerScenariosApply(t *testing.T) {
	data := t.TempDir()
	db := []string{"--data", data}
	runOK(t, append([]string{"keys", "create", "--create", "--account", "Acme", "--mode", "test"}, db...)...)
	file := filepath.Join(t.TempDir(), "scenarios.json")
	if err := os.WriteFile(file, []byte(simulatorScenarios), 0o600); err != nil {
		t.Fatal(err)
	}
	out := runOK(t, append([]string{"mockpayer", "scenarios", "apply", "-f", file, "--account", "Acme"}, db...)...)
	if !strings.Contains(out, "scenario hdhp-denied-197 (line 1)") || !strings.Contains(out, "applied 1 scenarios to Acme (test mode)") {
		t.Errorf("apply: %q", out)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(simulatorScenarios, `"2500"`, `"lots"`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCmd(append([]string{"mockpayer", "scenarios", "apply", "-f", file, "--account", "Acme"}, db...)...)
	if code == 0 || !strings.Contains(stderr, "line 5: scenarios[0].eligibility.benefits.deductibles[0].amount") {
		t.Errorf("bad file: exit %d %s", code, stderr)
	}
	if code, _, stderr := runCmd(append([]string{"mockpayer", "scenarios", "apply", "-f", file, "--account", "Nobody"}, db...)...); code == 0 {
		t.Errorf("unknown account: exit 0 %s", stderr)
	}
	st, err := store.Open(context.Background(), data, "")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	acct, err := st.GetAccountByName(context.Background(), "Acme")
	if err != nil {
		t.Fatal(err)
	}
	got, err := st.GetMockScenarios(context.Background(), acct.ID, store.ModeTest)
	if err != nil || string(got.Body) != simulatorScenarios {
		t.Errorf("stored %s, %v", got.Body, err)
	}
	if _, err := st.GetMockScenarios(context.Background(), acct.ID, store.ModeProduction); err == nil {
		t.Error("production mode got the file too")
	}

	// The same file as YAML.
	yamlFile := "scenarios:\n  - name: hdhp-denied-197\n    match: {memberId: SIM0001}\n    claim:\n      remittance: {outcome: denied, carc: 197}\n"
	if err := os.WriteFile(file, []byte(yamlFile), 0o600); err != nil {
		t.Fatal(err)
	}
	out = runOK(t, append([]string{"mockpayer", "scenarios", "apply", "-f", file, "--account", "Acme"}, db...)...)
	if !strings.Contains(out, "scenario hdhp-denied-197 (line 2)") {
		t.Errorf("apply YAML: %q", out)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(yamlFile, "carc: 197", "carc: 1977", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCmd(append([]string{"mockpayer", "scenarios", "apply", "-f", file, "--account", "Acme"}, db...)...); code == 0 ||
		!strings.Contains(stderr, "line 5: scenarios[0].claim.remittance.carc") {
		t.Errorf("bad YAML: exit %d %s", code, stderr)
	}
}

// build270 is the 270 built from an eligibility request's JSON.
func build270(t *testing.T, body string) []byte {
	t.Helper()
	req := &eligibility.Request{}
	if err := json.Unmarshal([]byte(body), req); err != nil {
		t.Fatal(err)
	}
	payer, _ := payers.Default().Lookup(req.TradingPartnerServiceID)
	built, err := eligibility.Build270(req, payer, eligibility.Build270Options{Numbers: &x12.SequentialControlNumbers{},
		TraceID: "01JTESTTRACE0000000000000A", Now: time.Now(), Test: true})
	if err != nil {
		t.Fatal(err)
	}
	return built.X12
}

// memberParts is what a 271 says about the member, as the contract's JSON:
// all but ids, traces and control numbers.
func memberParts(t *testing.T, x271 []byte) string {
	t.Helper()
	res, err := eligibility.Map271(x271)
	if err != nil {
		t.Fatalf("%v: %s", err, x271)
	}
	out, _ := json.Marshal([]any{res.Subscriber, res.Dependents, res.Payer, res.PlanInformation, res.PlanDateInformation,
		res.PlanStatus, res.BenefitsInformation, res.Errors})
	return string(out)
}

// `mockpayer generate` writes a scenario file that `scenarios apply`
// takes and one claim request per member; the same seed, the same files.
func TestMockpayerGenerate(t *testing.T) {
	dir := t.TempDir()
	file, claimsDir := filepath.Join(dir, "gen.json"), filepath.Join(dir, "claims")
	out := runOK(t, "mockpayer", "generate", "--seed", "42", "--members", "5", "--scenarios", file, "--claims-dir", claimsDir)
	if !strings.Contains(out, "wrote 5 members") {
		t.Errorf("generate: %q", out)
	}
	first, _ := os.ReadFile(file)
	again := runOK(t, "mockpayer", "generate", "--seed", "42", "--members", "5", "--scenarios", "-")
	if again != string(first) {
		t.Error("the same seed wrote another file")
	}
	entries, _ := os.ReadDir(claimsDir)
	if len(entries) != 5 {
		t.Errorf("%d claim files", len(entries))
	}
	data := t.TempDir()
	runOK(t, "keys", "create", "--create", "--data", data, "--account", "Acme", "--mode", "test")
	if out := runOK(t, "mockpayer", "scenarios", "apply", "-f", file, "--account", "Acme", "--data", data); !strings.Contains(out, "applied 5 scenarios") {
		t.Errorf("apply: %q", out)
	}
	if code, _, stderr := runCmd("mockpayer", "generate", "--members", "0", "--scenarios", file); code != 2 || !strings.Contains(stderr, "between 1 and 200") {
		t.Errorf("0 members: exit %d %s", code, stderr)
	}
}
