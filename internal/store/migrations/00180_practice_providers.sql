-- A practice's saved providers (issue 28): the billing providers and the
-- rendering (treating) providers an account keeps per mode, so a claim or
-- an eligibility check picks them instead of typing them again. The body
-- is the provider as the API shows it (JSON, package practice); at most
-- one provider per account, mode and role is the default.
-- +goose Up
CREATE TABLE practice_providers (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    mode TEXT NOT NULL CHECK (mode IN ('test', 'production')),
    role TEXT NOT NULL CHECK (role IN ('billing', 'rendering')),
    is_default INTEGER NOT NULL DEFAULT 0,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX practice_providers_scope ON practice_providers (account_id, mode, role, created_at);

-- +goose Down
DROP TABLE practice_providers;
