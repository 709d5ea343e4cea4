-- The access audit (45 CFR 164.312(b)): who did what to which PHI-bearing
-- resource and when, one chain of events per account. Each event's hash is
-- sha256(previous hash || the event's canonical form) (package audit), so
-- an edited, removed or reordered event breaks the chain from there on;
-- audit_heads holds each chain's last sequence number and hash, and its
-- row lock orders concurrent appends. No PHI values: ids, names of
-- actions and routes, the caller's key and address.
-- +goose Up
CREATE TABLE audit_events (
    id            TEXT PRIMARY KEY,
    account_id    TEXT NOT NULL,
    seq           BIGINT NOT NULL,
    mode          TEXT NOT NULL,
    actor_type    TEXT NOT NULL,
    actor_id      TEXT NOT NULL,
    remote_addr   TEXT NOT NULL DEFAULT '',
    action        TEXT NOT NULL,
    resource_type TEXT NOT NULL,
    resource_id   TEXT NOT NULL DEFAULT '',
    route         TEXT NOT NULL DEFAULT '',
    status        BIGINT NOT NULL DEFAULT 0,
    occurred_at   BIGINT NOT NULL,
    prev_hash     TEXT NOT NULL,
    hash          TEXT NOT NULL,
    UNIQUE (account_id, seq)
);
CREATE INDEX audit_events_account_time ON audit_events (account_id, occurred_at, id);

CREATE TABLE audit_heads (
    account_id TEXT PRIMARY KEY,
    seq        BIGINT NOT NULL,
    hash       TEXT NOT NULL
);

-- +goose Down
DROP TABLE audit_heads;
DROP TABLE audit_events;
