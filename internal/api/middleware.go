package api

import (
	"fmt"
	"log/slog"
	"net/http"
	"path"
	"regexp"
	"runtime/debug"
	"time"

	"github.com/clearhouse/clearhouse/internal/httpkit"
	"github.com/clearhouse/clearhouse/internal/store"
)

// validRequestID accepts a caller's X-Request-Id only if it is short and
// plain, so it is safe to echo and log.
var validRequestID = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,64}$`)

// ServeHTTP wraps every request: request id, body limit, panic recovery,
// the contract's 404/405, then the access log line and metrics.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	id := r.Header.Get("X-Request-Id")
	if !validRequestID.MatchString(id) {
		id = store.NewID()
	}
	setSecurityHeaders(w.Header(), id) // and X-Request-Id
	// The request's Info, its context and the access log's writer in one
	// allocation.
	st := &served{rec: statusWriter{ResponseWriter: w}}
	st.ctx.Context = r.Context()
	info := &st.ctx.Info
	info.ID, info.Base = id, s.svc.Logger
	r = r.WithContext(&st.ctx)
	rec := &st.rec

	s.metrics.inFlight.Inc()
	defer func() {
		s.metrics.inFlight.Dec()
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			info.Logger().Error("handler panic", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			if !rec.wroteHeader {
				WriteError(rec, r, Errorf(http.StatusInternalServerError, CodeInternal,
					"Internal error; quote request id %s when reporting it.", id))
			}
		}
		s.observe(r, rec, info, time.Since(start))
	}()

	if clean := cleanPath(r.URL.Path); clean != r.URL.Path && r.Method != http.MethodConnect {
		// ServeMux would redirect with an HTML body; an API client gets the
		// contract's JSON and the path it probably meant.
		WriteError(rec, r, Errorf(http.StatusNotFound, CodeNotFound,
			"No endpoint %s %s: paths have no empty, '.' or '..' segments; did you mean %s?", r.Method, r.URL.Path, clean))
		return
	}
	_, pattern := s.mux.Handler(r)
	limit := s.maxBody
	if l, ok := s.bodyLimits[pattern]; ok {
		limit = l
	}
	if r.ContentLength > limit {
		WriteError(rec, r, tooLarge(limit))
		return
	}
	r.Body = http.MaxBytesReader(rec, r.Body, limit)

	if pattern == "" {
		s.unmatched(rec, r)
		return
	}
	if err := checkRequestText(r); err != nil {
		WriteError(rec, r, err)
		return
	}
	s.mux.ServeHTTP(rec, r)
}

// unmatched answers requests no route takes: 404, or 405 with Allow when the
// path exists for other methods, in the contract's error format.
func (s *Server) unmatched(w http.ResponseWriter, r *http.Request) {
	h, _ := s.mux.Handler(r)
	probe := &probeWriter{header: http.Header{}}
	h.ServeHTTP(probe, r)
	if probe.status == http.StatusMethodNotAllowed {
		allow := probe.header.Get("Allow")
		w.Header().Set("Allow", allow)
		WriteError(w, r, Errorf(http.StatusMethodNotAllowed, CodeMethodNotAllowed,
			"Method %s is not allowed on %s; allowed: %s.", r.Method, r.URL.Path, allow))
		return
	}
	WriteError(w, r, Errorf(http.StatusNotFound, CodeNotFound, "No endpoint %s %s.", r.Method, r.URL.Path))
}

func (s *Server) observe(r *http.Request, rec *statusWriter, info *httpkit.Info, elapsed time.Duration) {
	status := rec.status
	if status == 0 {
		status = http.StatusOK
	}
	route := r.Pattern
	if route == "" {
		route = "unmatched"
	}
	s.metrics.observe(route, status, elapsed)
	// Only metadata: never bodies, query strings or headers (they can hold
	// PHI or keys). The same line as Info.Logger's would write (the request
	// id first), as typed attributes: no logger copy per request and no
	// value boxed into an interface.
	logger := s.svc.Logger
	if !logger.Enabled(r.Context(), slog.LevelInfo) {
		return
	}
	attrs := [11]slog.Attr{
		slog.String("request_id", info.ID),
		slog.String("method", r.Method), slog.String("route", route), slog.String("path", r.URL.Path), slog.Int("status", status),
		slog.Float64("duration_ms", float64(elapsed.Microseconds())/1000), slog.Int64("bytes", rec.bytes),
	}
	n := 7
	if info.Principal.AccountID != "" {
		attrs[7], attrs[8], attrs[9] = slog.String("account_id", info.Principal.AccountID), slog.String("key_id", info.Principal.KeyID), slog.String("mode", info.Principal.Mode)
		n = 10
	}
	logger.LogAttrs(r.Context(), slog.LevelInfo, "request", attrs[:n]...)
}

// served is what ServeHTTP keeps for one request.
type served struct {
	ctx httpkit.InfoContext
	rec statusWriter
}

// statusWriter remembers the status and size of the response.
type statusWriter struct {
	http.ResponseWriter
	status      int
	bytes       int64
	wroteHeader bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wroteHeader {
		w.status, w.wroteHeader = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if !w.wroteHeader {
		w.status, w.wroteHeader = http.StatusOK, true
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the connection (flush, deadlines).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// probeWriter captures what ServeMux's own 404/405 handler would send.
type probeWriter struct {
	header http.Header
	status int
}

func (p *probeWriter) Header() http.Header         { return p.header }
func (p *probeWriter) Write(b []byte) (int, error) { return len(b), nil }
func (p *probeWriter) WriteHeader(code int)        { p.status = code }

// cleanPath is the canonical form ServeMux redirects to: path.Clean, with a
// trailing slash kept.
func cleanPath(p string) string {
	if p == "" {
		return "/"
	}
	if p[0] != '/' {
		p = "/" + p
	}
	np := path.Clean(p)
	if p[len(p)-1] == '/' && np != "/" {
		np += "/"
	}
	return np
}
