package blob

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"time"
)

// InlinePrefix starts the keys of documents kept in the database rather
// than in the blob store (store.InlineBlobPrefix): small ones written in
// the same transaction as the records that name them, so they are durable
// with that commit instead of costing file and directory fsyncs of their
// own. A Store made by WithInline reads them; other keys go to the blob
// store as before.
const InlinePrefix = "db/"

// InlineSource reads and removes the database's inline documents
// (store.Store is one).
type InlineSource interface {
	GetInlineBlob(ctx context.Context, key string) (content []byte, ok bool, err error)
	DeleteInlineBlob(ctx context.Context, key string) error
}

// WithInline is s that also serves the keys under InlinePrefix from src.
func WithInline(s Store, src InlineSource) Store {
	if _, ok := s.(*inline); ok {
		return s
	}
	return &inline{Store: s, src: src}
}

// ReadsInline reports whether s serves keys under InlinePrefix, so a writer
// may record such a key instead of writing a blob.
func ReadsInline(s Store) bool {
	_, ok := s.(*inline)
	return ok
}

type inline struct {
	Store
	src InlineSource
}

func isInline(key string) bool { return strings.HasPrefix(key, InlinePrefix) }

func (s *inline) Put(ctx context.Context, key string, r io.Reader, contentType string) error {
	if isInline(key) {
		return fmt.Errorf("blob: put %s: inline documents are written with their records", key)
	}
	return s.Store.Put(ctx, key, r, contentType)
}

func (s *inline) Create(ctx context.Context, key, contentType string) (Writer, error) {
	if isInline(key) {
		return nil, fmt.Errorf("blob: put %s: inline documents are written with their records", key)
	}
	return s.Store.Create(ctx, key, contentType)
}

// SignedURL: a bucket cannot sign a URL for a row; the server signs its own
// link, as for a directory.
func (s *inline) SignedURL(ctx context.Context, key string, ttl time.Duration) (string, error) {
	if isInline(key) {
		return "", ErrNoSignedURLs
	}
	return s.Store.SignedURL(ctx, key, ttl)
}

func (s *inline) Get(ctx context.Context, key string) (io.ReadCloser, error) {
	if !isInline(key) {
		return s.Store.Get(ctx, key)
	}
	b, ok, err := s.src.GetInlineBlob(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("blob: get %s: %w", key, err)
	}
	if !ok {
		return nil, ErrNotFound
	}
	return io.NopCloser(bytes.NewReader(b)), nil
}

func (s *inline) Exists(ctx context.Context, key string) (bool, error) {
	if !isInline(key) {
		return s.Store.Exists(ctx, key)
	}
	_, ok, err := s.src.GetInlineBlob(ctx, key)
	return ok, err
}

func (s *inline) Delete(ctx context.Context, key string) error {
	if !isInline(key) {
		return s.Store.Delete(ctx, key)
	}
	if err := s.src.DeleteInlineBlob(ctx, key); err != nil {
		return fmt.Errorf("blob: delete %s: %w", key, err)
	}
	return nil
}

// unwrap is the blob store under s.
func unwrap(s Store) Store {
	if i, ok := s.(*inline); ok {
		return i.Store
	}
	return s
}
