package api_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/app/apptest"
	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/core/coretest"
	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// filesServer is a real HTTP server with workers, a test key whose account
// receives 835s from PAYERSENDER, and a production key of another account.
type filesServer struct {
	t        *testing.T
	url      string
	key      string
	otherKey string
	store    store.Store
}

func newFilesServer(t *testing.T) *filesServer {
	t.Helper()
	ctx := context.Background()
	st := storetest.SQLite(t)
	hs := apptest.New(t, apptest.Options{Store: st, Workers: true})
	f := &filesServer{t: t, url: hs.URL, store: st}
	var rec store.APIKey
	var err error
	if f.key, rec, err = auth.CreateKey(ctx, st, "Clinic", auth.ModeTest, "", time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := coretest.SetupPartners(ctx, st, rec.AccountID, store.ModeTest); err != nil {
		t.Fatal(err)
	}
	if f.otherKey, _, err = auth.CreateKey(ctx, st, "Other", auth.ModeProduction, "", time.Now()); err != nil {
		t.Fatal(err)
	}
	return f
}

// call sends a request with the key; follow decides whether redirects are followed.
func (f *filesServer) call(method, path, key, body string, follow bool) (*http.Response, []byte) {
	f.t.Helper()
	req, err := http.NewRequest(method, f.url+path, strings.NewReader(body))
	if err != nil {
		f.t.Fatal(err)
	}
	req.Header.Set("Authorization", key)
	client := &http.Client{Timeout: 10 * time.Second}
	if !follow {
		client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	}
	resp, err := client.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

func (f *filesServer) json(method, path, body string, want int, v any) {
	f.t.Helper()
	resp, b := f.call(method, path, f.key, body, false)
	if resp.StatusCode != want {
		f.t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, b)
	}
	if v != nil {
		if err := json.Unmarshal(b, v); err != nil {
			f.t.Fatalf("%s %s: %v in %s", method, path, err, b)
		}
	}
}

// upload sends a file and waits for its execution to finish.
func (f *filesServer) upload(name, body string) map[string]any {
	f.t.Helper()
	var accepted struct{ ExecutionID, Status string }
	f.json("POST", "/2023-08-01/files/inbound?name="+name, body, http.StatusAccepted, &accepted)
	if accepted.ExecutionID == "" || accepted.Status != "RECEIVED" {
		f.t.Fatalf("202 body %+v", accepted)
	}
	for range 1000 {
		var ex map[string]any
		f.json("GET", "/2023-08-01/executions/"+accepted.ExecutionID, "", 200, &ex)
		if s := ex["status"]; s != "RECEIVED" && s != "PROCESSING" {
			return ex
		}
		time.Sleep(10 * time.Millisecond)
	}
	f.t.Fatal("not processed in 10 s")
	return nil
}

type eventList struct {
	Items []events.Envelope `json:"items"`
}

func TestFilesDoneWhen(t *testing.T) {
	t.Parallel()
	f := newFilesServer(t)

	// An 835 with two functional groups and three sets.
	ex := f.upload("era-0001.x12", coretest.Gen835([]int{2, 1}, 3, 0))
	id := ex["executionId"].(string)
	if ex["status"] != "COMPLETED" || ex["transactionCount"] != float64(3) {
		t.Fatalf("execution %v", ex)
	}
	var evs eventList
	f.json("GET", "/2023-08-01/events?executionId="+id, "", 200, &evs)
	counts := map[string]int{}
	for _, ev := range evs.Items {
		counts[ev.DetailType]++
		if ev.Source != events.Source || len(ev.Resources) != 1 || !strings.HasPrefix(ev.Resources[0], f.url+"/2023-08-01/") {
			t.Errorf("envelope %+v", ev)
		}
	}
	if counts["file.processed.v2"] != 1 || counts["transaction.processed.v2"] != 3 {
		t.Fatalf("events %v", counts)
	}
	// Each transaction's input and output, and the execution's metadata,
	// through the 302 flow: the URL of the artifact, then the signed link.
	for _, ev := range evs.Items {
		var d struct {
			FileExecutionID string `json:"fileExecutionId"`
			Artifacts       []struct {
				ArtifactType, Usage, URL string
			} `json:"artifacts"`
		}
		if err := json.Unmarshal(ev.Detail, &d); err != nil {
			t.Fatal(err)
		}
		if d.FileExecutionID != id {
			t.Errorf("%s names execution %s", ev.DetailType, d.FileExecutionID)
		}
		for _, a := range d.Artifacts {
			path := strings.TrimPrefix(a.URL, f.url)
			resp, body := f.call("GET", path, f.key, "", false)
			var redirect struct {
				DocumentDownloadURL string `json:"documentDownloadUrl"`
			}
			if resp.StatusCode != http.StatusFound || json.Unmarshal(body, &redirect) != nil ||
				resp.Header.Get("Location") != redirect.DocumentDownloadURL || redirect.DocumentDownloadURL == "" {
				t.Fatalf("GET %s: %d %s", path, resp.StatusCode, body)
			}
			resp, body = f.call("GET", path, f.key, "", true)
			if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), a.ArtifactType) || len(body) == 0 {
				t.Fatalf("following %s: %d %s %q", path, resp.StatusCode, resp.Header.Get("Content-Type"), body)
			}
			switch a.ArtifactType {
			case "application/json":
				if !json.Valid(body) {
					t.Errorf("%s is not JSON", path)
				}
			case "application/edi-x12":
				if !strings.HasPrefix(string(body), "ISA") {
					t.Errorf("%s is not X12: %.40q", path, body)
				}
			}
			// The signed link needs no key, and is refused when altered.
			resp, _ = f.call("GET", strings.TrimPrefix(redirect.DocumentDownloadURL, f.url), "", "", false)
			if resp.StatusCode != 200 {
				t.Errorf("signed link without key: %d", resp.StatusCode)
			}
			resp, _ = f.call("GET", strings.TrimPrefix(redirect.DocumentDownloadURL, f.url)+"x", "", "", false)
			if resp.StatusCode != http.StatusForbidden {
				t.Errorf("altered signed link: %d", resp.StatusCode)
			}
		}
	}
	// Another account sees none of it.
	if resp, _ := f.call("GET", "/2023-08-01/executions/"+id, f.otherKey, "", false); resp.StatusCode != 404 {
		t.Errorf("other account reads the execution: %d", resp.StatusCode)
	}
	var txs struct {
		Items []struct {
			TransactionID       string `json:"transactionId"`
			BusinessIdentifiers []struct{ Element, Value string }
		} `json:"items"`
	}
	f.json("GET", "/2023-08-01/transactions?businessIdentifier=PCN2-00001", "", 200, &txs)
	if len(txs.Items) != 1 {
		t.Errorf("search by CLP-01: %d transactions", len(txs.Items))
	}
	if resp, _ := f.call("GET", "/2023-08-01/transactions/"+txs.Items[0].TransactionID, f.otherKey, "", false); resp.StatusCode != 404 {
		t.Errorf("other account reads the transaction: %d", resp.StatusCode)
	}

	// The same file with one corrupted set: one file.failed.v2, no transactions.
	ex = f.upload("era-0002.x12", coretest.Gen835([]int{2, 1}, 3, 3))
	id = ex["executionId"].(string)
	if ex["status"] != "FAILED" || ex["faultCode"] != "FAILED_TO_TRANSLATE" {
		t.Fatalf("corrupt file: %v", ex)
	}
	f.json("GET", "/2023-08-01/events?executionId="+id, "", 200, &evs)
	if len(evs.Items) != 1 || evs.Items[0].DetailType != "file.failed.v2" {
		t.Fatalf("corrupt file events %+v", evs.Items)
	}
	f.json("GET", "/2023-08-01/executions/"+id+"/transactions", "", 200, &txs)
	if len(txs.Items) != 0 {
		t.Errorf("failed file kept %d transactions", len(txs.Items))
	}

	// A CSV is stored and reported, not parsed.
	ex = f.upload("remittance.csv", "claim,paid\nA1,10.00\n")
	if ex["status"] != "COMPLETED" || ex["fileType"] != "csv" {
		t.Fatalf("csv: %v", ex)
	}
	f.json("GET", "/2023-08-01/events?detailType=file.processed.v2&executionId="+ex["executionId"].(string), "", 200, &evs)
	if len(evs.Items) != 1 {
		t.Errorf("csv events %+v", evs.Items)
	}

	// An 835 with 2,000 claim payments gives 3 fragments.
	ex = f.upload("era-big.x12", coretest.Gen835([]int{1}, 2000, 0))
	f.json("GET", "/2023-08-01/events?detailType=fragment.processed.v2&executionId="+ex["executionId"].(string), "", 200, &evs)
	if len(evs.Items) != 3 {
		t.Fatalf("%d fragment events", len(evs.Items))
	}
	var frag struct {
		TransactionID string `json:"transactionId"`
		FragmentIndex int    `json:"fragmentIndex"`
	}
	json.Unmarshal(evs.Items[0].Detail, &frag)
	for _, p := range []string{"/fragments/2/output", "/edi-platform/fragments/0/output"} {
		if resp, body := f.call("GET", "/2023-08-01/transactions/"+frag.TransactionID+p, f.key, "", true); resp.StatusCode != 200 || !json.Valid(body) {
			t.Errorf("%s: %d", p, resp.StatusCode)
		}
	}
	if resp, _ := f.call("GET", "/2023-08-01/transactions/"+frag.TransactionID+"/fragments/3/output", f.key, "", false); resp.StatusCode != 404 {
		t.Errorf("fragment 3 of 3: %d", resp.StatusCode)
	}
}

func TestUploadErrors(t *testing.T) {
	t.Parallel()
	f := newFilesServer(t)
	for _, tc := range []struct {
		path, body string
		want       int
	}{
		{"/2023-08-01/files/inbound", "ISA", 400},            // no name
		{"/2023-08-01/files/inbound?name=a.x12", "", 400},    // empty
		{"/2023-08-01/files/inbound?name=%01.x12", "x", 400}, // control character
	} {
		if resp, body := f.call("POST", tc.path, f.key, tc.body, false); resp.StatusCode != tc.want {
			t.Errorf("POST %s: %d %s", tc.path, resp.StatusCode, body)
		}
	}
	if resp, _ := f.call("POST", "/2023-08-01/files/inbound?name=a.x12", "", "ISA", false); resp.StatusCode != 401 {
		t.Errorf("no key: %d", resp.StatusCode)
	}
	var list struct{ Items []any }
	f.json("GET", "/2023-08-01/executions", "", 200, &list)
	if len(list.Items) != 0 {
		t.Errorf("refused uploads left %d executions", len(list.Items))
	}
}
