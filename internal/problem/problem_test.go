package problem_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/clearhouse/clearhouse/internal/api"
	"github.com/clearhouse/clearhouse/internal/claims"
	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/problem"
	"github.com/clearhouse/clearhouse/internal/statusinquiry"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// TestOneFieldType: every package's FieldError is problem.Field, so a
// field list crosses packages without being copied (before, each package
// had its own struct and this did not compile).
func TestOneFieldType(t *testing.T) {
	f := problem.Field{Path: "/a", Message: "is required"}
	for _, got := range []problem.Field{api.FieldError(f), claims.FieldError(f), eligibility.FieldError(f),
		webhooks.FieldError(f), statusinquiry.FieldError(f)} {
		if got != f {
			t.Errorf("%+v", got)
		}
	}
}

// TestErrorsCarryTheirMessage: errors that cross into the API carry the
// caller's message apart from their package prefix (the API used to cut
// "core: " and "webhooks: " off the error text).
func TestErrorsCarryTheirMessage(t *testing.T) {
	for _, tc := range []struct {
		err        *problem.Error
		kind       problem.Kind
		text, want string
	}{
		{core.ErrBadDownload, problem.Forbidden, "core: invalid or expired download link", "invalid or expired download link"},
		{webhooks.ErrNoSecretsKey, problem.Unavailable, webhooks.ErrNoSecretsKey.Error(), "this server has no secrets key"},
	} {
		wrapped := fmt.Errorf("open: %w", tc.err)
		got, ok := problem.As(wrapped)
		if !ok || got.Kind != tc.kind || !errors.Is(wrapped, tc.err) || tc.err.Error() != tc.text ||
			len(got.Message) < len(tc.want) || got.Message[:len(tc.want)] != tc.want {
			t.Errorf("%v: As %v %+v", tc.err, ok, got)
		}
	}
}
