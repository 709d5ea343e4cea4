package httpkit

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"sync"
)

// An answer of more than ~4 KB written through net/http leaves in two
// write(2) calls: the headers go into the connection's fixed 4 KB buffer,
// the body's first bytes fill it and it is sent, and the rest of the body
// goes out directly. The client wakes up for each (an eligibility check's
// 12–16 KB answer cost hey ~60 µs of CPU a check, /healthz's ~20). A
// connection from OneWriteListener can hold what net/http writes to it
// while WriteWhole writes one answer, and send it in one write(2). Nothing
// else changes: every other answer, and a streamed one, is written as net/http
// writes it, and the bytes sent are the same.

// OneWriteListener returns ln whose TCP connections WriteWhole can send an
// answer through in one write(2), and sets srv.ConnContext (keeping one
// already set) so that handlers find the connection. Connections of other
// kinds are served as they are.
func OneWriteListener(srv *http.Server, ln net.Listener) net.Listener {
	next := srv.ConnContext
	srv.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
		if next != nil {
			ctx = next(ctx, c)
		}
		if wc, ok := c.(*wholeConn); ok {
			ctx = context.WithValue(ctx, wholeConnKey{}, wc)
		}
		return ctx
	}
	return oneWriteListener{ln}
}

type oneWriteListener struct{ net.Listener }

func (l oneWriteListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok && err == nil {
		return &wholeConn{TCPConn: tc}, nil
	}
	return c, err
}

type wholeConnKey struct{}

// wholeConn is a TCP connection that can hold writes. Every method of
// *net.TCPConn is promoted (ReadFrom's sendfile for downloads, CloseWrite
// for net/http's graceful close); Write and ReadFrom look at the hold.
// Only the goroutine serving the connection's request touches held: for
// HTTP/1, net/http writes a connection from that goroutine only, and
// WriteWhole holds only for HTTP/1 requests.
type wholeConn struct {
	*net.TCPConn
	held *[]byte // the answer so far while held; nil otherwise
	// body is the length of the held answer's body; headEnd the length
	// of its head (status line, headers, blank line) once it is held
	// whole, 0 before.
	body, headEnd int
	writes        int // write(2) calls made through Write and release (tests)
}

func (c *wholeConn) Write(p []byte) (int, error) {
	if c.held != nil {
		*c.held = append(*c.held, p...)
		if !c.whole() {
			return len(p), nil
		}
		// The write that completes the answer sends it, so that its
		// failure is net/http's: it then closes the connection rather
		// than serve the requests it has already read for a client that
		// is gone, as it does after a failed write of its own.
		if err := c.send(); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	c.writes++
	return c.TCPConn.Write(p)
}

// whole reports whether the held bytes are the whole answer: its head,
// then the body's length.
func (c *wholeConn) whole() bool {
	b := *c.held
	if c.headEnd == 0 {
		i := bytes.Index(b, []byte("\r\n\r\n"))
		if i < 0 {
			return false
		}
		c.headEnd = i + 4
	}
	return len(b) >= c.headEnd+c.body
}

// ReadFrom sends what is held first, so bytes keep their order (nothing
// holds around a ReadFrom today).
func (c *wholeConn) ReadFrom(r io.Reader) (int64, error) {
	c.release()
	return c.TCPConn.ReadFrom(r)
}

// heldBuffers are the buffers answers are held in, given back after each
// answer: a connection keeps none while idle.
var heldBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// maxPooledHeld keeps an unusually large answer's buffer out of the pool.
const maxPooledHeld = 256 << 10

func (c *wholeConn) hold(body int) {
	c.held = heldBuffers.Get().(*[]byte)
	c.body, c.headEnd = body, 0
}

// release sends what is still held (an answer that did not come out as
// WriteWhole was told: a wrapper answered otherwise, or panicked) in one
// write(2) and stops holding. A write that fails closes the connection,
// as net/http does after a failed write (it did not see this one fail).
func (c *wholeConn) release() {
	if err := c.send(); err != nil {
		c.TCPConn.Close()
	}
}

// send sends what was held in one write(2) and stops holding.
func (c *wholeConn) send() (err error) {
	b := c.held
	if b == nil {
		return nil
	}
	c.held = nil
	if len(*b) > 0 {
		c.writes++
		_, err = c.TCPConn.Write(*b)
	}
	if cap(*b) <= maxPooledHeld {
		*b = (*b)[:0]
		heldBuffers.Put(b)
	}
	return err
}

// WriteWhole answers status with body (the headers set on w), as
// w.WriteHeader(status) and w.Write(body) would. On a connection from
// OneWriteListener serving HTTP/1, the headers and the body leave in one
// write(2) before it returns; elsewhere (HTTP/2, another listener, a
// test's recorder) it is exactly those two calls. Every wrapper of w
// between here and net/http must pass http.ResponseController's Flush on.
func WriteWhole(w http.ResponseWriter, r *http.Request, status int, body []byte) {
	c, _ := r.Context().Value(wholeConnKey{}).(*wholeConn)
	if c == nil || r.ProtoMajor != 1 || c.held != nil {
		w.WriteHeader(status)
		w.Write(body)
		return
	}
	// What net/http writes of the body: nothing for HEAD or a status
	// without one.
	n := len(body)
	if r.Method == http.MethodHead || status < 200 || status == http.StatusNoContent || status == http.StatusNotModified {
		n = 0
	}
	c.hold(n)
	defer c.release() // also when a wrapper panics: what net/http wrote goes out, as it would have
	w.WriteHeader(status)
	w.Write(body)
	// net/http keeps a short body (≤ 2 KB) or the body's tail in its
	// buffers until the handler returns; the flush hands all of it to the
	// connection now.
	http.NewResponseController(w).Flush()
}

// ConnWrites is the number of write(2) calls made so far on the
// connection serving r, and false when it is not from OneWriteListener.
// For tests: call it from a later request on the same connection.
func ConnWrites(r *http.Request) (int, bool) {
	c, ok := r.Context().Value(wholeConnKey{}).(*wholeConn)
	if !ok {
		return 0, false
	}
	return c.writes, true
}
