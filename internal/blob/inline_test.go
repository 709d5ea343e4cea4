package blob_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/blob"
)

// rows is an InlineSource in memory.
type rows map[string][]byte

func (r rows) GetInlineBlob(_ context.Context, key string) ([]byte, bool, error) {
	b, ok := r[key]
	return b, ok, nil
}

func (r rows) DeleteInlineBlob(_ context.Context, key string) error {
	delete(r, key)
	return nil
}

// TestWithInline: keys under blob.InlinePrefix are read from the database's
// rows and never written as files; other keys reach the directory as before
// (PutNew keeps its direct path through the wrapper).
func TestWithInline(t *testing.T) {
	ctx := context.Background()
	files, err := blob.Open(ctx, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	src := rows{"db/claims/a.x12": []byte("ISA*~")}
	s := blob.WithInline(files, src)
	if !blob.ReadsInline(s) || blob.ReadsInline(files) {
		t.Fatal("ReadsInline: only the wrapper reads inline keys")
	}
	read := func(key string) (string, error) {
		rc, err := s.Get(ctx, key)
		if err != nil {
			return "", err
		}
		defer rc.Close()
		b, err := io.ReadAll(rc)
		return string(b), err
	}
	if got, err := read("db/claims/a.x12"); err != nil || got != "ISA*~" {
		t.Fatalf("inline Get = %q, %v", got, err)
	}
	if _, err := read("db/claims/none.x12"); !errors.Is(err, blob.ErrNotFound) {
		t.Fatalf("missing inline key: %v; want ErrNotFound", err)
	}
	if ok, err := s.Exists(ctx, "db/claims/a.x12"); !ok || err != nil {
		t.Fatalf("Exists = %v, %v", ok, err)
	}
	if _, err := s.SignedURL(ctx, "db/claims/a.x12", 0); !errors.Is(err, blob.ErrNoSignedURLs) {
		t.Fatalf("SignedURL of a row: %v; want ErrNoSignedURLs", err)
	}
	if err := s.Put(ctx, "db/claims/b.x12", strings.NewReader("x"), ""); err == nil {
		t.Fatal("Put of an inline key succeeded; inline documents are written with their records")
	}
	if err := s.Delete(ctx, "db/claims/a.x12"); err != nil || len(src) != 0 {
		t.Fatalf("Delete: %v, rows left %v", err, src)
	}
	if err := blob.PutNew(ctx, s, "claims/h/c.x12", []byte("GS*~"), ""); err != nil {
		t.Fatal(err)
	}
	if got, err := read("claims/h/c.x12"); err != nil || got != "GS*~" {
		t.Fatalf("file Get through the wrapper = %q, %v", got, err)
	}
	if blob.WithInline(s, src) != s {
		t.Fatal("wrapping twice should return the same store")
	}
}
