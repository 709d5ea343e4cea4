package main

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/connections"
	"github.com/clearhouse/clearhouse/internal/secrets"
)

// upstreamProcess is one `clearhouse serve` process in test mode that
// another one reaches as a CLEARINGHOUSE_API upstream.
type upstreamProcess struct {
	t         *testing.T
	name      string
	data, key string
	addr      string // 127.0.0.1:port, the same after a restart
	base      string
	proc      *os.Process
	args      []string // more serve flags
}

// waitFor polls f until it returns something or the time is up.
func waitFor(t *testing.T, limit time.Duration, f func() string) string {
	t.Helper()
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if v := f(); v != "" {
			return v
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("nothing within %s", limit)
	return ""
}

// upstreamPartnersFile is A's production partners: UHC Dental (52133)
// reached through a stored CLEARINGHOUSE_API connection to B, with A's
// account's own key there, and one to C with A's key at C (the payer's
// second claims route).
func upstreamPartnersFile(t *testing.T, b, c *upstreamProcess) string {
	return partnersFile(t, "CLINICA", claimsConnection("up-b-claims", b), claimsConnection("up-c-claims", c))
}

// partnersFile is a production partners document: a local profile with
// interchange id local, UHC Dental (52133) through the first of conns, and
// "via-b", which takes the upstreams' 999 and 277 addressed to their
// submitter id CLEARHOUSE.
func partnersFile(t *testing.T, local string, conns ...map[string]any) string {
	t.Helper()
	doc := map[string]any{
		"profiles": []any{
			map[string]any{"profileId": "clinic", "profileType": "local", "interchangeQualifier": "ZZ", "interchangeId": local},
			map[string]any{"profileId": "uhc-dental", "profileType": "partner", "interchangeQualifier": "ZZ", "interchangeId": "52133"},
			// The upstreams' answers are addressed to them (the submitter
			// the payer knows): A takes them in under their identity.
			map[string]any{"profileId": "via-b", "profileType": "local", "interchangeQualifier": "ZZ", "interchangeId": "CLEARHOUSE"},
		},
		"connections": conns,
		"partnerships": []any{map[string]any{"partnershipId": "clinic_uhc-dental", "localProfileId": "clinic", "partnerProfileId": "uhc-dental",
			"connectionId": conns[0]["connectionId"], "outboundTransactions": []any{map[string]any{"transactionSetIdentifier": "837", "guideId": "005010X224A2"}}},
			map[string]any{"partnershipId": "via-b_uhc-dental", "localProfileId": "via-b", "partnerProfileId": "uhc-dental",
				"inboundTransactions": []any{map[string]any{"transactionSetIdentifier": "999"}, map[string]any{"transactionSetIdentifier": "277"}}}},
	}
	data, _ := json.Marshal(doc)
	path := filepath.Join(t.TempDir(), "partners.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// claimsConnection is a stored CLEARINGHOUSE_API connection to u with
// the key of A's account there.
func claimsConnection(id string, u *upstreamProcess) map[string]any {
	return map[string]any{"connectionId": id, "connectionType": "CLEARINGHOUSE_API",
		"settings": map[string]any{"url": "http://" + u.addr + "/2024-04-01", "coreUrl": "http://" + u.addr + "/2023-08-01", "timeout": "5s"},
		"secrets":  map[string]any{"apiKey": u.key}}
}

func startUpstream(t *testing.T, name string, args ...string) *upstreamProcess {
	t.Helper()
	u := &upstreamProcess{t: t, name: name, data: t.TempDir(), addr: freePort(t), args: args}
	u.key = lastLine(runOK(t, "keys", "create", "--create", "--data", u.data, "--account", "Upstream "+name, "--mode", "test"))
	u.start()
	return u
}

// start runs the process on its port (the same after a restart, so the
// client's configuration still names it).
func (u *upstreamProcess) start() {
	u.t.Helper()
	addr, proc := serveProcess(u.t, append([]string{"--listen", u.addr, "--data", u.data}, u.args...)...)
	u.base, u.proc = "http://"+addr, proc
}

// kill stops the process the hard way: no goodbye to its clients.
func (u *upstreamProcess) kill() {
	u.t.Helper()
	if err := u.proc.Signal(syscall.SIGKILL); err != nil {
		u.t.Fatal(err)
	}
	u.proc.Wait()
}

// checks counts the eligibility checks the upstream answered (its own
// history, read with its own key).
func (u *upstreamProcess) checks() int {
	u.t.Helper()
	code, body := get(u.t, u.base+"/2024-04-01/eligibility-checks?limit=500", u.key)
	if code != 200 {
		u.t.Fatalf("%s history: HTTP %d %s", u.name, code, body)
	}
	var page struct{ Items []json.RawMessage }
	json.Unmarshal([]byte(body), &page)
	return len(page.Items)
}

// upstreamPayersFile routes UHC (87726) to B then C and Cigna (62308) to
// a connection holding a key B does not know, then C.
func upstreamPayersFile(t *testing.T, secretsKey string, b, c *upstreamProcess) string {
	t.Helper()
	raw, _ := secrets.ParseKey(secretsKey)
	box, _ := secrets.New(raw)
	conn := func(id string, u *upstreamProcess, apiKey string) map[string]any {
		sealed, err := box.SealString(apiKey, connections.SealContext(id, connections.FieldAPIKey))
		if err != nil {
			t.Fatal(err)
		}
		base := "http://" + u.addr
		return map[string]any{"id": id, "type": "CLEARINGHOUSE_API", "url": base + "/2024-04-01", "coreUrl": base + "/2023-08-01",
			"apiKey": sealed, "timeout": "5s", "breakerFailures": 2, "breakerOpenFor": "1s"}
	}
	file := map[string]any{
		"connections": []any{conn("up-b", b, b.key), conn("up-c", c, c.key), conn("up-b-wrong-key", b, "not-a-key-of-b")},
		"payers": []any{
			map[string]any{"id": "87726", "connections": map[string]any{"eligibility": []string{"up-b", "up-c"}}},
			map[string]any{"id": "62308", "connections": map[string]any{"eligibility": []string{"up-b-wrong-key", "up-c"}}},
			// A route the file does not declare: each account's own stored
			// connection of that id (one model for routing).
			map[string]any{"id": "61101", "connections": map[string]any{"eligibility": []string{"up-c-claims"}}},
			// Claims routes name stored connections of the claim's own
			// account; claim status goes like eligibility.
			map[string]any{"id": "52133", "connections": map[string]any{"claims": []string{"up-b-claims", "up-c-claims"},
				"claimStatus": []string{"up-b", "up-c"}}},
		},
	}
	data, _ := json.Marshal(file)
	path := filepath.Join(t.TempDir(), "payers.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// routeCounts reads A's route metrics: attempts by connection and outcome,
// and by transaction, connection and outcome.
func routeCounts(t *testing.T, base string) map[string]int {
	t.Helper()
	_, body := get(t, base+"/metrics", "")
	out := map[string]int{}
	re := regexp.MustCompile(`clearhouse_payer_route_attempts_total\{connection="([^"]+)",outcome="([^"]+)",transaction="([^"]+)"\} (\d+)`)
	for _, m := range re.FindAllStringSubmatch(body, -1) {
		n, _ := strconv.Atoi(m[4])
		out[m[1]+" "+m[2]] += n
		out[m[3]+" "+m[1]+" "+m[2]] += n
	}
	return out
}

// TestThreeProcessUpstream (issue 26): A, in production, reaches payer
// 87726 through two upstream Clearhouse processes B and C in test mode,
// each with its own key. A's check is answered by B's mock payer and
// mapped by A; B killed → C answers with no client-visible error, and
// B's breaker opens; B back → traffic returns to B; a wrong upstream key
// → a clear error naming the connection, and nothing goes to C.
func TestThreeProcessUpstream(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three server processes")
	}
	started := time.Now()
	b, c := startUpstream(t, "B"), startUpstream(t, "C")
	secretsKey := secrets.NewKey()
	payersFile := upstreamPayersFile(t, secretsKey, b, c)
	dataA := t.TempDir()
	keyA := lastLine(runOK(t, "keys", "create", "--create", "--data", dataA, "--account", "Clinic A", "--mode", "production"))
	runOK(t, "partners", "apply", "-f", upstreamPartnersFile(t, b, c), "--data", dataA, "--account", "Clinic A", "--mode", "production", "--secrets-key", secretsKey)
	addrA, _ := serveProcess(t, "--data", dataA, "--payers", payersFile, "--secrets-key", secretsKey, "--allow-private-connections",
		"--upstream-poll-interval", "300ms")
	a := "http://" + addrA

	// `connections test` checks an upstream with a probe that sends no PHI.
	code, out, errOut := runCmd("connections", "test", "up-b", "--payers", payersFile, "--secrets-key", secretsKey, "--allow-private-connections")
	if code != 0 || !strings.Contains(out, "auth  ok") {
		t.Errorf("connections test up-b: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCmd("connections", "test", "up-b-wrong-key", "--payers", payersFile, "--secrets-key", secretsKey, "--allow-private-connections")
	if code != 1 || !strings.Contains(out, "auth  FAILED") || !strings.Contains(out, "up-b-wrong-key") {
		t.Errorf("connections test up-b-wrong-key: exit %d\n%s%s", code, out, errOut)
	}
	// The same check for the account's stored connections (one model).
	code, out, errOut = runCmd("connections", "test", "up-c-claims", "--account", "Clinic A", "--mode", "production", "--data", dataA,
		"--secrets-key", secretsKey, "--allow-private-connections")
	if code != 0 || !strings.Contains(out, "auth  ok") || !strings.Contains(out, "connection up-c-claims works") {
		t.Errorf("connections test up-c-claims --account: exit %d\n%s%s", code, out, errOut)
	}
	if n := b.checks(); n != 0 {
		t.Fatalf("the probes left %d checks in B's history; they must reach no payer", n)
	}

	requests, answeredBy := 0, map[string]int{}
	check := func(phase, wantRoute string) {
		t.Helper()
		requests++
		code, body := post(t, a+checkPath, keyA, uhcSubscriber)
		if code != 200 || !strings.Contains(body, `"benefitsInformation"`) || !strings.Contains(body, "~ST*271*") {
			t.Fatalf("%s: check %d: HTTP %d %.500s", phase, requests, code, body)
		}
		var resp struct{ ID string }
		json.Unmarshal([]byte(body), &resp)
		_, stored := get(t, a+"/2024-04-01/eligibility-checks/"+resp.ID, keyA)
		var rec struct{ Route string }
		json.Unmarshal([]byte(stored), &rec)
		answeredBy[rec.Route]++
		if rec.Route != wantRoute {
			t.Errorf("%s: check %s answered by %q, want %q", phase, resp.ID, rec.Route, wantRoute)
		}
	}

	for range 3 {
		check("B up", "up-b")
	}
	if nb, nc := b.checks(), c.checks(); nb != 3 || nc != 0 {
		t.Fatalf("B answered %d, C %d; want 3 and 0", nb, nc)
	}

	b.kill()
	for range 4 {
		check("B killed", "up-c")
	}
	m := routeCounts(t, a)
	if m["up-b failover"] != 2 || m["up-b skipped"] != 2 {
		t.Errorf("after B was killed: %v; want 2 failovers (the breaker opens after 2) and 2 skips", m)
	}

	b.start()
	time.Sleep(1100 * time.Millisecond) // breakerOpenFor: the next check probes B
	for range 3 {
		check("B back", "up-b")
	}

	// A key B does not know: the error names the connection; C, another
	// account's way to the payer, is not tried.
	before := c.checks()
	wrongCode, body := post(t, a+checkPath, keyA, strings.Replace(uhcSubscriber, `"87726"`, `"62308"`, 1))
	if wrongCode == 200 || !strings.Contains(body, "upstream connection up-b-wrong-key") || !strings.Contains(body, "refused this connection's API key") {
		t.Errorf("wrong upstream key: HTTP %d %.600s", wrongCode, body)
	}
	if after := c.checks(); after != before {
		t.Errorf("a refused key moved the check to C (%d → %d checks)", before, after)
	}

	// Humana (61101) routes to "up-c-claims", which the file does not
	// declare: A's check goes out through A's own stored connection, with
	// A's key at C; another account of A's server, without one, gets a
	// 400 naming the route, and nothing reaches C.
	humana := `{"tradingPartnerServiceId": "61101", "provider": {"organizationName": "Provider Name", "npi": "1999999984"},
	  "subscriber": {"firstName": "Jane", "lastName": "Doe", "memberId": "HUMANA123", "dateOfBirth": "19750505"},
	  "encounter": {"serviceTypeCodes": ["30"]}}`
	before = c.checks()
	requests++
	code, body = post(t, a+checkPath, keyA, humana)
	var humanaCheck struct{ ID string }
	json.Unmarshal([]byte(body), &humanaCheck)
	_, stored := get(t, a+"/2024-04-01/eligibility-checks/"+humanaCheck.ID, keyA)
	if code != 200 || !strings.Contains(body, "HUMANA GOLD PLUS HMO") || c.checks() != before+1 || !strings.Contains(stored, `"route":"up-c-claims"`) {
		t.Errorf("Humana through A's stored connection: HTTP %d %.400s; C's checks %d → %d; stored %.300s", code, body, before, c.checks(), stored)
	}
	answeredBy["up-c-claims"]++
	keyZ := lastLine(runOK(t, "keys", "create", "--data", dataA, "--account", "Clinic Z", "--create", "--mode", "production"))
	otherCode, otherBody := post(t, a+checkPath, keyZ, humana)
	if otherCode != 400 || !strings.Contains(otherBody, `"code":"79"`) || !strings.Contains(otherBody, `connection \"up-c-claims\" is not available`) ||
		c.checks() != before+1 {
		t.Errorf("another account's check through a route only A has: HTTP %d %.500s; C's checks %d", otherCode, otherBody, c.checks())
	}

	// A's dental claim goes to B as our own 837, idempotency key carried.
	claimBody, err := os.ReadFile("../../internal/claims/testdata/example.json")
	if err != nil {
		t.Fatal(err)
	}
	code, body = post(t, a+"/2024-04-01/dental-claims/submission", keyA, string(claimBody))
	if code != 200 {
		t.Fatalf("claim at A: HTTP %d %.500s", code, body)
	}
	var submitted struct {
		ClaimReference struct{ CorrelationID string }
	}
	json.Unmarshal([]byte(body), &submitted)
	delivered := waitFor(t, 20*time.Second, func() string {
		_, ev := get(t, a+"/2023-08-01/events?limit=50", keyA)
		if strings.Contains(ev, "file.delivered.v2") || strings.Contains(ev, "file.failed.v2") {
			return ev
		}
		return ""
	})
	if !strings.Contains(delivered, "accepted by upstream connection up-b-claims") {
		t.Fatalf("A's claim was not delivered to B: %.1500s", delivered)
	}
	// B holds the claim once, and its mock payer's 999 and 277CA for it,
	// which B's polling endpoint lists for B's key.
	since := url.QueryEscape(started.Add(-time.Minute).UTC().Format(time.RFC3339))
	polled := waitFor(t, 20*time.Second, func() string {
		_, p := get(t, b.base+"/2023-08-01/polling/transactions?startDateTime="+since, b.key)
		if strings.Count(p, `"transactionSetIdentifier":"999"`) >= 1 && strings.Count(p, `"transactionSetIdentifier":"277"`) >= 1 {
			return p
		}
		return ""
	})
	claimsAtB := strings.Count(polled, `"transactionSetIdentifier":"837"`)
	if claimsAtB != 1 {
		t.Errorf("B holds %d 837s for one claim of A, want 1", claimsAtB)
	}

	// B's 999 and 277CA come back to A through A's poll of B: each an
	// inbound file of A's, once, matched to A's claim.
	waitFor(t, 30*time.Second, func() string {
		_, ex := get(t, a+"/2023-08-01/executions?limit=100", keyA)
		if strings.Contains(ex, "upstream-999-") && strings.Contains(ex, "upstream-277-") {
			return ex
		}
		return ""
	})
	time.Sleep(1500 * time.Millisecond) // a few more polls: nothing more may come
	_, answers := get(t, a+"/2023-08-01/executions?limit=100", keyA)
	acks, statuses := strings.Count(answers, `"upstream-999-`), strings.Count(answers, `"upstream-277-`)
	if acks != 1 || statuses != 1 {
		t.Errorf("A took in %d 999s and %d 277s from B, want 1 and 1: %.2000s", acks, statuses, answers)
	}
	// Each answer is processed under B's identity, and A's claim moves.
	_, events := get(t, a+"/2023-08-01/events?limit=100", keyA)
	processed := strings.Count(events, `"detail-type":"file.processed.v2"`)
	statusChanges := strings.Count(events, `"detail-type":"claim.status.changed.v2"`)
	if !strings.Contains(events, `"name":"upstream-999-`) || !strings.Contains(events, `"name":"upstream-277-`) ||
		statusChanges < 1 || strings.Contains(events, `"name":"upstream-837-`) {
		t.Errorf("A's events after B's answers: %d file.processed.v2, %d claim.status.changed.v2: %.3000s", processed, statusChanges, events)
	}
	answerDups := acks + statuses - 2
	// The 277CA moves A's claim from SUBMITTED to ACCEPTED.
	if !strings.Contains(events, `"status":"ACCEPTED","previousStatus":"SUBMITTED","statusReportedBy":"PAYER","source":"277CA"`) {
		t.Errorf("A's claim did not move to ACCEPTED on B's 277CA: %.3000s", events)
	}

	nb, nc := b.checks(), c.checks()
	m = routeCounts(t, a)
	dups := nb + nc - (requests)
	t.Logf("three-process upstream: %d eligibility requests to A in %s; answered by route %v; B answered %d (history), C %d; "+
		"failovers %d; skipped while B's breaker was open %d; duplicates %d; wrong key: HTTP %d, C not tried; "+
		"dental claim %s: delivered to B, 837s at B %d, B's 999 and 277CA listed by B's polling endpoint; "+
		"polled back into A: 999s %d, 277s %d (duplicates %d), claim.status.changed.v2 events %d (SUBMITTED → ACCEPTED by the 277CA)",
		requests, time.Since(started).Round(time.Millisecond), answeredBy, nb, nc, m["up-b failover"], m["up-b skipped"], dups, wrongCode,
		submitted.ClaimReference.CorrelationID, claimsAtB, acks, statuses, answerDups, statusChanges)
	if dups != 0 {
		t.Errorf("upstreams answered %d checks for %d requests", nb+nc, requests)
	}

	// Real-time claim status (276/277) goes upstream like a check: B's mock
	// payer knows claim 1 (it holds it), so its 277 finds it.
	statusOf := func(pcn string) (int, string) {
		return post(t, a+"/2024-04-01/change/medicalnetwork/claimstatus/v2", keyA, `{"tradingPartnerServiceId": "52133",
		  "providers": [{"providerType": "BillingProvider", "organizationName": "ABA Inc", "npi": "1999999992"}],
		  "subscriber": {"memberId": "PARTIAL0001", "firstName": "John", "lastName": "Doe"},
		  "encounter": {"patientAccountNumber": "`+pcn+`", "beginningDateOfService": "20230428"}}`)
	}
	code, status1 := statusOf("12345")
	if code != 200 || !strings.Contains(status1, "~ST*277*") || !strings.HasSuffix(category(status1), "account 12345") ||
		strings.Contains(status1, `"statusCategoryCode":"D0"`) {
		t.Errorf("claim status of claim 1 through B: HTTP %d %.800s", code, status1)
	}

	// B killed → A's next claim goes to C (B refused the connection, so it
	// cannot have taken it), once, and its 999 and 277CA come back from C.
	b.kill()
	second := strings.Replace(string(claimBody), `"patientControlNumber": "12345"`, `"patientControlNumber": "67890"`, 1)
	code, body = post(t, a+"/2024-04-01/dental-claims/submission", keyA, second)
	if code != 200 {
		t.Fatalf("second claim at A: HTTP %d %.500s", code, body)
	}
	var failedOver struct {
		ClaimReference struct{ CorrelationID string }
	}
	json.Unmarshal([]byte(body), &failedOver)
	claimID := failedOver.ClaimReference.CorrelationID
	waitFor(t, 20*time.Second, func() string {
		_, ev := get(t, a+"/2023-08-01/events?limit=100", keyA)
		if strings.Count(ev, "file.delivered.v2") >= 2 || strings.Contains(ev, "file.failed.v2") {
			return ev
		}
		return ""
	})
	_, events = get(t, a+"/2023-08-01/events?limit=100", keyA)
	if !strings.Contains(events, "accepted by upstream connection up-c-claims") || strings.Contains(events, "file.failed.v2") {
		t.Fatalf("A's second claim was not delivered to C: %.2000s", events)
	}
	_, record := get(t, a+"/2025-03-07/claims/"+claimID, keyA)
	_, timeline := get(t, a+"/2025-03-07/claims/"+claimID+"/timeline", keyA)
	if !strings.Contains(record, `"route":"up-c-claims"`) ||
		!strings.Contains(timeline, `"connectionId":"up-b-claims","status":"NOT_ACCEPTED"`) ||
		!strings.Contains(timeline, `"connectionId":"up-c-claims","status":"ACCEPTED"`) {
		t.Errorf("the claim does not show its route:\n%s\n%.2000s", record, timeline)
	}
	_, firstRecord := get(t, a+"/2025-03-07/claims/"+submitted.ClaimReference.CorrelationID, keyA)
	if !strings.Contains(firstRecord, `"route":"up-b-claims"`) {
		t.Errorf("the first claim does not show B: %s", firstRecord)
	}
	polledC := waitFor(t, 20*time.Second, func() string {
		_, p := get(t, c.base+"/2023-08-01/polling/transactions?startDateTime="+since, c.key)
		if strings.Contains(p, `"transactionSetIdentifier":"999"`) && strings.Contains(p, `"transactionSetIdentifier":"277"`) {
			return p
		}
		return ""
	})
	claimsAtC := strings.Count(polledC, `"transactionSetIdentifier":"837"`)
	// C's answers come back to A by A's poll of up-c-claims; the second
	// claim moves to ACCEPTED on C's 277CA.
	var fromC string
	waitFor(t, 30*time.Second, func() string {
		_, ex := get(t, a+"/2023-08-01/executions?limit=100", keyA)
		if strings.Count(ex, `"upstream-999-`) >= 2 && strings.Count(ex, `"upstream-277-`) >= 2 {
			fromC = ex
			return ex
		}
		return ""
	})
	time.Sleep(1500 * time.Millisecond) // a few more polls: nothing more may come
	_, fromC = get(t, a+"/2023-08-01/executions?limit=100", keyA)
	acks2, statuses2 := strings.Count(fromC, `"upstream-999-`), strings.Count(fromC, `"upstream-277-`)
	_, record = get(t, a+"/2025-03-07/claims/"+claimID, keyA)
	if !strings.Contains(record, `"status":"ACCEPTED"`) {
		t.Errorf("the second claim did not move to ACCEPTED on C's 277CA: %s", record)
	}
	// Claim status with B down: C answers, and C knows claim 2 only.
	code, status2 := statusOf("67890")
	if code != 200 || !strings.Contains(status2, "~ST*277*") || !strings.HasSuffix(category(status2), "account 67890") ||
		strings.Contains(status2, `"statusCategoryCode":"D0"`) {
		t.Errorf("claim status of claim 2 with B down: HTTP %d %.800s", code, status2)
	}
	m = routeCounts(t, a)
	claimDups := claimsAtB + claimsAtC - 2
	t.Logf("claims failover: 2 claims to A; claim 1 %s route up-b-claims, claim 2 %s route up-c-claims after B was killed; "+
		"claims route attempts %v/%v/%v (answered B, failover B, answered C); 837s at B %d, at C %d (duplicates %d); "+
		"polled back into A in all: 999s %d, 277s %d (duplicates %d); claim status: claim 1 answered by B (%s), "+
		"claim 2 by C after a failover from B (%s)",
		submitted.ClaimReference.CorrelationID, claimID, m["up-b-claims answered"], m["up-b-claims failover"], m["up-c-claims answered"],
		claimsAtB, claimsAtC, claimDups, acks2, statuses2, acks2+statuses2-4, category(status1), category(status2))
	if m["276 up-b answered"] != 1 || m["276 up-b failover"] != 1 || m["276 up-c answered"] != 1 {
		t.Errorf("claim status routes: %v; want B answered 1, B failover 1, C answered 1", m)
	}
	if claimsAtC != 1 || claimDups != 0 || acks2 != 2 || statuses2 != 2 || m["up-b-claims failover"] != 1 || m["up-c-claims answered"] != 1 {
		t.Errorf("claims failover: C holds %d 837s, A took %d 999s and %d 277s, route attempts %v", claimsAtC, acks2, statuses2, m)
	}
}

// category is the first status category code of a claim status answer.
func category(answer string) string {
	m := regexp.MustCompile(`"statusCategoryCode":"([^"]+)".*?"statusCode":"([^"]+)".*?"patientAccountNumber":"([^"]+)"`).FindStringSubmatch(answer)
	if m == nil {
		return "none"
	}
	return m[1] + ":" + m[2] + " for patient account " + m[3]
}

// TestUpstreamWebhooks (issue 26): the upstream B sends its events to A's
// per-connection webhook URL, signed with the secret B gave; A fetches
// each answer they name into its inbound path. A polls only once an hour
// here, so the answers can only have come by webhook; B sending them again
// takes nothing twice, and a forged or unsigned event is refused.
func TestUpstreamWebhooks(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two server processes")
	}
	b := startUpstream(t, "B", "--webhooks-allow-private")
	secretsKey := secrets.NewKey()
	dataA, addrA := t.TempDir(), freePort(t)
	keyA := lastLine(runOK(t, "keys", "create", "--create", "--data", dataA, "--account", "Clinic W", "--mode", "production"))
	apply := func(webhookSecret string) {
		t.Helper()
		conn := claimsConnection("up-b-claims", b)
		if webhookSecret != "" {
			conn["secrets"].(map[string]any)["webhookSecret"] = webhookSecret
		}
		path := partnersFile(t, "CLINICW", conn)
		runOK(t, "partners", "apply", "-f", path, "--data", dataA, "--account", "Clinic W", "--mode", "production", "--secrets-key", secretsKey)
	}
	apply("")
	hookURL := lastLine(runOK(t, "connections", "webhook-url", "up-b-claims", "--account", "Clinic W", "--mode", "production",
		"--data", dataA, "--secrets-key", secretsKey, "--public-url", "http://"+addrA))
	if !strings.HasPrefix(hookURL, "http://"+addrA+"/2023-08-01/upstream-webhooks/") || strings.Contains(hookURL, "up-b-claims") {
		t.Fatalf("webhook URL %q", hookURL)
	}
	// At B, A's account makes a webhook to that URL; B shows its secret once.
	code, made := post(t, b.base+"/2023-08-01/webhooks", b.key, `{"url": "`+hookURL+`", "description": "to A"}`)
	var hook struct{ Secret string }
	json.Unmarshal([]byte(made), &hook)
	if code != 200 && code != 201 || !strings.HasPrefix(hook.Secret, "whsec_") {
		t.Fatalf("webhook at B: HTTP %d %s", code, made)
	}
	apply(hook.Secret)
	serveProcess(t, "--listen", addrA, "--data", dataA, "--secrets-key", secretsKey, "--allow-private-connections",
		"--upstream-poll-interval", "1h")
	a := "http://" + addrA

	claimBody, err := os.ReadFile("../../internal/claims/testdata/example.json")
	if err != nil {
		t.Fatal(err)
	}
	if code, body := post(t, a+"/2024-04-01/dental-claims/submission", keyA, string(claimBody)); code != 200 {
		t.Fatalf("claim at A: HTTP %d %.500s", code, body)
	}
	var hookID struct{ ID string }
	json.Unmarshal([]byte(made), &hookID)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		_, ex := get(t, a+"/2023-08-01/executions?limit=100", keyA)
		if strings.Contains(ex, `"upstream-999-`) && strings.Contains(ex, `"upstream-277-`) {
			break
		}
		if time.Now().After(deadline) {
			_, d := get(t, b.base+"/2023-08-01/webhooks/"+hookID.ID+"/deliveries", b.key)
			t.Fatalf("A has not taken B's answers by webhook: A's executions %.1500s\nB's deliveries to A: %.3000s", ex, d)
		}
	}
	// B sends every event of A's account again (the re-emit of each):
	// A answers them all, and takes nothing twice.
	_, evs := get(t, b.base+"/2023-08-01/events?limit=100", b.key)
	var page struct {
		Items []struct {
			ID         string `json:"id"`
			DetailType string `json:"detail-type"`
		}
	}
	json.Unmarshal([]byte(evs), &page)
	resent := 0
	for _, e := range page.Items {
		if e.DetailType == "transaction.processed.v2" {
			if code, body := post(t, b.base+"/2023-08-01/events/"+e.ID+"/retry", b.key, `{}`); code/100 != 2 {
				t.Errorf("re-emit at B: HTTP %d %s", code, body)
			}
			resent++
		}
	}
	// Wait until A has answered every re-emitted delivery.
	waitFor(t, 30*time.Second, func() string {
		_, d := get(t, b.base+"/2023-08-01/webhooks/"+hookID.ID+"/deliveries?limit=100", b.key)
		var page struct {
			Items []struct {
				Attempts []struct {
					AttemptType string
					StatusCode  int
				}
			}
		}
		json.Unmarshal([]byte(d), &page)
		answered := 0
		for _, it := range page.Items {
			for _, at := range it.Attempts {
				if at.AttemptType == "MANUAL" && at.StatusCode == 200 {
					answered++
				}
			}
		}
		if answered >= resent {
			return d
		}
		return ""
	})
	time.Sleep(500 * time.Millisecond) // the fetch jobs any of them queued would run now
	_, ex := get(t, a+"/2023-08-01/executions?limit=100", keyA)
	acks, statuses := strings.Count(ex, `"upstream-999-`), strings.Count(ex, `"upstream-277-`)
	// Forged and unsigned events: refused before anything is read.
	code, forged := call(t, "POST", hookURL, "", `{"detail-type":"transaction.processed.v2"}`)
	codeBadToken, _ := call(t, "POST", hookURL[:len(hookURL)-6]+"AAAAAA", "", `{}`)
	t.Logf("upstream webhooks: answers taken by webhook with polling at 1h: 999s %d, 277s %d; %d transaction events re-emitted by B, "+
		"duplicates %d; unsigned event HTTP %d, forged token HTTP %d", acks, statuses, resent, acks+statuses-2, code, codeBadToken)
	if acks != 1 || statuses != 1 || resent < 2 {
		t.Errorf("A took %d 999s and %d 277s (want 1 and 1) after %d re-emits: %.2000s", acks, statuses, resent, ex)
	}
	if code != 401 || codeBadToken != 404 {
		t.Errorf("unsigned: HTTP %d %s; forged token: HTTP %d", code, forged, codeBadToken)
	}
}
