-- Events as records (spec §2.5): each event is stored once, whole envelope
-- included, in the transaction of the change it reports. The columns beside
-- the envelope are what GET /2023-08-01/events filters on.

-- +goose Up
CREATE TABLE events (
    id             TEXT PRIMARY KEY,
    account_id     TEXT NOT NULL REFERENCES accounts (id),
    mode           TEXT NOT NULL CHECK (mode IN ('test', 'production')),
    detail_type    TEXT NOT NULL,
    execution_id   TEXT NOT NULL DEFAULT '',
    transaction_id TEXT NOT NULL DEFAULT '',
    time           BIGINT NOT NULL,
    envelope       TEXT NOT NULL
);
CREATE INDEX events_account_mode_time ON events (account_id, mode, time, id);
CREATE INDEX events_account_execution ON events (account_id, execution_id);
CREATE INDEX events_account_transaction ON events (account_id, transaction_id);

-- +goose Down
DROP TABLE events;
