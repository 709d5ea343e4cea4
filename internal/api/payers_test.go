package api_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/app/apptest"
	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// The payer directory over HTTP in the Payers API's shape: a payer by id
// and by alias, the list paged, a search by name words, and an unknown id
// answered 404 with the closest payers named.
func TestPayerDirectory(t *testing.T) {
	t.Parallel()
	st := storetest.SQLite(t)
	hs := apptest.New(t, apptest.Options{Store: st})
	key, _, err := auth.CreateKey(context.Background(), st, "Directory", auth.ModeTest, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	c := &lifecycleClient{t: t, url: hs.URL, key: key}
	type record struct {
		StediID, PrimaryPayerID, DisplayName string
		Aliases, Names, CoverageTypes        []string
		TransactionSupport                   map[string]string
	}
	for _, id := range []string{"87726", "uhc"} {
		var got struct{ Payer record }
		c.do("GET", "/2024-04-01/payer/"+id, "", 200, &got)
		p := got.Payer
		if p.StediID != "87726" || p.DisplayName != "UnitedHealthcare" || len(p.TransactionSupport) != 9 ||
			p.TransactionSupport["eligibilityCheck"] != "SUPPORTED" || p.TransactionSupport["coordinationOfBenefits"] != "NOT_SUPPORTED" {
			t.Errorf("payer %s: %+v", id, p)
		}
	}
	var first, second struct {
		Items         []record
		NextPageToken string
	}
	c.do("GET", "/2024-04-01/payers?pageSize=2", "", 200, &first)
	c.do("GET", "/2024-04-01/payers?pageSize=2&pageToken="+first.NextPageToken, "", 200, &second)
	if len(first.Items) != 2 || first.NextPageToken == "" || len(second.Items) == 0 || second.Items[0].StediID == first.Items[0].StediID {
		t.Errorf("pages: %+v then %+v", first, second)
	}
	var hits struct {
		Items []struct {
			Payer record
			Score float64
		}
		Stats struct{ Total int }
	}
	c.do("GET", "/2024-04-01/payers/search?query=unitedhealthcare+dental", "", 200, &hits)
	if hits.Stats.Total == 0 || hits.Items[0].Payer.DisplayName != "UnitedHealthcare Dental" || hits.Items[0].Score != 1 {
		t.Errorf("search: %+v", hits)
	}
	body := c.do("GET", "/2024-04-01/payer/8772", "", 404, nil)
	if !strings.Contains(string(body), "Did you mean 87726 (UnitedHealthcare)") {
		t.Errorf("unknown payer: %s", body)
	}
	c.do("GET", "/2024-04-01/payers/search", "", 400, nil)
}
