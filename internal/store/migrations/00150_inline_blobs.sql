-- Small documents kept in the database instead of the blob store: a
-- claim's 837 and its Guide JSON (a few KB each) are written in the same
-- transaction as the claim, so the claim is durable with one shared commit
-- instead of two file fsyncs and a directory fsync each. The key is the one
-- the records name (it starts "db/"; package blob reads it from here).
-- Retention deletes these rows with the records that name them.
-- +goose Up
CREATE TABLE inline_blobs (
    key        TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    mode       TEXT NOT NULL,
    content    TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- +goose Down
DROP TABLE inline_blobs;
