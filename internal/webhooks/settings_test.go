package webhooks_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/problem"
	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// TestRotationSignsWithBothSecrets: after a rotation each delivery carries
// two v1 signatures, so a receiver holding either secret verifies it (the
// reference library checks each); after the grace period only the new one.
func TestRotationSignsWithBothSecrets(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	rcv := newReceiver(t, always(200))
	w, oldSecret := e.create(t, rcv.URL, webhooks.Input{})
	ctx := context.Background()
	newSecret, until, err := e.svc.RotateSecret(ctx, e.caller, w.ID)
	if err != nil || newSecret == oldSecret || time.Until(until) < 23*time.Hour {
		t.Fatalf("rotate = %q, %v, %v", newSecret, until, err)
	}
	if got, _ := e.svc.Secret(ctx, e.caller, w.ID); got != newSecret {
		t.Errorf("Secret after rotation = %q, want the new one", got)
	}
	e.emit(t, "file.processed.v2", map[string]any{})
	got := rcv.next(t)
	if n := len(strings.Fields(got.header.Get("webhook-signature"))); n != 2 {
		t.Errorf("%d signatures during the grace period, want 2", n)
	}
	for _, s := range []string{oldSecret, newSecret} {
		ref := reference(t, s)
		if err := ref.Verify(got.body, got.header); err != nil {
			t.Errorf("secret %s…: %v", s[:10], err)
		}
		if err := webhooks.Verify(s, got.header, got.body, time.Now()); err != nil {
			t.Errorf("own verifier, secret %s…: %v", s[:10], err)
		}
	}

	// Stored sealed: the row holds no secret in the clear.
	row, _ := e.st.GetWebhook(ctx, e.caller.AccountID, w.ID)
	if !secrets.IsSealed(row.Secret) || !secrets.IsSealed(row.PreviousSecret) || strings.Contains(row.Secret, newSecret[6:]) {
		t.Errorf("secrets not sealed at rest: %q %q", row.Secret, row.PreviousSecret)
	}
}

// TestOutboundAuthentication: an API-key header or Basic credentials go
// with each delivery, are stored sealed and never shown back.
func TestOutboundAuthentication(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	rcv := newReceiver(t, always(200))
	ctx := context.Background()
	w, _ := e.create(t, rcv.URL, webhooks.Input{Authentication: &webhooks.Authentication{Type: webhooks.AuthAPIKey, HeaderName: "x-api-key", Value: "k-123"}})
	e.emit(t, "file.processed.v2", map[string]any{})
	if got := rcv.next(t); got.header.Get("x-api-key") != "k-123" {
		t.Errorf("x-api-key %q", got.header.Get("x-api-key"))
	}
	if a := e.svc.Authentication(w); a.Value != "" || a.HeaderName != "x-api-key" || a.Type != webhooks.AuthAPIKey {
		t.Errorf("shown authentication %+v", a)
	}
	row, _ := e.st.GetWebhook(ctx, e.caller.AccountID, w.ID)
	if !secrets.IsSealed(row.Auth) || strings.Contains(row.Auth, "k-123") {
		t.Errorf("credentials stored as %q", row.Auth)
	}
	if _, err := e.svc.Update(ctx, e.caller, w.ID, webhooks.Input{Authentication: &webhooks.Authentication{Type: webhooks.AuthBasic, Username: "clinic", Password: "s3cret"}}); err != nil {
		t.Fatal(err)
	}
	e.emit(t, "file.processed.v2", map[string]any{})
	if got := rcv.next(t); got.header.Get("Authorization") != "Basic Y2xpbmljOnMzY3JldA==" || got.header.Get("x-api-key") != "" {
		t.Errorf("headers %v", got.header)
	}
}

