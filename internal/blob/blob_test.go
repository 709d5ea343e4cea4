package blob_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/testenv"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// TestStores runs the same checks on every backend reachable without a
// network: the default directory, a file:// URL and mem://.
func TestStores(t *testing.T) {
	backends := map[string]func(t *testing.T) blob.Store{
		"default": func(t *testing.T) blob.Store { return open(t, "", t.TempDir()) },
		"file":    func(t *testing.T) blob.Store { return open(t, "file://"+filepath.Join(t.TempDir(), "b"), "") },
		"mem":     func(t *testing.T) blob.Store { return open(t, "mem://", "") },
	}
	for name, mk := range backends {
		t.Run(name, func(t *testing.T) { checkStore(t, mk(t)) })
	}
}

// checkStore puts, reads back, checks and deletes content.
func checkStore(t *testing.T, s blob.Store) {
	t.Helper()
	ctx := context.Background()
	content := bytes.Repeat([]byte("ISA*00*~"), 10000)
	if err := s.Put(ctx, "executions/01abc/input", bytes.NewReader(content), "application/edi-x12"); err != nil {
		t.Fatal(err)
	}
	r, err := s.Get(ctx, "executions/01abc/input")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(r)
	r.Close()
	if !bytes.Equal(got, content) {
		t.Errorf("read %d bytes back, want %d", len(got), len(content))
	}
	if ok, err := s.Exists(ctx, "executions/01abc/input"); !ok || err != nil {
		t.Errorf("Exists = %v, %v", ok, err)
	}
	if _, err := s.Get(ctx, "executions/none"); !errors.Is(err, blob.ErrNotFound) {
		t.Errorf("missing key: %v, want ErrNotFound", err)
	}
	if err := s.Delete(ctx, "executions/01abc/input"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, "executions/01abc/input"); err != nil {
		t.Errorf("second delete: %v", err)
	}
	if ok, _ := s.Exists(ctx, "executions/01abc/input"); ok {
		t.Error("deleted content still exists")
	}

	// A streamed write is invisible until Commit; Abort leaves nothing.
	w, err := s.Create(ctx, "transactions/t1/output.json", "application/json")
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte(`{"a":`))
	w.Write([]byte(`1}`))
	if ok, _ := s.Exists(ctx, "transactions/t1/output.json"); ok {
		t.Error("content visible before Commit")
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	w.Abort() // no-op after Commit
	if got := read(t, s, "transactions/t1/output.json"); got != `{"a":1}` {
		t.Errorf("committed %q", got)
	}
	w, err = s.Create(ctx, "transactions/t1/output.json", "application/json")
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("half a document"))
	w.Abort()
	if got := read(t, s, "transactions/t1/output.json"); got != `{"a":1}` {
		t.Errorf("after Abort the key holds %q", got)
	}
	// Put of a reader that fails stores nothing.
	err = s.Put(ctx, "executions/02/input", io.MultiReader(bytes.NewReader([]byte("ISA")), errReader{}), "application/edi-x12")
	if err == nil {
		t.Error("Put of a failing reader succeeded")
	}
	if ok, _ := s.Exists(ctx, "executions/02/input"); ok {
		t.Error("a failed Put left content")
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("connection reset") }

