-- eligibility_checks_account_created (account_id, created_at, id) repeats
-- eligibility_checks_account_mode_created (account_id, mode, created_at,
-- id): every list is a tenant's, so it names the mode, and retention's purge
-- runs once per mode. Each check wrote the same key into both indexes: one
-- B-tree page (a 4 KiB WAL frame) and an insert per check for nothing.

-- +goose Up
DROP INDEX eligibility_checks_account_created;

-- +goose Down
CREATE INDEX eligibility_checks_account_created ON eligibility_checks (account_id, created_at, id);
