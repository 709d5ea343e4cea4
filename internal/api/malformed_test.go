package api_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/api"
)

// TestTypeErrorPathsUseJSONNames: a wrong JSON type is reported at the JSON
// path the caller wrote, never with the Go names of embedded structs
// (/subscriber/Patient/dateOfBirth before).
func TestTypeErrorPathsUseJSONNames(t *testing.T) {
	t.Parallel()
	s := newEligibilityServer(t)
	for body, want := range map[string]string{
		`{"subscriber":{"dateOfBirth":19710101}}`:         "/subscriber/dateOfBirth",
		`{"subscriber":{"firstName":["Jane"]}}`:           "/subscriber/firstName",
		`{"dependents":[{"lastName":{"a":1}}]}`:           "/dependents/lastName",
		`{"provider":{"npi":1999999984}}`:                 "/provider/npi",
		`{"encounter":{"serviceTypeCodes":"30"}}`:         "/encounter/serviceTypeCodes",
		`{"tradingPartnerServiceId":87726}`:               "/tradingPartnerServiceId",
		`{"subscriber":{"memberId":true,"lastName":"D"}}`: "/subscriber/memberId",
	} {
		status, _, out := s.call("POST", eligibilityPath, s.testKey, []byte(body))
		var e api.Error
		json.Unmarshal(out, &e)
		if status != 400 || len(e.FieldList) != 1 || e.FieldList[0].Path != want {
			t.Errorf("%s: %d %s; want the path %s", body, status, out, want)
		}
	}
	status, _, out := s.call("POST", eligibilityPath+"/raw-x12", s.testKey, []byte(`{"x12":270}`))
	if status != 400 || !strings.Contains(string(out), `"path":"/x12","message":"must be a JSON string, not number"`) {
		t.Errorf("raw-x12 with a number: %d %s", status, out)
	}
}

// TestSlowBodyIs408: a body that does not arrive within the server's read
// timeout is answered 408 in the contract's shape, and the message names no
// socket address (it quoted "read tcp 127.0.0.1:…->127.0.0.1:…" before).
func TestSlowBodyIs408(t *testing.T) {
	t.Parallel()
	f := newFixture(t, api.Options{})
	hs := httptest.NewUnstartedServer(f.server)
	hs.Config.ReadTimeout = 300 * time.Millisecond
	hs.Start()
	t.Cleanup(hs.Close)
	conn, err := net.Dial("tcp", hs.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\nAuthorization: %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"provider\":", eligibilityPath, f.keyA)
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(body), `"code":"REQUEST_TIMEOUT"`) {
		t.Fatalf("slow body: %d %s", resp.StatusCode, body)
	}
	if strings.Contains(string(body), "127.0.0.1") || strings.Contains(string(body), "tcp") {
		t.Errorf("the message names sockets: %s", body)
	}
}

// TestUncleanPathsAnswerJSON: paths ServeMux would redirect with an HTML
// body (empty or dot segments) answer the contract's JSON 404 instead.
func TestUncleanPathsAnswerJSON(t *testing.T) {
	t.Parallel()
	f := newFixture(t, api.Options{})
	for _, p := range []string{"/2024-04-01//usage", "/2024-04-01/./usage", "//healthz", "/2024-04-01/eligibility-checks/../usage"} {
		for _, m := range []string{"GET", "POST"} {
			rec := f.do(m, p, f.keyA, nil)
			e := wantError(t, rec, http.StatusNotFound, api.CodeNotFound)
			if !strings.Contains(e.Message, "did you mean /") {
				t.Errorf("%s %s: %q", m, p, e.Message)
			}
		}
	}
}
