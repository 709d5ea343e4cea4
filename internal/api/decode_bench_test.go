package api

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
)

// BenchmarkCheckRequestDecode is what the API does with a check's body
// before the service sees it: read it (as ServeHTTP hands it on, under
// its size limit), check it, decode it strictly and look for unknown
// fields when the fast decoder did not (mock uhc-subscriber, the body of
// bench/hey-floor.sh), as the check's handler does.
func BenchmarkCheckRequestDecode(b *testing.B) {
	var body []byte
	for _, m := range mockpayer.Requests() {
		if m.Name == "uhc-subscriber" {
			body = m.RequestJSON()
		}
	}
	if body == nil {
		b.Fatal("no uhc-subscriber mock request")
	}
	w := httptest.NewRecorder()
	b.ReportAllocs()
	for b.Loop() {
		r, _ := http.NewRequest("POST", "/x", bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Body = http.MaxBytesReader(w, r.Body, DefaultMaxBodyBytes)
		var req eligibility.Request
		got, plain, err := readJSONBodyPlain(r, &req)
		if err != nil {
			b.Fatal(err)
		}
		if !plain && unknownFields(got, reflect.TypeFor[eligibility.Request]()) != nil {
			b.Fatal("unknown fields")
		}
	}
}
