package web

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserPollSurvivesNavigation: a poll that starts on one page and
// comes true on the page that replaces it (a form's redirect, a reload)
// waits for it, where chromedp.Poll fails with "Execution context was
// destroyed" or "Cannot find context with specified id" (seen once in
// TestBrowserPracticeClaim under load). The poll itself sends the first page
// on, a little after its first look, so the navigation always comes while
// it waits.
func TestBrowserPollSurvivesNavigation(t *testing.T) {
	ctx := newBrowser(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/next" {
			w.Write([]byte(`<!doctype html><title>next</title><p id="done">done</p>`))
			return
		}
		w.Write([]byte(`<!doctype html><title>first</title><p>waiting</p>`))
	}))
	t.Cleanup(srv.Close)
	step(t, ctx, "open the first page", chromedp.Navigate(srv.URL+"/"))
	step(t, ctx, "wait for the next page", poll(`(location.pathname === "/" && (window.moved ||= setTimeout(() => location.href = "/next", 100)),
		!!document.querySelector("#done"))`, chromedp.WithPollingTimeout(10*time.Second)))
	if got := eval[string](t, ctx, `location.pathname`); got != "/next" {
		t.Fatalf("the poll ended on %q, want /next", got)
	}
}
