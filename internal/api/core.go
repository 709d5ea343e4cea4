package api

import (
	"context"
	_ "embed"
	"net/http"
	"time"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/httpkit"
)

// openAPIDoc is the hand-written OpenAPI 3.1 description of every route.
//
//go:embed openapi.json
var openAPIDoc []byte

// healthy answers 200 while the process serves requests.
func (s *Server) healthy(w http.ResponseWriter, r *http.Request) {
	WriteJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// serveOpenAPI serves openapi.json.
func serveOpenAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Write(openAPIDoc)
}

// ready answers 200 when the database answers a read, commits a write and
// has room for new rows, and the file store can take a new file, within two
// seconds: what an eligibility check, a claim or an upload needs. A full
// disk answers 503 here before it fails a request.
func (s *Server) ready(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.svc.Store.Ping(ctx); err != nil {
		httpkit.Logger(r.Context()).Warn("not ready", "error", err.Error())
		WriteError(w, r, Errorf(http.StatusServiceUnavailable, CodeServiceUnavailable, "The database cannot be read or written, or has no room for new records; requests would not be recorded."))
		return
	}
	if err := blob.Probe(ctx, s.svc.Core.Blob()); err != nil {
		httpkit.Logger(r.Context()).Warn("not ready", "error", err.Error())
		WriteError(w, r, Errorf(http.StatusServiceUnavailable, CodeServiceUnavailable, "The file store cannot take a new file (disk full or read-only); files and claims would not be stored."))
		return
	}
	WriteJSON(w, http.StatusOK, map[string]string{"status": "ready", "database": s.svc.Store.Engine()})
}
