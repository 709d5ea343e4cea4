package claims

import (
	"bytes"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

var testNow = time.Date(2026, 11, 23, 14, 5, 0, 0, time.UTC)

// loadExample decodes testdata/example.json, the public example request of
// the endpoint (with a real submitter id).
func loadExample(t testing.TB) *Request {
	t.Helper()
	b, err := os.ReadFile("testdata/example.json")
	if err != nil {
		t.Fatal(err)
	}
	var r Request
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

func testOptions() BuildOptions {
	return BuildOptions{
		Envelope:      Envelope{SenderID: "CLEARHOUSE", ReceiverID: "52133"},
		Numbers:       &x12.SequentialControlNumbers{Interchange: 41, Group: 41},
		PayerID:       "52133",
		PayerName:     "UnitedHealthcare Dental",
		CorrelationID: "01KHCCA4V6K00NFPX588G859SJ",
		LineID:        func(i int) string { return "LINE" + strconv.Itoa(i+1) },
		Now:           testNow,
	}
}

// mustBuild validates and builds a request, failing the test on any error.
func mustBuild(t testing.TB, r *Request) *Built {
	t.Helper()
	if err := Validate(r); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	b, err := Build837D(r, testOptions())
	if err != nil {
		t.Fatalf("Build837D: %v", err)
	}
	return b
}

// guideFindings validates an interchange against the envelope and the
// 837D guide and returns the findings that reject or warn.
func guideFindings(t testing.TB, x []byte) []string {
	t.Helper()
	rep, err := guide.Validate(bytes.NewReader(x), guide.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range rep.All() {
		if f.Severity >= x12.Warning {
			out = append(out, f.String())
		}
	}
	return out
}

// segmentsBetween returns the segments of x from the first with id from up
// to (not including) the first with id to, one string per segment.
func segmentsBetween(x []byte, from, to string) []string {
	var out []string
	on := false
	for _, s := range strings.Split(strings.TrimSpace(string(x)), "~") {
		s = strings.TrimSpace(s)
		id, _, _ := strings.Cut(s, "*")
		if id == from {
			on = true
		}
		if id == to && on {
			break
		}
		if on && s != "" {
			out = append(out, s)
		}
	}
	return out
}
