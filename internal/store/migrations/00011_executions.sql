-- File executions (one file in or out), their transactions (one ST..SE
-- each), the fragments of a transaction's Guide JSON and the business
-- identifiers found in it. Contents live in the blob store under the *_key
-- columns; the rows say what exists and where.

-- +goose Up
CREATE TABLE executions (
    id                TEXT PRIMARY KEY,
    account_id        TEXT NOT NULL REFERENCES accounts (id),
    mode              TEXT NOT NULL CHECK (mode IN ('test', 'production')),
    direction         TEXT NOT NULL CHECK (direction IN ('INBOUND', 'OUTBOUND')),
    status            TEXT NOT NULL,
    file_type         TEXT NOT NULL DEFAULT '',
    source_dirname    TEXT NOT NULL DEFAULT '',
    source_name       TEXT NOT NULL DEFAULT '',
    connection_id     TEXT NOT NULL DEFAULT '',
    partnership_id    TEXT NOT NULL DEFAULT '',
    input_key         TEXT NOT NULL DEFAULT '',
    input_type        TEXT NOT NULL DEFAULT '',
    input_size        BIGINT NOT NULL DEFAULT 0,
    output_key        TEXT NOT NULL DEFAULT '',
    output_size       BIGINT NOT NULL DEFAULT 0,
    metadata_key      TEXT NOT NULL DEFAULT '',
    metadata_size     BIGINT NOT NULL DEFAULT 0,
    transaction_count BIGINT NOT NULL DEFAULT 0,
    fault_code        TEXT NOT NULL DEFAULT '',
    fault_message     TEXT NOT NULL DEFAULT '',
    detail            TEXT NOT NULL DEFAULT '',
    created_at        BIGINT NOT NULL,
    updated_at        BIGINT NOT NULL,
    processed_at      BIGINT
);
CREATE INDEX executions_account_mode_created ON executions (account_id, mode, created_at, id);

CREATE TABLE transactions (
    id                     TEXT PRIMARY KEY,
    account_id             TEXT NOT NULL REFERENCES accounts (id),
    mode                   TEXT NOT NULL CHECK (mode IN ('test', 'production')),
    execution_id           TEXT NOT NULL REFERENCES executions (id),
    set_index              BIGINT NOT NULL,
    direction              TEXT NOT NULL CHECK (direction IN ('INBOUND', 'OUTBOUND')),
    status                 TEXT NOT NULL,
    transaction_set_id     TEXT NOT NULL DEFAULT '',
    control_number         TEXT NOT NULL DEFAULT '',
    guide_id               TEXT NOT NULL DEFAULT '',
    partnership_id         TEXT NOT NULL DEFAULT '',
    transaction_setting_id TEXT NOT NULL DEFAULT '',
    sender                 TEXT NOT NULL DEFAULT '',
    receiver               TEXT NOT NULL DEFAULT '',
    input_key              TEXT NOT NULL DEFAULT '',
    input_size             BIGINT NOT NULL DEFAULT 0,
    output_key             TEXT NOT NULL DEFAULT '',
    output_size            BIGINT NOT NULL DEFAULT 0,
    fragment_count         BIGINT NOT NULL DEFAULT 0,
    fragment_batch_size    BIGINT NOT NULL DEFAULT 0,
    fragment_key_name      TEXT NOT NULL DEFAULT '',
    detail                 TEXT NOT NULL DEFAULT '',
    processed_at           BIGINT NOT NULL,
    created_at             BIGINT NOT NULL,
    UNIQUE (execution_id, set_index)
);
CREATE INDEX transactions_account_mode_processed ON transactions (account_id, mode, processed_at, id);
CREATE INDEX transactions_execution ON transactions (execution_id, set_index);

CREATE TABLE transaction_fragments (
    transaction_id TEXT NOT NULL REFERENCES transactions (id),
    fragment_index BIGINT NOT NULL,
    output_key     TEXT NOT NULL,
    output_size    BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (transaction_id, fragment_index)
);

CREATE TABLE business_identifiers (
    transaction_id TEXT NOT NULL REFERENCES transactions (id),
    account_id     TEXT NOT NULL,
    position       BIGINT NOT NULL,
    element        TEXT NOT NULL,
    element_id     TEXT NOT NULL DEFAULT '',
    name           TEXT NOT NULL DEFAULT '',
    value          TEXT NOT NULL,
    PRIMARY KEY (transaction_id, position)
);
CREATE INDEX business_identifiers_value ON business_identifiers (account_id, value);

-- +goose Down
DROP TABLE business_identifiers;
DROP TABLE transaction_fragments;
DROP TABLE transactions;
DROP TABLE executions;
