package api

import (
	"context"
	"log/slog"
	"testing"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/services"
	"github.com/clearhouse/clearhouse/internal/store"
)

// newInternalServer is the API over the services app.New builds, for this
// package's own tests (which cannot import app: it imports api).
func newInternalServer(t testing.TB, st store.Store) *Server {
	t.Helper()
	blobs, err := blob.Open(context.Background(), "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { blobs.Close() })
	svc, err := services.New(services.Config{Store: st, Blob: blobs, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Services{Store: st, Clock: svc.Clock, Logger: svc.Logger, Metrics: svc.Metrics, Core: svc.Core,
		Eligibility: svc.Eligibility, Claims: svc.Claims, StatusInquiry: svc.StatusInquiry, Webhooks: svc.Webhooks, Events: svc.Events}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}
