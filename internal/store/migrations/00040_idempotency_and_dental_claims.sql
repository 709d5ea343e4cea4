-- Idempotency keys of the claim endpoints (api-contract.md §0.1): one row
-- per account and key for 24 hours. A request holds its key "in_flight"
-- under a lease (another request with the key gets 409 until the lease
-- passes); the response is stored in the same transaction as the claim it
-- reports, so a retry answers what was committed, from any replica.
--
-- Dental claims: one row per accepted submission, pointing at the outbound
-- execution and transaction of its 837D.

-- +goose Up
CREATE TABLE idempotency_keys (
    account_id      TEXT NOT NULL REFERENCES accounts (id),
    idem_key        TEXT NOT NULL,
    request_hash    TEXT NOT NULL,
    state           TEXT NOT NULL CHECK (state IN ('in_flight', 'completed')),
    owner           TEXT NOT NULL,
    lease_until     BIGINT NOT NULL,
    response_status INTEGER NOT NULL DEFAULT 0,
    response_body   TEXT NOT NULL DEFAULT '',
    created_at      BIGINT NOT NULL,
    expires_at      BIGINT NOT NULL,
    PRIMARY KEY (account_id, idem_key)
);
CREATE INDEX idempotency_keys_expires ON idempotency_keys (expires_at);

CREATE TABLE dental_claims (
    id                     TEXT PRIMARY KEY,
    account_id             TEXT NOT NULL REFERENCES accounts (id),
    mode                   TEXT NOT NULL CHECK (mode IN ('test', 'production')),
    patient_control_number TEXT NOT NULL,
    payer_id               TEXT NOT NULL,
    charge_cents           BIGINT NOT NULL,
    control_number         TEXT NOT NULL,
    execution_id           TEXT NOT NULL DEFAULT '',
    transaction_id         TEXT NOT NULL DEFAULT '',
    response               TEXT NOT NULL,
    created_at             BIGINT NOT NULL
);
CREATE INDEX dental_claims_account_mode_created ON dental_claims (account_id, mode, created_at, id);
CREATE INDEX dental_claims_account_pcn ON dental_claims (account_id, patient_control_number);

-- +goose Down
DROP TABLE dental_claims;
DROP TABLE idempotency_keys;
