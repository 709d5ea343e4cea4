package api

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/clearhouse/clearhouse/internal/eligibility"
)

// TestWriteResultRetryAfter: the answers a client should retry (not
// recorded; too many checks waiting on the payer) say when.
func TestWriteResultRetryAfter(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		res  eligibility.Result
		want string
	}{
		{eligibility.Result{HTTPStatus: http.StatusTooManyRequests, Problem: &eligibility.Problem{Code: eligibility.CodeTooManyRequests}}, "1"},
		{eligibility.Result{HTTPStatus: http.StatusServiceUnavailable, NotRecorded: true, Problem: &eligibility.Problem{}}, "1"},
		{eligibility.Result{HTTPStatus: http.StatusBadRequest, Problem: &eligibility.Problem{}}, ""},
	} {
		w := httptest.NewRecorder()
		writeResult(w, httptest.NewRequest("POST", "/", nil), &tc.res, nil)
		if got := w.Header().Get("Retry-After"); got != tc.want || w.Code != tc.res.HTTPStatus {
			t.Errorf("%d: Retry-After %q (want %q), status %d", tc.res.HTTPStatus, got, tc.want, w.Code)
		}
	}
}