func read(t *testing.T, s blob.Store, key string) string {
	t.Helper()
	r, err := s.Get(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, _ := io.ReadAll(r)
	return string(b)
}

func TestSignedURLsNeedAnObjectStore(t *testing.T) {
	s := open(t, "", t.TempDir())
	if _, err := s.SignedURL(context.Background(), "k", time.Minute); !errors.Is(err, blob.ErrNoSignedURLs) {
		t.Errorf("directory SignedURL: %v, want ErrNoSignedURLs", err)
	}
}

func TestDefaultIsInDataDir(t *testing.T) {
	data := t.TempDir()
	s := open(t, "", data)
	if err := s.Put(context.Background(), "k", bytes.NewReader([]byte("x")), "text/plain"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(data, blob.DefaultDir, "k")); err != nil {
		t.Errorf("content not under the data directory: %v", err)
	}
}

func TestOpenRejectsUnknownScheme(t *testing.T) {
	if _, err := blob.Open(context.Background(), "ftp://x", ""); err == nil {
		t.Error("ftp:// accepted")
	}
}

func open(t *testing.T, url, dataDir string) blob.Store {
	t.Helper()
	s, err := blob.Open(context.Background(), url, dataDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestS3 runs the same checks through the S3 driver against an in-process
// S3 server (gofakes3), with the URL options an S3-compatible deployment
// uses: a custom endpoint, path-style addressing.
func TestS3(t *testing.T) {
	checkS3(t, open(t, fakeS3(t), ""))
}

// fakeS3 starts an in-process S3 server (gofakes3) with a bucket for the
// test and returns the bucket's URL.
func fakeS3(t *testing.T) string {
	t.Helper()
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	backend := s3mem.New()
	if err := backend.CreateBucket("clearhouse"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend, gofakes3.WithLogger(gofakes3.DiscardLog())).Server())
	t.Cleanup(srv.Close)
	return "s3://clearhouse?region=us-east-1&use_path_style=true&endpoint=" + srv.URL
}

// TestVersityGW runs the same suite against a real S3 server process
// (versitygw, built from the module proxy by make versitygw), as replicas
// use it in production.
func TestVersityGW(t *testing.T) {
	s3 := testenv.VersityGW(t)
	s := open(t, s3.BucketURL(t, "clearhouse"), "")
	checkS3(t, s)
	checkCompressed(t, s, "", true)
}

// checkS3 runs checkStore, then checks that a presigned URL fetches the
// object without credentials (the 302 download flow on S3).
func checkS3(t *testing.T, s blob.Store) {
	t.Helper()
	checkStore(t, s)
	if err := s.Put(context.Background(), "executions/e1/input", bytes.NewReader([]byte("ISA*00~")), "application/edi-x12"); err != nil {
		t.Fatal(err)
	}
	u, err := s.SignedURL(context.Background(), "executions/e1/input", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != "ISA*00~" || !strings.Contains(u, "X-Amz-Signature") {
		t.Errorf("GET %s: %d %q", u, resp.StatusCode, body)
	}
}

// TestPutNew stores fresh keys on every backend, and on the default
// directory refuses to overwrite a key or to write under a file.
func TestPutNew(t *testing.T) {
	ctx := context.Background()
	data := t.TempDir()
	backends := map[string]blob.Store{
		"default": open(t, "", data),
		"mem":     open(t, "mem://", ""),
	}
	for name, s := range backends {
		t.Run(name, func(t *testing.T) {
			for _, key := range []string{"claims/2026-11-24T13/a.x12", "claims/2026-11-24T13/b.json", "claims/2026-11-24T14/c.x12"} {
				if err := blob.PutNew(ctx, s, key, []byte("ISA*"+key+"~"), "application/edi-x12"); err != nil {
					t.Fatal(err)
				}
				if got := read(t, s, key); got != "ISA*"+key+"~" {
					t.Errorf("%s holds %q", key, got)
				}
			}
		})
	}
	s := backends["default"]
	if err := blob.PutNew(ctx, s, "claims/2026-11-24T13/a.x12", []byte("other"), "application/edi-x12"); err == nil {
		t.Error("PutNew overwrote an existing key")
	}
	if got := read(t, s, "claims/2026-11-24T13/a.x12"); got != "ISA*claims/2026-11-24T13/a.x12~" {
		t.Errorf("after the refused PutNew the key holds %q", got)
	}
	if err := s.Delete(ctx, "claims/2026-11-24T13/a.x12"); err != nil {
		t.Fatal(err)
	}
	if ok, _ := s.Exists(ctx, "claims/2026-11-24T13/a.x12"); ok {
		t.Error("deleted content still exists")
	}
	// A key under a file cannot be made: an error, and no directory made.
	if err := blob.PutNew(ctx, s, "claims/2026-11-24T13/b.json/d.x12", []byte("x"), "application/edi-x12"); err == nil {
		t.Error("PutNew under a file succeeded")
	}
}

// TestSweepTemporary: a write a crash cut short (its ".tmp-*" file never
// renamed) is removed at the next start once old enough; committed blobs
// and a write in progress stay.
func TestSweepTemporary(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := blob.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Put(ctx, "claims/2026/a.x12", strings.NewReader("ISA"), "application/edi-x12"); err != nil {
		t.Fatal(err)
	}
	leftover := filepath.Join(dir, blob.DefaultDir, "claims", "2026", ".tmp-123456")
	if err := os.WriteFile(leftover, []byte("half a file"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(leftover, old, old)
	inProgress := filepath.Join(dir, blob.DefaultDir, "claims", "2026", ".tmp-789")
	os.WriteFile(inProgress, []byte("being written"), 0o600)
	n, err := blob.SweepTemporary(s, time.Hour)
	if err != nil || n != 1 {
		t.Fatalf("swept %d, %v; want 1", n, err)
	}
	if _, err := os.Stat(leftover); !os.IsNotExist(err) {
		t.Errorf("the crash's leftover is still there: %v", err)
	}
	if _, err := os.Stat(inProgress); err != nil {
		t.Errorf("a write in progress was removed: %v", err)
	}
	if rc, err := s.Get(ctx, "claims/2026/a.x12"); err != nil {
		t.Errorf("a committed blob is gone: %v", err)
	} else {
		rc.Close()
	}
}