// TestSettingsValidation: each bad field is named with how to fix it.
func TestSettingsValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{noRun: true})
	ctx := context.Background()
	prod := webhooks.Caller{AccountID: e.caller.AccountID, Mode: store.ModeProduction}
	for _, c := range []struct {
		name   string
		caller webhooks.Caller
		in     webhooks.Input
		path   string
		msg    string
	}{
		{"no url", e.caller, webhooks.Input{}, "/url", "is required"},
		{"relative", e.caller, webhooks.Input{URL: ptr("/hooks")}, "/url", "absolute URL"},
		{"ftp", e.caller, webhooks.Input{URL: ptr("ftp://example.com/")}, "/url", "https://"},
		{"http in production", prod, webhooks.Input{URL: ptr("http://example.com/")}, "/url", "must use https with a production key"},
		{"user info", e.caller, webhooks.Input{URL: ptr("https://a:b@example.com/")}, "/url", "use authentication instead"},
		{"type", e.caller, webhooks.Input{URL: ptr("https://example.com/"), EventTypes: &[]string{"file.processed"}}, "/eventTypes/0", "unknown event type"},
		{"direction", e.caller, webhooks.Input{URL: ptr("https://example.com/"), Filters: &webhooks.Filters{Direction: "IN"}}, "/filters/direction", "INBOUND or OUTBOUND"},
		{"set", e.caller, webhooks.Input{URL: ptr("https://example.com/"), Filters: &webhooks.Filters{TransactionSetIdentifier: "ERA"}}, "/filters/transactionSetIdentifier", "3-digit"},
		{"status", e.caller, webhooks.Input{URL: ptr("https://example.com/"), Status: ptr("ON")}, "/status", "ENABLED or DISABLED"},
		{"concurrency", e.caller, webhooks.Input{URL: ptr("https://example.com/"), Concurrency: ptr(0)}, "/concurrency", "from 1 to 50"},
		{"auth type", e.caller, webhooks.Input{URL: ptr("https://example.com/"), Authentication: &webhooks.Authentication{Type: "OAUTH"}}, "/authentication/type", "NONE, API_KEY or BASIC"},
		{"auth header", e.caller, webhooks.Input{URL: ptr("https://example.com/"), Authentication: &webhooks.Authentication{Type: "API_KEY", HeaderName: "webhook-signature", Value: "x"}}, "/authentication/headerName", "header name"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := e.svc.Create(ctx, c.caller, c.in)
			inv, ok := problem.AsInvalid(err)
			if !ok || inv.Fields[0].Path != c.path || !strings.Contains(inv.Fields[0].Message, c.msg) {
				t.Errorf("error %v, want %s: …%s…", err, c.path, c.msg)
			}
		})
	}
	// A production key's webhook and a test key's never see each other.
	w, _ := e.create(t, "https://example.com/", webhooks.Input{})
	if _, err := e.svc.Get(ctx, prod, w.ID); err != store.ErrNotFound {
		t.Errorf("production caller reads a test webhook: %v", err)
	}
	if _, err := e.svc.Update(ctx, prod, w.ID, webhooks.Input{Description: ptr("x")}); err != store.ErrNotFound {
		t.Errorf("production caller updates a test webhook: %v", err)
	}
	// Without a secrets key nothing can be created.
	noKey, err := webhooks.New(webhooks.Config{Store: e.st, Queue: jobs.New(e.st, jobs.Options{Logger: quiet}), Events: webhooks.StoreEvents(e.st)})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := noKey.Create(ctx, e.caller, webhooks.Input{URL: ptr("https://example.com/")}); err != webhooks.ErrNoSecretsKey {
		t.Errorf("create without a secrets key: %v", err)
	}
}

func TestParseSchedule(t *testing.T) {
	t.Parallel()
	got, err := webhooks.ParseSchedule("0s, 5s,5m,30m,2h")
	if err != nil || webhooks.FormatSchedule(got) != "0s,5s,5m0s,30m0s,2h0m0s" {
		t.Errorf("ParseSchedule = %v, %v", got, err)
	}
	if webhooks.FormatSchedule(webhooks.DefaultSchedule) != "0s,5s,5m0s,30m0s,2h0m0s,5h0m0s,10h0m0s,14h0m0s,20h0m0s,24h0m0s" {
		t.Errorf("default schedule %s", webhooks.FormatSchedule(webhooks.DefaultSchedule))
	}
	for _, bad := range []string{"", "5", "-1s", "0s,,5s", "9000h", strings.Repeat("1s,", 30) + "1s"} {
		if _, err := webhooks.ParseSchedule(bad); err == nil {
			t.Errorf("ParseSchedule(%q) accepted", bad)
		}
	}
}

// TestWebhookQuotaIsPerMode: the limit of webhooks counts the caller's
// mode. Before, it counted both: a test key (handed out freely) that made
// 50 test webhooks left production unable to make one.
func TestWebhookQuotaIsPerMode(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{noRun: true})
	ctx := context.Background()
	off := "DISABLED"
	for i := range webhooks.MaxWebhooks {
		if _, _, err := e.svc.Create(ctx, e.caller, webhooks.Input{URL: ptr(fmt.Sprintf("https://example.com/%d", i)), Status: &off}); err != nil {
			t.Fatalf("test webhook %d: %v", i, err)
		}
	}
	if _, _, err := e.svc.Create(ctx, e.caller, webhooks.Input{URL: ptr("https://example.com/one-more"), Status: &off}); err == nil {
		t.Error("a test webhook past the limit was made")
	}
	prod := webhooks.Caller{AccountID: e.caller.AccountID, Mode: store.ModeProduction}
	if _, _, err := e.svc.Create(ctx, prod, webhooks.Input{URL: ptr("https://example.com/prod"), Status: &off}); err != nil {
		t.Errorf("production webhook after 50 test ones: %v", err)
	}
}
