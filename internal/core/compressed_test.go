package core_test

import (
	"bytes"
	"context"
	"io"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/core/coretest"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

// TestGuideJSONStoredCompressed: an inbound set's Guide JSON and fragments
// are stored compressed, and everything that reads them gets the document
// as before: the blob store's Get and the signed download link give the
// bytes an encoder of the set's X12 writes, each artifact's recorded size
// is the document's length (events and GET /transactions report it), and
// the download is saved under the name it had. A document stored before
// (a key without the suffix) still downloads as it is.
func TestGuideJSONStoredCompressed(t *testing.T) {
	t.Parallel()
	e := newEnv(t, storetest.SQLite)
	tr := e.receiveBig835()
	want := encodeSet(t, e.blob(tr.Input.Key))

	docs := []store.Artifact{tr.Output}
	for _, f := range tr.Fragments {
		docs = append(docs, f.Output)
	}
	if len(docs) != 4 {
		t.Fatalf("%d documents, want the Guide JSON and 3 fragments", len(docs))
	}
	for i, a := range docs {
		if !blob.IsCompressed(a.Key) {
			t.Errorf("%s is not stored compressed", a.Key)
		}
		got := e.blob(a.Key)
		if int64(len(got)) != a.Size {
			t.Errorf("%s: %d bytes read, %d recorded", a.Key, len(got), a.Size)
		}
		if i == 0 && got != want {
			t.Errorf("Guide JSON read back (%d bytes) is not the set's encoding (%d bytes)", len(got), len(want))
		}
		if i > 0 && !strings.HasPrefix(got, `{"heading":`) {
			t.Errorf("fragment %d starts %q", i-1, got[:min(len(got), 20)])
		}
		body, name := e.download(a.Key, "application/json")
		if body != got {
			t.Errorf("%s: the download differs from the stored document", a.Key)
		}
		if strings.HasSuffix(name, ".s2") || !strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".json.json") {
			t.Errorf("%s downloads as %q", a.Key, name)
		}
	}

	// A Guide JSON stored before compression: a plain key, its bytes as is.
	old := "transactions/" + store.NewID() + "/output.json"
	must(t, e.blobs.Put(ctx, old, strings.NewReader(want), "application/json"))
	if body, name := e.download(old, "application/json"); body != want || !strings.HasSuffix(name, "-output.json") {
		t.Errorf("an uncompressed document downloads as %q (%d bytes, want %d)", name, len(body), len(want))
	}
}

// signing is a blob store that signs URLs, as an object store does.
type signing struct{ blob.Store }

func (signing) SignedURL(_ context.Context, key string, _ time.Duration) (string, error) {
	return "https://bucket.example/" + key + "?X-Amz-Signature=x", nil
}

// TestObjectStoreKeepsDocumentsAsTheyAre: on a store that presigns URLs
// (S3), the Guide JSON and fragments are stored as they are, under the
// keys they always had, and the API's 302 goes to the presigned URL of
// the document itself.
func TestObjectStoreKeepsDocumentsAsTheyAre(t *testing.T) {
	t.Parallel()
	e := newEnvWrapped(t, storetest.SQLite, func(s blob.Store) blob.Store { return signing{s} })
	tr := e.receiveBig835()
	if len(tr.Fragments) != 3 {
		t.Fatalf("%d fragments", len(tr.Fragments))
	}
	want := encodeSet(t, e.blob(tr.Input.Key))
	for i, a := range append([]store.Artifact{tr.Output}, tr.Fragments[0].Output) {
		wantKey := "transactions/" + tr.ID + "/output.json"
		if i > 0 {
			wantKey = "transactions/" + tr.ID + "/fragments/0.json"
		}
		if a.Key != wantKey {
			t.Errorf("stored under %s, want %s", a.Key, wantKey)
		}
		if got := e.blob(a.Key); int64(len(got)) != a.Size || (i == 0 && got != want) {
			t.Errorf("%s: %d bytes, %d recorded", a.Key, len(got), a.Size)
		}
		if u, err := e.core.DownloadURL(ctx, a.Key, "application/json"); err != nil || !strings.HasPrefix(u, "https://bucket.example/"+wantKey) {
			t.Errorf("download URL %q, %v", u, err)
		}
	}
}

// receiveBig835 processes an 835 of 2,000 claim payments in one set
// (three fragments of 800) and returns its transaction.
func (e *env) receiveBig835() store.Transaction {
	e.t.Helper()
	ex := e.receive("era-big.x12", coretest.Gen835([]int{1}, 2000, 0))
	if ex.Status != store.ExecutionCompleted {
		e.t.Fatalf("execution %+v", ex)
	}
	txs, _, err := e.store.ListTransactions(ctx, e.account, store.TransactionFilter{ExecutionID: ex.ID})
	must(e.t, err)
	tr, err := e.store.GetTransaction(ctx, e.account, txs[0].ID)
	must(e.t, err)
	return tr
}

// encodeSet is the Guide JSON of the one set in raw (enveloped X12), as an
// encoder writes it.
func encodeSet(t *testing.T, raw string) string {
	t.Helper()
	var out bytes.Buffer
	enc := guide.NewJSONEncoder(&out)
	r := x12.NewReader(strings.NewReader(raw))
	var gs08 string
	for {
		seg, err := r.Next()
		if err == io.EOF {
			break
		}
		must(t, err)
		switch seg.ID() {
		case "GS":
			gs08 = seg.Element(8)
		case "ST":
			g, ok := guide.For(gs08, seg.Element(1), seg.Element(3))
			if !ok {
				t.Fatalf("no guide for %s", seg.Raw())
			}
			enc.Begin(g, seg)
		case "SE":
			enc.Segment(seg)
			enc.End()
		case "ISA", "GE", "IEA":
		default:
			enc.Segment(seg)
		}
	}
	must(t, enc.Flush())
	return out.String()
}

// download follows the core's signed link for key and returns the body and
// the file name it is saved under.
func (e *env) download(key, contentType string) (body, name string) {
	e.t.Helper()
	u, err := e.core.DownloadURL(ctx, key, contentType)
	must(e.t, err)
	parsed, err := url.Parse(u)
	must(e.t, err)
	d, err := e.core.OpenDownload(ctx, strings.TrimPrefix(parsed.Path, core.DownloadsPath))
	must(e.t, err)
	defer d.Body.Close()
	b, err := io.ReadAll(d.Body)
	must(e.t, err)
	return string(b), filepath.Base(d.FileName)
}
