package httpkit

import (
	"bytes"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestGoneClientsPipelinedRequestsAreNotServed: a client sends several
// requests on one connection and is gone (reset) before the first answer.
// A plain listener's failed write tells net/http, which closes the
// connection: no later request runs. A one-write connection must do the
// same — its held answer's write fails where net/http cannot see it, and
// each request net/http had already read would otherwise run (an
// eligibility check against the payer, recorded, audited) for nobody.
func TestGoneClientsPipelinedRequestsAreNotServed(t *testing.T) {
	served := func(oneWrite bool) int64 {
		var calls atomic.Int64
		body := bytes.Repeat([]byte("x"), 14_000)
		hs := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if calls.Add(1) == 1 {
				time.Sleep(100 * time.Millisecond) // the client's reset arrives first
			}
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			WriteWhole(w, r, http.StatusOK, body)
		}))
		if oneWrite {
			hs.Listener = OneWriteListener(hs.Config, hs.Listener)
		}
		hs.Start()
		defer hs.Close()
		conn, err := net.Dial("tcp", hs.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		one := "POST /check HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}"
		if _, err := conn.Write([]byte(strings.Repeat(one, 8))); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond) // read by the server
		conn.(*net.TCPConn).SetLinger(0)
		conn.Close()
		time.Sleep(500 * time.Millisecond)
		return calls.Load()
	}
	plain, oneWrite := served(false), served(true)
	if oneWrite != plain {
		t.Errorf("after the client was gone, a one-write connection served %d pipelined requests, a plain one %d", oneWrite, plain)
	}
}
