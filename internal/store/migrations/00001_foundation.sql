-- Foundation schema: accounts, API keys, durable jobs, eligibility checks,
-- usage. Portable SQL for SQLite and PostgreSQL. Every *_at column is unix
-- microseconds (UTC); JSON and X12 are TEXT.

-- +goose Up
CREATE TABLE accounts (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL
);

CREATE TABLE api_keys (
    id            TEXT PRIMARY KEY,
    account_id    TEXT NOT NULL REFERENCES accounts (id),
    mode          TEXT NOT NULL CHECK (mode IN ('test', 'production')),
    name          TEXT NOT NULL DEFAULT '',
    secret_sha256 TEXT NOT NULL,
    created_at    BIGINT NOT NULL,
    revoked_at    BIGINT
);
CREATE INDEX api_keys_account ON api_keys (account_id);

CREATE TABLE jobs (
    id           TEXT PRIMARY KEY,
    kind         TEXT NOT NULL,
    account_id   TEXT NOT NULL DEFAULT '',
    payload      TEXT NOT NULL DEFAULT '',
    state        TEXT NOT NULL CHECK (state IN ('available', 'running', 'succeeded', 'failed')),
    attempt      BIGINT NOT NULL DEFAULT 0,
    max_attempts BIGINT NOT NULL CHECK (max_attempts >= 1),
    run_at       BIGINT NOT NULL,
    locked_by    TEXT NOT NULL DEFAULT '',
    locked_until BIGINT,
    last_error   TEXT NOT NULL DEFAULT '',
    created_at   BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL,
    finished_at  BIGINT
);
CREATE INDEX jobs_runnable ON jobs (state, run_at);

CREATE TABLE job_attempts (
    job_id      TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    attempt     BIGINT NOT NULL,
    worker      TEXT NOT NULL,
    started_at  BIGINT NOT NULL,
    finished_at BIGINT,
    outcome     TEXT NOT NULL CHECK (outcome IN ('running', 'succeeded', 'failed', 'lease_expired')),
    error       TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (job_id, attempt)
);

CREATE TABLE eligibility_checks (
    id                         TEXT PRIMARY KEY,
    account_id                 TEXT NOT NULL REFERENCES accounts (id),
    key_id                     TEXT NOT NULL,
    mode                       TEXT NOT NULL CHECK (mode IN ('test', 'production')),
    trading_partner_service_id TEXT NOT NULL DEFAULT '',
    payer_name                 TEXT NOT NULL DEFAULT '',
    control_number             TEXT NOT NULL DEFAULT '',
    status                     TEXT NOT NULL DEFAULT '',
    request_json               TEXT NOT NULL DEFAULT '',
    x12_request                TEXT NOT NULL DEFAULT '',
    x12_response               TEXT NOT NULL DEFAULT '',
    response_json              TEXT NOT NULL DEFAULT '',
    http_status                BIGINT NOT NULL DEFAULT 0,
    created_at                 BIGINT NOT NULL,
    duration_us                BIGINT NOT NULL DEFAULT 0,
    cost_micros                BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX eligibility_checks_account_created ON eligibility_checks (account_id, created_at, id);

CREATE TABLE usage (
    id          TEXT PRIMARY KEY,
    account_id  TEXT NOT NULL REFERENCES accounts (id),
    key_id      TEXT NOT NULL,
    mode        TEXT NOT NULL CHECK (mode IN ('test', 'production')),
    kind        TEXT NOT NULL,
    ref_id      TEXT NOT NULL DEFAULT '',
    cost_micros BIGINT NOT NULL DEFAULT 0 CHECK (mode = 'production' OR cost_micros = 0),
    created_at  BIGINT NOT NULL
);
CREATE INDEX usage_account_created ON usage (account_id, created_at);

-- +goose Down
DROP TABLE usage;
DROP TABLE eligibility_checks;
DROP TABLE job_attempts;
DROP TABLE jobs;
DROP TABLE api_keys;
DROP TABLE accounts;
