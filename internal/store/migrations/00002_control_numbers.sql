-- Interchange control numbers (ISA13, GS06) that stay unique across
-- restarts and replicas: each process reserves a block of numbers at a time
-- (store.ControlNumberBlocks). The history list filters by the key's mode,
-- so its index leads with account and mode.

-- +goose Up
CREATE TABLE control_numbers (
    name          TEXT PRIMARY KEY,
    last_reserved BIGINT NOT NULL CHECK (last_reserved BETWEEN 1 AND 999999999)
);

CREATE INDEX eligibility_checks_account_mode_created ON eligibility_checks (account_id, mode, created_at, id);

-- +goose Down
DROP INDEX eligibility_checks_account_mode_created;
DROP TABLE control_numbers;
