package api_test

import (
	"context"
	"encoding/base64"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/app/apptest"
	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// A page token is the client's to send: one whose offset is so large that
// offset+pageSize overflows is a 400 naming pageToken, not a panic's 500.
func TestPayerPageTokenOverflowIs400(t *testing.T) {
	t.Parallel()
	st := storetest.SQLite(t)
	hs := apptest.New(t, apptest.Options{Store: st})
	key, _, err := auth.CreateKey(context.Background(), st, "Overflow", auth.ModeTest, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	c := &lifecycleClient{t: t, url: hs.URL, key: key}
	tok := base64.RawURLEncoding.EncodeToString([]byte("p:9223372036854775807"))
	for _, path := range []string{
		"/2024-04-01/payers?pageToken=" + tok,
		"/2024-04-01/payers?pageSize=10&pageToken=" + tok,
		"/2024-04-01/payers/search?query=united&pageToken=" + tok,
	} {
		c.do("GET", path, "", 400, nil)
	}
}
