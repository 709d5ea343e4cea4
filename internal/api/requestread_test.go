package api

import (
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// A request without a query parses none: url.Values of an empty query is
// still a map made for every request.
func TestCheckRequestTextAllocations(t *testing.T) {
	r := httptest.NewRequest("POST", "/2024-04-01/change/medicalnetwork/eligibility/v3", nil)
	r.Header.Set("Idempotency-Key", "k-1")
	if n := testing.AllocsPerRun(100, func() { _ = checkRequestText(r) }); n != 0 {
		t.Errorf("checkRequestText: %v allocations, want 0", n)
	}
	r = httptest.NewRequest("GET", "/x?a=1&b=%00", nil)
	if err := checkRequestText(r); err == nil || len(err.FieldList) != 1 || err.FieldList[0].Path != "/query/b" {
		t.Errorf("a query's NUL: %+v", err)
	}
}

// readBody closes a body it read to the end, so net/http does not look for
// more of it when the answer is written; the connection is still reused
// and the body, sized or chunked, is read whole.
func TestReadBodyClosesTheBody(t *testing.T) {
	var afterClose atomic.Int32
	var conns atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		own := r.Body                                  // net/http's, which it looks at when the answer is written
		r.Body = http.MaxBytesReader(w, r.Body, 1<<20) // as ServeHTTP does
		b, err := readBody(r)
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		if _, err := own.Read(make([]byte, 1)); errors.Is(err, http.ErrBodyReadAfterClose) {
			afterClose.Add(1)
		}
		w.Write(b)
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	body := strings.Repeat("x", 5000)
	for i, chunked := range []bool{false, true, false} {
		var rd io.Reader = strings.NewReader(body)
		if chunked {
			rd = io.MultiReader(rd) // no length known: sent chunked
		}
		resp, err := srv.Client().Post(srv.URL, "application/json", rd)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !bytes.Equal(got, []byte(body)) {
			t.Fatalf("request %d: body of %d bytes came back as %d", i, len(body), len(got))
		}
	}
	if n := afterClose.Load(); n != 3 {
		t.Errorf("%d of 3 bodies closed after reading", n)
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("%d connections for 3 keep-alive requests, want 1", n)
	}
}
