-- Trading partners as data: X12 profiles, partnerships between a local and
-- a partner profile, the transaction settings of each partnership, and the
-- connections files move over. Every row belongs to one account and one
-- mode; ids are unique within (account, mode), so test and production can
-- use the same names without seeing each other. Connection secrets are
-- sealed (package secrets) before they reach this table. ISA ids are kept
-- trimmed of their padding.

-- +goose Up
CREATE TABLE x12_profiles (
    account_id       TEXT NOT NULL REFERENCES accounts (id),
    mode             TEXT NOT NULL CHECK (mode IN ('test', 'production')),
    id               TEXT NOT NULL,
    profile_type     TEXT NOT NULL CHECK (profile_type IN ('local', 'partner')),
    isa_qualifier    TEXT NOT NULL,
    isa_id           TEXT NOT NULL,
    application_code TEXT NOT NULL DEFAULT '',
    created_at       BIGINT NOT NULL,
    updated_at       BIGINT NOT NULL,
    PRIMARY KEY (account_id, mode, id)
);
-- One profile per ISA identity, so an interchange names one partnership.
CREATE UNIQUE INDEX x12_profiles_isa ON x12_profiles (account_id, mode, isa_qualifier, isa_id);

CREATE TABLE x12_connections (
    account_id      TEXT NOT NULL REFERENCES accounts (id),
    mode            TEXT NOT NULL CHECK (mode IN ('test', 'production')),
    id              TEXT NOT NULL,
    connection_type TEXT NOT NULL,
    name            TEXT NOT NULL DEFAULT '',
    settings        TEXT NOT NULL DEFAULT '{}',
    sealed_secrets  TEXT NOT NULL DEFAULT '',
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL,
    PRIMARY KEY (account_id, mode, id)
);

CREATE TABLE x12_partnerships (
    account_id         TEXT NOT NULL,
    mode               TEXT NOT NULL CHECK (mode IN ('test', 'production')),
    id                 TEXT NOT NULL,
    partnership_type   TEXT NOT NULL DEFAULT 'x12' CHECK (partnership_type = 'x12'),
    local_profile_id   TEXT NOT NULL,
    partner_profile_id TEXT NOT NULL,
    connection_id      TEXT,
    created_at         BIGINT NOT NULL,
    updated_at         BIGINT NOT NULL,
    PRIMARY KEY (account_id, mode, id),
    FOREIGN KEY (account_id, mode, local_profile_id) REFERENCES x12_profiles (account_id, mode, id),
    FOREIGN KEY (account_id, mode, partner_profile_id) REFERENCES x12_profiles (account_id, mode, id),
    FOREIGN KEY (account_id, mode, connection_id) REFERENCES x12_connections (account_id, mode, id)
);
CREATE UNIQUE INDEX x12_partnerships_profiles ON x12_partnerships (account_id, mode, partner_profile_id, local_profile_id);

CREATE TABLE x12_transaction_settings (
    account_id                 TEXT NOT NULL,
    mode                       TEXT NOT NULL CHECK (mode IN ('test', 'production')),
    id                         TEXT NOT NULL,
    partnership_id             TEXT NOT NULL,
    direction                  TEXT NOT NULL CHECK (direction IN ('INBOUND', 'OUTBOUND')),
    transaction_set_identifier TEXT NOT NULL,
    guide_id                   TEXT NOT NULL DEFAULT '',
    fragments_enabled          BIGINT NOT NULL DEFAULT 0,
    fragments_batch_size       BIGINT NOT NULL DEFAULT 800 CHECK (fragments_batch_size >= 1),
    fragments_key_name         TEXT NOT NULL DEFAULT '',
    ack_999                    BIGINT NOT NULL DEFAULT 0,
    ack_ta1                    BIGINT NOT NULL DEFAULT 0,
    connection_id              TEXT,
    created_at                 BIGINT NOT NULL,
    updated_at                 BIGINT NOT NULL,
    PRIMARY KEY (account_id, mode, id),
    FOREIGN KEY (account_id, mode, partnership_id) REFERENCES x12_partnerships (account_id, mode, id),
    FOREIGN KEY (account_id, mode, connection_id) REFERENCES x12_connections (account_id, mode, id)
);
CREATE UNIQUE INDEX x12_transaction_settings_lookup
    ON x12_transaction_settings (account_id, mode, partnership_id, direction, transaction_set_identifier, guide_id);

-- +goose Down
DROP TABLE x12_transaction_settings;
DROP TABLE x12_partnerships;
DROP TABLE x12_connections;
DROP TABLE x12_profiles;
