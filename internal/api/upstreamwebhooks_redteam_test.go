package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/app/apptest"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
	"github.com/clearhouse/clearhouse/internal/upstream"
)

// The upstream webhook receiver is public (no key): a stranger's token,
// an oversized or an empty body are 4xx, never 5xx.
func TestUpstreamWebhookReceiverRefusesStrangers(t *testing.T) {
	t.Parallel()
	hs := apptest.New(t, apptest.Options{Store: storetest.SQLite(t)})
	hc := &http.Client{Timeout: 20 * time.Second}
	for name, c := range map[string]struct {
		token, body string
		want        int
	}{
		"garbage token":  {"not-a-token", `{}`, 404},
		"long token":     {strings.Repeat("A", 5000), `{}`, 404},
		"oversized body": {"x", strings.Repeat(" ", upstream.MaxWebhookBody+10), 413},
		"empty body":     {"x", ``, 404},
		"not json":       {"x", `{{{`, 404},
	} {
		resp, err := hc.Post(hs.URL+upstream.WebhookPath+c.token, "application/json", strings.NewReader(c.body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("%s: %d, want %d", name, resp.StatusCode, c.want)
		}
	}
}
