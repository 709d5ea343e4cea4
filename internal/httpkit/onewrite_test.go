package httpkit

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// oneWriteCase is an answer written by a handler, and how many write(2)
// calls it may take on a connection from OneWriteListener.
type oneWriteCase struct {
	name    string
	request string // raw HTTP/1.x, without the Host line's end
	handler func(w http.ResponseWriter, r *http.Request)
	writes  int
}

// flusherLess wraps a ResponseWriter the way the API's access-log writer
// does: no Flush of its own, only Unwrap.
type flusherLess struct{ http.ResponseWriter }

func (f flusherLess) Unwrap() http.ResponseWriter { return f.ResponseWriter }

func whole(status, size int, header map[string]string) func(w http.ResponseWriter, r *http.Request) {
	body := bytes.Repeat([]byte("0123456789abcdef"), size/16+1)[:size]
	return func(w http.ResponseWriter, r *http.Request) {
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		WriteWhole(flusherLess{w}, r, status, body)
	}
}

var oneWriteCases = []oneWriteCase{
	{"check-sized answer", "POST /check HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}", whole(200, 14_000, nil), 1},
	{"small answer", "GET /x HTTP/1.1\r\nHost: x\r\n\r\n", whole(200, 100, nil), 1},
	{"a body of exactly net/http's buffer", "GET /x HTTP/1.1\r\nHost: x\r\n\r\n", whole(200, 4096, nil), 1},
	{"large answer", "GET /x HTTP/1.1\r\nHost: x\r\n\r\n", whole(200, 300_000, nil), 1},
	{"empty answer", "GET /x HTTP/1.1\r\nHost: x\r\n\r\n", whole(204, 0, nil), 1},
	{"error status and headers", "GET /x HTTP/1.1\r\nHost: x\r\n\r\n", whole(429, 9000, map[string]string{"Retry-After": "1", "X-Id": "a"}), 1},
	{"HTTP/1.0", "GET /x HTTP/1.0\r\nHost: x\r\n\r\n", whole(200, 14_000, nil), 1},
	{"HTTP/1.0 keep-alive", "GET /x HTTP/1.0\r\nHost: x\r\nConnection: keep-alive\r\n\r\n", whole(200, 14_000, nil), 1},
	{"Connection: close", "GET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", whole(200, 14_000, nil), 1},
	{"HEAD", "HEAD /x HTTP/1.1\r\nHost: x\r\n\r\n", whole(200, 14_000, nil), 1},
	// Not WriteWhole: written as net/http writes it, as many times.
	{"plain write", "GET /x HTTP/1.1\r\nHost: x\r\n\r\n", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "14000")
		w.Write(bytes.Repeat([]byte("a"), 14_000))
	}, 2},
	{"streamed, flushed twice", "GET /x HTTP/1.1\r\nHost: x\r\n\r\n", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("first"))
		http.NewResponseController(w).Flush()
		w.Write([]byte("second"))
		http.NewResponseController(w).Flush()
	}, 3}, // headers and the first chunk, the second chunk, the last chunk
}

// TestWriteWholeIsOneWrite: an answer written with WriteWhole leaves a
// connection from OneWriteListener in one write(2), and every answer —
// WriteWhole's or not — is byte for byte what a plain listener sends.
func TestWriteWholeIsOneWrite(t *testing.T) {
	for _, tc := range oneWriteCases {
		t.Run(tc.name, func(t *testing.T) {
			want, _ := rawExchange(t, false, tc.request, tc.handler)
			got, writes := rawExchange(t, true, tc.request, tc.handler)
			if got != want {
				t.Errorf("one-write listener sent\n%.300q\nplain listener sent\n%.300q", got, want)
			}
			if writes != tc.writes {
				t.Errorf("answer took %d write(2) calls, want %d", writes, tc.writes)
			}
		})
	}
}

// rawExchange sends request to a server with handler (on a one-write
// listener or not) and returns the raw answer, its Date header blanked,
// and the write(2) calls the server made on the connection (one-write
// listener only).
func rawExchange(t *testing.T, oneWrite bool, request string, handler http.HandlerFunc) (string, int) {
	t.Helper()
	var served atomic.Pointer[wholeConn]
	hs := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c, ok := r.Context().Value(wholeConnKey{}).(*wholeConn); ok {
			served.Store(c)
		}
		handler(w, r)
	}))
	if oneWrite {
		hs.Listener = OneWriteListener(hs.Config, hs.Listener)
	}
	hs.Start()
	conn, err := net.Dial("tcp", hs.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, request); err != nil {
		t.Fatal(err)
	}
	var raw bytes.Buffer
	br := bufio.NewReader(io.TeeReader(conn, &raw))
	req, err := http.ReadRequest(bufio.NewReader(strings.NewReader(request)))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(br, req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	out := regexp.MustCompile(`(?m)^Date: .*\r$`).ReplaceAllString(raw.String()[:raw.Len()-br.Buffered()], "Date: -\r")
	hs.Close() // returns once the connection is closed: every write it made is counted
	c := served.Load()
	if oneWrite && c == nil {
		t.Fatal("the handler found no one-write connection")
	}
	if c == nil {
		return out, 0
	}
	return out, c.writes
}
