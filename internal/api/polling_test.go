package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/core/coretest"
)

// TestPollingTransactions: GET /2023-08-01/polling/transactions lists the
// key's transactions processed after startDateTime, oldest first, page by
// page, never another account's; without startDateTime or pageToken, or
// with a time in the future, it answers 400 naming the parameter.
func TestPollingTransactions(t *testing.T) {
	t.Parallel()
	f := newFilesServer(t)
	start := time.Now().Add(-time.Minute).UTC().Format(time.RFC3339)
	f.upload("era-1.x12", coretest.Gen835([]int{1, 1}, 2, 0)) // two sets
	f.upload("era-2.x12", coretest.Gen835([]int{1}, 2, 2))    // one set
	type page struct {
		Items []struct {
			TransactionID, Direction string
			ProcessedAt              time.Time
		}
		NextPageToken string
	}
	var all page
	f.json("GET", "/2023-08-01/polling/transactions?startDateTime="+url.QueryEscape(start), "", 200, &all)
	if len(all.Items) != 3 || all.NextPageToken != "" {
		t.Fatalf("got %d transactions (next %q), want 3 and no next page", len(all.Items), all.NextPageToken)
	}
	for i := 1; i < len(all.Items); i++ {
		if all.Items[i].ProcessedAt.Before(all.Items[i-1].ProcessedAt) {
			t.Errorf("item %d processed before item %d: not oldest first", i, i-1)
		}
	}
	var seen []string
	path := "/2023-08-01/polling/transactions?pageSize=2&startDateTime=" + url.QueryEscape(start)
	for range 3 {
		var p page
		f.json("GET", path, "", 200, &p)
		for _, it := range p.Items {
			seen = append(seen, it.TransactionID)
		}
		if p.NextPageToken == "" {
			break
		}
		path = "/2023-08-01/polling/transactions?pageSize=2&pageToken=" + url.QueryEscape(p.NextPageToken)
	}
	want := []string{all.Items[0].TransactionID, all.Items[1].TransactionID, all.Items[2].TransactionID}
	if strings.Join(seen, ",") != strings.Join(want, ",") {
		t.Errorf("paged: %v, want %v", seen, want)
	}
	var after page
	f.json("GET", "/2023-08-01/polling/transactions?startDateTime="+url.QueryEscape(all.Items[2].ProcessedAt.Format(time.RFC3339Nano)), "", 200, &after)
	if len(after.Items) != 0 {
		t.Errorf("after the last processedAt: %d transactions, want 0", len(after.Items))
	}
	resp, body := f.call("GET", "/2023-08-01/polling/transactions?startDateTime="+url.QueryEscape(start), f.otherKey, "", false)
	if resp.StatusCode != 200 || strings.Contains(string(body), all.Items[0].TransactionID) {
		t.Errorf("another account's key: %d %s", resp.StatusCode, body)
	}
	for _, tt := range []struct{ query, want string }{
		{"", "/query/startDateTime"},
		{"?startDateTime=" + url.QueryEscape(time.Now().Add(time.Hour).Format(time.RFC3339)), "is in the future"},
		{"?startDateTime=yesterday", "ISO 8601"},
		{"?pageToken=not-a-token", "pageToken"},
		{"?startDateTime=2024-01-01T00:00:00Z&pageSize=501", "/query/pageSize"},
	} {
		resp, body := f.call("GET", "/2023-08-01/polling/transactions"+tt.query, f.key, "", false)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), tt.want) {
			t.Errorf("%q: %d %s; want 400 with %q", tt.query, resp.StatusCode, body, tt.want)
		}
	}
}
