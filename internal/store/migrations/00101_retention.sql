-- Retention: how long each account keeps eligibility checks, files (with
-- their transactions, documents and claims) and events; 0 keeps them
-- forever (the default, also for an account without a row). The access
-- audit is not purged. retention_runs records what each purge removed.
-- +goose Up
CREATE TABLE retention_policies (
    account_id       TEXT PRIMARY KEY REFERENCES accounts (id),
    eligibility_days BIGINT NOT NULL DEFAULT 0,
    file_days        BIGINT NOT NULL DEFAULT 0,
    event_days       BIGINT NOT NULL DEFAULT 0,
    updated_at       BIGINT NOT NULL
);

CREATE TABLE retention_runs (
    id           TEXT PRIMARY KEY,
    account_id   TEXT NOT NULL,
    ran_at       BIGINT NOT NULL,
    checks       BIGINT NOT NULL,
    files        BIGINT NOT NULL,
    transactions BIGINT NOT NULL,
    claims       BIGINT NOT NULL,
    events       BIGINT NOT NULL,
    blobs        BIGINT NOT NULL
);
CREATE INDEX retention_runs_account ON retention_runs (account_id, ran_at);

-- +goose Down
DROP TABLE retention_runs;
DROP TABLE retention_policies;
