package web

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// consoleWatch collects what the page reports as an error: console.error
// and console.warn calls (htmx logs its errors this way), uncaught
// exceptions, and the browser's own error entries (a failed favicon or
// script load, a CSP refusal).
type consoleWatch struct {
	mu   sync.Mutex
	errs []string
}

// watchConsole starts collecting on the browser's tab.
func watchConsole(t *testing.T, ctx context.Context) *consoleWatch {
	t.Helper()
	w := &consoleWatch{}
	err := chromedp.Listen(ctx, func(ev any) {
		var msg string
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning || e.Type == runtime.ConsoleAPICalledTypeAssert {
				var parts []string
				for _, a := range e.Args {
					parts = append(parts, strings.Trim(string(a.Value), `"`)+a.Description)
				}
				msg = "console." + string(e.Type) + ": " + strings.Join(parts, " ")
			}
		case *runtime.EventExceptionThrown:
			msg = "exception: " + e.ExceptionDetails.Text
			if e.ExceptionDetails.Exception != nil {
				msg += " " + e.ExceptionDetails.Exception.Description
			}
		case *log.EventEntryAdded:
			if e.Entry.Level == log.EntryLevelError || e.Entry.Level == log.EntryLevelWarning {
				msg = "browser " + string(e.Entry.Level) + ": " + e.Entry.Text + " " + e.Entry.URL
			}
		}
		if msg != "" {
			w.mu.Lock()
			w.errs = append(w.errs, msg)
			w.mu.Unlock()
		}
	})
	if err != nil {
		t.Fatalf("listen to the console: %v", err)
	}
	return w
}

// none fails the test with every error seen so far, and starts over.
func (w *consoleWatch) none(t *testing.T) {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, e := range w.errs {
		t.Errorf("browser console: %s", e)
	}
	w.errs = nil
}

// forget drops the errors seen so far that contain substr: an answer the
// test provoked on purpose (a refused form is a 400 page load, which the
// browser reports as a failed resource).
func (w *consoleWatch) forget(substr string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	kept := w.errs[:0]
	for _, e := range w.errs {
		if !strings.Contains(e, substr) {
			kept = append(kept, e)
		}
	}
	w.errs = kept
}
