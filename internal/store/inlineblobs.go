package store

import (
	"context"
	"errors"
	"time"
)

// InlineBlobs are small documents stored in a row (inline_blobs) instead of
// the blob store, so they commit with the records that name them: no file,
// no fsync of its own. Package blob reads them by key (blob.WithInline).
type InlineBlobs interface {
	// PutInlineBlob stores content under key (a fresh key starting
	// "db/"); it fails if the key exists.
	PutInlineBlob(ctx context.Context, accountID, mode, key string, content []byte, now time.Time) error
	// GetInlineBlob returns the content under key; ok is false if there
	// is none. Keys come from records the caller has already read within
	// its tenant.
	GetInlineBlob(ctx context.Context, key string) (content []byte, ok bool, err error)
	// DeleteInlineBlob removes key; a missing key is not an error.
	DeleteInlineBlob(ctx context.Context, key string) error
}

const insertInlineBlobSQL = `INSERT INTO inline_blobs (key, account_id, mode, content, created_at) VALUES ($1, $2, $3, $4, $5)`

func (q *queries) PutInlineBlob(ctx context.Context, accountID, mode, key string, content []byte, now time.Time) error {
	_, err := q.w.exec(ctx, insertInlineBlobSQL, key, accountID, mode, string(content), toUS(now))
	return mapErr(err)
}

func (q *queries) GetInlineBlob(ctx context.Context, key string) ([]byte, bool, error) {
	var s string
	err := mapErr(q.r.queryRow(ctx, `SELECT content FROM inline_blobs WHERE key = $1`, key).Scan(&s))
	if errors.Is(err, ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return []byte(s), true, nil
}

func (q *queries) DeleteInlineBlob(ctx context.Context, key string) error {
	_, err := q.w.exec(ctx, `DELETE FROM inline_blobs WHERE key = $1`, key)
	return mapErr(err)
}

// InlineBlobPrefix starts every key of inline_blobs (blob.InlinePrefix).
const InlineBlobPrefix = "db/"
