-- Webhooks (where an account's events go), one delivery per event and
-- webhook, and every attempt of each delivery. Secrets and outbound
-- credentials are sealed (package secrets) before they reach these rows.
-- Deliveries name their event by id only: events are stored once, by the
-- events package, and never change.

-- +goose Up
CREATE TABLE webhooks (
    id                    TEXT PRIMARY KEY,
    account_id            TEXT NOT NULL REFERENCES accounts (id),
    mode                  TEXT NOT NULL CHECK (mode IN ('test', 'production')),
    url                   TEXT NOT NULL,
    description           TEXT NOT NULL DEFAULT '',
    event_types           TEXT NOT NULL DEFAULT '[]',
    filters               TEXT NOT NULL DEFAULT '{}',
    status                TEXT NOT NULL CHECK (status IN ('ENABLED', 'DISABLED')),
    disabled_reason       TEXT NOT NULL DEFAULT '',
    concurrency           BIGINT NOT NULL CHECK (concurrency >= 1),
    secret                TEXT NOT NULL,
    previous_secret       TEXT NOT NULL DEFAULT '',
    previous_secret_until BIGINT,
    auth_type             TEXT NOT NULL DEFAULT 'NONE',
    auth                  TEXT NOT NULL DEFAULT '',
    failing_since         BIGINT,
    created_at            BIGINT NOT NULL,
    updated_at            BIGINT NOT NULL
);
CREATE INDEX webhooks_account_mode ON webhooks (account_id, mode, created_at, id);

CREATE TABLE webhook_deliveries (
    id                TEXT PRIMARY KEY,
    account_id        TEXT NOT NULL REFERENCES accounts (id),
    webhook_id        TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event_id          TEXT NOT NULL,
    detail_type       TEXT NOT NULL DEFAULT '',
    status            TEXT NOT NULL CHECK (status IN ('PENDING', 'DELIVERED', 'FAILED')),
    attempts          BIGINT NOT NULL DEFAULT 0,
    round_attempts    BIGINT NOT NULL DEFAULT 0,
    next_attempt_type TEXT NOT NULL DEFAULT 'AUTOMATIC',
    next_attempt_at   BIGINT,
    job_id            TEXT NOT NULL DEFAULT '',
    inflight_until    BIGINT,
    waiting_since     BIGINT,
    last_status_code  BIGINT NOT NULL DEFAULT 0,
    last_error        TEXT NOT NULL DEFAULT '',
    created_at        BIGINT NOT NULL,
    updated_at        BIGINT NOT NULL,
    delivered_at      BIGINT,
    UNIQUE (event_id, webhook_id)
);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, created_at, id);
CREATE INDEX webhook_deliveries_inflight ON webhook_deliveries (webhook_id, inflight_until);
CREATE INDEX webhook_deliveries_account_event ON webhook_deliveries (account_id, event_id);

CREATE TABLE webhook_attempts (
    delivery_id      TEXT NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    attempt          BIGINT NOT NULL,
    attempt_type     TEXT NOT NULL CHECK (attempt_type IN ('AUTOMATIC', 'MANUAL')),
    started_at       BIGINT NOT NULL,
    latency_us       BIGINT NOT NULL DEFAULT 0,
    status_code      BIGINT NOT NULL DEFAULT 0,
    response_excerpt TEXT NOT NULL DEFAULT '',
    error            TEXT NOT NULL DEFAULT '',
    succeeded        BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (delivery_id, attempt)
);

-- +goose Down
DROP TABLE webhook_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE webhooks;
